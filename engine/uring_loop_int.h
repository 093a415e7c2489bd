/*
 * Internal to engine/: the io_uring hot loop, one source for every copy.
 * A copy is the loop compiled with constant parameters (struct uring_how):
 * closed (a slot is refilled when it frees) or open (an IO is issued when
 * it is due, eng_job.rate), one job or a group of lanes sharing the ring
 * (eng_job.group), and the kind of IO (NOP, block read, NVMe passthrough).
 * Each instantiating file makes its copies noinline functions of their
 * own: engine/uring.c the closed single-job loop, engine/uring_rate.c the
 * open one, engine/uring_group.c the group's. Each per-IO step below is
 * written once: preparing an SQE, completing a CQE (eng_done_io, the IO
 * limit and the error test through eng_worker_settle), the retry
 * predicate, the ring index of a wide (SQE128/CQE32) entry.
 *
 * Every IO is written in the SQE at the SQ ring's tail (NO_SQARRAY where
 * the kernel has it), whose template holds what never changes (uring.c).
 * A group's lanes share the op, the mode and the buffers' registration,
 * so one template serves them all; an IO of a group writes besides what a
 * single job's does only what differs by lane: its file and length (for
 * passthrough its command's template, eng_nvme_read_template).
 */
#ifndef ENG_URING_LOOP_INT_H
#define ENG_URING_LOOP_INT_H

#include <errno.h>
#include <string.h>

#include "engine/arrival.h"
#include "engine/nvme_cmd.h"
#include "engine/worker.h"

/* The stamp check (uring.c, built into test_engine_stamps only) defines
 * these before including this file; every other copy has none of it. */
#ifndef URING_CHK
#define uring_chk_tick(w) ((void)0)
#define uring_chk_prep(slot) ((void)0)
#define uring_chk_submit(w, now) ((void)(now))
#define uring_chk_reap(w, slot, res, now) ((void)0)
#endif

/* A file that makes only closed copies (uring.c, uring_group.c) says so
 * before including this one: then the open loop's reap-side calls are not
 * in its function bodies even before the copy's constants remove them, so
 * that they cannot sway the compiler's choices for the closed copies
 * (they did, by 2 instructions per loop in the NOP copy). */
#ifdef URING_CLOSED_ONLY
#define URING_OPEN_CODE 0
#else
#define URING_OPEN_CODE 1
#endif

/* What a copy submits: reads get one SQE loop with and one without
 * registered buffers (uring_prep). */
enum uring_kind {
	URING_NOP,
	URING_READ,	/* IORING_OP_READ(_FIXED) on a file or block device */
	URING_CMD,	/* NVMe passthrough */
};

/* What a copy of the loop is; every field a constant where it is used. */
struct uring_how {
	bool open;		/* IOs when due (eng_job.rate) */
	bool group;		/* lanes of a group share the ring */
	enum uring_kind kind;
};

/* A call that submitted nothing this time and is simply made again:
 * the loop's next enter retries what is left. */
static inline bool uring_retry(int ret)
{
	return ret == -EAGAIN || ret == -EBUSY || ret == -EINTR;
}

/* A failure that ends the loop: not a retry, nor a wait's timeout. */
static inline bool uring_fatal(int ret)
{
	return ret < 0 && !uring_retry(ret) && ret != -ETIME;
}

/* Entry idx of a ring whose entries are twice as wide with SQE128 and
 * CQE32 (passthrough): the one place the shift is written. */
ENG_ALWAYS_INLINE struct io_uring_sqe *uring_sqe_at(struct io_uring_sqe *sqes, uint32_t idx,
						  const bool wide)
{
	return &sqes[(size_t)idx << wide];
}

ENG_ALWAYS_INLINE const struct io_uring_cqe *uring_cqe_at(const struct io_uring_cq *cq,
							 uint32_t head, const bool wide)
{
	return &cq->cqes[(size_t)(head & cq->ring_mask) << wide];
}

/* The thread's system calls: a single job's own, a group's shared. */
ENG_ALWAYS_INLINE uint64_t *uring_calls(struct eng_group *g, const struct uring_how h)
{
	return h.group ? &g->calls : &g->lane[0].calls;
}

ENG_ALWAYS_INLINE unsigned uring_lanes(const struct eng_group *g, const struct uring_how h)
{
	return h.group ? g->n : 1;
}

/*
 * The batch that IOs issued now join: the newest, if it has this stamp
 * (an earlier call of this loop), else a new one in the oldest's place,
 * first due at next. A batch is known by its stamp, which is unique only
 * while the clock never steps back; when it does, every batch is dropped
 * and none is kept again (due_off), so a reap's run is never matched to
 * a batch whose stamp another batch shares.
 */
static inline struct eng_due_batch *uring_due_batch(struct eng_worker *w, uint64_t now,
						    uint64_t next)
{
	struct eng_due_batch *b = &w->due_batch[w->due_at];

	/* a stamp is since the schedule began, so it can be 0 as an unused
	 * batch's is: that batch is then this one, rightly, as its first
	 * (0) is the due time of any IO that can go out at 0 */
	if (eng_likely(b->stamp == now))
		return b;
	if (eng_unlikely(now < b->stamp)) {
		memset(w->due_batch, 0, sizeof(w->due_batch));
		w->due_off = true;
		return NULL;
	}
	w->due_at = (w->due_at + 1) & (ENG_DUE_BATCHES - 1);
	b = &w->due_batch[w->due_at];
	*b = (struct eng_due_batch){ .stamp = now, .first = next };
	return b;
}

