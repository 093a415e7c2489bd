/* Internal to engine/: one worker's private state and the helpers its
 * backend's hot loop shares. Nothing here is touched by another thread but
 * eng_live (relaxed stores) and the run state (read once per loop). */
#ifndef ENG_WORKER_H
#define ENG_WORKER_H

#include <libaio.h>
#include <liburing.h>
#include <stdatomic.h>

#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/rng.h"
#include "engine/run_int.h"

#define eng_likely(x) __builtin_expect(!!(x), 1)
#define eng_unlikely(x) __builtin_expect(!!(x), 0)

struct eng_worker;

/*
 * What one thread drives: a job alone (n 1), or the jobs of a group
 * (eng_job.group) sharing the thread and lane[0]'s io_uring ring, lane k
 * the group's k-th job. One thread body serves both (eng_worker_main,
 * through the ops table), so every job is a group of one at the thread
 * level. calls counts the thread's system calls since lane 0 began
 * measuring; timed and measuring are the group loop's
 * (engine/uring_loop_int.h).
 */
struct eng_group {
	struct eng_worker *lane;
	unsigned n;
	bool timed;		/* the jobs time every IO */
	bool measuring;		/* calls counts the measured window */
	uint64_t calls;
};

/* A backend serves a group of lanes: libaio only ever one (run.c keeps
 * it out of groups). */
struct eng_backend_ops {
	const char *name;
	/* 0 or -errno, with the stage in the failing lane's result */
	int (*setup)(struct eng_group *g);
	/* runs until every lane has stopped and drained */
	int (*loop)(struct eng_group *g);
	void (*teardown)(struct eng_group *g);
};

extern const struct eng_backend_ops eng_uring_ops;
extern const struct eng_backend_ops eng_aio_ops;

/*
 * The IOs a timed open loop issued with one stamp (one loop's clock
 * read), in the schedule's order, so their due times never decrease: the
 * sums of their due times and of their squares, modulo 2^64, from which
 * the sums of their latencies from when they were due and of the squares
 * follow once they are reaped together (engine/uring_loop_int.h).
 */
#define ENG_DUE_BATCHES 16	/* a power of two */
struct eng_due_batch {
	uint64_t stamp;		/* slot_ns of each of them */
	uint64_t first, last;	/* due times, the first and the last issued */
	uint64_t sum, sum2;	/* of the due times and their squares */
	uint32_t n;		/* how many; 0: none to match */
	uint32_t late;		/* of them issued late (eng_result.late) */
};

/* A thread's CPU accounting at one moment: a window's figures are the
 * differences of two (worker.c). */
struct eng_cpu_at {
	uint64_t run_ns;		/* CLOCK_THREAD_CPUTIME_ID: exact */
	uint64_t user_ns, sys_ns;	/* getrusage: the tick-sampled split */
	uint64_t nivcsw;		/* involuntary context switches */
	uint64_t delay_ns;		/* schedstat's run_delay */
	bool delay_ok;
};

struct eng_worker {
	/* hot: touched every IO */
	struct eng_rng rng;
	uint32_t *free_slot;	/* stack of free slot indexes */
	uint32_t nfree;
	uint32_t inflight;
	uint32_t batch;
	uint32_t bs;
	uint32_t expect;	/* res of a good completion: bs, 0 for NOP */
	bool latency;
	bool stopping;		/* no new submissions */
	uint64_t *slot_ns;	/* submission stamp of each slot, ns (an open
				 * loop's since arr.start_ns: due_ns) */
	char *buf;		/* qd * bs bytes, slot i at i * bs */
	struct eng_hist *hist;
	struct eng_hist *run_hist;	/* where runs go: hist, or the open
					 * loop's svc_hist */
	uint64_t run_ns;	/* latency of the run of completions not yet */
	uint64_t run_n;		/* in hist, and how many (eng_done_io) */
	uint64_t ios, errors, calls;
	uint64_t ios_ramp;	/* completed before measuring began */
	uint64_t limit;		/* stop after this many measured IOs, 0 none */
	int fatal;		/* -errno of an IO error that ends the run */
	int state_seen;		/* phase */
	uint32_t ctl_seen;	/* whole control word */
	const _Atomic uint32_t *ctl;
	const struct eng_thread *th;
	struct eng_live *live;

