/* Several drives per worker (eng_job.group): one thread, one io_uring
 * ring, each job a lane with its own registered file, depth, buffers,
 * counters and histogram. A CQE's user_data is its lane in the high 32
 * bits and the lane's slot in the low. The single-job loop (uring.c) is
 * left as it is: this loop writes whole SQEs (their file and command
 * differ by lane) and completes one CQE at a time on its lane. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/nvme_cmd.h"
#include "engine/run_int.h"
#include "engine/uring_int.h"

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

static int group_register(struct eng_group *g)
{
	struct eng_worker *w0 = &g->lane[0];
	int fds[ENG_GROUP_MAX], ret = 0;
	unsigned k;

	if (w0->job->op == ENG_OP_NOP)
		return 0;
	if (g->n > sizeof(fds) / sizeof(fds[0]))
		return -E2BIG;
	if (w0->u.cmd && !eng_uring_cmd_fixed_ok()) {
		for (k = 0; k < g->n; k++)
			g->lane[k].res->unfixed_err = -EOPNOTSUPP;
	} else {
		ret = eng_uring_register_bufs(w0, g->lane, g->n);
	}
	for (k = 0; k < g->n && !ret; k++)
		fds[k] = g->lane[k].job->target->fd;
	if (!ret)
		ret = io_uring_register_files(&w0->u.ring, fds, g->n);
	return ret;
}

int eng_uring_group_setup(struct eng_group *g)
{
	struct eng_worker *w0 = &g->lane[0];
	unsigned k, sq = 0, cq = 0;
	int ret;

	for (k = 0; k < g->n; k++) {
		struct eng_worker *w = &g->lane[k];

		w->u.cmd = w->passthru;
		w->u.lba_shift = w->u.cmd ? w->job->target->lba_shift : 0;
		w->u.file_idx = k;
		w->res->backend = w->passthru ? ENG_BACKEND_URING_CMD : ENG_BACKEND_IO_URING;
		sq += w->batch;
		cq += w->job->qd;
	}
	g->timed = w0->latency;
	ret = eng_uring_init(w0, sq, cq);
	if (!ret) {
		ret = group_register(g);
		if (ret) {
			w0->res->stage = ENG_STAGE_REGISTER;
			w0->res->err = ret;
			eng_uring_group_teardown(g);
		}
	}
	if (!ret)
		(void)io_uring_register_ring_fd(&w0->u.ring);
	group_copy_setup(g, ret);
	return ret;
}

void eng_uring_group_teardown(struct eng_group *g)
{
	struct eng_worker *w0 = &g->lane[0];

	if (w0->u.ring_ok)
		io_uring_queue_exit(&w0->u.ring);
	w0->u.ring_ok = false;
}

/* n SQEs of lane w, whole: the ring's entries are any lane's in turn. The
 * lane's fields used per SQE are copied to locals first, as uring.c's
 * uring_prep_as does: stores into the SQEs could alias them. */