/* The lateness octaves (eng_result.late_oct) of the n IOs an open loop
 * just issued at now, one at a time: those of slots free_slot[nfree] on. */
static __attribute__((noinline, cold)) void uring_late_each(struct eng_worker *w, uint64_t now,
							    uint32_t nfree, uint32_t n)
{
	uint32_t j;

	for (j = 0; j < n; j++)
		w->late_oct[eng_late_oct(now - w->due_ns[w->free_slot[nfree + j]])]++;
}

/* The n IOs an open loop just issued at now, the first due at first, into
 * its lateness octaves: per call, not per IO (an octave's index per IO
 * cost 10% of the loop). Where every slot was taken when the loop last
 * entered the kernel, they waited for the device to free one: counted
 * apart (ENG_LATE_SLOT). Else their due times rise in the order issued,
 * so their lateness falls from now - first to now - the last's (the slot
 * popped last, free_slot[nfree]); where both are in one octave (on time,
 * or one delay's burst) all n go there at once, else one at a time. */
ENG_ALWAYS_INLINE void uring_late_add(struct eng_worker *w, uint64_t now, uint64_t first,
				      uint32_t nfree, uint32_t n)
{
	unsigned k = eng_late_oct(now - first);

	if (w->late_full) {
		w->late_oct[ENG_LATE_SLOT] += n;
		return;
	}
	if (eng_likely(k == eng_late_oct(now - w->due_ns[w->free_slot[nfree]]))) {
		w->late_oct[k] += n;
		return;
	}
	uring_late_each(w, now, nfree, n);
}

/*
 * Up to n SQEs of lane w, written in place: only the fields that differ
 * per IO (the SQE is its template, uring.c). The lane's fields used per
 * SQE are copied to locals first: stores into the SQEs and the slot
 * arrays could alias them, and the compiler would reload them for every
 * SQE. A closed loop stamps each slot with now; an open one takes only
 * the IOs due by now, each keeping its due time (due_ns) besides now
 * (slot_ns, its service time's start). Returns how many it prepared.
 */
ENG_ALWAYS_INLINE uint32_t uring_prep_as(struct io_uring *ring, struct eng_worker *w,
					 uint64_t now, uint32_t n, const struct uring_how h,
					 const bool fixed, const bool poisson, const bool timed,
					 const bool alike)
{
	const bool cmd = h.kind == URING_CMD, read = h.kind != URING_NOP;
	struct io_uring_sq *sq = &ring->sq;
	struct io_uring_sqe *sqes = sq->sqes;
	uint32_t *free_slot = w->free_slot, nfree = w->nfree, mask = sq->ring_mask;
	uint32_t tail = sq->sqe_tail, shift = w->u.region_shift, bs = w->bs, i;
	uint32_t base = w->u.buf_base, nsid = cmd ? w->job->target->nsid : 0;
	uint32_t lba_shift = w->u.lba_shift, md_len = w->u.md_len, prinfo = w->u.prinfo;
	uint32_t dlen = w->u.dlen, dstride = w->u.dstride;
	uint64_t md = w->u.md, dbuf = w->u.dbuf;
	int fd = (int)w->u.file_idx;
	uint64_t *slot_ns = w->slot_ns, *due_ns = w->due_ns, tag = (uint64_t)w->u.file_idx << 32;
	struct eng_arrival arr;
	struct eng_rng rng = w->rng;
	char *buf = w->buf;
	/* a timed open loop's batch (struct eng_due_batch): its IOs due
	 * before lim were issued late (now - due > ENG_RATE_LATE_NS), and
	 * come first, so the loop takes them up to bound = lim - 1, then
	 * the rest up to now, and counts the first part once */
	struct eng_due_batch *b = NULL;
	uint64_t sum = 0, sum2 = 0, bound, due = 0, first = 0;
	uint32_t nlate = 0;

	/* an open loop's times are since its schedule began (slot_ns,
	 * due_ns, its batches, struct eng_worker): each IO's due time is
	 * then the schedule's own offset, converted, with no start added
	 * (2 instructions per IO fewer). Before it began (a clock that
	 * stepped back) nothing is due. */
	if (h.open) {
		if (eng_unlikely(now < w->arr.start_ns))
			return 0;
		arr = w->arr;
		now -= arr.start_ns;
	}
	bound = now;
	if (h.open)
		first = eng_arrival_offset(&arr);
	if (h.open && timed && !w->due_off)
		b = uring_due_batch(w, now, eng_arrival_offset(&arr));
	if (h.open && timed && b) {
		sum = b->sum;
		sum2 = b->sum2;
		if (now > ENG_RATE_LATE_NS)
			bound = now - ENG_RATE_LATE_NS - 1;
	}
	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe;
		uint32_t slot;

		if (h.open)
			due = eng_arrival_offset(&arr);
		if (h.open && !timed && due > now)
			break;
		if (h.open && timed) {
			if (eng_unlikely(due > bound)) {
				if (bound == now)
					break;
				nlate = i;
				bound = now;
				if (due > now)
					break;
			}
			/* modulo 2^64, all uring_due_batch_add needs */
			sum += due;
			sum2 += due * due;
		}
		slot = free_slot[--nfree];
		sqe = uring_sqe_at(sqes, (tail + i) & mask, cmd);
		slot_ns[slot] = now;
		if (h.group && read) {
			sqe->fd = fd;
			if (cmd)
				eng_nvme_read_template((struct nvme_uring_cmd *)(void *)sqe->cmd,
						       nsid, bs, lba_shift, prinfo, dlen, md_len);
			else if (!alike)
				sqe->len = bs;
		}
		if (h.open) {
			due_ns[slot] = due;
			eng_arrival_step_as(&arr, poisson);
		}
		if (cmd) {
			/* md 0 and md_len 0 without separate metadata: 0,
			 * no buffer, with no branch */
			eng_nvme_read_at((struct nvme_uring_cmd *)(void *)sqe->cmd,
					 (const void *)(uintptr_t)(dbuf + (uint64_t)slot * dstride),
					 md + (uint64_t)slot * md_len, eng_rng_offset(&rng), lba_shift);
		} else if (read) {
			sqe->addr = (uint64_t)(uintptr_t)(buf + (size_t)slot * bs);
			sqe->off = eng_rng_offset(&rng);
		}
		if (read && fixed)
			sqe->buf_index = (uint16_t)(!h.group ? slot >> shift :
						    alike ? base : base + (slot >> shift));
		sqe->user_data = h.group ? tag | slot : slot;
		uring_chk_prep(slot);
	}
	sq->sqe_tail = tail + i;
	if (h.open && timed && b && i) {
		b->last = due;
		b->n += i;
		b->sum = sum;
		b->sum2 = sum2;
		b->late += bound == now ? nlate : i;
	}
	if (h.open && i)
		uring_late_add(w, now, first, nfree, i);
	if (h.open) {
		/* what the issue moved: the schedule's place, and the gaps'
		 * generator of a Poisson one */
		w->arr.t_ns = arr.t_ns;
		w->arr.next_ns = arr.start_ns + eng_arrival_offset(&arr);
		if (poisson)
			w->arr.rng = arr.rng;
	}
	w->rng = rng;
	w->nfree = nfree;
	w->inflight += i;
	return i;
}

