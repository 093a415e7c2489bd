/* io_uring backend: fixed buffers, registered file and ring fd, batched
 * submission and reaping, one io_uring_enter per loop. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "engine/nvme_cmd.h"
#include "engine/uring_int.h"
#include "engine/worker.h"

/* Newer than liburing 2.3's header. */
#ifndef IORING_SETUP_HYBRID_IOPOLL
#define IORING_SETUP_HYBRID_IOPOLL (1U << 17)
#endif

/* Registered buffers are limited to 1 GiB each: split the slots into
 * power-of-two regions so an IO's buffer index is a shift, not a divide. */
#define URING_REGION_SHIFT 30

static unsigned uring_mode_flags(const struct eng_job *j)
{
	switch (j->mode) {
	case ENG_MODE_POLL:
		return IORING_SETUP_IOPOLL;
	case ENG_MODE_HYBRID:
		return IORING_SETUP_IOPOLL | IORING_SETUP_HYBRID_IOPOLL;
	case ENG_MODE_SQPOLL:
		return IORING_SETUP_SQPOLL;
	case ENG_MODE_IRQ:
		break;
	}
	return 0;
}

/* Unless told, the SQ thread goes to the next CPU after the worker's that
 * this process may use (not merely the next number: it may be offline or
 * outside the cpuset, and then setup fails with EINVAL). */
static int uring_sq_cpu(const struct eng_job *j)
{
	cpu_set_t set;
	int i, c;

	if (j->sq_cpu >= 0)
		return j->sq_cpu;
	if (j->cpu < 0 || sched_getaffinity(getpid(), sizeof(set), &set))
		return -1;
	for (i = 1; i < CPU_SETSIZE; i++) {
		c = (j->cpu + i) % CPU_SETSIZE;
		if (CPU_ISSET(c, &set))
			return c == j->cpu ? -1 : c;
	}
	return -1;
}

/*
 * Try the cheapest task-running flags first and drop what the kernel
 * refuses: DEFER_TASKRUN (6.1) needs SINGLE_ISSUER (6.0); COOP_TASKRUN is
 * 5.19. SQPOLL takes none of the task-running flags (the kernel thread
 * runs completions), only SINGLE_ISSUER. The completion mode's
 * own flags are never dropped: if even the bare mode fails with EINVAL, the
 * kernel refuses the mode.
 */
int eng_uring_init(struct eng_worker *w, unsigned sq_entries, unsigned cq_entries)
{
	static const unsigned ladder[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
			IORING_SETUP_COOP_TASKRUN,
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	const struct eng_job *j = w->job;
	unsigned mode = uring_mode_flags(j), i, tried = ~0u;
	int ret = -EINVAL, sq_cpu = uring_sq_cpu(j);

	for (i = 0; i < sizeof(ladder) / sizeof(ladder[0]); i++) {
		unsigned rung = ladder[i];
		struct io_uring_params p;

		if (mode & IORING_SETUP_SQPOLL)
			rung &= IORING_SETUP_SINGLE_ISSUER;
		if (rung == tried)
			continue;
		tried = rung;
		memset(&p, 0, sizeof(p));
		p.flags = rung | mode | IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP |
			  (w->u.cmd ? IORING_SETUP_SQE128 | IORING_SETUP_CQE32 : 0);
		p.cq_entries = cq_entries;
		if ((mode & IORING_SETUP_SQPOLL) && sq_cpu >= 0) {
			p.flags |= IORING_SETUP_SQ_AFF;
			p.sq_thread_cpu = (unsigned)sq_cpu;
			p.sq_thread_idle = 1000;
		}
		ret = io_uring_queue_init_params(sq_entries, &w->u.ring, &p);
		if (ret != -EINVAL)
			break;
	}
	if (!ret) {
		w->res->setup_flags = w->u.ring.flags;
		w->u.ring_ok = true;
		w->u.sqpoll = mode & IORING_SETUP_SQPOLL;
		return 0;
	}
	w->res->stage = (ret == -EINVAL && mode) ? ENG_STAGE_MODE : ENG_STAGE_SETUP;
	w->res->err = ret;
	return ret;
}

/* The kernel counts registered buffers against RLIMIT_MEMLOCK (unless the
 * process has CAP_IPC_LOCK): over it, registering fails with ENOMEM (older
 * kernels: EFAULT or EPERM). Plain reads into the same buffers still work,
 * at the cost of pinning pages per IO: fall back and record why. */
int eng_uring_register_bufs(struct eng_worker *ring_w, struct eng_worker *lanes, unsigned n)
{
	struct iovec iov[64] = { { 0 } };
	size_t region = (size_t)1 << URING_REGION_SHIFT, off;
	unsigned nv = 0, k;
	int ret;

	for (k = 0; k < n; k++) {
		struct eng_worker *w = &lanes[k];

		w->u.buf_base = nv;
		w->u.region_shift = URING_REGION_SHIFT - (uint32_t)__builtin_ctz(w->bs);
		for (off = 0; off < w->buf_len && nv < 64; off += region, nv++) {
			iov[nv].iov_base = w->buf + off;
			iov[nv].iov_len = w->buf_len - off < region ? w->buf_len - off : region;
		}
		if (off < w->buf_len)
			return -E2BIG;
	}
	ret = io_uring_register_buffers(&ring_w->u.ring, iov, nv);
	for (k = 0; k < n; k++) {
		struct eng_worker *w = &lanes[k];

		if (ret == -ENOMEM || ret == -EFAULT || ret == -EPERM) {
			w->res->unfixed_err = ret;
			continue;
		}
		w->u.fixed = !ret;
		w->res->fixed_bufs = !ret;
	}
	return ret == -ENOMEM || ret == -EFAULT || ret == -EPERM ? 0 : ret;
}

/* Registered buffers for passthrough (IORING_URING_CMD_FIXED) came with
 * Linux 6.1; before it the flag's field had to be zero and every command
 * fails with EINVAL. Older kernels read into plain buffers, and the result
 * says so (unfixed_err). */
bool eng_uring_cmd_fixed_ok(void)
{
	struct utsname u;
	unsigned maj = 0, min = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &maj, &min) != 2)
		return false;
	return maj > 6 || (maj == 6 && min >= 1);
}