	/* cold */
	const struct eng_job *job;
	bool passthru;		/* NVMe passthrough reads: res > 0 is a status */
	bool settled;		/* sharing a thread: done, result final */
	bool calls_taken;	/* sharing a thread: its calls are in res */
	struct eng_result *res;
	struct eng_errlive *errlive;	/* the window's failures, published */
	size_t buf_len;
	uint64_t t_start_ns;
	struct eng_cpu_at cpu0;		/* the thread's when the window began */
	/* the window's CPU time given out so far, ns (the last snapshot's):
	 * never taken back (worker_cpu_split) */
	uint64_t cpu_ns, user_ns, sys_ns;
	union {
		struct {
			struct io_uring ring;
			uint32_t region_shift;	/* slot >> shift = buffer index */
			bool ring_ok;
			bool sqpoll;
			/* what the loop's waits add to GETEVENTS
			 * (uring_loop_int.h's uring_wait): the registered
			 * ring fd, NO_IOWAIT; and eng_job.reap_wait_us
			 * where the ring's wait sleeps (not polled) */
			uint32_t enter_flags;
			uint32_t min_wait_us;
			bool fixed;	/* buffers registered: READ_FIXED */
			bool cmd;	/* NVMe passthrough: SQE128/CQE32 */
			uint32_t lba_shift;	/* passthrough: log2(LBA size) */
			/* passthrough on a namespace with separate metadata:
			 * md_len bytes per slot (slot i's at md + i * md_len,
			 * engine/nvme_cmd.h), allocated at setup; 0 none.
			 * prinfo: the reads' CDW12 PRINFO (--pi-act) */
			uint64_t md;
			uint32_t md_len;
			uint32_t prinfo;
			/* passthrough: slot i's transfer of dlen bytes at
			 * dbuf + i * dstride: buf and bs, or with metadata
			 * inline (extended LBA) a buffer of its own, dbuf_len
			 * bytes, holding each block's metadata after its
			 * data, its slots a power of two apart (registered
			 * as the worker's are: slot >> region_shift) */
			uint64_t dbuf;
			uint32_t dlen, dstride;
			size_t dbuf_len;
			/* sharing a group's ring (engine/uring_group.c): the
			 * index of its registered file and of its first
			 * registered buffer there */
			uint32_t file_idx;
			uint32_t buf_base;
			/* every lane reads blocks of lane 0's size into one
			 * registered buffer (its depth fits one region): the
			 * SQE template's length serves them all, and a
			 * lane's buffer index is buf_base (uring_prep) */
			bool alike;
		} u;
		struct {
			io_context_t ctx;
			struct iocb *iocbs;
			struct iocb **batchv;
			struct io_event *events;
			uint32_t nev;	/* events a wait returned, completed
					 * after the next tick */
			bool ctx_ok;
		} a;
	};

	/* open loop only (eng_job.rate, engine/uring_rate.c) */
	struct eng_arrival arr;
	/* the last batches the timed open loop issued, newest at
	 * due_batch[due_at]: stamps strictly increase (uring_loop_int.h) */
	struct eng_due_batch due_batch[ENG_DUE_BATCHES];
	uint32_t due_at;
	bool due_off;		/* the clock stepped back: no batches */
	uint64_t *due_ns;	/* when each slot's IO was due; slot_ns
				 * holds its submission, as in a closed loop;
				 * both ns since arr.start_ns, the schedule's
				 * start, as are due_batch's times */
	struct eng_hist *svc_hist;
	uint64_t late;		/* eng_result.late, so far */
	uint64_t late_oct[ENG_LATE_N];	/* eng_result.late_oct, so far */
	bool late_full;		/* every slot was taken when the loop last
				 * entered the kernel (uring_fill) */
	uint64_t dropped;	/* eng_result.dropped */
	uint64_t last_ns;	/* the previous loop's clock read */
	double inflight_ns;	/* eng_result.inflight_ns, so far */
};

/* A group's lanes that have stopped and hold no IO settle
 * (eng_live.settled): their results are final while the thread may still
 * wait on another lane's drive. Returns how many still run. Called by the
 * group's loop once a lane has stopped. */
