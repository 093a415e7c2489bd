/* A worker thread: pin, allocate on the local node, set up the backend, run
 * the hot loop, report. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "engine/nvme_cmd.h"
#include "engine/run_int.h"
#include "engine/worker.h"

#define ENG_MPOL_PREFERRED 1

static int worker_fail(struct eng_worker *w, enum eng_stage stage, int err)
{
	w->res->stage = stage;
	w->res->err = err;
	return err;
}

static int worker_pin(struct eng_worker *w)
{
	cpu_set_t set;
	int i;

	w->res->cpu = -1;
	if (w->job->cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(w->job->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return worker_fail(w, ENG_STAGE_PIN, -errno);
	/* verified, not assumed: read the mask back */
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return worker_fail(w, ENG_STAGE_PIN, -errno);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			break;
	if (CPU_COUNT(&set) != 1 || i != w->job->cpu)
		return worker_fail(w, ENG_STAGE_PIN, -EINVAL);
	w->res->cpu = i;
	return 0;
}

/* Buffers: mapped, steered to the job's node, then touched here, on the
 * worker's own CPU, so first touch agrees with the policy. */
static int worker_alloc_buf(struct eng_worker *w)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint32_t bs = w->job->op == ENG_OP_NOP ? 0 : w->job->bs;

	w->buf_len = ((size_t)w->job->qd * bs + page - 1) / page * page;
	if (!w->buf_len)
		return 0;
	w->buf = mmap(NULL, w->buf_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w->buf == MAP_FAILED) {
		w->buf = NULL;
		return -ENOMEM;
	}
	if (w->job->node >= 0 && w->job->node < 64) {
		unsigned long mask = 1ul << w->job->node;

		/* a hint: the kernel may still fall back when the node is full */
		(void)syscall(SYS_mbind, w->buf, w->buf_len, ENG_MPOL_PREFERRED,
			      &mask, 64ul, 0u);
	}
	memset(w->buf, 0, w->buf_len);
	return 0;
}

/* Whole cache lines, zeroed: what the hot path writes never shares a line
 * with another worker's memory, whichever malloc arena it comes from
 * (docs/engine.md, "Two workers"). */
static void *worker_lines(size_t len)
{
	size_t n = (len + 63) / 64 * 64;
	void *p = aligned_alloc(64, n ? n : 64);

	if (p)
		memset(p, 0, n ? n : 64);
	return p;
}

static int worker_alloc(struct eng_worker *w)
{
	uint32_t qd = w->job->qd, i;

	w->free_slot = worker_lines(qd * sizeof(*w->free_slot));
	w->slot_ns = worker_lines(qd * sizeof(*w->slot_ns));
	if (!w->free_slot || !w->slot_ns)
		return worker_fail(w, ENG_STAGE_MEMORY, -ENOMEM);
	for (i = 0; i < qd; i++)
		w->free_slot[i] = qd - 1 - i;
	w->nfree = qd;
	if (w->job->latency) {
		w->hist = worker_lines(sizeof(*w->hist));
		if (!w->hist)
			return worker_fail(w, ENG_STAGE_MEMORY, -ENOMEM);
		eng_hist_reset(w->hist);
	}
	if (w->job->rate > 0) {
		w->due_ns = worker_lines(qd * sizeof(*w->due_ns));
		w->svc_hist = w->job->latency ? worker_lines(sizeof(*w->svc_hist)) : NULL;
		if (!w->due_ns || (w->job->latency && !w->svc_hist))
			return worker_fail(w, ENG_STAGE_MEMORY, -ENOMEM);
		if (w->svc_hist)
			eng_hist_reset(w->svc_hist);
	}
	/* a closed loop's runs of equal latency are its latency; an open
	 * loop's are its service time (from submission) */
	w->run_hist = w->job->rate > 0 ? w->svc_hist : w->hist;
	if (worker_alloc_buf(w))
		return worker_fail(w, ENG_STAGE_MEMORY, -ENOMEM);
	return 0;
}