static int uring_register(struct eng_worker *w)
{
	int ret;

	if (w->job->op == ENG_OP_NOP)
		return 0;
	if (w->u.cmd && !eng_uring_cmd_fixed_ok()) {
		w->res->unfixed_err = -EOPNOTSUPP;
		ret = 0;
	} else {
		ret = eng_uring_register_bufs(w, w, 1);
	}
	if (!ret)
		ret = io_uring_register_files(&w->u.ring, &w->job->target->fd, 1);
	return ret;
}

#ifdef ENG_STAMP_CHECK
/*
 * The stamp check (engine.h, struct eng_stampcheck), compiled only into
 * the copy of this file that tests/test_engine_stamps links
 * (mk/stampcheck.mk); the library's copy, the shipped loop, has none of
 * it. Irq mode only, where every SQE is submitted by a call of this thread
 * that it can stamp. Its state is the worker thread's own, so that struct
 * eng_worker is the same in both copies and the rest of the library, built
 * once, agrees with either.
 */
struct uring_chk_state {
	struct eng_stampcheck *c;	/* the job's; NULL: no check */
	uint64_t *sub;		/* per-IO submission stamp of each slot */
	uint32_t *pend;		/* slots prepared since the last submitting call */
	uint32_t npend;
	uint64_t start_ns;	/* the window c covers (eng_worker.t_start_ns) */
};

static _Thread_local struct uring_chk_state uring_chk;

static void uring_chk_teardown(void)
{
	free(uring_chk.sub);
	free(uring_chk.pend);
	memset(&uring_chk, 0, sizeof(uring_chk));
}

static int uring_chk_setup(struct eng_worker *w)
{
	const struct eng_job *j = w->job;

	if (!j->stamps)
		return 0;
	if (j->mode != ENG_MODE_IRQ || !j->latency) {
		w->res->stage = ENG_STAGE_SETUP;
		w->res->err = -EOPNOTSUPP;
		return w->res->err;
	}
	uring_chk.c = j->stamps;
	uring_chk.sub = calloc(j->qd, sizeof(*uring_chk.sub));
	uring_chk.pend = calloc(j->qd, sizeof(*uring_chk.pend));
	if (uring_chk.sub && uring_chk.pend)
		return 0;
	w->res->stage = ENG_STAGE_MEMORY;
	w->res->err = -ENOMEM;
	return w->res->err;
}