unsigned eng_group_settle_done(struct eng_group *g);
/* A failure of the shared ring ends every lane (its fatal error, ret if
 * none) and settles them all. */
void eng_group_fail(struct eng_group *g, int ret);

/* Out of line: a phase change (ramp over, stop) or a snapshot request. */
void eng_worker_control(struct eng_worker *w, uint32_t ctl);

/* Once per loop: notice phase changes and snapshot requests, publish live
 * counters. Returns true when the worker must not submit more IOs. The
 * acquire pairs with the controller's store, so a snapshot buffer the
 * reader has finished with is not rewritten before it was read. */
static inline bool eng_worker_tick(struct eng_worker *w)
{
	uint32_t ctl = atomic_load_explicit(w->ctl, memory_order_acquire);

	if (eng_unlikely(ctl != w->ctl_seen))
		eng_worker_control(w, ctl);
	atomic_store_explicit(&w->live->ios, w->ios_ramp + w->ios, memory_order_relaxed);
	return w->stopping;
}

/* Once per loop, just before the call that may sleep in the kernel: what
 * a watcher sees while the worker waits there (a stalled device holds
 * these IOs). */
/* How many completions a wait asks for: --reap (t/io_uring's -c), never
 * more than are in flight, at least one. */
static inline uint32_t eng_worker_reap_min(const struct eng_worker *w)
{
	uint32_t n = w->job->reap ? w->job->reap : 1;

	return n < w->inflight ? n : w->inflight ? w->inflight : 1;
}

static inline void eng_worker_publish_inflight(struct eng_worker *w)
{
	atomic_store_explicit(&w->live->inflight, w->inflight, memory_order_relaxed);
}

/* How many IOs may be submitted now: free slots, batch, IO limit. */
static inline uint32_t eng_worker_budget(const struct eng_worker *w)
{
	uint32_t n = w->nfree < w->batch ? w->nfree : w->batch;

	if (eng_unlikely(w->stopping))
		return 0;
	if (eng_unlikely(w->limit)) {
		/* failed IOs count too, or a device that keeps failing would
		 * never reach the limit */
		uint64_t done = w->ios + w->errors + w->inflight;
		uint64_t left = w->limit > done ? w->limit - done : 0;
		if (left < n)
			n = (uint32_t)left;
	}
	return n;
}

/* Completions before the IO limit: the one that reaches it must go
 * through eng_worker_settle, which ends the window there. */
static inline uint64_t eng_worker_left(const struct eng_worker *w)
{
	uint64_t done = w->ios + w->errors;

	if (!w->limit)
		return UINT64_MAX;
	return w->limit > done ? w->limit - done : 0;
}

static inline uint32_t eng_worker_take_slot(struct eng_worker *w, uint64_t now)
{
	uint32_t slot = w->free_slot[--w->nfree];

	w->slot_ns[slot] = now;
	w->inflight++;
	return slot;
}

void eng_worker_io_error(struct eng_worker *w, int res);
/* Ends the measured window once: stop submitting, take end time and CPU. */
void eng_worker_end(struct eng_worker *w);

/* Puts the pending run of equal latencies into the histogram. Every reap
 * ends with it, so nothing is pending when the tick copies or resets the
 * histogram. */
static inline void eng_worker_flush(struct eng_worker *w)
{
	if (w->run_n)
		eng_hist_add_n(w->run_hist, w->run_ns, w->run_n);
	w->run_n = 0;
}

#define ENG_ALWAYS_INLINE static inline __attribute__((always_inline))

/*
 * Completing an IO, one copy for both backends (eng_done_io). The fields
 * it uses are reached through pointers: to the worker's own when IOs come
 * one at a time (eng_worker_complete, libaio: a compare or an increment in
 * place), or to a reap's locals (uring_reap), which the compiler then keeps
 * in registers for a whole run of CQEs. The worker's fields it cannot keep
 * there, since every store into the slot stack or the histogram could
 * alias them, and it would reload them for every IO. The two arrays are
 * copied: their addresses never change. A reap leaves inflight NULL and
 * counts the slots it freed instead, each one IO fewer in flight
 * (eng_done_put), and may leave ios NULL and count the good completions
 * itself (a run of them is the CQEs it walked).
 */
