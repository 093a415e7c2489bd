/* Internal to engine/: the io_uring pieces a worker of one job
 * (engine/uring.c) and a group's thread (engine/uring_group.c) share. */
#ifndef ENG_URING_INT_H
#define ENG_URING_INT_H

#include <stdbool.h>

#include "engine/worker.h"

/* Sets up w's ring with room for sq_entries SQEs and cq_entries CQEs, the
 * cheapest flags the kernel takes and the job's completion mode. 0 or
 * -errno, with w->res's stage and setup flags set. */
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

/* A thread that drives several jobs through one ring (eng_job.group):
 * lane[0]'s ring is the group's, lane k's target its registered file k.
 * calls counts the thread's system calls since lane 0 began measuring. */
struct eng_group {
	struct eng_worker *lane;
	unsigned n;
	bool timed;		/* the jobs time every IO */
	bool measuring;		/* calls counts the measured window */
	uint64_t calls;
};

/* The ring of g's lanes, lane[0]'s (a single job: a group of one lane;
 * group: the ring holds the sum of the lanes' batches and depths). 0 or
 * -errno, with the stage in lane[0]'s result. */
int eng_uring_setup(struct eng_group *g, bool group);
void eng_uring_teardown(struct eng_group *g);

int eng_uring_group_setup(struct eng_group *g);
/* Runs until every lane has stopped and holds no IO; a lane that does
 * so before the others settles (eng_live.settled): its result is final. */
int eng_uring_group_loop(struct eng_group *g);
void eng_uring_group_teardown(struct eng_group *g);
/* The group loop's per-loop steps (engine/uring_loop_int.h, where every
 * lane ticks): lanes that are done settle (returns how many still run); a
 * failure ends every lane. */
unsigned eng_uring_group_settle_done(struct eng_group *g);
void eng_uring_group_fail(struct eng_group *g, int ret);

#endif