/* After the tick: the figures start again with the measured window, so
 * they cover the same IOs as the result's histogram. loop_max stays: the
 * window's first IOs were submitted by the ramp's last loop. */
static void uring_chk_tick(const struct eng_worker *w)
{
	struct eng_stampcheck *c = uring_chk.c;
	uint64_t loop_max;

	if (!c || w->t_start_ns == uring_chk.start_ns)
		return;
	uring_chk.start_ns = w->t_start_ns;
	loop_max = c->loop_max;
	memset(c, 0, sizeof(*c));
	eng_hist_reset(&c->ref);
	c->loop_max = loop_max;
}

/* The stamp check's clock: the loop's own, read here per call or per IO. */
static uint64_t uring_chk_now(void)
{
	return eng_ticks_to_ns(eng_ticks());
}

static void uring_chk_prep(uint32_t slot)
{
	if (uring_chk.c)
		uring_chk.pend[uring_chk.npend++] = slot;
}

/* Right before a call that submits: the per-IO submission stamp of every
 * SQE it carries, and the loop's user-space time so far. */
static void uring_chk_submit(const struct eng_worker *w, uint64_t now)
{
	struct eng_stampcheck *c = uring_chk.c;
	uint64_t t;
	uint32_t i;

	if (!c)
		return;
	t = uring_chk_now();
	for (i = 0; i < uring_chk.npend; i++)
		uring_chk.sub[uring_chk.pend[i]] = t;
	uring_chk.npend = 0;
	if (w->latency && t - now > c->loop_max)
		c->loop_max = t - now;
}

/* As a CQE is read, before the loop completes it: the IO's per-IO latency
 * and how far each of its loop stamps is from the per-IO one. Only the IOs
 * the loop times (eng_done_io's test). */
static void uring_chk_reap(const struct eng_worker *w, uint32_t slot, int res,
			   uint64_t now)
{
	struct eng_stampcheck *c = uring_chk.c;
	uint64_t t, sub, sub_early, cmp_early;

	if (!c || !w->latency || (uint32_t)res != w->expect)
		return;
	t = uring_chk_now();
	sub = uring_chk.sub[slot];
	sub_early = sub - w->slot_ns[slot];
	cmp_early = t - now;
	eng_hist_add(&c->ref, t - sub);
	c->sub_early_sum += sub_early;
	c->cmp_early_sum += cmp_early;
	c->sub_early_max = sub_early > c->sub_early_max ? sub_early : c->sub_early_max;
	c->cmp_early_max = cmp_early > c->cmp_early_max ? cmp_early : c->cmp_early_max;
}
#else
/* The shipped loop: no check, and no trace of one in the binary. */
#define uring_chk_teardown() ((void)0)
#define uring_chk_setup(w) 0
#define uring_chk_tick(w) ((void)0)
#define uring_chk_prep(slot) ((void)0)
#define uring_chk_submit(w, now) ((void)(now))
#define uring_chk_reap(w, slot, res, now) ((void)0)
#endif

static void uring_teardown(struct eng_worker *w)
{
	if (w->u.ring_ok)
		io_uring_queue_exit(&w->u.ring);
	w->u.ring_ok = false;
	uring_chk_teardown();
}

/* Passthrough's SQEs are 128 bytes, the NVMe command in their second
 * half: a Read of bs from the namespace, into a registered buffer where
 * there are some. */
static void uring_cmd_templates(struct eng_worker *w)
{
	struct io_uring_sq *sq = &w->u.ring.sq;
	const struct eng_target *t = w->job->target;
	unsigned i;

	for (i = 0; i < sq->ring_entries; i++) {
		struct io_uring_sqe *sqe = &sq->sqes[i << 1];

		memset(sqe, 0, 2 * sizeof(*sqe));
		sqe->opcode = IORING_OP_URING_CMD;
		sqe->fd = 0;		/* the registered char device */
		sqe->flags = IOSQE_FIXED_FILE;
		sqe->cmd_op = NVME_URING_CMD_IO;
		if (w->u.fixed)
			sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
		eng_nvme_read_template((struct nvme_uring_cmd *)(void *)sqe->cmd, t->nsid, w->bs,
				       t->lba_shift);
	}
}

