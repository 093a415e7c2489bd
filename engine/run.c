/* Starting, steering and joining a run's worker threads. */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/clock.h"
#include "engine/run_int.h"

int eng_run_ready(struct eng_run *r, int err)
{
	int st;

	pthread_mutex_lock(&r->lock);
	if (err && !r->first_err)
		r->first_err = err;
	r->nready++;
	pthread_cond_broadcast(&r->cond);
	while ((st = (int)(atomic_load(&r->ctl) & ENG_CTL_PHASE)) == ENG_ST_SETUP)
		pthread_cond_wait(&r->cond, &r->lock);
	pthread_mutex_unlock(&r->lock);
	return err ? err : (st == ENG_ST_STOP && r->first_err ? -ECANCELED : 0);
}

/* Only this thread writes ctl, and under the lock: no lost updates. */
static void run_set_state(struct eng_run *r, int st)
{
	uint32_t ctl;

	pthread_mutex_lock(&r->lock);
	ctl = atomic_load(&r->ctl);
	if ((int)(ctl & ENG_CTL_PHASE) < st)
		atomic_store(&r->ctl, (ctl & ~ENG_CTL_PHASE) | (uint32_t)st);
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

static int run_alloc(struct eng_run *r, const struct eng_job *jobs, unsigned n)
{
	r->njobs = n;
	r->jobs = calloc(n, sizeof(*r->jobs));
	r->res = calloc(n, sizeof(*r->res));
	r->th = calloc(n, sizeof(*r->th));
	r->live = aligned_alloc(64, n * sizeof(*r->live));
	r->errlive = aligned_alloc(64, n * sizeof(*r->errlive));
	if (!r->jobs || !r->res || !r->th || !r->live || !r->errlive)
		return -ENOMEM;
	memcpy(r->jobs, jobs, n * sizeof(*jobs));
	memset(r->live, 0, n * sizeof(*r->live));
	memset(r->errlive, 0, n * sizeof(*r->errlive));
	return 0;
}

/* Whether job j may share the thread of job l (eng_job.group). */
static bool run_lane_fits(const struct eng_job *l, const struct eng_job *j)
{
	return j->op == l->op && j->backend == l->backend && j->mode == l->mode &&
	       j->cpu == l->cpu && j->node == l->node && j->batch == l->batch &&
	       j->reap == l->reap && j->latency == l->latency;
}

/* An open loop (eng_job.rate) runs only in a ring of its own job's. */
static bool run_rate_fits(const struct eng_job *j)
{
	if (!(j->rate >= 0))
		return false;
	return j->rate == 0 || (j->op == ENG_OP_READ && j->backend != ENG_BACKEND_LIBAIO &&
				j->mode != ENG_MODE_SQPOLL && !j->stamps && !j->group);
}

/* Which thread runs each job: its own, or the thread of the first job of
 * its group (eng_job.group), whose chain links the group's jobs in order;
 * -EINVAL for jobs that cannot share a ring. */
static int run_groups(struct eng_run *r)
{
	unsigned i, k;

	for (i = 0; i < r->njobs; i++) {
		r->th[i].lead = i;
		r->th[i].nlanes = 1;
		r->th[i].next = UINT_MAX;
		r->th[i].last = i;
		r->th[i].qd_sum = r->jobs[i].qd;
	}
	for (i = 0; i < r->njobs; i++) {
		const struct eng_job *j = &r->jobs[i];
		struct eng_thread *lt;

		if (!run_rate_fits(j))
			return -EINVAL;
		if (!j->group)
			continue;
		if (j->backend == ENG_BACKEND_LIBAIO || j->mode == ENG_MODE_SQPOLL || j->stamps)
			return -EINVAL;
		for (k = 0; k < i && r->jobs[k].group != j->group; k++)
			;
		if (k == i)
			continue;	/* the first of its group */
		lt = &r->th[r->th[k].lead];
		if (!run_lane_fits(&r->jobs[r->th[k].lead], j) || lt->nlanes >= ENG_GROUP_MAX ||
		    lt->qd_sum + j->qd > ENG_GROUP_MAX_QD)
			return -EINVAL;
		lt->qd_sum += j->qd;
		r->th[i].lead = r->th[k].lead;
		r->th[lt->last].next = i;
		lt->last = i;
		lt->nlanes++;
	}
	return 0;
}

/* Workers never take signals: SIGINT reaches the thread that handles it.
 * One thread per group's first job; the jobs after it in its group get its
 * thread's id. */
static int run_spawn(struct eng_run *r)
{
	sigset_t all, old;
	unsigned i;
	int ret = 0;

	for (i = 0; i < r->njobs; i++) {
		struct eng_thread *th = &r->th[i];

		th->run = r;
		th->job = &r->jobs[i];
		th->res = &r->res[i];
		th->live = &r->live[i];
		th->errlive = &r->errlive[i];
		th->idx = i;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < r->njobs && !ret; i++) {
		struct eng_thread *th = &r->th[i];

		if (th->lead != i) {
			th->tid = r->th[th->lead].tid;
			th->started = r->th[th->lead].started;
			continue;
		}
		ret = -pthread_create(&th->tid, NULL, eng_worker_main, th);
		th->started = !ret;
		if (!ret) {
			/* top -H and /proc/PID/task/TID/comm tell workers from
			 * the rest (15 characters at most) */
			char name[16];

			snprintf(name, sizeof(name), "iostorm-w%u", i % 100000u);
			pthread_setname_np(th->tid, name);
		}
		if (ret) {
			pthread_mutex_lock(&r->lock);
			r->first_err = r->first_err ? r->first_err : ret;
			pthread_mutex_unlock(&r->lock);
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

static int run_wait_ready(struct eng_run *r, unsigned nspawned)
{
	int err;

	pthread_mutex_lock(&r->lock);
	while (r->nready < nspawned)
		pthread_cond_wait(&r->cond, &r->lock);
	err = r->first_err;
	pthread_mutex_unlock(&r->lock);
	return err;
}

int eng_run_create(struct eng_run **out, const struct eng_job *jobs, unsigned njobs)
{
	struct eng_run *r;
	unsigned spawned = 0, i;
	int ret;

	*out = NULL;
	if (!njobs)
		return -EINVAL;
	eng_clock_choose();
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	*out = r;
	atomic_init(&r->ctl, ENG_ST_SETUP);
	atomic_init(&r->answers, 0);
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	ret = run_alloc(r, jobs, njobs);
	if (!ret)
		ret = run_groups(r);
	if (ret)
		return ret;
	ret = run_spawn(r);
	for (i = 0; i < njobs; i++)
		spawned += r->th[i].started && r->th[i].lead == i;
	ret = run_wait_ready(r, spawned);
	if (ret) {
		run_set_state(r, ENG_ST_STOP);
		eng_run_join(r);
	}
	return ret;
}

void eng_run_start(struct eng_run *r)
{
	/* stored before the state, as measure_ns is */
	atomic_store(&r->start_ns, eng_mono_ns());
	run_set_state(r, ENG_ST_RAMP);
}

void eng_run_measure(struct eng_run *r)
{
	/* stored before the state the workers read with acquire */
	atomic_store(&r->measure_ns, eng_mono_ns());
	run_set_state(r, ENG_ST_MEASURE);
}

void eng_run_stop(struct eng_run *r)
{
	uint64_t zero = 0;

	/* The stop is published first and the window's end read after it
	 * (the first stop's): the end never precedes the publication. Read
	 * before it, a controller held off its CPU in between (or on the
	 * lock) let the workers go on completing IOs past the end, all
	 * counted in the window (an open loop at 3000 IOPS got 3031). A
	 * worker that notices the stop before the end is stored ends its
	 * window when it noticed (worker_window_end). */
	run_set_state(r, ENG_ST_STOP);
	atomic_compare_exchange_strong(&r->stop_ns, &zero, eng_mono_ns());
}

/* Whether job i has stopped: its thread has, or, sharing a thread
 * (eng_job.group), it has settled while the others go on. */
static bool run_job_stopped(const struct eng_run *r, unsigned i)
{
	return atomic_load_explicit(&r->live[i].done, memory_order_acquire) ||
	       atomic_load_explicit(&r->live[i].settled, memory_order_acquire);
}

bool eng_run_done(const struct eng_run *r)
{
	unsigned i;

	for (i = 0; i < r->njobs; i++)
		if (!run_job_stopped(r, i))
			return false;
	return true;
}

int eng_run_snapshot(struct eng_run *r)
{
	uint32_t ctl, seq;

	if (!r->snap) {
		r->snap = calloc(r->njobs, sizeof(*r->snap));
		if (!r->snap)
			return -ENOMEM;
	}
	pthread_mutex_lock(&r->lock);
	ctl = atomic_load(&r->ctl);
	seq = (ctl >> ENG_CTL_SEQ_SHIFT) + 1;
	if (seq > (UINT32_MAX >> ENG_CTL_SEQ_SHIFT))
		seq = 1;	/* wraps after 268M requests: still differs */
	atomic_store(&r->ctl, (ctl & ENG_CTL_PHASE) | (seq << ENG_CTL_SEQ_SHIFT));
	pthread_mutex_unlock(&r->lock);
	return (int)seq;
}

const struct eng_snapshot *eng_run_snapshot_get(const struct eng_run *r,
						unsigned idx, int seq)
{
	uint32_t got = atomic_load_explicit(&r->live[idx].snap_seq, memory_order_acquire);

	return r->snap && seq > 0 && got == (uint32_t)seq ? &r->snap[idx] : NULL;
}

/* Once per snapshot answer and once when a worker stops, never per IO. */
void eng_run_wake(struct eng_run *r)
{
	atomic_fetch_add(&r->answers, 1);
	syscall(SYS_futex, (uint32_t *)&r->answers, FUTEX_WAKE_PRIVATE, INT_MAX,
		NULL, NULL, 0);
}

/* Answers to seq so far, or -1 while a running worker has not answered. */
static int snapshot_answers(const struct eng_run *r, int seq)
{
	unsigned i;
	int n = 0;

	for (i = 0; i < r->njobs; i++) {
		if (eng_run_snapshot_get(r, i, seq))
			n++;
		else if (!run_job_stopped(r, i))
			return -1;
	}
	return n;
}

int eng_run_snapshot_wait(struct eng_run *r, int seq, uint64_t timeout_ns)
{
	uint64_t now = eng_mono_ns(), end = now + timeout_ns;
	struct timespec left;
	uint32_t seen;
	int n;

	if (seq <= 0 || (uint32_t)seq != atomic_load(&r->ctl) >> ENG_CTL_SEQ_SHIFT)
		return -EINVAL;
	end = end < now ? UINT64_MAX : end;
	for (;;) {
		/* read before looking, so an answer in between changes it and
		 * the futex returns at once instead of sleeping */
		seen = atomic_load(&r->answers);
		n = snapshot_answers(r, seq);
		if (n >= 0)
			return n;
		now = eng_mono_ns();
		if (now >= end)
			return -ETIMEDOUT;
		left.tv_sec = (time_t)((end - now) / 1000000000ull);
		left.tv_nsec = (long)((end - now) % 1000000000ull);
		/* EAGAIN, EINTR and ETIMEDOUT all mean: look again */
		syscall(SYS_futex, (uint32_t *)&r->answers, FUTEX_WAIT_PRIVATE, seen,
			&left, NULL, 0);
	}
}

int eng_run_progress(const struct eng_run *r, unsigned first, unsigned n,
		     struct eng_progress *out)
{
	struct eng_progress p = { 0, 0, 0, 0 };
	unsigned i;

	if (first > r->njobs || n > r->njobs - first)
		return -EINVAL;
	for (i = first; i < first + n; i++) {
		p.ios += atomic_load_explicit(&r->live[i].ios, memory_order_relaxed);
		p.errors += atomic_load_explicit(&r->live[i].errors, memory_order_relaxed);
		p.inflight += atomic_load_explicit(&r->live[i].inflight, memory_order_relaxed);
		p.ndone += run_job_stopped(r, i);
	}
	*out = p;
	return 0;
}

static bool run_job_final(const struct eng_run *r, unsigned i);

/*
 * Each job of a group measured its thread's CPU time and system calls over
 * its own window: the thread's, not the job's. They are shared out among
 * the group's jobs by the IOs each completed, so that the jobs add up to
 * the thread, and each one's CPU per IO is the thread's. Among the jobs
 * whose results are final (a job still stuck on its drive has none:
 * eng_run_join_for), from the figures each first had, so that a later
 * call, with more jobs final, shares the same thread out again.
 */
static void run_share(struct eng_run *r, unsigned lead)
{
	double user = 0, sys = 0, cpu = 0;
	uint64_t calls = 0, nivcsw = 0, delay = 0, ios = 0, given = 0, given_sw = 0,
		 given_delay = 0;
	unsigned k, nfinal = 0, first = UINT_MAX;

	if (r->th[lead].nlanes < 2)
		return;
	for (k = lead; k != UINT_MAX; k = r->th[k].next) {
		struct eng_thread *th = &r->th[k];
		const struct eng_result *res = &r->res[k];

		if (!run_job_final(r, k))
			continue;
		if (!th->raw_set) {
			th->raw_set = true;
			th->raw_user = res->user_s;
			th->raw_sys = res->sys_s;
			th->raw_cpu = res->cpu_s;
			th->raw_calls = res->calls;
			th->raw_nivcsw = res->nivcsw;
			th->raw_delay = res->run_delay_ns;
		}
		user = th->raw_user > user ? th->raw_user : user;
		sys = th->raw_sys > sys ? th->raw_sys : sys;
		cpu = th->raw_cpu > cpu ? th->raw_cpu : cpu;
		calls = th->raw_calls > calls ? th->raw_calls : calls;
		nivcsw = th->raw_nivcsw > nivcsw ? th->raw_nivcsw : nivcsw;
		delay = th->raw_delay > delay ? th->raw_delay : delay;
		ios += res->ios + res->errors;
		first = first < k ? first : k;
		nfinal++;
	}
	for (k = lead; k != UINT_MAX; k = r->th[k].next) {
		struct eng_result *res = &r->res[k];
		double share;

		if (!run_job_final(r, k))
			continue;
		share = ios ? (double)(res->ios + res->errors) / (double)ios : 1.0 / nfinal;
		res->user_s = user * share;
		res->sys_s = sys * share;
		res->cpu_s = cpu * share;
		res->calls = (uint64_t)((double)calls * share);
		res->nivcsw = (uint64_t)((double)nivcsw * share);
		res->run_delay_ns = (uint64_t)((double)delay * share);
		given += res->calls;
		given_sw += res->nivcsw;
		given_delay += res->run_delay_ns;
	}
	if (nfinal) {
		r->res[first].calls += calls - given;
		r->res[first].nivcsw += nivcsw - given_sw;
		r->res[first].run_delay_ns += delay - given_delay;
	}
}

void eng_run_join(struct eng_run *r)
{
	unsigned i;

	if (r->joined || r->nstalled)
		return;
	for (i = 0; i < r->njobs; i++) {
		if (r->th[i].started && !r->th[i].joined && r->th[i].lead == i)
			pthread_join(r->th[i].tid, NULL);
		r->th[i].joined = true;
	}
	for (i = 0; i < r->njobs; i++)
		if (r->th[i].lead == i)
			run_share(r, i);
	r->joined = true;
}

/* Whether job i's result is final: its thread has stopped, or, sharing a
 * thread that still waits on another job's drive, it has settled. */
static bool run_job_final(const struct eng_run *r, unsigned i)
{
	return !r->th[i].started || r->th[i].joined ||
	       atomic_load_explicit(&r->live[i].done, memory_order_acquire) ||
	       atomic_load_explicit(&r->live[i].settled, memory_order_acquire);
}

/* Sleeps until a worker stops or the deadline passes: workers wake
 * r->answers when they stop. */
static unsigned join_wait(struct eng_run *r, uint64_t end)
{
	struct timespec left;
	uint64_t now;
	uint32_t seen;
	unsigned i, running;

	for (;;) {
		seen = atomic_load(&r->answers);
		for (i = 0, running = 0; i < r->njobs; i++)
			running += !run_job_final(r, i);
		now = eng_mono_ns();
		if (!running || now >= end)
			return running;
		left.tv_sec = (time_t)((end - now) / 1000000000ull);
		left.tv_nsec = (long)((end - now) % 1000000000ull);
		syscall(SYS_futex, (uint32_t *)&r->answers, FUTEX_WAIT_PRIVATE, seen,
			&left, NULL, 0);
	}
}

void eng_errlive_read(const struct eng_errlive *el, struct eng_errors *e)
{
	uint32_t first = atomic_load_explicit(&el->first, memory_order_acquire);
	unsigned i;

	memset(e, 0, sizeof(*e));
	for (i = 0; i < ENG_ERR_SLOTS; i++)
		e->count[i] = atomic_load_explicit(&el->count[i], memory_order_relaxed);
	if (!first)
		return;
	e->first = (int)first - 1;
	e->first_ns = atomic_load_explicit(&el->first_ns, memory_order_relaxed);
}

/* A stuck worker's result, from what it published and what it wrote
 * before the run started (setup fields, under the setup handshake): its
 * own result may still be written if the IO ever completes. */
static void late_result(struct eng_run *r, unsigned i)
{
	const struct eng_result *res = &r->res[i];
	struct eng_result *l = &r->late[i];
	const struct eng_live *lv = &r->live[i];
	uint64_t start = atomic_load_explicit(&lv->start_ns, memory_order_relaxed);
	uint64_t stop = atomic_load_explicit(&r->stop_ns, memory_order_relaxed);
	uint64_t all = atomic_load_explicit(&lv->ios, memory_order_relaxed);
	uint64_t ramp = atomic_load_explicit(&lv->ios_ramp, memory_order_relaxed);

	memset(l, 0, sizeof(*l));
	l->backend = res->backend;
	l->fell_back = res->fell_back;
	l->fallback_err = res->fallback_err;
	l->setup_flags = res->setup_flags;
	l->fixed_bufs = res->fixed_bufs;
	l->unfixed_err = res->unfixed_err;
	l->cpu = res->cpu;
	l->stalled = true;
	l->inflight_at_end = atomic_load_explicit(&lv->inflight, memory_order_relaxed);
	if (!start)
		return;		/* stuck before measuring: nothing measured */
	l->ios = all > ramp ? all - ramp : 0;
	l->bytes = r->jobs[i].op == ENG_OP_NOP ? 0 : l->ios * r->jobs[i].bs;
	l->errors = atomic_load_explicit(&lv->errors, memory_order_relaxed);
	eng_errlive_read(&r->errlive[i], &l->errs);
	l->elapsed_ns = stop > start ? stop - start : 0;
}

unsigned eng_run_join_for(struct eng_run *r, uint64_t timeout_ns)
{
	uint64_t now = eng_mono_ns(), end = now + timeout_ns;
	unsigned i, left;

	if (r->joined)
		return 0;
	left = join_wait(r, end < now ? UINT64_MAX : end);
	if (!left) {
		r->nstalled = 0;	/* an earlier call's stragglers finished */
		eng_run_join(r);
		return 0;
	}
	if (!r->late)
		r->late = calloc(r->njobs, sizeof(*r->late));
	for (i = 0; i < r->njobs; i++) {
		struct eng_thread *th = &r->th[i];
		unsigned k;

		if (!th->started || th->joined)
			continue;
		if (th->lead == i &&
		    atomic_load_explicit(&r->live[i].done, memory_order_acquire)) {
			/* a group's thread marks its first job done last */
			pthread_join(th->tid, NULL);
			for (k = i; k != UINT_MAX; k = r->th[k].next)
				r->th[k].joined = true;
		} else if (r->late && !run_job_final(r, i)) {
			late_result(r, i);
		}
	}
	for (i = 0; i < r->njobs; i++)
		if (r->th[i].lead == i && r->th[i].started)
			run_share(r, i);
	r->nstalled = left;
	return left;
}

const struct eng_result *eng_run_result(const struct eng_run *r, unsigned idx)
{
	bool stuck = r->nstalled && !run_job_final(r, idx);

	return stuck && r->late ? &r->late[idx] : &r->res[idx];
}

unsigned eng_run_njobs(const struct eng_run *r)
{
	return r->njobs;
}

void eng_run_destroy(struct eng_run *r)
{
	unsigned i;

	if (!r)
		return;
	/* workers still in the kernel use all of it: leave it to the exit */
	if (r->nstalled)
		return;
	if (r->th) {
		eng_run_stop(r);
		eng_run_join(r);
	}
	for (i = 0; r->res && i < r->njobs; i++) {
		free(r->res[i].hist);
		free(r->res[i].svc_hist);
	}
	pthread_cond_destroy(&r->cond);
	pthread_mutex_destroy(&r->lock);
	free(r->snap);
	free(r->late);
	free(r->errlive);
	free(r->live);
	free(r->th);
	free(r->res);
	free(r->jobs);
	free(r);
}

const char *eng_backend_name(enum eng_backend b)
{
	switch (b) {
	case ENG_BACKEND_AUTO: return "auto";
	case ENG_BACKEND_IO_URING: return "io_uring";
	case ENG_BACKEND_LIBAIO: return "libaio";
	case ENG_BACKEND_URING_CMD: return "io_uring_cmd";
	}
	return "?";
}

const char *eng_mode_name(enum eng_mode m)
{
	switch (m) {
	case ENG_MODE_IRQ: return "irq";
	case ENG_MODE_POLL: return "poll";
	case ENG_MODE_HYBRID: return "hybrid";
	case ENG_MODE_SQPOLL: return "sqpoll";
	}
	return "?";
}
