/* The poll queues of each target: its hardware queues without a vector
 * and the CPUs each serves (mq/N/cpu_list), read once per placement. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/runner/pollq.h"
#include "cli/opts/roots.h"
#include "model/pollq.h"
#include "setup/setup.h"

/* d's poll queues' cpulists appended to p->lists, pointed at by q. A
 * multipath head's IO takes a path chosen per IO, so it has none here. */
static int take(struct cli_pollq *p, const struct setup_dev *d, struct topo_pollq *q)
{
	unsigned k, n = pollq_count(d), from = p->nlists;
	const char **ptrs;

	if (n < 2 || d->npaths)
		return 0;
	ptrs = calloc(n, sizeof(*ptrs));
	if (!ptrs)
		return -ENOMEM;
	for (k = 0; k < d->nhwq && p->nlists - from < n; k++) {
		if (d->hwq[k].irq >= 0 || !d->hwq[k].cpus[0])
			continue;
		p->lists[p->nlists] = strdup(d->hwq[k].cpus);
		if (!p->lists[p->nlists]) {
			free(ptrs);
			return -ENOMEM;
		}
		ptrs[p->nlists - from] = p->lists[p->nlists];
		p->nlists++;
	}
	q->cpus = ptrs;
	q->n = p->nlists - from;
	return 0;
}

int cli_pollq_read(const struct eng_target *const *targets, unsigned ndev,
		   struct cli_pollq *out)
{
	struct setup_dev d;
	unsigned i, cap = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->q = calloc(ndev ? ndev : 1, sizeof(*out->q));
	if (!out->q)
		return -ENOMEM;
	out->ndev = ndev;
	for (i = 0; i < ndev && !ret; i++) {
		if ((!targets[i]->is_blk && !targets[i]->passthru) ||
		    setup_dev_read(cli_roots(), targets[i]->path, &d))
			continue;	/* unknown: placed as without poll queues */
		if (out->nlists + d.nhwq > cap) {
			char **l = realloc(out->lists, (out->nlists + d.nhwq) * sizeof(*l));

			if (!l)
				ret = -ENOMEM;
			else
				out->lists = l;
			cap = out->nlists + d.nhwq;
		}
		if (!ret)
			ret = take(out, &d, &out->q[i]);
		setup_dev_free(&d);
	}
	if (ret)
		cli_pollq_free(out);
	return ret;
}

void cli_pollq_free(struct cli_pollq *p)
{
	unsigned i;

	for (i = 0; i < p->nlists; i++)
		free(p->lists[i]);
	for (i = 0; p->q && i < p->ndev; i++)
		free((void *)p->q[i].cpus);
	free(p->lists);
	free(p->q);
	memset(p, 0, sizeof(*p));
}
