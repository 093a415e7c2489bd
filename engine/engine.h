/* The submission engine: one thread per job, each with its own ring or aio
 * context, buffers and counters. Never prints, never exits. */
#ifndef ENG_ENGINE_H
#define ENG_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/arrival.h"
#include "engine/hist.h"
#include "engine/target.h"

enum eng_backend {
	ENG_BACKEND_AUTO,	/* io_uring, libaio where io_uring is refused */
	ENG_BACKEND_IO_URING,
	ENG_BACKEND_LIBAIO,
	ENG_BACKEND_URING_CMD,	/* NVMe passthrough: IORING_OP_URING_CMD on the
				 * namespace's char device (engine/nvme_cmd.h) */
};

enum eng_mode {
	ENG_MODE_IRQ,
	ENG_MODE_POLL,		/* IORING_SETUP_IOPOLL */
	ENG_MODE_HYBRID,	/* IOPOLL + IORING_SETUP_HYBRID_IOPOLL (6.13+) */
	ENG_MODE_SQPOLL,	/* kernel submission thread beside the worker */
};

enum eng_op {
	ENG_OP_READ,
	ENG_OP_NOP,		/* IORING_OP_NOP: the engine's own cost */
};

/* Where a worker failed, so the CLI can say why and how to fix it. */
enum eng_stage {
	ENG_STAGE_NONE,
	ENG_STAGE_PIN,		/* sched_setaffinity */
	ENG_STAGE_MEMORY,	/* buffers, histogram */
	ENG_STAGE_SETUP,	/* io_uring_setup / io_setup: err is -errno */
	ENG_STAGE_MODE,		/* the kernel refuses the completion mode flag */
	ENG_STAGE_REGISTER,	/* registering buffers, file or ring fd */
	ENG_STAGE_IO,		/* an IO completed with an error that stops it */
};

/* Test hook (tests/test_engine_stamps.c). The loop stamps an IO with the
 * clock read once at the start of the loop that submits it and of the loop
 * that reaps it. With a job's stamps set, an io_uring worker in irq mode
 * also times every IO as a per-IO engine would, with a clock read right
 * before the system call that submits it and one as its CQE is read, and
 * records how far apart the two kinds of stamps are, so a test can hold the
 * per-loop stamps to their bound (docs/engine.md). It costs clock reads per
 * IO (the loop is compiled a second time for it): only tests set it. The
 * caller owns it; the worker writes it until joined and resets it when
 * measuring begins, so it covers the same IOs as the result's histogram. */
struct eng_stampcheck {
	struct eng_hist ref;	/* per-IO stamps' latencies */
	uint64_t sub_early_sum;	/* how much earlier the loop's submission */
	uint64_t sub_early_max;	/* stamp is than the per-IO one */
	uint64_t cmp_early_sum;	/* how much earlier the loop's completion */
	uint64_t cmp_early_max;	/* stamp is than the per-IO one */
	uint64_t loop_max;	/* longest user-space part of a loop (ramp
				 * included): from its clock read to its last
				 * submitting call */
};

struct eng_job {
	const struct eng_target *target;	/* NULL for ENG_OP_NOP */
	enum eng_op op;
	enum eng_backend backend;
	enum eng_mode mode;
	uint32_t bs;		/* bytes per IO, power of two, multiple of lbs */
	uint32_t qd;		/* IOs in flight, 1..65536 */
	uint32_t batch;		/* SQEs per submission, 1..qd */
	uint32_t reap;		/* completions a full queue waits for per
				 * call, 1..qd (t/io_uring's -c); 0: 1 */
	/* io_uring, irq or sqpoll: a wait for reap completions ends this
	 * many microseconds after it began if one has come by then, else at
	 * the first (IORING_FEAT_MIN_TIMEOUT, Linux 6.12; docs/engine.md);
	 * 0: none. A kernel without it fails the setup (-EOPNOTSUPP). */
	uint32_t reap_wait_us;
	/* io_uring: waits for completions are not iowait
	 * (IORING_ENTER_NO_IOWAIT, Linux 6.15) where the kernel has it;
	 * eng_result.no_iowait says where it was */
	bool no_iowait;
	uint64_t range_off;	/* byte range read inside the target */
	uint64_t range_len;	/* 0: the whole target from range_off */
	int cpu;		/* pin to this CPU, -1: no pinning */
	int sq_cpu;		/* SQPOLL thread CPU, -1: next to cpu */
	int node;		/* NUMA node for buffers, -1: first touch */
	bool latency;		/* time every IO */
	uint64_t seed;
	uint64_t ios;		/* stop after this many measured IOs (good or
				 * failed), 0: none */
	struct eng_stampcheck *stamps;	/* test hook above, NULL */
	/* 0: a thread of its own. Jobs with the same nonzero group share
	 * one thread and one io_uring ring, the first one's
	 * (several drives per worker): each keeps its own target, depth,
	 * buffers, counters, histogram and result, and the ring holds
	 * every one's depth. They must agree on op, backend (io_uring or
	 * io_uring_cmd: no libaio, no fallback to it), mode (not SQPOLL),
	 * cpu, node, batch, reap and latency, with no stamps, and be at
	 * most ENG_GROUP_MAX with depths summing to at most
	 * ENG_GROUP_MAX_QD; else
	 * eng_run_create returns -EINVAL. The thread's CPU time and system
	 * calls are shared out among them by their IOs (docs/engine.md). */
	unsigned group;
	/* Open loop: IOs per second this job issues on a schedule
	 * (engine/arrival.h), at most qd in flight; 0: closed loop, a new IO
	 * as soon as one completes. io_uring only (not libaio, SQPOLL or a
	 * group), read only; else eng_run_create returns -EINVAL. */
	double rate;
	enum eng_arrival_kind arrival;
	/* its first IO due this fraction (0..1) of its mean gap after the
	 * start: a device's workers offset so that their even schedules
	 * interleave instead of issuing together */
	double rate_phase;
};