/*
 * Every SQE of the ring is written whole once, here, with what never
 * changes between IOs (opcode, flags, file, length, zeros elsewhere): the
 * kernel only reads SQEs, so uring_prep then writes just the four fields
 * that differ per IO instead of all of them through liburing's prep
 * helpers. The ring's SQE array is fixed at setup.
 */
static void uring_sqe_templates(struct eng_worker *w)
{
	struct io_uring_sq *sq = &w->u.ring.sq;
	unsigned i;

	if (w->u.cmd) {
		uring_cmd_templates(w);
		return;
	}
	for (i = 0; i < sq->ring_entries; i++) {
		struct io_uring_sqe *sqe = &sq->sqes[i];

		if (!w->expect) {
			io_uring_prep_nop(sqe);
			continue;
		}
		if (w->u.fixed)
			io_uring_prep_read_fixed(sqe, 0, NULL, w->bs, 0, 0);
		else
			io_uring_prep_read(sqe, 0, NULL, w->bs, 0);
		sqe->flags |= IOSQE_FIXED_FILE;
	}
}

static int uring_setup(struct eng_worker *w)
{
	int ret;

	w->u.cmd = w->passthru;
	w->u.lba_shift = w->u.cmd ? w->job->target->lba_shift : 0;
	/* SQPOLL consumes the SQ ring asynchronously: room for all */
	ret = eng_uring_init(w, w->job->mode == ENG_MODE_SQPOLL ? w->job->qd : w->job->batch,
			     w->job->qd);

	if (ret)
		return ret;
	ret = uring_register(w);
	if (ret) {
		w->res->stage = ENG_STAGE_REGISTER;
		w->res->err = ret;
		uring_teardown(w);
		return ret;
	}
	/* saves an fget/fput per enter; older kernels just lack it */
	(void)io_uring_register_ring_fd(&w->u.ring);
	uring_sqe_templates(w);
	ret = w->job->rate > 0 ? eng_uring_rate_check(w) : 0;
	if (!ret)
		ret = uring_chk_setup(w);
	if (ret)
		uring_teardown(w);
	return ret;
}

/* The hot loop's pieces below are inlined into the one loop body
 * (uring_loop), whatever the compiler would choose. */

/*
 * Up to a batch of SQEs, written in place: the ring is this thread's alone
 * and (without SQPOLL) empty after every submitting call, so the room is
 * read once and the SQE index is the local tail, with none of
 * io_uring_get_sqe's per-SQE head load and flag tests. The worker's
 * fields used per SQE are copied to locals first: stores into the SQEs and
 * the slot arrays could alias them, and the compiler would reload them for
 * every SQE.
 */
ENG_ALWAYS_INLINE uint32_t uring_prep_as(struct eng_worker *w, uint64_t now, const bool read,
					 const bool cmd, const bool fixed)
{
	struct io_uring_sq *sq = &w->u.ring.sq;
	uint32_t n = eng_worker_budget(w), room = io_uring_sq_space_left(&w->u.ring), i;
	uint32_t *free_slot = w->free_slot, nfree = w->nfree, mask = sq->ring_mask;
	uint32_t tail = sq->sqe_tail, shift = w->u.region_shift, bs = w->bs;
	uint64_t *slot_ns = w->slot_ns;
	struct io_uring_sqe *sqes = sq->sqes;
	struct eng_rng rng = w->rng;
	char *buf = w->buf;

	n = n < room ? n : room;
	for (i = 0; i < n; i++) {
		/* an SQE128 ring's entries are two SQEs long */
		struct io_uring_sqe *sqe = &sqes[((tail + i) & mask) << cmd];
		uint32_t slot = free_slot[--nfree];

		slot_ns[slot] = now;
		if (cmd) {
			eng_nvme_read_at((struct nvme_uring_cmd *)(void *)sqe->cmd,
					 buf + (size_t)slot * bs, eng_rng_offset(&rng), w->u.lba_shift);
			if (fixed)
				sqe->buf_index = (uint16_t)(slot >> shift);
		} else if (read) {
			sqe->addr = (uint64_t)(uintptr_t)(buf + (size_t)slot * bs);
			sqe->off = eng_rng_offset(&rng);
			if (fixed)
				sqe->buf_index = (uint16_t)(slot >> shift);
		}
		sqe->user_data = slot;
		uring_chk_prep(slot);
	}
	sq->sqe_tail = tail + n;
	w->rng = rng;
	w->nfree = nfree;
	w->inflight += n;
	return n;
}