struct eng_done {
	uint32_t *free_slot;
	const uint64_t *slot_ns;
	uint32_t *expect;
	bool *timed;
	uint32_t *nfree, *inflight;
	uint64_t *ios, *run_ns, *run_n;
};

/* A reap's locals, written back before the worker itself looks (an error,
 * the IO limit, the end of the reap), and read again after. */
ENG_ALWAYS_INLINE void eng_done_put(struct eng_worker *w, const struct eng_done *d)
{
	w->inflight -= *d->nfree - w->nfree;
	w->nfree = *d->nfree;
	if (d->ios)
		w->ios = *d->ios;
	w->run_ns = *d->run_ns;
	w->run_n = *d->run_n;
}

ENG_ALWAYS_INLINE void eng_done_get(const struct eng_done *d, const struct eng_worker *w)
{
	*d->expect = w->expect;
	*d->timed = w->latency;	/* the window may have ended */
	*d->nfree = w->nfree;
	if (d->ios)
		*d->ios = w->ios;
	*d->run_ns = w->run_ns;
	*d->run_n = w->run_n;
}

/*
 * Frees the IO's slot and counts and times a good completion. Returns
 * false for a failed or short one, which the caller hands to
 * eng_worker_settle. The IOs one loop submits all carry that loop's stamp,
 * and the ones another loop reaps all get its stamp, so completions reaped
 * together from one submitting loop have exactly the same latency: they
 * are counted as a run and enter the histogram once (one bucket increment
 * of n), which records the same histogram as one insert per IO for a
 * compare per IO. At batch = depth a loop's reap is typically one or two
 * runs.
 */
ENG_ALWAYS_INLINE bool eng_done_io(struct eng_worker *w, const struct eng_done *d,
				   uint32_t slot, int res, uint64_t now)
{
	uint64_t dt;

	d->free_slot[(*d->nfree)++] = slot;
	if (d->inflight)
		(*d->inflight)--;
	/* a negative errno never equals expect (at most 1 MiB) once unsigned */
	if (eng_unlikely((uint32_t)res != *d->expect))
		return false;
	if (d->ios)
		(*d->ios)++;
	if (!*d->timed)
		return true;
	dt = now - d->slot_ns[slot];
	if (eng_likely(dt == *d->run_ns)) {
		(*d->run_n)++;
		return true;
	}
	/* never a wrapped negative interval (a clock step, a CPU whose TSC
	 * lags): count it as 0 rather than as centuries. A run's value is
	 * already clamped, so only a new one needs it. */
	dt = (int64_t)dt < 0 ? 0 : dt;
	if (dt == *d->run_ns) {
		(*d->run_n)++;
	} else {
		if (*d->run_n)
			eng_hist_add_n(w->run_hist, *d->run_ns, *d->run_n);
		*d->run_ns = dt;
		*d->run_n = 1;
	}
	return true;
}

/* What eng_done_io leaves to the worker, with its counts where the worker
 * sees them: a failed or short IO is counted as one (ok false), and the IO
 * that reaches the limit ends the window. */
ENG_ALWAYS_INLINE void eng_worker_settle(struct eng_worker *w, bool ok, int res)
{
	if (eng_unlikely(!ok))
		eng_worker_io_error(w, res);
	else if (eng_unlikely(w->limit && w->ios + w->errors >= w->limit))
		eng_worker_end(w);
}

/* One IO at a time (libaio), on the worker's own fields. */
ENG_ALWAYS_INLINE void eng_worker_complete(struct eng_worker *w, uint32_t slot,
					   int res, uint64_t now)
{
	const struct eng_done d = {
		.free_slot = w->free_slot, .slot_ns = w->slot_ns,
		.expect = &w->expect, .timed = &w->latency,
		.nfree = &w->nfree, .inflight = &w->inflight,
		.ios = &w->ios, .run_ns = &w->run_ns, .run_n = &w->run_n,
	};

	eng_worker_settle(w, eng_done_io(w, &d, slot, res, now), res);
}

/* The loop's one clock read, already in nanoseconds: converting once per
 * loop instead of once per completed IO saves a 128-bit multiply per IO. */
static inline uint64_t eng_worker_now(const struct eng_worker *w)
{
	return w->latency ? eng_ticks_to_ns(eng_ticks()) : 0;
}

#endif
