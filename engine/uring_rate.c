/*
 * The io_uring open loop (eng_job.rate): IOs are issued when they are
 * due (engine/arrival.h), not when a slot frees, at most the depth in
 * flight. A loop of its own, chosen once per worker (uring_loop), so the
 * closed loop's code is what it was without --rate.
 *
 * Each loop reads the clock once: that reading reaps (an IO's latency from
 * when it was due, into hist, and from when it was submitted, into
 * svc_hist), issues every IO due by then that a free slot takes, and
 * decides how to wait for the next one (arrival.h: a spin for a short gap,
 * io_uring's wait with a timeout for a long one). An IO due while the
 * depth is full keeps its due time: its wait for a slot is in its latency.
 */
#include <errno.h>

#include "engine/nvme_cmd.h"
#include "engine/uring_int.h"
#include "engine/worker.h"

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

/* One SQE for the IO in slot, due at due_ns, submitted with now. */
static void rate_prep_one(struct eng_worker *w, struct io_uring_sqe *sqe, uint32_t slot)
{
	char *buf = w->buf + (size_t)slot * w->bs;

	if (w->u.cmd)
		eng_nvme_read_at((struct nvme_uring_cmd *)(void *)sqe->cmd, buf,
				 eng_rng_offset(&w->rng), w->u.lba_shift);
	else {
		sqe->addr = (uint64_t)(uintptr_t)buf;
		sqe->off = eng_rng_offset(&w->rng);
	}
	if (w->u.fixed)
		sqe->buf_index = (uint16_t)(slot >> w->u.region_shift);
	sqe->user_data = slot;
}

/* Every IO due by now that the budget and the SQ ring take; each keeps
 * its due time in slot_ns and gets now as its submission time. */
static uint32_t rate_prep(struct eng_worker *w, uint64_t now)
{
	struct io_uring_sq *sq = &w->u.ring.sq;
	uint32_t n = eng_worker_budget(w), room = io_uring_sq_space_left(&w->u.ring), i;
	uint32_t shift = w->u.cmd ? 1 : 0;

	n = n < room ? n : room;
	for (i = 0; i < n && w->arr.next_ns <= now; i++) {
		struct io_uring_sqe *sqe = &sq->sqes[((sq->sqe_tail + i) & sq->ring_mask) << shift];
		uint32_t slot = w->free_slot[--w->nfree];

		w->slot_ns[slot] = w->arr.next_ns;
		w->sub_ns[slot] = now;
		rate_prep_one(w, sqe, slot);
		eng_arrival_advance(&w->arr);
	}
	sq->sqe_tail += i;
	w->inflight += i;
	return i;
}

/* Issues what is due, a batch per call; all but the last batch are
 * submitted here, the last by rate_enter. 0 or -errno. */
static int rate_fill(struct eng_worker *w, uint64_t now)
{
	uint32_t n = rate_prep(w, now);

	while (n && w->arr.next_ns <= now && eng_worker_budget(w)) {
		int ret = io_uring_submit(&w->u.ring);

		w->calls++;
		if (ret == -EAGAIN || ret == -EBUSY || ret == -EINTR)
			break;
		if (ret < 0)
			return ret;
		n = rate_prep(w, now);
	}
	return 0;
}

/* One completion: its slot freed, a good one counted and timed twice. */
static void rate_done(struct eng_worker *w, uint32_t slot, int res, uint64_t now)
{
	uint64_t due = w->slot_ns[slot], sub = w->sub_ns[slot];

	w->free_slot[w->nfree++] = slot;
	w->inflight--;
	if (eng_unlikely((uint32_t)res != w->expect)) {
		eng_worker_io_error(w, res);
		return;
	}
	w->ios++;
	w->late += sub - due > ENG_RATE_LATE_NS;
	if (w->latency) {
		/* never a wrapped negative interval: as eng_done_io */
		eng_hist_add(w->hist, (int64_t)(now - due) < 0 ? 0 : now - due);
		eng_hist_add(w->svc_hist, (int64_t)(now - sub) < 0 ? 0 : now - sub);
	}
	if (eng_unlikely(w->limit && w->ios + w->errors >= w->limit))
		eng_worker_end(w);
}

static uint32_t rate_reap(struct eng_worker *w, uint64_t now)
{
	struct io_uring_cq *cq = &w->u.ring.cq;
	uint32_t head = *cq->khead, tail = io_uring_smp_load_acquire(cq->ktail);
	uint32_t shift = w->u.cmd ? 1 : 0, n = tail - head;

	for (; head != tail; head++) {
		const struct io_uring_cqe *cqe = &cq->cqes[(head & cq->ring_mask) << shift];

		rate_done(w, (uint32_t)cqe->user_data, cqe->res, now);
	}
	if (n)
		io_uring_smp_store_release(cq->khead, tail);
	return n;
}

/* The loop's one system call: submit what was queued, and wait for a free
 * slot (the depth is full, the run is draining or has all the IOs --ios
 * allows in flight), for the next due IO
 * (arrival.h: sleeping in the ring's wait or spinning on it), or not at
 * all when IOs are due that did not fit in this loop's batches. */
static int rate_enter(struct eng_worker *w, uint64_t now)
{
	struct io_uring *ring = &w->u.ring;
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;
	uint64_t gap;
	bool polled = w->job->mode == ENG_MODE_POLL || w->job->mode == ENG_MODE_HYBRID;

	eng_worker_publish_inflight(w);
	w->calls++;
	/* a full depth, a drain, or the --ios limit's last IOs in flight */
	if (w->stopping || !w->nfree || !eng_worker_budget(w))
		return io_uring_submit_and_wait(ring, 1);
	gap = w->arr.next_ns > now ? w->arr.next_ns - now : 0;
	if (polled || gap <= 2 * ENG_RATE_SPIN_NS)
		return io_uring_submit_and_get_events(ring);
	gap -= ENG_RATE_SPIN_NS;
	gap = gap < ENG_RATE_SLEEP_MAX_NS ? gap : ENG_RATE_SLEEP_MAX_NS;
	ts.tv_sec = 0;
	ts.tv_nsec = (long long)gap;
	return io_uring_submit_and_wait_timeout(ring, &cqe, 1, &ts, NULL);
}

int eng_uring_rate_loop(struct eng_worker *w)
{
	uint64_t now = eng_ticks_to_ns(eng_ticks());
	int ret = eng_arrival_init(&w->arr, w->job->rate, w->job->arrival,
				   w->job->seed ^ 0x6a09e667f3bcc908ull, now, w->job->rate_phase);

	if (ret) {
		w->fatal = ret;
		eng_worker_end(w);
		return ret;
	}
	w->last_ns = now;
	for (;;) {
		now = eng_ticks_to_ns(eng_ticks());
		/* IOs in flight since the last loop, held until now: their
		 * integral is the window's mean depth (Little's law) */
		w->inflight_ns += (double)w->inflight * (double)(now - w->last_ns);
		w->last_ns = now;
		(void)eng_worker_tick(w);
		(void)rate_reap(w, now);
		if (w->stopping && !w->inflight)
			break;
		ret = rate_fill(w, now);
		if (eng_likely(!ret))
			ret = rate_enter(w, now);
		if (eng_unlikely(ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY &&
				 ret != -ETIME)) {
			w->fatal = w->fatal ? w->fatal : ret;
			eng_worker_end(w);
			return ret;
		}
	}
	return 0;
}
