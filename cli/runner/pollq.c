/* The poll queues of each target: its hardware queues without a vector
 * and the CPUs each serves (mq/N/cpu_list), read once per placement. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/runner/pollq.h"
#include "cli/opts/roots.h"
#include "model/pollq.h"
#include "setup/setup.h"

/* d's poll queues' CPU sets appended to p->sets (room made by the
 * caller). A multipath head's IO takes a path chosen per IO, so it has
 * none here. Returns how many. */
static unsigned take(struct cli_pollq *p, const struct setup_dev *d)
{
	unsigned k, n = pollq_count(d), from = p->nsets;

	if (n < 2 || d->npaths)
		return 0;
	for (k = 0; k < d->nhwq && p->nsets - from < n; k++)
		if (d->hwq[k].irq < 0 && d->hwq[k].cpus[0])
			p->sets[p->nsets++] = d->hwq[k].cpuset;
	return p->nsets - from;
}

int cli_pollq_read(const struct eng_target *const *targets, unsigned ndev,
		   struct cli_pollq *out)
{
	struct setup_dev d;
	unsigned i, cap = 0, *from, *n;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->q = calloc(ndev ? ndev : 1, sizeof(*out->q));
	from = calloc(ndev ? ndev : 1, 2 * sizeof(*from));
	if (!out->q || !from) {
		free(from);
		free(out->q);
		out->q = NULL;
		return -ENOMEM;
	}
	n = from + (ndev ? ndev : 1);
	out->ndev = ndev;
	for (i = 0; i < ndev && !ret; i++) {
		if ((!targets[i]->is_blk && !targets[i]->passthru) ||
		    setup_dev_read(cli_roots(), targets[i]->path, &d))
			continue;	/* unknown: placed as without poll queues */
		if (out->nsets + d.nhwq > cap) {
			struct topo_cpuset *s = realloc(out->sets,
							(out->nsets + d.nhwq) * sizeof(*s));

			if (!s)
				ret = -ENOMEM;
			else
				out->sets = s;
			cap = out->nsets + d.nhwq;
		}
		if (!ret) {
			from[i] = out->nsets;
			n[i] = take(out, &d);
		}
		setup_dev_free(&d);
	}
	/* pointed at once the array has stopped moving */
	for (i = 0; i < ndev && !ret; i++)
		if (n[i])
			out->q[i] = (struct topo_pollq){ out->sets + from[i], n[i] };
	free(from);
	if (ret)
		cli_pollq_free(out);
	return ret;
}

void cli_pollq_free(struct cli_pollq *p)
{
	free(p->sets);
	free(p->q);
	memset(p, 0, sizeof(*p));
}
