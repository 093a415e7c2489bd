/* Internal to engine/: the io_uring pieces a worker of one job
 * (engine/uring.c), a group's thread (engine/uring_group.c) and the open
 * loop (engine/uring_rate.c) share. The loop's source
 * (engine/uring_loop_int.h) needs none of them: it includes only what
 * lies below it (worker.h, struct eng_group), so no include goes back up. */
#ifndef ENG_URING_INT_H
#define ENG_URING_INT_H

#include <stdbool.h>

#include "engine/worker.h"

/* Sets up ring with room for sq_entries SQEs and cq_entries CQEs, the
 * cheapest flags the kernel takes (the setup ladder, uring.c) and job j's
 * completion mode (its mode, cpu and sq_cpu are read), with 128-byte SQEs
 * and 32-byte CQEs when wide (passthrough). 0 or -errno of the last
 * io_uring_setup tried: -EINVAL where even the bare mode was refused. */
int eng_uring_ring_init(struct io_uring *ring, const struct eng_job *j, bool wide,
			unsigned sq_entries, unsigned cq_entries);
/* The same for w's ring and job (wide for passthrough), with w->res's
 * stage and setup flags set. */
int eng_uring_init(struct eng_worker *w, unsigned sq_entries, unsigned cq_entries);
/* Registers the buffers of lanes[0..n-1] in ring_w's ring, each lane's
 * from its u.buf_base on, in iovecs of at most 1 GiB. Over RLIMIT_MEMLOCK
 * they stay plain (each lane's result says why) and it returns 0; another
 * failure is -errno. */
int eng_uring_register_bufs(struct eng_worker *ring_w, struct eng_worker *lanes, unsigned n);
/* The iovecs that registering lanes[0..n-1]'s buffers takes. */
unsigned eng_uring_iov_count(const struct eng_worker *lanes, unsigned n);
/* Whether the kernel lets passthrough read into registered buffers
 * (IORING_URING_CMD_FIXED), asked on ring, whose file 0 is registered. */
bool eng_uring_cmd_fixed_probe(struct io_uring *ring);

/* The open loop (eng_job.rate, engine/uring_rate.c): whether w's ring
 * can run it (0, or -EOPNOTSUPP with w->res's stage set: the kernel lacks
 * IORING_FEAT_EXT_ARG, Linux 5.11), and the loop itself. */
int eng_uring_rate_check(struct eng_worker *w);
int eng_uring_rate_loop(struct eng_worker *w);

/* The ring of g's lanes, lane[0]'s (a single job: a group of one lane;
 * group: the ring holds the sum of the lanes' batches and depths). 0 or
 * -errno, with the stage in lane[0]'s result. */
int eng_uring_setup(struct eng_group *g, bool group);
void eng_uring_teardown(struct eng_group *g);

/* A group's ring (engine/uring_group.c), 0 or -errno, and its loop: it
 * runs until every lane has stopped and holds no IO; a lane that does so
 * before the others settles (eng_group_settle_done): its result is final.
 * uring.c's ops call them for a thread of several lanes. */
int eng_uring_group_setup(struct eng_group *g);
int eng_uring_group_loop(struct eng_group *g);

#endif