ENG_ALWAYS_INLINE uint32_t uring_prep_open(struct io_uring *ring, struct eng_worker *w,
					   uint64_t now, uint32_t n, const struct uring_how h,
					   const bool timed)
{
	if (w->arr.poisson)
		return w->u.fixed ? uring_prep_as(ring, w, now, n, h, true, true, timed, false) :
				    uring_prep_as(ring, w, now, n, h, false, true, timed, false);
	return w->u.fixed ? uring_prep_as(ring, w, now, n, h, true, false, timed, false) :
			    uring_prep_as(ring, w, now, n, h, false, false, timed, false);
}

/* Reads get one SQE loop with and one without registered buffers, an
 * open loop one per kind of schedule and one timed, and a group of lanes
 * alike (u.alike) one of its own, so no SQE tests which it is. */
ENG_ALWAYS_INLINE uint32_t uring_prep(struct io_uring *ring, struct eng_worker *w, uint64_t now,
				      uint32_t n, const struct uring_how h)
{
	if (h.kind == URING_NOP)
		return uring_prep_as(ring, w, now, n, h, false, false, false, false);
	if (h.open && w->latency)
		return uring_prep_open(ring, w, now, n, h, true);
	if (h.open)
		return uring_prep_open(ring, w, now, n, h, false);
	if (h.group && h.kind == URING_READ && w->u.alike)
		return w->u.fixed ? uring_prep_as(ring, w, now, n, h, true, false, false, true) :
				    uring_prep_as(ring, w, now, n, h, false, false, false, true);
	return w->u.fixed ? uring_prep_as(ring, w, now, n, h, true, false, false, false) :
			    uring_prep_as(ring, w, now, n, h, false, false, false, false);
}

/* One submitting call in the middle of a fill. */
ENG_ALWAYS_INLINE int uring_submit(struct eng_group *g, struct io_uring *ring, uint64_t now,
				   const struct uring_how h)
{
	uring_chk_submit(&g->lane[0], now);
	(*uring_calls(g, h))++;
	return io_uring_submit(ring);
}

/*
 * Every free slot of every lane goes out in the loop that freed it (an
 * open loop's: every IO due by now), up to a batch per lane per call: a
 * slot left for a later loop would sit idle for a whole reap, and the
 * depth in flight would fall below the depth asked for (at --batch 1 by
 * a third). A full ring is submitted here (a single job's is its batch, a
 * group's the lanes' batches); what is left goes with
 * uring_enter, which may also wait. SQPOLL's kernel thread takes the SQEs
 * itself. Returns 0 with *queued the SQEs still to submit, or -errno.
 */
ENG_ALWAYS_INLINE int uring_fill(struct eng_group *g, uint64_t now, uint32_t *queued,
				 const struct uring_how h)
{
	struct io_uring *ring = &g->lane[0].u.ring;
	uint32_t pending = 0, n, room, got;
	unsigned k;
	int ret;

	for (k = 0; k < uring_lanes(g, h); k++) {
		struct eng_worker *w = &g->lane[k];

		while ((n = eng_worker_budget(w))) {
			if (h.open && w->arr.next_ns > now)
				break;
			room = io_uring_sq_space_left(ring);
			if (!room) {
				if (w->u.sqpoll && !h.group)
					break;	/* its ring holds the whole depth */
				ret = uring_submit(g, ring, now, h);
				if (uring_retry(ret))
					goto out;	/* the enter retries */
				if (ret < 0)
					return ret;
				pending = 0;
				continue;
			}
			got = uring_prep(ring, w, now, n < room ? n : room, h);
			pending += got;
			if (!got)
				break;
		}
		/* what the IOs issued next waited for (uring_late_add) */
		if (h.open)
			w->late_full = !w->nfree;
	}
out:
	*queued = pending;
	return 0;
}

