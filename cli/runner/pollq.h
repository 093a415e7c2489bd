/* The poll queues of a polled run's targets, for placement: the CPUs each
 * poll queue serves, as the kernel mapped them (setup/, model/pollq.h). */
#ifndef CLI_RUNNER_POLLQ_H
#define CLI_RUNNER_POLLQ_H

#include "engine/target.h"
#include "topo/topo.h"

struct cli_pollq {
	struct topo_pollq *q;	/* ndev entries; n 0 where not known */
	unsigned ndev;
	struct topo_cpuset *sets;	/* every poll queue's CPUs, q[i].cpus
					 * pointing into it; freed with it */
	unsigned nsets;
};

/* Reads them for ndev targets. A target whose queues cannot be read (not
 * NVMe, a multipath head, fewer than 2 poll queues) gets none: placement
 * is then topo_place's. 0 or -ENOMEM. */
int cli_pollq_read(const struct eng_target *const *targets, unsigned ndev,
		   struct cli_pollq *out);
void cli_pollq_free(struct cli_pollq *p);

#endif