ENG_ALWAYS_INLINE void group_prep_as(struct io_uring *ring, struct eng_worker *w, uint64_t now,
				     uint32_t n, const bool cmd, const bool fixed, const bool nop)
{
	struct io_uring_sq *sq = &ring->sq;
	struct io_uring_sqe *sqes = sq->sqes;
	uint32_t tail = sq->sqe_tail, mask = sq->ring_mask, i;
	uint32_t *free_slot = w->free_slot, nfree = w->nfree, bs = w->bs;
	uint32_t shift = w->u.region_shift, base = w->u.buf_base, lba_shift = w->u.lba_shift;
	uint32_t nsid = cmd ? w->job->target->nsid : 0;
	int fd = (int)w->u.file_idx;
	uint64_t *slot_ns = w->slot_ns, tag = (uint64_t)w->u.file_idx << 32;
	struct eng_rng rng = w->rng;
	char *buf = w->buf;

	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = &sqes[((tail + i) & mask) << cmd];
		uint32_t slot = free_slot[--nfree];
		char *b = buf + (size_t)slot * bs;

		slot_ns[slot] = now;
		sqe->user_data = tag | slot;
		if (nop) {
			sqe->opcode = IORING_OP_NOP;
			continue;
		}
		sqe->flags = IOSQE_FIXED_FILE;
		sqe->fd = fd;
		if (fixed)
			sqe->buf_index = (uint16_t)(base + (slot >> shift));
		if (cmd) {
			struct nvme_uring_cmd *c = (struct nvme_uring_cmd *)(void *)sqe->cmd;

			sqe->opcode = IORING_OP_URING_CMD;
			sqe->cmd_op = NVME_URING_CMD_IO;
			sqe->uring_cmd_flags = fixed ? IORING_URING_CMD_FIXED : 0;
			c->opcode = ENG_NVME_OP_READ;
			c->nsid = nsid;
			c->data_len = bs;
			c->cdw12 = (bs >> lba_shift) - 1;
			eng_nvme_read_at(c, b, eng_rng_offset(&rng), lba_shift);
		} else {
			sqe->opcode = fixed ? IORING_OP_READ_FIXED : IORING_OP_READ;
			sqe->addr = (uint64_t)(uintptr_t)b;
			sqe->len = bs;
			sqe->off = eng_rng_offset(&rng);
		}
	}
	sq->sqe_tail = tail + n;
	w->rng = rng;
	w->nfree = nfree;
	w->inflight += n;
}

static void group_prep(struct io_uring *ring, struct eng_worker *w, uint64_t now, uint32_t n)
{
	if (w->job->op == ENG_OP_NOP)
		group_prep_as(ring, w, now, n, false, false, true);
	else if (w->u.cmd)
		w->u.fixed ? group_prep_as(ring, w, now, n, true, true, false) :
			     group_prep_as(ring, w, now, n, true, false, false);
	else
		w->u.fixed ? group_prep_as(ring, w, now, n, false, true, false) :
			     group_prep_as(ring, w, now, n, false, false, false);
}

static bool group_retry(int ret)
{
	return ret == -EAGAIN || ret == -EBUSY || ret == -EINTR;
}

/* Every lane's free slots go out, a full SQ ring submitted as it fills;
 * what is left goes with the loop's enter. */
static int group_fill(struct eng_group *g, uint64_t now, uint32_t *queued)
{
	struct io_uring *ring = &g->lane[0].u.ring;
	uint32_t pending = 0, n, room;
	unsigned k;
	int ret;

	for (k = 0; k < g->n; k++) {
		struct eng_worker *w = &g->lane[k];

		while ((n = eng_worker_budget(w))) {
			room = io_uring_sq_space_left(ring);
			if (!room) {
				ret = io_uring_submit(ring);
				g->calls++;
				if (group_retry(ret))
					goto out;	/* the enter retries */
				if (ret < 0)
					return ret;
				pending = 0;
				continue;
			}
			n = n < room ? n : room;
			group_prep(ring, w, now, n);
			pending += n;
		}
	}
out:
	*queued = pending;
	return 0;
}

/*
 * Every ready CQE, the head published once. A lane's CQEs mostly come in
 * runs (its IOs went out together): each run is completed on locals, as
 * uring.c's uring_reap does for its one worker (struct eng_done), written
 * back when the lane changes, on an error or at the IO limit.
 */