/*
 * An open loop's latencies from when each IO was due. Unlike the service
 * times they never repeat within a run (every IO has a due time of its
 * own), but a run of CQEs of one stamp (issued by one loop, reaped by
 * one) that holds the whole batch issued with that stamp
 * (struct eng_due_batch) needs none of them: its sum, sum of squares,
 * minimum, maximum and late count were summed at issue, relative to the
 * first one's due time, and when its first and last IO share a bucket
 * the batch is one increment there. Stamps are unique to a batch (the
 * clock never stepped back, or there are no batches), so a run of n IOs
 * of the stamp of a batch of n is that batch. Any other run is added an
 * IO at a time, walking its CQEs again (uring_due_each). The histogram
 * is the one eng_hist_add per IO records (the sum of squares up to
 * rounding: here it is exact and rounded once).
 */
struct uring_due {
	const uint64_t *due_ns;	/* the worker's */
	uint64_t sub;		/* the run's stamp */
	uint32_t start;		/* its first CQE */
};

/* The newest batch of stamp sub, or NULL. */
static inline const struct eng_due_batch *uring_due_find(const struct eng_worker *w,
							 uint64_t sub)
{
	unsigned k;

	for (k = 0; k < ENG_DUE_BATCHES; k++) {
		const struct eng_due_batch *b =
			&w->due_batch[(w->due_at - k) & (ENG_DUE_BATCHES - 1)];

		if (b->stamp == sub)
			return b;
		if (b->stamp < sub)	/* older ones are older still */
			break;
	}
	return NULL;
}

/* The CQEs from start to end, good completions of one stamp, one at a
 * time: each IO's latency from when it was due and whether it was issued
 * late (more than ENG_RATE_LATE_NS after), as eng_hist_add and
 * uring_done_open would count them. */
static __attribute__((noinline, cold)) void uring_due_each(struct eng_worker *w,
							   const struct io_uring_cq *cq,
							   uint32_t start, uint32_t end,
							   uint64_t now, uint64_t *late, bool wide)
{
	for (; start != end; start++) {
		uint32_t slot = (uint32_t)uring_cqe_at(cq, start, wide)->user_data;
		uint64_t due = w->due_ns[slot], dt = now - due;

		*late += w->slot_ns[slot] - due > ENG_RATE_LATE_NS;
		/* a wrapped negative interval counts as 0, as eng_done_io's */
		eng_hist_add(w->hist, (int64_t)dt < 0 ? 0 : dt);
	}
}

/* Whether batch b, reaped whole at now, is one bucket's: then its
 * figures go in at once. Each IO's latency is low + e, low the batch's
 * smallest (its last IO's) and e = last - due, so the latencies' sum is
 * n low + se and their squares' n low^2 + 2 low se + se2, with se and se2
 * the sums of e and e^2. The guards keep those exact in 64 bits: e below
 * 2^26 (last - first) and at most 1024 IOs, so se is below 2^36 and se2
 * below 2^62, their values modulo 2^64 from the batch's sums of due and
 * due^2 are them; latencies below 2^52 ns, so none is a wrapped negative
 * interval. The squares' sum is three exact terms added in doubles. */
static inline bool uring_due_batch_add(struct eng_hist *h, const struct eng_due_batch *b,
				       uint64_t now, uint64_t *late)
{
	uint64_t lo, span, hi = now - b->first, low = now - b->last, top = b->last - b->first;
	/* with d = due - first, sd and sd2 the sums of d and d^2 (exact
	 * modulo 2^64), e = top - d */
	uint64_t sd = b->sum - b->n * b->first;
	uint64_t sd2 = b->sum2 - 2 * b->first * b->sum + b->n * b->first * b->first;
	uint64_t se = b->n * top - sd, se2 = b->n * top * top - 2 * top * sd + sd2;
	double dl = (double)(int64_t)low;
	unsigned idx;

	if (top >= 1ull << 26 || b->n > 1024 || hi >= 1ull << 52)
		return false;
	idx = eng_hist_bucket(low, &lo, &span);
	if (hi - lo > span)
		return false;
	h->b[idx] += b->n;
	h->count += b->n;
	h->sum_ns += b->n * low + se;
	h->sumsq += (double)b->n * dl * dl + 2 * dl * (double)(int64_t)se + (double)(int64_t)se2;
	h->min_ns = low < h->min_ns ? low : h->min_ns;
	h->max_ns = hi > h->max_ns ? hi : h->max_ns;
	*late += b->late;
	return true;
}

/* The run of stamp u->sub from u->start to end (good completions, reaped
 * at now) into the worker's histograms: their service time is one, and
 * joins the run of equal ones that eng_done_io keeps (d); their latencies
 * from when they were due go into hist. */