static void worker_free(struct eng_worker *w)
{
	if (w->buf)
		munmap(w->buf, w->buf_len);
	free(w->due_ns);
	free(w->slot_ns);
	free(w->free_slot);
	/* the histograms outlive the worker: the run hands it to the caller */
}

static uint64_t tv_ns(struct timeval t)
{
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_usec * 1000ull;
}

/* The time this thread waited runnable for a CPU: /proc/thread-self/
 * schedstat's second field (run_delay; the first is the runtime, the
 * third the slices run), kept by CONFIG_SCHED_INFO without
 * CONFIG_SCHEDSTATS. Read twice a window, off the IO path. */
static bool worker_run_delay(uint64_t *delay)
{
	unsigned long long run, wait;
	char buf[96];
	ssize_t n;
	int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &run, &wait) != 2)
		return false;
	*delay = wait;
	return true;
}

/* This thread's accounting now; a figure the kernel refuses keeps what a
 * had. */
static void worker_cpu_read(struct eng_cpu_at *a, bool delay)
{
	struct timespec ts;
	struct rusage ru;

	/* the scheduler's own runtime, brought up to date on the read
	 * (kernel/sched/core.c, task_sched_runtime): exact to the ns */
	if (!clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		a->run_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (!getrusage(RUSAGE_THREAD, &ru)) {
		a->user_ns = tv_ns(ru.ru_utime);
		a->sys_ns = tv_ns(ru.ru_stime);
		a->nivcsw = (uint64_t)ru.ru_nivcsw;
	}
	if (delay)
		a->delay_ok = worker_run_delay(&a->delay_ns);
}

/*
 * The window's CPU time up to reading b into w->cpu_ns, user_ns, sys_ns.
 * The total is the runtime, exact. The split is getrusage's: the kernel
 * samples each tick into user or system time and scales the runtime by
 * those samples (kernel/sched/cputime.c, cputime_adjust), so it is good
 * to about a tick (eng_cpu_tick_ns) and its sum lags the runtime by what
 * the scheduler has not accounted yet. It is scaled here to the exact
 * runtime, and clamped as cputime_adjust clamps its own: neither part
 * falls below what was given out before, so every interval's share is
 * whole and the intervals add up to the window.
 */
static void worker_cpu_split(struct eng_worker *w, const struct eng_cpu_at *b)
{
	const struct eng_cpu_at *a = &w->cpu0;
	uint64_t cpu = b->run_ns > a->run_ns ? b->run_ns - a->run_ns : 0;
	uint64_t u = b->user_ns > a->user_ns ? b->user_ns - a->user_ns : 0;
	uint64_t s = b->sys_ns > a->sys_ns ? b->sys_ns - a->sys_ns : 0;
	uint64_t user;

	if (cpu < w->cpu_ns)
		cpu = w->cpu_ns;
	/* no sample yet: the split so far stands, the new time is the
	 * system's until a tick says otherwise (a worker lives in the
	 * kernel: io_uring_enter) */
	user = u + s ? (uint64_t)((double)cpu * (double)u / (double)(u + s)) : w->user_ns;
	if (user < w->user_ns)
		user = w->user_ns;
	if (cpu - user < w->sys_ns)
		user = cpu - w->sys_ns;
	w->cpu_ns = cpu;
	w->user_ns = user;
	w->sys_ns = cpu - user;
}

uint64_t eng_cpu_tick_ns(void)
{
	struct timespec ts;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &ts) || ts.tv_sec < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void worker_errs_reset(struct eng_worker *w)
{
	struct eng_errlive *el = w->errlive;
	unsigned i;

	atomic_store_explicit(&el->first, 0, memory_order_relaxed);
	atomic_store_explicit(&el->first_ns, 0, memory_order_relaxed);
	for (i = 0; i < ENG_ERR_SLOTS; i++)
		atomic_store_explicit(&el->count[i], 0, memory_order_relaxed);
}

/* A moment of the run (CLOCK_MONOTONIC; 0: none) on the loop's clock,
 * whose reading is now and CLOCK_MONOTONIC's mono, read back to back: it
 * is carried over as how long ago it was. now for none, or one not yet
 * come. */
static uint64_t worker_loop_time(uint64_t at_mono, uint64_t now, uint64_t mono)
{
	return at_mono && at_mono <= mono && mono - at_mono < now ? now - (mono - at_mono) : now;
}

/*
 * Open loop: its schedule begins when the run released the workers
 * (eng_run_start), not when this worker's loop started (uring_open_start
 * sets it up from then, before any IO): a worker whose thread the machine
 * let run late owes what was due since, as any worker held back does, and
 * the phases of a device's workers interleave one schedule. Done here, at
 * the loop's first tick (the phase it sees is the first change), so that
 * the loop's copies are left as they are: set up in the loop, the same
 * start cost the timed copy 0.9 instructions per IO in register choices.
 */
static void worker_rate_anchor(struct eng_worker *w)
{
	uint64_t s = atomic_load_explicit(&w->th->run->start_ns, memory_order_relaxed);
	uint64_t now = eng_ticks_to_ns(eng_ticks()), mono = eng_mono_ns();
	const struct eng_job *j = w->job;
	struct eng_arrival a;

	/* the loop's own setup took the same rate, kind and phase */
	if (!eng_arrival_init(&a, j->rate, j->arrival, j->seed ^ 0x6a09e667f3bcc908ull,
			      worker_loop_time(s, now, mono), j->rate_phase))
		w->arr = a;
}

/*
 * Open loop: the window begins on schedule. It is the run's, from when
 * the ramp ended (eng_run_measure), not from when this worker noticed:
 * one the machine descheduled across that moment notices late, and the
 * IOs due since are the window's, issued late. The IOs due by then that
 * it has not issued are the ramp's: issued inside the window on top of
 * the window's own, their catching up would be counted as rate, so they
 * are dropped from the schedule and counted apart (eng_result.dropped).
 * Every schedule begins when the run released the workers
 * (worker_rate_anchor), so that only a run measured without a ramp
 * (eng_run_measure before eng_run_start) has one that begins later: the
 * window then begins with it. Returns the window's start,
 * CLOCK_MONOTONIC.
 */
static uint64_t worker_rate_begin(struct eng_worker *w)
{
	uint64_t s = atomic_load_explicit(&w->th->run->measure_ns, memory_order_relaxed);
	uint64_t now = eng_ticks_to_ns(eng_ticks()), mono = eng_mono_ns();
	uint64_t at = worker_loop_time(s, now, mono);

	if (at <= w->arr.start_ns)
		at = w->arr.start_ns;	/* and its first IO is the window's */
	else
		w->dropped = eng_arrival_skip(&w->arr, at);
	/* the depth since then: the tick integrated it up to its clock
	 * read (last_ns) into the ramp's sum */
	if (w->last_ns > at)
		w->inflight_ns = (double)w->inflight * (double)(w->last_ns - at);
	return mono - (now - at);
}

static void worker_begin_measure(struct eng_worker *w)
{
	w->ios_ramp = w->ios;
	w->ios = 0;
	w->errors = 0;
	worker_errs_reset(w);
	w->calls = 0;
	if (w->hist)
		eng_hist_reset(w->hist);
	if (w->svc_hist)
		eng_hist_reset(w->svc_hist);
	w->late = 0;
	memset(w->late_oct, 0, sizeof(w->late_oct));
	w->inflight_ns = 0;
	w->limit = w->job->ios;
	w->t_start_ns = w->job->rate > 0 ? worker_rate_begin(w) : eng_mono_ns();
	worker_cpu_read(&w->cpu0, true);
	w->cpu_ns = w->user_ns = w->sys_ns = 0;
	atomic_store_explicit(&w->live->errors, 0, memory_order_relaxed);
	atomic_store_explicit(&w->live->ios_ramp, w->ios_ramp, memory_order_relaxed);
	atomic_store_explicit(&w->live->start_ns, w->t_start_ns, memory_order_relaxed);
}

/* The window ends when the run stopped it, not when this worker noticed:
 * a worker waiting on a slow IO notices late, and its rate must not be
 * spread over that wait. A worker that noticed before eng_run_stop stored
 * the end (it publishes the stop first) ends it now. */
static uint64_t worker_window_end(const struct eng_worker *w)
{
	uint64_t now = eng_mono_ns();
	uint64_t stop = atomic_load_explicit(&w->th->run->stop_ns, memory_order_relaxed);

	return stop && stop >= w->t_start_ns && stop < now ? stop : now;
}

/* Open loop: what the window's end leaves of the schedule. The schedule
 * runs on the loop's clock, the window's end on CLOCK_MONOTONIC: the end
 * is carried over as how long ago it was. */
static void worker_rate_end(struct eng_worker *w, uint64_t end_mono)
{
	uint64_t now = eng_ticks_to_ns(eng_ticks()), ago = eng_mono_ns() - end_mono;
	uint64_t end = now > ago ? now - ago : 0;
	struct eng_result *r = w->res;
	double past = 0;

	r->late = w->late;
	memcpy(r->late_oct, w->late_oct, sizeof(r->late_oct));
	/* the depth is integrated up to the loop's last clock read, which a
	 * worker waiting on a slow IO takes after the window ended */
	if (w->last_ns > end)
		past = (double)w->inflight * (double)(w->last_ns - end);
	r->inflight_ns = w->inflight_ns > past ? w->inflight_ns - past : 0;
	/* --ios ended it: nothing was due that the run meant to issue */
	r->backlog = w->limit && w->ios + w->errors >= w->limit ? 0 :
		     eng_arrival_due(&w->arr, end);
	r->dropped = w->dropped;
}

void eng_worker_end(struct eng_worker *w)
{
	struct eng_cpu_at now = w->cpu0;
	struct eng_result *r = w->res;
	uint64_t end;

	if (w->stopping)
		return;
	if (w->run_hist)
		eng_worker_flush(w);	/* the window's last run, mid-reap */
	w->stopping = true;
	w->latency = false;	/* the drain after the window is not timed */
	if (!w->t_start_ns) {
		/* stopped before measuring: nothing measured, and the ramp's
		 * samples must not pose as the window's */
		if (w->hist)
			eng_hist_reset(w->hist);
		if (w->svc_hist)
			eng_hist_reset(w->svc_hist);
		return;
	}
	end = worker_window_end(w);
	r->elapsed_ns = end - w->t_start_ns;
	if (w->job->rate > 0)
		worker_rate_end(w, end);
	worker_cpu_read(&now, true);
	worker_cpu_split(w, &now);
	r->cpu_s = (double)w->cpu_ns / 1e9;
	r->user_s = (double)w->user_ns / 1e9;
	r->sys_s = (double)w->sys_ns / 1e9;
	r->nivcsw = now.nivcsw > w->cpu0.nivcsw ? now.nivcsw - w->cpu0.nivcsw : 0;
	r->run_delay_known = w->cpu0.delay_ok && now.delay_ok;
	r->run_delay_ns = r->run_delay_known && now.delay_ns > w->cpu0.delay_ns ?
			  now.delay_ns - w->cpu0.delay_ns : 0;
	r->ios = w->ios;
	r->bytes = w->ios * (w->job->op == ENG_OP_NOP ? 0 : w->job->bs);
	r->errors = w->errors;
	eng_errlive_read(w->errlive, &r->errs);
	r->calls = w->calls;
}

static void worker_phase(struct eng_worker *w, int st)
{
	int old = w->state_seen;

	w->state_seen = st;
	if (old < ENG_ST_RAMP && st >= ENG_ST_RAMP && w->job->rate > 0)
		worker_rate_anchor(w);
	/* A jump from the ramp straight to stop (the window was shorter than
	 * one of this worker's waits) measured nothing: elapsed stays 0. */
	if (old < ENG_ST_MEASURE && st == ENG_ST_MEASURE)
		worker_begin_measure(w);
	if (st >= ENG_ST_STOP)
		eng_worker_end(w);
}

static void worker_snapshot(struct eng_worker *w, uint32_t seq)
{
	struct eng_snapshot *s = &w->th->run->snap[w->th->idx];
	bool measuring = w->t_start_ns && !w->stopping;

	s->t_ns = eng_mono_ns();
	s->start_ns = w->t_start_ns;
	s->ios = measuring ? w->ios : w->res->ios;
	s->errors = measuring ? w->errors : w->res->errors;
	/* the thread's CPU, once per thread: its first job's (two system
	 * calls a snapshot, off the IO path) */
	s->cpu_ns = s->user_ns = s->sys_ns = 0;
	if (w->th->idx == w->th->lead && w->t_start_ns) {
		if (measuring) {
			struct eng_cpu_at now = w->cpu0;

			worker_cpu_read(&now, false);
			worker_cpu_split(w, &now);
		}
		s->cpu_ns = w->cpu_ns;
		s->user_ns = w->user_ns;
		s->sys_ns = w->sys_ns;
	}
	if (w->hist)
		memcpy(&s->hist, w->hist, sizeof(s->hist));
	else
		eng_hist_reset(&s->hist);
	atomic_store_explicit(&w->live->snap_seq, seq, memory_order_release);
	eng_run_wake(w->th->run);
}

void eng_worker_control(struct eng_worker *w, uint32_t ctl)
{
	uint32_t seq = ctl >> ENG_CTL_SEQ_SHIFT;

	w->ctl_seen = ctl;
	if ((int)(ctl & ENG_CTL_PHASE) != w->state_seen)
		worker_phase(w, (int)(ctl & ENG_CTL_PHASE));
	if (seq && seq != atomic_load_explicit(&w->live->snap_seq, memory_order_relaxed))
		worker_snapshot(w, seq);
}

/* Errors that mean the setup is wrong (no poll queues, bad alignment), not
 * a bad sector: they stop the worker instead of being counted forever. */
static bool io_error_is_fatal(int res)
{
	return res == -EOPNOTSUPP || res == -EINVAL || res == -EFAULT ||
	       res == -EBADF || res == -ENXIO || res == -ENODEV;
}

/* Only the measured window's failures, like res->errors: the ramp's are
 * forgotten and the drain's are after the window. Published as they
 * happen (only this thread writes them, so a load and a store are an
 * increment), for the controller to name them should this worker get
 * stuck in the kernel; eng_worker_end copies them into the result. */
static int io_error_slot(const struct eng_worker *w, int res)
{
	if (res > 0 && w->passthru)	/* the drive's NVMe status */
		return ENG_ERR_NVME + (int)ENG_NVME_CODE(res);
	/* never -res on a value past any errno: -INT_MIN overflows */
	return res >= 0 ? 0 : res >= -ENG_ERRNO_MAX ? -res : ENG_ERR_OTHER;
}

static void io_error_note(struct eng_worker *w, int res)
{
	struct eng_errlive *el = w->errlive;
	int err = io_error_slot(w, res);
	uint64_t n;

	if (!w->t_start_ns || w->stopping)
		return;
	if (!w->errors) {
		atomic_store_explicit(&el->first_ns, eng_mono_ns() - w->t_start_ns,
				      memory_order_relaxed);
		/* release: a reader that sees first sees its first_ns */
		atomic_store_explicit(&el->first, (uint32_t)err + 1, memory_order_release);
	}
	n = atomic_load_explicit(&el->count[err], memory_order_relaxed);
	atomic_store_explicit(&el->count[err], n + 1, memory_order_relaxed);
}

void eng_worker_io_error(struct eng_worker *w, int res)
{
	io_error_note(w, res);
	w->errors++;
	atomic_store_explicit(&w->live->errors, w->errors, memory_order_relaxed);
	if (w->limit && w->ios + w->errors >= w->limit)
		eng_worker_end(w);
	if (res > 0 && w->passthru && ENG_NVME_SCT(res) == ENG_NVME_SCT_PATH) {
		/* no path to the namespace left (a drive pulled): as ENODEV */
		res = -ENODEV;
	}
	if (res >= 0)
		return;		/* a short read or the drive's status: counted */
	if (io_error_is_fatal(res) && !w->fatal) {
		w->fatal = res;
		eng_worker_end(w);
	}
}

static const struct eng_backend_ops *worker_backend(const struct eng_job *j)
{
	return j->backend == ENG_BACKEND_LIBAIO ? &eng_aio_ops : &eng_uring_ops;
}

/* Every lane's result names the backend that runs it. */
static void thread_name_backend(struct eng_group *g, const struct eng_backend_ops *ops)
{
	unsigned k;

	for (k = 0; k < g->n; k++)
		g->lane[k].res->backend = ops == &eng_aio_ops ? ENG_BACKEND_LIBAIO :
					  g->lane[k].passthru ? ENG_BACKEND_URING_CMD :
								ENG_BACKEND_IO_URING;
}

/* AUTO: io_uring unless the kernel or a sandbox forbids it outright; for
 * a job alone on its thread only, as a group shares an io_uring ring. */
static int thread_setup_backend(struct eng_group *g, const struct eng_backend_ops **ops)
{
	struct eng_worker *w = &g->lane[0];
	int ret;

	*ops = worker_backend(w->job);
	thread_name_backend(g, *ops);
	ret = (*ops)->setup(g);
	/* libaio has neither polling nor NOP: those stay io_uring's error */
	/* nor an open loop (eng_job.rate) */
	if (!(ret == -ENOSYS || ret == -EPERM) || g->n > 1 ||
	    w->job->backend != ENG_BACKEND_AUTO || w->job->mode != ENG_MODE_IRQ ||
	    w->job->op != ENG_OP_READ || w->job->rate > 0)
		return ret;
	w->res->fell_back = true;
	w->res->fallback_err = ret;
	w->res->stage = ENG_STAGE_NONE;
	w->res->err = 0;
	*ops = &eng_aio_ops;
	thread_name_backend(g, *ops);
	return (*ops)->setup(g);
}

static void worker_report_io(struct eng_worker *w)
{
	/* the last count, before the run may see this job done: the loop
	 * publishes at the top of each pass, so a worker that reached its
	 * --ios in its first pass would otherwise look done with no IO
	 * completed, which the runner takes for a failure at start */
	atomic_store_explicit(&w->live->ios, w->ios_ramp + w->ios, memory_order_relaxed);
	if (!w->fatal)
		return;
	w->res->stage = ENG_STAGE_IO;
	w->res->err = w->fatal;
}

/* range_len 0 means the rest of the target from range_off (engine.h). */
static int worker_rng_init(struct eng_worker *w)
{
	const struct eng_job *j = w->job;
	uint64_t len = j->range_len;

	if (!len && j->target && j->range_off < j->target->size)
		len = j->target->size - j->range_off;
	return eng_rng_init(&w->rng, j->seed, j->range_off, len, j->bs);
}

static void worker_init(struct eng_worker *w, const struct eng_thread *th)
{
	memset(w, 0, sizeof(*w));
	w->job = th->job;
	w->res = th->res;
	w->live = th->live;
	w->errlive = th->errlive;
	w->ctl = &th->run->ctl;
	w->th = th;
	w->state_seen = ENG_ST_SETUP;
	w->ctl_seen = ENG_ST_SETUP;
	w->batch = w->job->batch;
	w->bs = w->job->bs;
	/* a passthrough command's good completion is status 0 */
	w->passthru = w->job->backend == ENG_BACKEND_URING_CMD && w->job->op == ENG_OP_READ;
	w->expect = w->job->op == ENG_OP_NOP || w->passthru ? 0 : w->job->bs;
	w->latency = w->job->latency;
}

/* Pinned (when asked), its memory and random offsets: 0 or -errno, with
 * res->stage set. */
static int worker_prepare(struct eng_worker *w, bool pin)
{
	int ret = pin ? worker_pin(w) : 0;

	if (!ret)
		ret = worker_alloc(w);
	if (!ret && w->job->op == ENG_OP_READ)
		ret = worker_rng_init(w);
	if (ret && !w->res->stage)
		worker_fail(w, ENG_STAGE_SETUP, ret);
	w->res->hist = w->hist;
	w->res->svc_hist = w->svc_hist;
	return ret;
}

/* Each lane from its job (the run chains a group's, eng_thread.next):
 * the first lane pins the thread, and the others' memory is touched on
 * its CPU after that. */
static int thread_prepare(struct eng_group *g, const struct eng_thread *th)
{
	const struct eng_thread *all = th->run->th;
	unsigned k, i;
	int ret = 0;

	for (k = 0, i = th->idx; k < g->n; k++, i = all[i].next)
		worker_init(&g->lane[k], &all[i]);
	for (k = 0; k < g->n && !ret; k++) {
		ret = worker_prepare(&g->lane[k], k == 0);
		if (k)
			g->lane[k].res->cpu = g->lane[0].res->cpu;
	}
	return ret;
}

/* No memory for a group's lanes: every job of it says so. */
static int thread_no_lanes(const struct eng_thread *th)
{
	const struct eng_thread *all = th->run->th;
	unsigned k;

	for (k = th->idx; k != UINT_MAX; k = all[k].next) {
		all[k].res->stage = ENG_STAGE_MEMORY;
		all[k].res->err = -ENOMEM;
	}
	return -ENOMEM;
}

/* A lane that has stopped and holds no IO: its figures are final, with
 * the thread's calls over its window (taken when it ended; the run shares
 * them out, run.c). */
static void group_settle(struct eng_group *g, struct eng_worker *w)
{
	w->settled = true;
	if (!w->calls_taken)
		w->res->calls = w->t_start_ns ? g->calls : 0;
	worker_report_io(w);
	atomic_store_explicit(&w->live->settled, 1, memory_order_release);
	eng_run_wake(w->th->run);
}

unsigned eng_group_settle_done(struct eng_group *g)
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

void eng_group_fail(struct eng_group *g, int ret)
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

/*
 * The one thread body: a job alone is a group of one lane, on the
 * thread's stack; a group's lanes are allocated here, on the thread that
 * pins itself first. Setup, the backend's loop and teardown go through
 * the ops table for both. A lane the loop settled has its result final
 * already, read by the run: only the others are finished here.
 */
void *eng_worker_main(void *arg)
{
	struct eng_thread *th = arg;
	const struct eng_thread *all = th->run->th;
	const struct eng_backend_ops *ops = NULL;
	struct eng_worker one = { .job = NULL };	/* worker_init fills it */
	struct eng_group g = { .lane = &one, .n = th->nlanes };
	unsigned k;
	int ret;

	if (g.n > 1)
		g.lane = calloc(g.n, sizeof(*g.lane));
	ret = g.lane ? thread_prepare(&g, th) : thread_no_lanes(th);
	if (!ret)
		ret = thread_setup_backend(&g, &ops);
	if (eng_run_ready(th->run, ret) == 0) {
		ops->loop(&g);
		for (k = 0; k < g.n; k++)
			if (!g.lane[k].settled)
				worker_report_io(&g.lane[k]);
	}
	if (ops && !ret)
		ops->teardown(&g);
	for (k = 0; g.lane && k < g.n; k++)
		worker_free(&g.lane[k]);
	if (g.lane != &one)
		free(g.lane);
	/* the first job last: the run joins the thread once it sees that */
	for (k = th->next; k != UINT_MAX; k = all[k].next)
		atomic_store_explicit(&all[k].live->done, 1, memory_order_release);
	atomic_store_explicit(&th->live->done, 1, memory_order_release);
	eng_run_wake(th->run);
	return NULL;
}