/* What a worker's loop submits: each kind is a copy of the loop of its
 * own (uring_loop), reads one SQE loop with and one without registered
 * buffers, so no SQE tests which one it is. */
enum uring_kind {
	URING_NOP,
	URING_READ,	/* IORING_OP_READ(_FIXED) on a file or block device */
	URING_CMD,	/* NVMe passthrough */
};

ENG_ALWAYS_INLINE uint32_t uring_prep(struct eng_worker *w, uint64_t now, const enum uring_kind k)
{
	const bool cmd = k == URING_CMD;

	if (k == URING_NOP)
		return uring_prep_as(w, now, false, false, false);
	return w->u.fixed ? uring_prep_as(w, now, true, cmd, true) :
			    uring_prep_as(w, now, true, cmd, false);
}

/*
 * Every free slot goes out in the loop that freed it, batch SQEs per
 * system call: a slot left for a later loop would sit idle for a whole
 * reap, and the depth in flight would fall below the depth asked for (at
 * --batch 1 by a third). All but the last batch are submitted here; the
 * last one goes with uring_enter, which may also wait. SQPOLL's ring holds
 * the whole depth and its kernel thread takes the SQEs itself. Returns 0
 * with *queued the SQEs still to submit, or -errno.
 */
ENG_ALWAYS_INLINE int uring_fill(struct eng_worker *w, uint64_t now, uint32_t *queued,
				 const enum uring_kind k)
{
	uint32_t n = uring_prep(w, now, k), pending = n;

	while (n && eng_worker_budget(w)) {
		if (!w->u.sqpoll) {
			int ret;

			uring_chk_submit(w, now);
			ret = io_uring_submit(&w->u.ring);

			w->calls++;
			if (ret == -EAGAIN || ret == -EBUSY || ret == -EINTR)
				break;	/* uring_enter retries what is left */
			if (ret < 0)
				return ret;
			pending = 0;
		}
		n = uring_prep(w, now, k);
		pending += n;
	}
	*queued = pending;
	return 0;
}

/*
 * Walk every ready CQE, then publish the head once. The tail is read once
 * (acquire: the CQEs before it are written), not once per CQE. Each CQE is
 * completed by eng_done_io on locals (struct eng_done says why); an error,
 * a short read or the IO that reaches the limit is settled by the worker
 * itself, with the locals written back first and read again after.
 */