ENG_ALWAYS_INLINE void uring_due_close(struct eng_worker *w, const struct eng_done *d,
				       const struct io_uring_cq *cq, const struct uring_due *u,
				       uint32_t end, uint64_t now, uint64_t *late, const bool wide)
{
	const struct eng_due_batch *b;
	uint64_t svc = now - u->sub;

	if (end == u->start)
		return;
	/* a wrapped negative interval counts as 0, as eng_done_io's */
	svc = (int64_t)svc < 0 ? 0 : svc;
	if (svc == *d->run_ns) {
		*d->run_n += end - u->start;
	} else {
		if (*d->run_n)
			eng_hist_add_n(w->run_hist, *d->run_ns, *d->run_n);
		*d->run_ns = svc;
		*d->run_n = end - u->start;
	}
	/* now > sub: no service time was clamped, so equal ones had one stamp */
	b = now > u->sub ? uring_due_find(w, u->sub) : NULL;
	if (b && b->n == end - u->start && uring_due_batch_add(w->hist, b, now, late))
		return;
	uring_due_each(w, cq, u->start, end, now, late, wide);
}

/* An open loop's good completion at CQE at: untimed, whether it was
 * issued late (more than ENG_RATE_LATE_NS after it was due,
 * eng_result.late), from its two stamps; timed, it joins the run of its
 * stamp or closes that run and begins the next. */
ENG_ALWAYS_INLINE void uring_done_open(struct eng_worker *w, const struct eng_done *d,
				      const struct io_uring_cq *cq,
				      struct uring_due *u, uint32_t slot, uint32_t at,
				      uint64_t now, uint64_t *late, const bool wide,
				      const bool timed)
{
	uint64_t sub = d->slot_ns[slot];

	if (!timed) {
		*late += sub - u->due_ns[slot] > ENG_RATE_LATE_NS;
		return;
	}
	if (eng_unlikely(sub != u->sub)) {
		uring_due_close(w, d, cq, u, at, now, late, wide);
		u->sub = sub;
		u->start = at;
	}
}

/* A run's figures back to its worker: its good completions are the CQEs
 * from start to end, late of them issued late (an open loop's). */
ENG_ALWAYS_INLINE void uring_run_put(struct eng_worker *w, const struct eng_done *d,
				     const struct io_uring_cq *cq, const struct uring_due *u,
				     uint32_t start, uint32_t end, uint64_t ios0, uint64_t now,
				     uint64_t late, const struct uring_how h, const bool timed)
{
	if (URING_OPEN_CODE && h.open && timed)
		uring_due_close(w, d, cq, u, end, now, &late, h.kind == URING_CMD);
	if (h.open)
		w->late += late;
	w->ios = ios0 + (end - start);
	eng_done_put(w, d);
}

/*
 * A run of lane w's CQEs from head on, completed by eng_done_io on locals
 * (struct eng_done says why), timed or not as the copy says: up to tail,
 * to a CQE of another lane (a group's CQE carries its lane in the high 32
 * bits of user_data), or to the first IO that its worker must settle
 * itself (eng_worker_settle): a failed or short one, or the one that
 * reaches the IO limit (the run stops short of it, so no IO before it
 * tests the limit), with the locals written back first. Returns the head
 * after the run.
 */
ENG_ALWAYS_INLINE uint32_t uring_reap_run(struct eng_worker *w, const struct io_uring_cq *cq,
					  uint32_t head, uint32_t tail, uint32_t lane,
					  uint64_t now, const struct uring_how h, const bool timed)
{
	const bool wide = h.kind == URING_CMD;
	uint32_t expect, nfree, end, n = tail - head, start = head, qd = w->job->qd;
	uint64_t tag = h.group ? (uint64_t)lane << 32 : 0;
	uint64_t run_ns, run_n, left = eng_worker_left(w), ios0 = w->ios;
	bool tm;
	/* ios is left to the run: every CQE it walks past is a good one */
	const struct eng_done d = {
		.free_slot = w->free_slot, .slot_ns = w->slot_ns,
		.expect = &expect, .timed = &tm, .nfree = &nfree,
		.run_ns = &run_ns, .run_n = &run_n,
	};
	const struct io_uring_cqe *cqe;
	struct uring_due u = { .due_ns = w->due_ns, .sub = UINT64_MAX, .start = head };
	uint64_t late = 0;
	int res;
	bool ok;

	/* an open loop's stamps and due times are since its schedule began
	 * (uring_prep_as), and so is its now here: differences are the same
	 * modulo 2^64 */
	if (h.open)
		now -= w->arr.start_ns;
	eng_done_get(&d, w);
	/* w->latency, as the caller chose this copy by it; an open loop's
	 * service times are timed a run of one stamp at a time instead
	 * (uring_due_close) */
	tm = timed && !h.open;
	end = head + (left <= 1 ? 0 : left - 1 < n ? (uint32_t)(left - 1) : n);
	for (; head != end; head++) {
		uint64_t ud;
		uint32_t slot;

		cqe = uring_cqe_at(cq, head, wide);
		/* lane's CQE: user_data minus its tag is one of its slots */
		ud = cqe->user_data - tag;
		if (h.group && ud >= qd)
			goto out;
		slot = (uint32_t)ud;
		res = cqe->res;
		uring_chk_reap(w, slot, res, now);
		if (eng_unlikely(!eng_done_io(w, &d, slot, res, now)))
			goto bad;
		if (URING_OPEN_CODE && h.open)
			uring_done_open(w, &d, cq, &u, slot, head, now, &late, wide, timed);
	}
	if (head == tail)
		goto out;
	/* the IO that reaches the limit, or one drained after it */
	cqe = uring_cqe_at(cq, head, wide);
	if (h.group && cqe->user_data - tag >= qd)
		goto out;
	res = cqe->res;
	uring_chk_reap(w, (uint32_t)cqe->user_data, res, now);
	ok = eng_done_io(w, &d, (uint32_t)cqe->user_data, res, now);
	if (URING_OPEN_CODE && ok && h.open)
		uring_done_open(w, &d, cq, &u, (uint32_t)cqe->user_data, head, now, &late,
				wide, timed);
	head += ok;	/* counted among the good ones below */
	goto settle;
bad:
	ok = false;
settle:
	/* the window may end here, and the histograms with it: the run's
	 * figures go in first */
	uring_run_put(w, &d, cq, &u, start, head, ios0, now, late, h, timed);
	eng_worker_settle(w, ok, res);
	return ok ? head : head + 1;
out:
	uring_run_put(w, &d, cq, &u, start, head, ios0, now, late, h, timed);
	return head;
}

