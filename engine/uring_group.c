/* Several drives per worker (eng_job.group): one thread, one io_uring
 * ring, each job a lane with its own registered file, depth, buffers,
 * counters and histogram. A CQE's user_data is its lane in the high 32
 * bits and the lane's slot in the low. The loop is the single job's
 * (engine/uring_loop_int.h) compiled for a group; what is here is the
 * group's own setup and its copies. The thread around them is a job's
 * (worker.c, eng_worker_main), and so is the settling of lanes that are
 * done (eng_group_settle_done): the loop header calls down, never back
 * into this file. */
#include "engine/uring_int.h"
#define URING_CLOSED_ONLY	/* a group is never open (run_rate_fits) */
#include "engine/uring_loop_int.h"

/* Every lane's result says what the ring is. */
static void group_copy_setup(struct eng_group *g, int ret)
{
	const struct eng_result *r0 = g->lane[0].res;
	unsigned k;

	for (k = 1; k < g->n; k++) {
		struct eng_result *r = g->lane[k].res;

		r->setup_flags = r0->setup_flags;
		if (ret && !r->stage) {
			r->stage = r0->stage;
			r->err = r0->err;
		}
	}
}

int eng_uring_group_setup(struct eng_group *g)
{
	int ret;

	g->timed = g->lane[0].latency;
	ret = eng_uring_setup(g, true);
	group_copy_setup(g, ret);
	return ret;
}

/* The group's copies of the loop (engine/uring_loop_int.h), one per kind. */
URING_LOOP_GROUP(group_loop_nop, .kind = URING_NOP)
URING_LOOP_GROUP(group_loop_read, .kind = URING_READ)
URING_LOOP_GROUP(group_loop_cmd, .kind = URING_CMD)

int eng_uring_group_loop(struct eng_group *g)
{
	const struct eng_worker *w0 = &g->lane[0];

	if (w0->u.cmd)
		return group_loop_cmd(g);
	return w0->expect ? group_loop_read(g) : group_loop_nop(g);
}
