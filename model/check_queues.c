/* Multipath paths and shared poll queues: the queue rules that look past
 * a device's own block queue (docs/check.md, "path_scheduler" on). */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/check_int.h"
#include "model/pollq.h"

/* A comma list of CPUs in the order given ("0,2"); false when it does
 * not fit, then buf says nothing. Not topo/cpu.h's formatter, on purpose:
 * these are --cpus values, whose order is how the runner pins workers
 * ("2,3,0,1" is not "0-3"), and a set has no order. */
static bool join(const int *cpus, unsigned n, char *buf, size_t len)
{
	size_t at = 0;
	unsigned i;
	int w;

	if (!len)
		return false;
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		w = snprintf(buf + at, len - at, "%s%d", i ? "," : "", cpus[i]);
		if (w < 0 || (size_t)w >= len - at) {
			buf[0] = '\0';
			return false;
		}
		at += (size_t)w;
	}
	return true;
}

/* iopolicy numa, the kernel's default: each CPU's IO takes its node's path */
static bool numa_policy(const struct setup_dev *head)
{
	return !head->iopolicy[0] || !strcmp(head->iopolicy, "numa");
}

static int node_of(const struct setup_machine *m, int cpu)
{
	if (!m || cpu < 0 || cpu >= m->ncpus || cpu >= SETUP_MAX_CPUS)
		return -1;
	return m->cpu_node[cpu];
}

int check_path_cpus(const struct setup_machine *m, const struct setup_dev *head, unsigned p,
		    const struct topo_cpuset *asked, struct topo_cpuset *out)
{
	const struct setup_dev *path = &head->paths[p];
	int cpu, n = 0;

	topo_cpuset_zero(out);
	if (!asked || topo_cpuset_next(asked, -1) < 0)
		return -EINVAL;
	for (cpu = topo_cpuset_next(asked, -1); cpu >= 0; cpu = topo_cpuset_next(asked, cpu)) {
		/* a CPU of unknown node, or a path of unknown node: it may */
		if (numa_policy(head) && path->numa_node >= 0 && node_of(m, cpu) >= 0 &&
		    node_of(m, cpu) != path->numa_node)
			continue;
		topo_cpuset_add(out, cpu);
		n++;
	}
	return n;
}

void check_path_name(struct check_finding *f, unsigned n, const struct setup_dev *head,
		     unsigned p)
{
	const struct setup_dev *path = &head->paths[p];
	unsigned i;

	for (i = 0; i < n; i++) {
		if (f[i].kind == CHECK_SCHEDULER)
			f[i].kind = CHECK_PATH_SCHEDULER;
		else if (f[i].kind == CHECK_NR_REQUESTS)
			f[i].kind = CHECK_PATH_NR_REQUESTS;
		snprintf(f[i].path, sizeof(f[i].path), "%s", path->disk);
		snprintf(f[i].iopolicy, sizeof(f[i].iopolicy), "%s", head->iopolicy);
	}
}

/* Poll queues the workers on cpus[] use, each counted once. */
static unsigned queues_used(const struct setup_dev *d, const int *cpus, unsigned n)
{
	unsigned w, v, k = 0;
	int q;

	for (w = 0; w < n; w++) {
		q = pollq_of(d, cpus[w]);
		for (v = 0; q >= 0 && v < w && pollq_of(d, cpus[v]) != q; v++)
			;
		k += q >= 0 && v == w;
	}
	return k;
}

/* The other devices' workers' CPUs: every --cpus entry outside d's slice. */
static unsigned others(const struct check_ask *ask, unsigned from, unsigned per, int *busy)
{
	unsigned j, n = 0;

	for (j = 0; j < ask->ncpus; j++)
		if (j < from || j >= from + per)
			busy[n++] = ask->cpus[j];
	return n;
}

static void shared_values(struct check_finding *f, const struct setup_dev *d,
		       const struct check_ask *ask, unsigned from, unsigned per,
		       const int *better, int moved)
{
	const int *cpus = ask->cpus + from;
	char to[CHECK_VALUE_MAX], fix[CHECK_VALUE_MAX];
	int *all;

	/* the workers' CPUs, "" when they take more than 95 characters */
	join(cpus, per, f->name[0], 96);
	f->num[0] = per;
	f->num[1] = queues_used(d, cpus, per);
	/* the CPUs that spare the sharing, "" when none or too long */
	if (moved <= 0 || !join(better, per, to, sizeof(to))) {
		/* no CPUs to name: cli/ says to pick one of each poll queue */
		f->fix.act = CHECK_ACT_NONE;
		snprintf(f->fix.key, sizeof(f->fix.key), "%s", d->disk);
		return;
	}
	check_name(f, 1, to);
	/* the whole --cpus, d's slice replaced: the runner pins in its order */
	all = malloc(ask->ncpus * sizeof(*all));
	if (all) {
		memcpy(all, ask->cpus, ask->ncpus * sizeof(*all));
		memcpy(all + from, better, per * sizeof(*all));
	}
	if (all && join(all, ask->ncpus, fix, sizeof(fix))) {
		check_option_fix(&f->fix, "--cpus", "%s", fix);
	} else {
		/* the whole list is too long for a value: this device's CPUs */
		f->fix.act = CHECK_ACT_NONE;
		snprintf(f->fix.key, sizeof(f->fix.key), "%s", d->disk);
		snprintf(f->fix.value, sizeof(f->fix.value), "%s", to);
	}
	free(all);
}

int check_shared_poll(const struct setup_machine *m, const struct setup_dev *d, unsigned i,
		      const struct check_ask *ask, struct check_finding *f)
{
	unsigned per = ask->workers_per_dev ? ask->workers_per_dev : 1;
	unsigned from = i * per, npoll = pollq_count(d), nbusy;
	struct pollq_where w = { 0 };
	int *better, *busy, moved;

	if (!ask->poll || !ask->cpus || ask->ncpus < from + per || per < 2 || npoll < 2)
		return 0;
	/* sharing that no free poll queue could spare is few_queues' */
	if (!pollq_shared(d, ask->cpus + from, per) ||
	    queues_used(d, ask->cpus + from, per) >= npoll)
		return 0;
	better = malloc(per * sizeof(*better));
	busy = malloc((ask->ncpus - per + 1) * sizeof(*busy));
	if (!better || !busy) {
		free(busy);
		free(better);
		return -ENOMEM;
	}
	nbusy = others(ask, from, per, busy);
	if (m) {
		w.cpu_node = m->cpu_node;
		w.ncpus = m->ncpus < SETUP_MAX_CPUS ? m->ncpus : SETUP_MAX_CPUS;
	}
	w.busy = busy;
	w.nbusy = nbusy;
	moved = pollq_spread(d, ask->cpus + from, per, &w, better);
	memset(f, 0, sizeof(*f));
	f->kind = CHECK_SHARED_POLL_QUEUE;
	f->dev = (int)i;
	shared_values(f, d, ask, from, per, better, moved);
	free(busy);
	free(better);
	return moved < 0 ? moved : 1;
}