#define ENG_GROUP_MAX 64	/* jobs one thread may drive (eng_job.group) */
#define ENG_GROUP_MAX_QD 65536	/* their depths summed: the most CQEs a ring has */

/* What workers have done so far, summed over the ones asked about; read
 * while they run, from counters each worker publishes once per loop. */
struct eng_progress {
	uint64_t ios;		/* completed OK since the start, ramp included:
				 * never goes back, so a reader's differences
				 * are rates */
	uint64_t errors;	/* completed with an error in the measured
				 * window (0 while ramping) */
	unsigned ndone;		/* how many of them have stopped */
	uint32_t inflight;	/* IOs submitted and not yet reaped, as of
				 * each worker's last loop */
};

/* How the measured window's failed IOs failed. Slot 0 counts short reads
 * (a completion with fewer bytes than asked, no errno); errnos above
 * ENG_ERRNO_MAX count in ENG_ERR_OTHER. A passthrough command that the
 * drive failed counts in the slot of its NVMe status: ENG_ERR_NVME plus
 * its status code type and code (ENG_NVME_CODE, 11 bits). */
#define ENG_ERRNO_MAX 133		/* EHWPOISON, the highest Linux has */
#define ENG_ERR_OTHER (ENG_ERRNO_MAX + 1)
#define ENG_ERR_NVME (ENG_ERR_OTHER + 1)
#define ENG_ERR_SLOTS (ENG_ERR_NVME + 0x800)

struct eng_errors {
	int first;			/* slot of the first failure: its errno,
					 * 0, ENG_ERR_OTHER or an NVMe status's
					 * slot as above; valid when
					 * the result has errors */
	uint64_t first_ns;		/* its time into the measured window */
	uint64_t count[ENG_ERR_SLOTS];	/* failures per errno (slots above) */
};

/* An open loop's lateness histogram: octave k counts the IOs submitted
 * from 2^(k+9) to 2^(k+10) ns after they were due, octave 0 also those
 * under 1024 ns (on time: the loop spins the last ENG_RATE_SPIN_NS), of
 * those issued while a slot was free when the loop last looked: their
 * lateness is the generator's own (a timer, a preemption). The IOs
 * issued after every slot was taken (they waited for the device to free
 * one) are counted apart, in entry ENG_LATE_SLOT. One octave per bit of
 * a 64-bit time, so an index is an OR and a bit scan, with no clamp
 * (engine/uring_loop_int.h). */
#define ENG_LATE_OCTS 55
#define ENG_LATE_SLOT ENG_LATE_OCTS
#define ENG_LATE_N (ENG_LATE_OCTS + 1)
static inline unsigned eng_late_oct(uint64_t late_ns)
{
	return 54u - (unsigned)__builtin_clzll(late_ns | 1023);
}

/* The least lateness octave k holds, ns (0 for octave 0). */
static inline uint64_t eng_late_oct_from(unsigned k)
{
	return k ? 1ull << (k + 9) : 0;
}

