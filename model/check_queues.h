/* The rules that read a device's queues beyond its own block queue: a
 * native multipath head's paths, whose blk-mq queues and interrupts carry
 * the head's IO, and the poll queues a polled run's workers share.
 * model/check.c runs the device rules on each path and calls these;
 * docs/check.md explains them. Pure: no IO, no printing. */
#ifndef MODEL_CHECK_QUEUES_H
#define MODEL_CHECK_QUEUES_H

#include <stddef.h>

#include "model/check.h"
#include "topo/cpu.h"

/* The worker CPUs of a head's device that take its path p: of the asked
 * set (NULL or empty: not asked), under iopolicy numa (the kernel's
 * default) the CPUs on the path's node, under another policy all of them.
 * Their count, with the set in *out; 0 when no asked worker takes the
 * path; -EINVAL when none were asked (then the path's node's CPUs stand in
 * for them). */
int check_path_cpus(const struct setup_machine *m, const struct setup_dev *head, unsigned p,
		    const struct topo_cpuset *asked, struct topo_cpuset *out);

/* Findings f[0..n), which the device rules made on path p of head, made
 * about that path: path names it and iopolicy is the head's, and a path's
 * runtime queue knobs get kinds of their own (CHECK_PATH_SCHEDULER,
 * CHECK_PATH_NR_REQUESTS), since check --measure writes a device's own
 * queue and a head's scheduler is no knob at all. */
void check_path_name(struct check_finding *f, unsigned n, const struct setup_dev *head,
		     unsigned p);

/* Device i's polling workers (the ask's --cpus, per device as the runner
 * pins them) when some share a poll queue that a free one could spare:
 * fills f (kind CHECK_SHARED_POLL_QUEUE, dev i) with the CPUs that give
 * each worker its own and returns 1; 0 when none shares, the CPUs are not
 * asked or the map is not known; -ENOMEM. */
int check_shared_poll(const struct setup_machine *m, const struct setup_dev *d, unsigned i,
		      const struct check_ask *ask, struct check_finding *f);

#endif
