/* Poll queues against polling workers: which queue serves a CPU, which
 * workers share one, and the CPUs that would give each its own. */
#include "model/pollq.h"

#include <errno.h>
#include <stdlib.h>

unsigned pollq_count(const struct setup_dev *d)
{
	unsigned q, n = 0;

	/* no vector read at all: /proc/interrupts was not, or not NVMe */
	if (!d || !d->nirq_queues)
		return 0;
	for (q = 0; q < d->nhwq; q++)
		n += d->hwq[q].irq < 0 && d->hwq[q].cpus[0];
	return n;
}

int pollq_of(const struct setup_dev *d, int cpu)
{
	unsigned q;

	if (!pollq_count(d) || cpu < 0)
		return -1;
	for (q = 0; q < d->nhwq; q++)
		if (d->hwq[q].irq < 0 && topo_cpuset_has(&d->hwq[q].cpuset, cpu))
			return (int)q;
	return -1;
}

unsigned pollq_shared(const struct setup_dev *d, const int *cpus, unsigned n)
{
	unsigned w, v, shared = 0;
	int q;

	for (w = 0; w < n; w++) {
		q = pollq_of(d, cpus[w]);
		for (v = 0; q >= 0 && v < w; v++)
			if (pollq_of(d, cpus[v]) == q) {
				shared++;
				break;
			}
	}
	return shared;
}

static int node_of(const struct pollq_where *w, int cpu)
{
	if (!w->cpu_node || cpu < 0 || cpu >= w->ncpus)
		return -1;
	return w->cpu_node[cpu];
}

static bool held(const int *cpus, unsigned n, int cpu)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return true;
	return false;
}

/* A free CPU of an unused poll queue for a worker now on cpu: on its node
 * when node >= 0 (any node when -1); its queue marked used. -1: none. */
static int free_cpu(const struct setup_dev *d, const struct pollq_where *w, bool *used,
		    const int *out, unsigned n, int node)
{
	unsigned q;
	int c, limit = w->ncpus > 0 ? w->ncpus : SETUP_MAX_CPUS;

	for (q = 0; q < d->nhwq; q++) {
		if (d->hwq[q].irq >= 0 || used[q] || !topo_cpuset_count(&d->hwq[q].cpuset))
			continue;
		for (c = 0; c < limit; c++) {
			if (!topo_cpuset_has(&d->hwq[q].cpuset, c) || held(out, n, c) ||
			    held(w->busy, w->nbusy, c) || (node >= 0 && node_of(w, c) != node))
				continue;
			used[q] = true;
			return c;
		}
	}
	return -1;
}

int pollq_spread(const struct setup_dev *d, const int *cpus, unsigned n,
		 const struct pollq_where *w, int *out)
{
	bool *used, *stays;
	unsigned i;
	int q, c, node, moved = 0;

	if (!d || !w || (n && (!cpus || !out)))
		return -EINVAL;
	for (i = 0; i < n; i++)
		out[i] = cpus[i];
	if (!pollq_count(d) || !n)
		return 0;
	used = calloc(d->nhwq, sizeof(*used));
	stays = calloc(n, sizeof(*stays));
	if (!used || !stays) {
		free(stays);
		free(used);
		return -ENOMEM;
	}
	/* the first worker on each queue keeps it */
	for (i = 0; i < n; i++) {
		q = pollq_of(d, cpus[i]);
		if (q < 0 || !used[q])
			stays[i] = true;
		if (q >= 0)
			used[q] = true;
	}
	for (i = 0; i < n; i++) {
		if (stays[i])
			continue;
		node = node_of(w, cpus[i]);
		c = free_cpu(d, w, used, out, n, node);
		if (c < 0 && (node < 0 || !w->same_node))
			c = free_cpu(d, w, used, out, n, -1);
		if (c < 0)
			continue;
		out[i] = c;
		moved++;
	}
	free(stays);
	free(used);
	return moved;
}