ENG_ALWAYS_INLINE uint32_t uring_reap(struct eng_worker *w, uint64_t now, const bool cmd)
{
	struct io_uring_cq *cq = &w->u.ring.cq;
	uint32_t head = *cq->khead, tail = io_uring_smp_load_acquire(cq->ktail);
	uint32_t n = tail - head, mask = cq->ring_mask, expect, nfree;
	uint64_t left = eng_worker_left(w), ios, run_ns, run_n;
	bool timed;
	const struct eng_done d = {
		.free_slot = w->free_slot, .slot_ns = w->slot_ns,
		.expect = &expect, .timed = &timed, .nfree = &nfree,
		.ios = &ios, .run_ns = &run_ns, .run_n = &run_n,
	};

	eng_done_get(&d, w);
	for (; head != tail; head++) {
		/* a CQE32 ring's entries are two CQEs long */
		const struct io_uring_cqe *cqe = &cq->cqes[(head & mask) << cmd];
		uint32_t slot = (uint32_t)cqe->user_data;
		int res = cqe->res;
		bool ok;

		uring_chk_reap(w, slot, res, now);
		ok = eng_done_io(w, &d, slot, res, now);
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
	eng_done_put(w, &d);
	if (w->hist)
		eng_worker_flush(w);
	return n;
}

/* SQPOLL: the kernel thread takes SQEs by itself, so the kernel is entered
 * only to wake that thread or to sleep until a completion; calls counts the
 * entries that really happen. */
static int uring_enter_sqpoll(struct eng_worker *w, uint32_t queued,
			      uint32_t reaped, bool wait)
{
	struct io_uring *ring = &w->u.ring;
	struct io_uring_cqe *cqe;
	int ret = 0;

	if (queued) {
		if (IO_URING_READ_ONCE(*ring->sq.kflags) & IORING_SQ_NEED_WAKEUP)
			w->calls++;
		ret = io_uring_submit(ring);
		if (ret < 0)
			return ret;
	}
	if (!wait || reaped || io_uring_cq_ready(ring))
		return 0;
	w->calls++;
	return io_uring_wait_cqe_nr(ring, &cqe, eng_worker_reap_min(w));
}

/* One io_uring_enter: submit what was queued and, when nothing more can be
 * queued, wait for a completion; otherwise just let the kernel run
 * completions (DEFER_TASKRUN runs them only when asked). */
ENG_ALWAYS_INLINE int uring_enter(struct eng_worker *w, uint32_t queued, uint32_t reaped,
				 uint64_t now)
{
	bool wait = !queued || !w->nfree;

	eng_worker_publish_inflight(w);
	if (w->u.sqpoll)
		return uring_enter_sqpoll(w, queued, reaped, wait);
	uring_chk_submit(w, now);
	w->calls++;
	return wait ? io_uring_submit_and_wait(&w->u.ring, eng_worker_reap_min(w)) :
		      io_uring_submit_and_get_events(&w->u.ring);
}

/* One copy of the loop per kind: the block path's is the one it always
 * was, passthrough's shifts its ring indexes (SQE128, CQE32). */
ENG_ALWAYS_INLINE int uring_loop_as(struct eng_worker *w, const enum uring_kind k)
{
	struct io_uring *ring = &w->u.ring;

	for (;;) {
		uint64_t now = eng_worker_now(w);
		uint32_t queued, reaped;
		int ret;

		/* the tick first: after a stop (seen late by a thread that was
		 * descheduled across the window's end) the completions reaped
		 * below are the drain's, not the window's, and are not timed */
		(void)eng_worker_tick(w);
		uring_chk_tick(w);
		reaped = uring_reap(w, now, k == URING_CMD);
		/* stopping: by the tick, or by an IO limit reached just now */
		if (w->stopping && !w->inflight)
			break;
		ret = uring_fill(w, now, &queued, k);
		if (eng_unlikely(ret < 0)) {
			w->fatal = w->fatal ? w->fatal : ret;
			eng_worker_end(w);
			return ret;
		}
		if (eng_unlikely(!queued && !w->inflight)) {
			/* SQPOLL: every IO is done but the kernel thread has not
			 * yet moved the SQ head, so no SQE was free. */
			io_uring_sqring_wait(ring);
			continue;
		}
		ret = uring_enter(w, queued, reaped, now);
		if (eng_unlikely(ret < 0 && ret != -EINTR && ret != -EAGAIN &&
				 ret != -EBUSY && ret != -ETIME)) {
			w->fatal = w->fatal ? w->fatal : ret;
			eng_worker_end(w);
			return ret;
		}
	}
	return 0;
}

int eng_uring_cmd_probe(void)
{
	struct io_uring ring;
	struct io_uring_probe *p;
	int ret = io_uring_queue_init(2, &ring, IORING_SETUP_SQE128 | IORING_SETUP_CQE32);

	if (ret)
		return ret == -EINVAL ? -EOPNOTSUPP : ret;
	p = io_uring_get_probe_ring(&ring);
	ret = p && io_uring_opcode_supported(p, IORING_OP_URING_CMD) ? 0 : -EOPNOTSUPP;
	io_uring_free_probe(p);
	io_uring_queue_exit(&ring);
	return ret;
}

/* Each copy is a function of its own: compiled into one, the registers
 * are allocated over all of them, and a NOP or a block read paid for the
 * others (callgrind: up to 2 instructions per IO, docs/engine.md). */
static __attribute__((noinline)) int uring_loop_nop(struct eng_worker *w)
{
	return uring_loop_as(w, URING_NOP);
}

static __attribute__((noinline)) int uring_loop_read(struct eng_worker *w)
{
	return uring_loop_as(w, URING_READ);
}

static __attribute__((noinline)) int uring_loop_cmd(struct eng_worker *w)
{
	return uring_loop_as(w, URING_CMD);
}

static int uring_loop(struct eng_worker *w)
{
	if (w->job->rate > 0)
		return eng_uring_rate_loop(w);
	if (w->u.cmd)
		return uring_loop_cmd(w);
	return w->expect ? uring_loop_read(w) : uring_loop_nop(w);
}

const struct eng_backend_ops eng_uring_ops = {
	.name = "io_uring",
	.setup = uring_setup,
	.loop = uring_loop,
	.teardown = uring_teardown,
};
