/* Internal to engine/: what a worker thread gets from its run. */
#ifndef ENG_RUN_INT_H
#define ENG_RUN_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "engine/engine.h"

struct eng_run;

/* Run states, in order, in eng_run.ctl's low bits: the run only
 * raises them, so workers only ever see them increase. */
enum eng_state {
	ENG_ST_SETUP,
	ENG_ST_RAMP,
	ENG_ST_MEASURE,
	ENG_ST_STOP,
};
#define ENG_CTL_PHASE 0xfu		/* eng_run.ctl: phase bits */
#define ENG_CTL_SEQ_SHIFT 4		/* snapshot request number above */

/* Live counters: one cache line per worker, written by its owner only with
 * relaxed stores (done and snap_seq: release), read by eng_run_progress
 * and the snapshot calls. */
struct eng_live {
	_Atomic uint64_t ios;		/* completed since the start, ramp
					 * included */
	_Atomic uint64_t errors;
	/* Stored once when measuring begins, so the controller can give the
	 * window's figures of a worker stuck in the kernel (eng_run_join_for) */
	_Atomic uint64_t ios_ramp;
	_Atomic uint64_t start_ns;
	_Atomic uint32_t inflight;	/* IOs submitted and not reaped */
	_Atomic uint32_t done;		/* the worker has stopped */
	_Atomic uint32_t snap_seq;	/* last snapshot request answered */
	/* a job sharing its thread (eng_job.group) that has stopped and
	 * holds no IO: its result is final (release) while the thread may
	 * still wait on another job's drive */
	_Atomic uint32_t settled;
} __attribute__((aligned(64)));

/* A worker's failed IOs in the measured window (struct eng_errors),
 * published so the controller can name the errors of a worker stuck in the
 * kernel (eng_run_join_for) without reading the worker's own result while
 * it may still write it. Written by its owner only, with relaxed stores,
 * and only on the error path: cold, and in its own cache lines so that the
 * block never shares a line with another worker's hot counters. */
struct eng_errlive {
	/* the first error's slot + 1, stored (release) after first_ns: 0
	 * until the window has had a failure */
	_Atomic uint32_t first;
	_Atomic uint64_t first_ns;
	_Atomic uint64_t count[ENG_ERR_SLOTS];
} __attribute__((aligned(64)));

struct eng_thread {
	struct eng_run *run;
	const struct eng_job *job;
	struct eng_result *res;
	struct eng_live *live;
	struct eng_errlive *errlive;
	unsigned idx;
	unsigned lead;		/* the job whose thread runs this one: idx
				 * unless it shares a thread (eng_job.group) */
	unsigned nlanes;	/* lead: the jobs its thread runs */
	unsigned next;		/* the next job of its group, UINT_MAX: none */
	unsigned last;		/* lead: its group's last job so far */
	uint64_t qd_sum;	/* lead: its group's depths summed */
	pthread_t tid;		/* the lead's */
	/* sharing a thread: its thread's CPU time and calls over its window,
	 * as it first had them once final (run.c, run_share) */
	bool raw_set;
	double raw_user, raw_sys, raw_cpu;
	uint64_t raw_calls, raw_nivcsw, raw_delay;
	bool started;
	bool joined;
};

struct eng_run {
	/* What workers must do, read once per loop: the phase (enum
	 * eng_state) in the low bits, the snapshot request number above. */
	_Atomic uint32_t ctl;
	pthread_mutex_t lock;		/* setup handshake only */
	pthread_cond_t cond;
	unsigned nready;
	int first_err;
	unsigned njobs;
	struct eng_job *jobs;
	struct eng_result *res;
	struct eng_live *live;		/* one cache line each */
	struct eng_errlive *errlive;	/* one block each, cold */
	struct eng_thread *th;
	struct eng_snapshot *snap;	/* one per worker, on first request */
	/* Bumped, with a futex wake, by a worker that answers a snapshot or
	 * stops: what eng_run_snapshot_wait sleeps on. Off the per-IO path. */
	_Atomic uint32_t answers;
	/* When eng_run_stop ended the window: no worker's window ends later,
	 * however long it takes to notice (a wait on a slow device). */
	_Atomic uint64_t stop_ns;
	/* When eng_run_start released the workers: every open loop's
	 * schedule begins there, whenever its worker's loop starts. When
	 * eng_run_measure ended the ramp: an open loop's window begins
	 * there, whenever its worker notices (both worker.c). */
	_Atomic uint64_t start_ns;
	_Atomic uint64_t measure_ns;
	struct eng_result *late;	/* figures of workers never joined */
	unsigned nstalled;		/* workers left running by eng_run_join_for */
	bool joined;
};

/* Called by each worker after setup with 0 or -errno; blocks until the run
 * starts or is aborted. Returns 0 when the worker should run its loop. */
int eng_run_ready(struct eng_run *r, int err);
/* Copies a worker's published errors: by the worker itself when its window
 * ends, by the controller for a worker stuck in the kernel. */
void eng_errlive_read(const struct eng_errlive *el, struct eng_errors *e);
/* A worker answered a snapshot or stopped: wakes eng_run_snapshot_wait. */
void eng_run_wake(struct eng_run *r);
/* A worker thread's body (worker.c), started on a group's first job or
 * on a job alone: one for both. */
void *eng_worker_main(void *arg);

#endif