/*
 * Walk every ready CQE, then publish the head once. The tail is read once
 * (acquire: the CQEs before it are written), not once per CQE. A lane's
 * CQEs mostly come in runs (its IOs went out together), each completed on
 * locals by uring_reap_run, in a copy timed or not by the lane's worker's
 * latency now (the window's end turns it off). An open loop times each IO
 * from its submission as a closed one does (runs of equal service time,
 * into svc_hist), and from when it was due into hist.
 */
ENG_ALWAYS_INLINE uint32_t uring_reap(struct eng_group *g, uint64_t now, const struct uring_how h)
{
	struct io_uring_cq *cq = &g->lane[0].u.ring.cq;
	uint32_t head = *cq->khead, tail = io_uring_smp_load_acquire(cq->ktail);
	uint32_t n = tail - head, lane = 0;
	unsigned k;

	while (head != tail) {
		struct eng_worker *w;

		if (h.group)
			lane = (uint32_t)(uring_cqe_at(cq, head, h.kind == URING_CMD)->user_data >> 32);
		w = &g->lane[lane];
		head = w->latency ? uring_reap_run(w, cq, head, tail, lane, now, h, true) :
				    uring_reap_run(w, cq, head, tail, lane, now, h, false);
	}
	if (n)
		io_uring_smp_store_release(cq->khead, tail);
	for (k = 0; k < uring_lanes(g, h); k++)
		if (g->lane[k].run_hist)
			eng_worker_flush(&g->lane[k]);
	return n;
}

/* Newer than liburing 2.3's header (include/uapi/linux/io_uring.h). */
#ifndef IORING_ENTER_NO_IOWAIT
#define IORING_ENTER_NO_IOWAIT (1U << 7)	/* 6.15 */
#endif
#ifndef IORING_FEAT_MIN_TIMEOUT
#define IORING_FEAT_MIN_TIMEOUT (1U << 15)	/* 6.12 */
#endif
#ifndef IORING_FEAT_NO_IOWAIT
#define IORING_FEAT_NO_IOWAIT (1U << 17)	/* 6.15 */
#endif

/* struct io_uring_getevents_arg as the kernel reads it since 6.12: what
 * liburing 2.3 calls pad is min_wait_usec (a kernel before 6.12 refuses
 * it nonzero with EINVAL, io_get_ext_arg), so the layout is written here
 * under a name of our own rather than behind an #ifndef a struct cannot
 * have. */
struct uring_getevents_arg {
	uint64_t sigmask;
	uint32_t sigmask_sz;
	uint32_t min_wait_usec;
	uint64_t ts;
};

/* A minimum wait's timeout: after the minimum, a wait that has no CQE yet
 * sleeps until the first (io_cqring_min_timer_wakeup switches to this
 * timeout) rather than return -ETIME with none and be made again each
 * minimum. Long enough that a completion, not it, ends the wait. */
#define URING_MIN_WAIT_TS_NS 1000000000ull

/*
 * The loop's waiting io_uring_enter: liburing 2.3's io_uring_submit_and_wait
 * (or its wait_cqe_nr, submit_and_wait_timeout) with what 2.3 cannot pass,
 * u.enter_flags (the registered ring fd, NO_IOWAIT), and where ts_ns or
 * min_us is set the extended argument: at most ts_ns, and the minimum
 * wait of eng_job.reap_wait_us (io_uring/wait.c, io_cqring_wait: at
 * min_us the wait ends if a CQE has come since it began, else at the
 * first). flush: publish the SQ tail and submit what it holds (as
 * liburing's __io_uring_flush_sq; never SQPOLL, whose caller submitted).
 * The submitted count or -errno, as liburing's.
 */
