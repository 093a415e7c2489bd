/* Poll queues and the CPUs they serve. The nvme driver gives a poll queue
 * no interrupt vector and maps the poll queues onto the CPUs with
 * blk_mq_map_queues, which since 6.3 groups the CPUs evenly into
 * contiguous runs (lib/group_cpus.c): 2 poll queues on 4 CPUs serve CPUs
 * 0-1 and 2-3. Polling workers on one group share its queue: its
 * submission lock, its doorbell and the completion queue they both poll.
 * setup/ reads the map the kernel made (mq/N/cpu_list) and a poll queue is
 * a hardware queue without a vector; docs/check.md says why. Pure: no IO. */
#ifndef MODEL_POLLQ_H
#define MODEL_POLLQ_H

#include <stdbool.h>

#include "setup/setup.h"

/* d's poll queues: the hardware queues without a vector, known only where
 * /proc/interrupts gave the others theirs. 0: none, or not known. */
unsigned pollq_count(const struct setup_dev *d);

/* The poll queue serving cpu (an index into d->hwq), or -1: none known. */
int pollq_of(const struct setup_dev *d, int cpu);

/* Of n polling workers on cpus[] in order, how many share a poll queue
 * with an earlier one (a worker on a CPU no poll queue serves counts not). */
unsigned pollq_shared(const struct setup_dev *d, const int *cpus, unsigned n);

/* Where pollq_spread may move a worker. */
struct pollq_where {
	const short *cpu_node;	/* each CPU's node, -1 unknown; NULL: none known */
	int ncpus;		/* entries in cpu_node; the CPUs looked at */
	bool same_node;		/* only to a CPU of the worker's own node */
	const int *busy;	/* CPUs that other workers hold */
	unsigned nbusy;
};

/* Each worker that shares a poll queue with an earlier one moved to a CPU
 * of a poll queue no worker uses: out[] gets the n CPUs (the same as cpus[]
 * for a worker that stays). A CPU on the worker's own node comes first;
 * with w->same_node, no other. Returns how many workers moved: 0 when none
 * shares or no free poll queue has a CPU to give; -EINVAL. */
int pollq_spread(const struct setup_dev *d, const int *cpus, unsigned n,
		 const struct pollq_where *w, int *out);

#endif