struct eng_result {
	enum eng_backend backend;	/* the one used */
	bool fell_back;			/* AUTO chose libaio: io_uring refused */
	int fallback_err;		/* why (-errno of io_uring_setup) */
	enum eng_stage stage;		/* ENG_STAGE_NONE when it ran cleanly */
	int err;			/* -errno at that stage */
	unsigned setup_flags;		/* io_uring setup flags accepted */
	bool no_iowait;			/* its waits were not iowait: asked
					 * (eng_job.no_iowait) and the kernel
					 * has IORING_ENTER_NO_IOWAIT */
	bool fixed_bufs;		/* io_uring read into registered buffers */
	int unfixed_err;		/* else why not, when it tried (-errno of
					 * registering them: over RLIMIT_MEMLOCK) */
	int cpu;			/* -1 unpinned, else the CPU read back */
	uint64_t ios;			/* completed OK in the measured window */
	uint64_t bytes;
	uint64_t errors;		/* completed with an error */
	struct eng_errors errs;		/* which ones, in the measured window */
	uint64_t calls;			/* submit/reap calls into the kernel */
	uint64_t elapsed_ns;		/* measured window */
	/* This thread's CPU time in the measured window. cpu_s is exact:
	 * the scheduler's runtime (CLOCK_THREAD_CPUTIME_ID, its
	 * sum_exec_runtime). user_s and sys_s split it as the kernel's tick
	 * samples do (getrusage RUSAGE_THREAD: kernel/sched/cputime.c,
	 * cputime_adjust, scales the runtime by the ticks that landed in
	 * user and in kernel mode), rescaled here to add up to cpu_s: the
	 * split is good to about a tick (eng_cpu_tick_ns), the sum exact. */
	double user_s, sys_s;
	double cpu_s;
	/* What the machine made it wait, over the same window: time spent
	 * runnable but not running (/proc/thread-self/schedstat's second
	 * field, run_delay; run_delay_known false where the kernel has none,
	 * !CONFIG_SCHED_INFO), and how often the scheduler took its CPU away
	 * (getrusage ru_nivcsw). */
	uint64_t run_delay_ns;
	bool run_delay_known;
	uint64_t nivcsw;
	struct eng_hist *hist;		/* owned by the run; NULL without latency */
	bool stalled;			/* still held IOs when eng_run_join_for
					 * gave up on it: the figures are the
					 * window's from its live counters (errs
					 * too), with no histogram, calls or CPU */
	uint32_t inflight_at_end;	/* IOs it held then */
	/* Open loop (eng_job.rate), over the measured window: hist then
	 * times each IO from when it was due, svc_hist from when it was
	 * submitted (the service time; NULL in a closed loop or without
	 * latency; owned by the run). late: good IOs submitted more than
	 * ENG_RATE_LATE_NS after they were due; backlog: IOs due by the
	 * window's end that were never submitted; dropped: IOs due by its
	 * start (in the ramp) that were not submitted then, dropped from
	 * the schedule so that the window holds only its own
	 * (eng_run_measure); inflight_ns: IOs in flight integrated over the
	 * window (IO x ns), so inflight_ns / elapsed_ns is the mean depth. */
	struct eng_hist *svc_hist;
	uint64_t late, backlog, dropped;
	double inflight_ns;
	/* Open loop: the IOs issued in the window by how late (submission
	 * minus due), an octave each (eng_late_oct), where a slot was free:
	 * the generator's own lateness, apart from the device's service
	 * time; [ENG_LATE_SLOT]: those that waited for a slot. */
	uint64_t late_oct[ENG_LATE_N];
};

/* A worker's measured figures at one instant, copied by the worker itself
 * when asked: the difference of two is an interval's (eng_hist_diff). */
struct eng_snapshot {
	uint64_t t_ns;		/* CLOCK_MONOTONIC when copied */
	uint64_t start_ns;	/* when its measured window began; 0: ramping */
	uint64_t ios;		/* completed OK since then */
	uint64_t errors;
	/* its thread's CPU time since its window began (eng_result's cpu_s,
	 * user_s, sys_s so far, ns; read by the worker with the counts):
	 * in a group (eng_job.group) only the thread's first job carries
	 * them, the others 0 */
	uint64_t cpu_ns, user_ns, sys_ns;
	struct eng_hist hist;	/* empty without latency */
};

struct eng_run;

/* Starts one thread per job; each pins itself, allocates its memory and sets
 * up its ring, and then waits. The first run chooses the latency clock
 * (eng_clock_choose in engine/clock.h). Returns 0 when every worker is
 * ready, or the first failure's -errno (see eng_run_result for where); *out
 * is set on success and on failure (destroy it either way, when non-NULL). */
int eng_run_create(struct eng_run **out, const struct eng_job *jobs,
		   unsigned njobs);
/* Releases the workers: IO starts (ramp). Every open loop's schedule
 * begins here, whenever its worker's loop starts. */