ENG_ALWAYS_INLINE int uring_wait(struct eng_worker *w0, uint32_t min, uint64_t ts_ns,
				 uint32_t min_us, const bool flush)
{
	struct io_uring *ring = &w0->u.ring;
	struct io_uring_sq *sq = &ring->sq;
	unsigned flags = w0->u.enter_flags | IORING_ENTER_GETEVENTS, submit = 0;
	struct __kernel_timespec ts;
	struct uring_getevents_arg arg;

	if (flush) {
		if (sq->sqe_head != sq->sqe_tail) {
			sq->sqe_head = sq->sqe_tail;
			IO_URING_WRITE_ONCE(*sq->ktail, sq->sqe_tail);
		}
		submit = sq->sqe_tail - *sq->khead;
	}
	if (eng_likely(!ts_ns && !min_us))
		return io_uring_enter((unsigned)ring->enter_ring_fd, submit, min, flags, NULL);
	ts.tv_sec = (long long)(ts_ns / 1000000000ull);
	ts.tv_nsec = (long long)(ts_ns % 1000000000ull);
	arg = (struct uring_getevents_arg){ .min_wait_usec = min_us,
					    .ts = (uint64_t)(uintptr_t)&ts };
	return io_uring_enter2((unsigned)ring->enter_ring_fd, submit, min,
			       flags | IORING_ENTER_EXT_ARG, (sigset_t *)(void *)&arg, sizeof(arg));
}

/* SQPOLL: the kernel thread takes SQEs by itself, so the kernel is entered
 * only to wake that thread or to sleep until a completion; calls counts the
 * entries that really happen. */
ENG_ALWAYS_INLINE int uring_enter_sqpoll(struct eng_group *g, uint32_t queued, uint32_t reaped,
					 bool wait, uint32_t min, const struct uring_how h)
{
	struct io_uring *ring = &g->lane[0].u.ring;
	uint32_t min_us;
	int ret = 0;

	if (queued) {
		if (IO_URING_READ_ONCE(*ring->sq.kflags) & IORING_SQ_NEED_WAKEUP)
			(*uring_calls(g, h))++;
		ret = io_uring_submit(ring);
		if (ret < 0)
			return ret;
	}
	if (!wait || reaped || io_uring_cq_ready(ring))
		return 0;
	(*uring_calls(g, h))++;
	min_us = g->lane[0].u.min_wait_us;
	return uring_wait(&g->lane[0], min, min_us ? URING_MIN_WAIT_TS_NS : 0, min_us, false);
}

/* The open loop's wait when it may issue more: none while an IO is due
 * within twice the spin margin (or the ring is polled: its wait polls the
 * device and ignores a timeout), else a sleep in the ring's wait until
 * ENG_RATE_SPIN_NS before the next due IO, at most ENG_RATE_SLEEP_MAX_NS
 * (arrival.h); a completion ends it early. */
ENG_ALWAYS_INLINE int uring_enter_open(struct eng_group *g, uint64_t now, const struct uring_how h)
{
	struct io_uring *ring = &g->lane[0].u.ring;
	const struct eng_job *j = g->lane[0].job;
	uint64_t next = UINT64_MAX, gap;
	unsigned k;

	for (k = 0; k < uring_lanes(g, h); k++)
		if (!g->lane[k].stopping && g->lane[k].arr.next_ns < next)
			next = g->lane[k].arr.next_ns;
	gap = next > now ? next - now : 0;
	if (j->mode == ENG_MODE_POLL || j->mode == ENG_MODE_HYBRID || gap <= 2 * ENG_RATE_SPIN_NS)
		return io_uring_submit_and_get_events(ring);
	gap -= ENG_RATE_SPIN_NS;
	gap = gap < ENG_RATE_SLEEP_MAX_NS ? gap : ENG_RATE_SLEEP_MAX_NS;
	return uring_wait(&g->lane[0], 1, gap, 0, true);
}

/*
 * The loop's one io_uring_enter: submit what was queued and, when no lane
 * can queue more (a full depth, a drain, the --ios limit's last IOs in
 * flight), wait for completions: --reap of them (t/io_uring's -c), but
 * never more than the lane with the fewest IOs in flight holds, so a
 * stalled drive's IOs are not the ones waited for. An open loop that may
 * issue more waits for its next due IO instead. Otherwise the kernel just
 * runs completions (DEFER_TASKRUN runs them only when asked).
 */
ENG_ALWAYS_INLINE int uring_enter(struct eng_group *g, uint32_t queued, uint32_t reaped,
				  uint64_t now, const struct uring_how h)
{
	struct io_uring *ring = &g->lane[0].u.ring;
	uint32_t min = g->lane[0].job->reap ? g->lane[0].job->reap : 1;
	bool more = false, wait;
	unsigned k;

	for (k = 0; k < uring_lanes(g, h); k++) {
		struct eng_worker *w = &g->lane[k];

		eng_worker_publish_inflight(w);
		if (w->inflight && w->inflight < min)
			min = w->inflight;
		more |= h.open ? eng_worker_budget(w) != 0 : !w->stopping && w->nfree;
	}
	wait = h.open ? !more : !queued || !more;
	if (!h.group && g->lane[0].u.sqpoll)
		return uring_enter_sqpoll(g, queued, reaped, wait, min, h);
	uring_chk_submit(&g->lane[0], now);
	(*uring_calls(g, h))++;
	if (wait && h.open)
		return uring_wait(&g->lane[0], 1, 0, 0, true);
	/* --reap-wait: a full queue's wait for min ends at its bound */
	if (wait)
		return uring_wait(&g->lane[0], min,
				  g->lane[0].u.min_wait_us ? URING_MIN_WAIT_TS_NS : 0,
				  g->lane[0].u.min_wait_us, true);
	if (h.open)
		return uring_enter_open(g, now, h);
	return io_uring_submit_and_get_events(ring);
}

