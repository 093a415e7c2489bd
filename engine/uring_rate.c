/*
 * The io_uring open loop (eng_job.rate): IOs are issued when they are
 * due (engine/arrival.h), not when a slot frees, at most the depth in
 * flight. The loop is the closed loop's source (engine/uring_loop_int.h)
 * compiled open: chosen once per worker (uring.c's uring_loop), so the
 * closed loop's copies carry nothing of it.
 *
 * Each loop reads the clock once: that reading reaps (an IO's latency from
 * when it was due, into hist, and from when it was submitted, into
 * svc_hist), issues every IO due by then that a free slot takes, and
 * decides how to wait for the next one (arrival.h: a spin for a short gap,
 * io_uring's wait with a timeout for a long one). An IO due while the
 * depth is full keeps its due time: its wait for a slot is in its latency.
 */
#include "engine/uring_int.h"
#include "engine/uring_loop_int.h"

#ifndef IORING_FEAT_EXT_ARG
#define IORING_FEAT_EXT_ARG (1U << 8)
#endif

int eng_uring_rate_check(struct eng_worker *w)
{
	/* without EXT_ARG liburing would take an SQE of the ring for the
	 * wait's timeout, and the ring's SQEs are templates (uring.c) */
	if (w->u.ring.features & IORING_FEAT_EXT_ARG)
		return 0;
	w->res->stage = ENG_STAGE_SETUP;
	w->res->err = -EOPNOTSUPP;
	return -EOPNOTSUPP;
}

URING_LOOP_JOB(rate_loop_read, .open = true, .kind = URING_READ)
URING_LOOP_JOB(rate_loop_cmd, .open = true, .kind = URING_CMD)

/* Reads only: an open loop of NOPs is refused (engine/run.c). */
int eng_uring_rate_loop(struct eng_worker *w)
{
	return w->u.cmd ? rate_loop_cmd(w) : rate_loop_read(w);
}
