/* Several drives per worker (eng_job.group): one thread, one io_uring
 * ring, each job a lane with its own registered file, depth, buffers,
 * counters and histogram. A CQE's user_data is its lane in the high 32
 * bits and the lane's slot in the low. The loop is the single job's
 * (engine/uring_loop_int.h) compiled for a group; what is here is the
 * group's own: its setup, and per loop the settling of its lanes that
 * are done (their ticks are the loop's, uring_tick). */
#include "engine/run_int.h"
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
	unsigned k;
	int ret;

	for (k = 0; k < g->n; k++)
		g->lane[k].res->backend = g->lane[k].passthru ? ENG_BACKEND_URING_CMD :
								ENG_BACKEND_IO_URING;
	g->timed = g->lane[0].latency;
	ret = eng_uring_setup(g, true);
	group_copy_setup(g, ret);
	return ret;
}

void eng_uring_group_teardown(struct eng_group *g)
{
	eng_uring_teardown(g);
}

/* A lane that has stopped and holds no IO: its figures are final, with
 * the thread's calls over its window (taken when it ended; the run shares
 * them out, run.c). */
static void group_settle(struct eng_group *g, struct eng_worker *w)
{
	w->settled = true;
	if (!w->calls_taken)
		w->res->calls = w->t_start_ns ? g->calls : 0;
	eng_worker_finish(w);
	atomic_store_explicit(&w->live->settled, 1, memory_order_release);
	eng_run_wake(w->th->run);
}

/* Settles the lanes that are done; how many still run. */
unsigned eng_uring_group_settle_done(struct eng_group *g)
{
	unsigned k, running = 0;

	for (k = 0; k < g->n; k++) {
		struct eng_worker *w = &g->lane[k];

		if (w->settled)
			continue;
		if (w->stopping && !w->calls_taken) {
			/* its window has ended: the thread's calls up to here,
			 * not the drain's (a worker of its own stops counting
			 * there too, eng_worker_end) */
			w->calls_taken = true;
			w->res->calls = w->t_start_ns ? g->calls : 0;
		}
		if (w->stopping && !w->inflight)
			group_settle(g, w);
		else
			running++;
	}
	return running;
}

void eng_uring_group_fail(struct eng_group *g, int ret)
{
	unsigned k;

	for (k = 0; k < g->n; k++) {
		struct eng_worker *w = &g->lane[k];

		w->fatal = w->fatal ? w->fatal : ret;
		eng_worker_end(w);
		if (!w->settled)
			group_settle(g, w);
	}
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