void eng_run_start(struct eng_run *r);
/* Ends the ramp: every worker resets its counters and histogram. An
 * open loop's window (eng_job.rate) begins here, not when its worker
 * notices (one the machine descheduled notices late): the IOs due by now
 * that a worker has not issued are the ramp's, and it drops them
 * (eng_result.dropped) rather than count their catching up as rate. */
void eng_run_measure(struct eng_run *r);
/* Asks every worker to stop; they drain what is in flight. */
void eng_run_stop(struct eng_run *r);
/* All workers stopped (IO limit reached or a fatal error). */
bool eng_run_done(const struct eng_run *r);
/* Sums workers first .. first + n - 1 into *out (worker i alone: i, 1; the
 * whole run: 0, eng_run_njobs). Returns 0, or -EINVAL for a range outside
 * the run. */
int eng_run_progress(const struct eng_run *r, unsigned first, unsigned n,
		     struct eng_progress *out);
/* Asks every worker for a snapshot at its next loop (one memcpy there; the
 * hot path only notices a changed control word it reads anyway). Returns
 * the request's number (> 0) or -ENOMEM. */
int eng_run_snapshot(struct eng_run *r);
/* Sleeps until every worker has answered request seq or has stopped (a
 * stopped worker never answers), for at most timeout_ns. Returns how many
 * answered; -ETIMEDOUT when a running worker still had not (a run not yet
 * started, a worker stuck in the kernel): the others' answers are there
 * all the same; -EINVAL when seq is not the latest request. */
int eng_run_snapshot_wait(struct eng_run *r, int seq, uint64_t timeout_ns);
/* Worker idx's answer to request seq, NULL until it has answered (a worker
 * that has stopped never answers). Valid until the next request. */
const struct eng_snapshot *eng_run_snapshot_get(const struct eng_run *r,
						unsigned idx, int seq);
/* Waits for every worker. Results stay valid until destroy. */
void eng_run_join(struct eng_run *r);
/* Waits at most timeout_ns for every worker to stop (after eng_run_stop),
 * joining those that do. Returns how many did not: workers stuck in the
 * kernel on IOs that never complete. Their results are then marked stalled
 * and built from what they last published; the threads are left running,
 * and eng_run_destroy leaves the run's memory to them (the process is
 * expected to exit). Returns 0, and joins all, once every worker stopped. */
unsigned eng_run_join_for(struct eng_run *r, uint64_t timeout_ns);
const struct eng_result *eng_run_result(const struct eng_run *r, unsigned idx);
unsigned eng_run_njobs(const struct eng_run *r);
void eng_run_destroy(struct eng_run *r);

/* The resolution of the user/system split of a thread's CPU time: one
 * scheduler tick (TICK_NSEC, 1 / CONFIG_HZ), which is what the coarse
 * clocks' resolution is (kernel/time/posix-timers.c, posix_get_coarse_res),
 * not sysconf(_SC_CLK_TCK) (USER_HZ, the unit /proc writes). A kernel
 * that times the split at each user/kernel crossing
 * (CONFIG_VIRT_CPU_ACCOUNTING_NATIVE, or _GEN on nohz_full CPUs:
 * vtime_user_enter in kernel/sched/cputime.c) does finer: the tick is then
 * a bound, not the resolution. 0 where the kernel does not say. */
uint64_t eng_cpu_tick_ns(void);

/* Whether this kernel takes NVMe passthrough through io_uring: SQE128 and
 * CQE32 rings and IORING_OP_URING_CMD (Linux 5.19). 0, -EOPNOTSUPP, or the
 * -errno of io_uring_setup (-ENOSYS, -EPERM: io_uring refused). */
int eng_uring_cmd_probe(void);
/* What this kernel's io_uring offers of the newer waits, each 0 where it
 * has it, else -EOPNOTSUPP (every one io_uring_setup's -errno where
 * io_uring itself is refused): waits that are not iowait
 * (IORING_ENTER_NO_IOWAIT, 6.15), a wait's minimum before it takes what
 * has come (IORING_FEAT_MIN_TIMEOUT, 6.12), and wait arguments in a
 * registered region (IORING_REGISTER_MEM_REGION with REG_WAIT_ARG, 6.13;
 * offered, not used: docs/engine.md). Asks a ring of its own; no IO. */
struct eng_uring_waits {
	int no_iowait;
	int min_wait;
	int reg_wait;
};
int eng_uring_waits_probe(struct eng_uring_waits *out);
const char *eng_backend_name(enum eng_backend b);
const char *eng_mode_name(enum eng_mode m);

#endif