/* Once per loop, before the reap: every lane notices phase changes and
 * snapshot requests; after a stop (seen late by a thread that was
 * descheduled across the window's end) the completions reaped next are
 * the drain's, not the window's, and are not timed. An open loop also
 * integrates the IOs in flight since the last loop (their mean is the
 * window's depth: Little's law). */
ENG_ALWAYS_INLINE void uring_tick(struct eng_group *g, uint64_t now, const struct uring_how h)
{
	unsigned k;

	/* before the tick: the interval up to now belongs to the window
	 * only if the window had begun before it (the tick may begin it) */
	for (k = 0; h.open && k < uring_lanes(g, h); k++) {
		struct eng_worker *w = &g->lane[k];

		uint64_t dt = now - w->last_ns;

		/* signed: one conversion each, and a clock that stepped back
		 * adds nothing (not 2^64 ns) */
		if ((int64_t)dt > 0)
			w->inflight_ns += (double)(int32_t)w->inflight * (double)(int64_t)dt;
		w->last_ns = now;
	}
	if (!h.group) {
		(void)eng_worker_tick(&g->lane[0]);
		uring_chk_tick(&g->lane[0]);
		return;
	}
	/* every lane as a worker of its own would; the thread's calls are
	 * counted from when the first lane's window begins */
	for (k = 0; k < g->n; k++) {
		if (!g->lane[k].settled)
			(void)eng_worker_tick(&g->lane[k]);
		if (eng_unlikely(!g->measuring && g->lane[k].t_start_ns)) {
			g->measuring = true;
			g->calls = 0;
		}
	}
}

/* Whether any lane still runs: a group settles the lanes that have
 * stopped and hold no IO (eng_group_settle_done, the thread's, worker.c). */
ENG_ALWAYS_INLINE bool uring_running(struct eng_group *g, const struct uring_how h)
{
	const struct eng_worker *w = &g->lane[0];
	unsigned k;

	if (!h.group)
		return !(w->stopping && !w->inflight);
	/* only a lane that has stopped has anything to settle */
	for (k = 0; k < g->n; k++)
		if (g->lane[k].stopping)
			return eng_group_settle_done(g) != 0;
	return true;
}

static inline void uring_fail(struct eng_group *g, int ret, const struct uring_how h)
{
	struct eng_worker *w = &g->lane[0];

	if (h.group) {
		eng_group_fail(g, ret);
		return;
	}
	w->fatal = w->fatal ? w->fatal : ret;
	eng_worker_end(w);
}

/* An open loop's schedules start now, one per lane. 0 or -errno. */
static inline int uring_open_start(struct eng_group *g, const struct uring_how h)
{
	uint64_t now = eng_ticks_to_ns(eng_ticks());
	unsigned k;
	int ret;

	for (k = 0; k < uring_lanes(g, h); k++) {
		struct eng_worker *w = &g->lane[k];
		const struct eng_job *j = w->job;

		ret = eng_arrival_init(&w->arr, j->rate, j->arrival,
				       j->seed ^ 0x6a09e667f3bcc908ull, now, j->rate_phase);
		if (ret)
			return ret;
		w->last_ns = now;
	}
	return 0;
}

/* The loop: one clock read, the tick, the reap, the fill, one enter. */
ENG_ALWAYS_INLINE int uring_loop_as(struct eng_group *g, const struct uring_how h)
{
	struct io_uring *ring = &g->lane[0].u.ring;
	int ret = h.open ? uring_open_start(g, h) : 0;

	if (ret) {
		uring_fail(g, ret, h);
		return ret;
	}
	for (;;) {
		/* an open loop's schedule runs on the clock even untimed */
		uint64_t now = h.open || (h.group ? g->timed : g->lane[0].latency) ?
			       eng_ticks_to_ns(eng_ticks()) : 0;
		uint32_t queued, reaped;

		uring_tick(g, now, h);
		reaped = uring_reap(g, now, h);
		/* stopping: by the tick, or by an IO limit reached just now */
		if (!uring_running(g, h))
			break;
		ret = uring_fill(g, now, &queued, h);
		if (eng_unlikely(ret < 0))
			break;
		if (!h.group && !h.open && eng_unlikely(!queued && !g->lane[0].inflight)) {
			/* SQPOLL: every IO is done but the kernel thread has not
			 * yet moved the SQ head, so no SQE was free. */
			io_uring_sqring_wait(ring);
			continue;
		}
		ret = uring_enter(g, queued, reaped, now, h);
		if (eng_unlikely(uring_fatal(ret)))
			break;
		ret = 0;
	}
	if (ret < 0)
		uring_fail(g, ret, h);
	return ret;
}

/* A copy of the loop as a function of its own, name(w) for one job (a
 * group of one lane) or name(g) for a group; the fields of struct
 * uring_how follow (.open, .group, .kind), constants. noinline: compiled
 * into one function, the copies' registers are allocated over all of
 * them, and each paid for the others (docs/engine.md). */
#define URING_LOOP_JOB(name, ...)						\
	static __attribute__((noinline)) int name(struct eng_worker *w)		\
	{									\
		struct eng_group g = { .lane = w, .n = 1 };			\
		return uring_loop_as(&g, (struct uring_how){ __VA_ARGS__ });	\
	}
#define URING_LOOP_GROUP(name, ...)						\
	static __attribute__((noinline)) int name(struct eng_group *g)		\
	{									\
		return uring_loop_as(g, (struct uring_how){ .group = true, __VA_ARGS__ }); \
	}

#endif