ENG_ALWAYS_INLINE uint32_t group_reap_as(struct eng_group *g, uint64_t now, const bool cmd)
{
	struct io_uring_cq *cq = &g->lane[0].u.ring.cq;
	uint32_t head = *cq->khead, tail = io_uring_smp_load_acquire(cq->ktail);
	uint32_t n = tail - head, mask = cq->ring_mask, expect = 0, nfree = 0, cur = UINT32_MAX;
	uint64_t left = 0, ios = 0, run_ns = 0, run_n = 0;
	struct eng_worker *w = NULL;
	bool timed = false;
	struct eng_done d = {
		.expect = &expect, .timed = &timed, .nfree = &nfree,
		.ios = &ios, .run_ns = &run_ns, .run_n = &run_n,
	};
	unsigned k;

	for (; head != tail; head++) {
		const struct io_uring_cqe *cqe = &cq->cqes[(head & mask) << cmd];
		uint32_t lane = (uint32_t)(cqe->user_data >> 32);
		int res = cqe->res;
		bool ok;

		if (eng_unlikely(lane != cur)) {
			if (w)
				eng_done_put(w, &d);
			cur = lane;
			w = &g->lane[lane];
			d.free_slot = w->free_slot;
			d.slot_ns = w->slot_ns;
			eng_done_get(&d, w);
			left = eng_worker_left(w);
		}
		ok = eng_done_io(w, &d, (uint32_t)cqe->user_data, res, now);
		if (eng_likely(ok && left > 1)) {
			left--;
			continue;
		}
		eng_done_put(w, &d);
		eng_worker_settle(w, ok, res);
		eng_done_get(&d, w);
		left = eng_worker_left(w);
	}
	if (n)
		io_uring_smp_store_release(cq->khead, tail);
	if (w)
		eng_done_put(w, &d);
	for (k = 0; k < g->n; k++)
		if (g->lane[k].hist)
			eng_worker_flush(&g->lane[k]);
	return n;
}

static uint32_t group_reap(struct eng_group *g, uint64_t now)
{
	return g->lane[0].u.cmd ? group_reap_as(g, now, true) : group_reap_as(g, now, false);
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

/* Once per loop, before the reap: every lane notices phase changes and
 * snapshot requests, as a worker of its own would. */
static void group_tick(struct eng_group *g)
{
	unsigned k;

	for (k = 0; k < g->n; k++) {
		if (!g->lane[k].settled)
			(void)eng_worker_tick(&g->lane[k]);
		if (!g->measuring && g->lane[k].t_start_ns) {
			g->measuring = true;
			g->calls = 0;
		}
	}
}

/* Settles the lanes that are done; how many still run. */
static unsigned group_settle_done(struct eng_group *g)
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

static void group_fail(struct eng_group *g, int ret)
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

/* One io_uring_enter: submit what is queued, and wait for completions
 * when nothing was queued or no lane has a free slot left. */
static int group_enter(struct eng_group *g, uint32_t queued)
{
	struct io_uring *ring = &g->lane[0].u.ring;
	uint32_t min = g->lane[0].job->reap ? g->lane[0].job->reap : 1;
	bool room = false;
	unsigned k;

	/* never more completions than the lane with the fewest IOs in flight
	 * holds: a stalled drive's IOs must not be the ones waited for */
	for (k = 0; k < g->n; k++) {
		struct eng_worker *w = &g->lane[k];

		eng_worker_publish_inflight(w);
		if (w->inflight && w->inflight < min)
			min = w->inflight;
		room |= !w->stopping && w->nfree;
	}
	g->calls++;
	return !queued || !room ? io_uring_submit_and_wait(ring, min) :
				  io_uring_submit_and_get_events(ring);
}

int eng_uring_group_loop(struct eng_group *g)
{
	for (;;) {
		uint64_t now = g->timed ? eng_ticks_to_ns(eng_ticks()) : 0;
		uint32_t queued;
		int ret;

		/* the ticks first, as in uring.c: completions reaped after a
		 * stop are the drain's */
		group_tick(g);
		(void)group_reap(g, now);
		if (!group_settle_done(g))
			break;
		ret = group_fill(g, now, &queued);
		if (eng_unlikely(ret < 0)) {
			group_fail(g, ret);
			return ret;
		}
		ret = group_enter(g, queued);
		if (eng_unlikely(ret < 0 && !group_retry(ret) && ret != -ETIME)) {
			group_fail(g, ret);
			return ret;
		}
	}
	return 0;
}
