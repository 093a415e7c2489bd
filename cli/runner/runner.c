/* One measured run: targets in, per-device figures out. Every failure is
 * one line on stderr naming the target and, where we know it, the fix. */
#include "cli/runner/runner.h"
#include "cli/runner/stop.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/runner/drive.h"
#include "cli/runner/limits.h"
#include "cli/out/openloop.h"
#include "cli/out/out.h"
#include "cli/runner/group.h"
#include "cli/runner/place.h"
#include "cli/out/progress.h"
#include "cli/out/timeline.h"
#include "cli/runner/steady.h"
#include "cli/runner/temp.h"
#include "engine/clock.h"
#include "engine/rng.h"
#include "topo/topo.h"

#define TICK_NS 100000000ull	/* how often the wait loop looks around */
#define CLI_DRAIN_NS (2 * CLI_NS_PER_S)	/* the most a worker gets to drain */
/* A worker answers a snapshot between two loops: after its current IO at
 * QD1. One that has not by then is counted in the next second. */
#define TL_WAIT_NS (CLI_NS_PER_S / 4)

/* A device's completions (good and failed) as last seen, when they last
 * moved, and whether its stall was said. */
struct cli_stall {
	uint64_t done;
	uint64_t since;
	bool said;
};

struct runctx {
	const struct cli_opts *o;
	const struct cli_run_spec *spec;
	enum eng_mode mode;
	struct eng_run *r;
	unsigned ndev, per, njobs;
	bool live;
	struct cli_progress_dev *pd;
	uint64_t *prev;		/* per device: IOs at the last live line */
	struct cli_stall *st;	/* per device: the stall watch */
	unsigned *dpw;		/* per device: devices its worker drives */
	unsigned nstalled;	/* workers left in the kernel at the end */
	struct cli_timeline tl;	/* a sample per second per device */
	bool tl_ok;		/* no sample lost to a failed allocation */
	struct cli_steady steady;	/* --steady */
	struct cli_temp_watch temp;	/* --temperature-every */
	struct cli_temp temp_acct;
	uint64_t wall_start, wall_end;	/* the measured window, CLOCK_REALTIME */
};

/* ---- completion mode ---- */

/* The completion mode for these targets: o->mode, or for --completion auto
 * poll where every block device has poll queues, else irq (said). */
static enum eng_mode runner_mode(const struct cli_opts *o,
				 const struct eng_target *const *t, unsigned n)
{
	unsigned i;

	if (!o->mode_auto)
		return o->mode;
	for (i = 0; i < n; i++) {
		if (!t[i]->is_blk || topo_io_poll(NULL, t[i]->dev) != 1) {
			cli_say("--completion auto: irq (%s has no poll queues)", t[i]->name);
			return ENG_MODE_IRQ;
		}
	}
	if (!n) {
		cli_say("--completion auto: irq");
		return ENG_MODE_IRQ;
	}
	cli_say("--completion auto: poll (every target has poll queues)");
	return ENG_MODE_POLL;
}

/* ---- jobs ---- */

int cli_runner_rate_check(const struct cli_opts *o)
{
	if (!o->rate)
		return 0;
	if (o->backend == ENG_BACKEND_LIBAIO) {
		cli_say("--rate issues IOs on a schedule through io_uring: --engine libaio has no open loop");
		return -EINVAL;
	}
	if (!o->mode_auto && o->mode == ENG_MODE_SQPOLL) {
		cli_say("--rate issues each IO when it is due from the worker: --completion sqpoll hands submission to a kernel thread");
		return -EINVAL;
	}
	if (o->group == CLI_GROUP_ON) {
		cli_say("--rate keeps a schedule per worker: --group on would put several devices in one");
		return -EINVAL;
	}
	if (o->rate < o->jobs_per_device) {
		cli_say("--rate %llu is fewer IOs per second than the %u workers per device: give each at least one",
		    (unsigned long long)o->rate, o->jobs_per_device);
		return -EINVAL;
	}
	return 0;
}

/* Options that cannot go together: 0 or -EINVAL, said. */
static int check_combination(const struct cli_opts *o, enum eng_op op)
{
	if (op == ENG_OP_NOP && o->backend == ENG_BACKEND_LIBAIO) {
		cli_say("nop measures io_uring's IORING_OP_NOP: --engine libaio has no equivalent");
		return -EINVAL;
	}
	if (o->backend == ENG_BACKEND_LIBAIO && !o->mode_auto && o->mode != ENG_MODE_IRQ) {
		cli_say("--completion %s needs io_uring: libaio completes by interrupt only",
		    eng_mode_name(o->mode));
		return -EINVAL;
	}
	if (cli_group_check(o) || cli_runner_rate_check(o) || cli_steady_opts_check(o))
		return -EINVAL;
	if (o->buffered && o->backend == ENG_BACKEND_URING_CMD) {
		cli_say("--buffered reads through the page cache: --engine io_uring_cmd sends NVMe commands to the drive");
		return -EINVAL;
	}
	if (o->buffered && !o->mode_auto &&
	    (o->mode == ENG_MODE_POLL || o->mode == ENG_MODE_HYBRID)) {
		cli_say("--completion %s needs O_DIRECT: reads through the page cache cannot be polled",
		    eng_mode_name(o->mode));
		return -EINVAL;
	}
	if (op == ENG_OP_READ && o->ios && o->ios < o->jobs_per_device) {
		cli_say("--ios %llu is fewer than the %u workers per device: give each at least one IO",
		    (unsigned long long)o->ios, o->jobs_per_device);
		return -EINVAL;
	}
	return 0;
}

/* Splits a per-device IO count over its workers; 0 stays "no limit". */
static uint64_t ios_share(uint64_t ios, unsigned per, unsigned w)
{
	uint64_t share;

	if (!ios)
		return 0;
	share = ios / per + (w < ios % per);
	return share ? share : 1;
}

static void fill_job(struct eng_job *j, const struct runctx *c, unsigned i,
		     const struct cli_slot *at)
{
	const struct cli_opts *o = c->o;
	unsigned d = i / c->per, w = i % c->per;

	memset(j, 0, sizeof(*j));
	j->target = c->spec->targets ? c->spec->targets[d] : NULL;
	j->op = c->spec->op;
	j->backend = j->op == ENG_OP_NOP ? ENG_BACKEND_IO_URING : o->backend;
	j->mode = c->mode;
	j->bs = o->bs;
	j->qd = o->qd;
	j->batch = o->batch < o->qd ? o->batch : o->qd;
	j->reap = o->reap < o->qd ? o->reap : o->qd;
	j->range_off = o->range_off;
	/* spelled out, so the engine never has to interpret 0 */
	j->range_len = o->range_len;
	if (j->target && !j->range_len)
		j->range_len = j->target->size - o->range_off;
	j->cpu = at->cpu;
	j->sq_cpu = at->sq_cpu;
	j->node = at->node;
	j->latency = o->latency;
	j->seed = eng_rng_seed(o->seed, i);
	j->ios = c->spec->targets ? ios_share(o->ios, c->per, w) : o->ios;
	/* a device's rate split evenly: its workers' schedules add up to it */
	j->rate = !c->spec->targets ? 0 :
		  c->spec->rates ? c->spec->rates[d] / c->per : (double)o->rate / c->per;
	j->arrival = o->arrival;
	j->rate_phase = (double)w / c->per;
}

static const char *job_name(const struct runctx *c, unsigned i);

/* --group: the jobs on one CPU in one ring, and how many devices each
 * device's worker drives. 0 or -ENOMEM, said. */
static int group_jobs(struct runctx *c, struct eng_job *jobs)
{
	const char **names = calloc(c->njobs, sizeof(*names));
	unsigned i, k, m, n;

	if (!names) {
		cli_say("out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < c->njobs; i++)
		names[i] = job_name(c, i);
	(void)cli_group_jobs(c->o, c->mode, jobs, c->njobs, names);
	free(names);
	for (i = 0; i < c->njobs; i++) {
		/* distinct devices in i's group: each counted at its first job */
		for (k = 0, n = 0; jobs[i].group && k < c->njobs; k++) {
			if (jobs[k].group != jobs[i].group)
				continue;
			for (m = 0; m < k && !(jobs[m].group == jobs[i].group &&
					       m / c->per == k / c->per); m++)
				;
			n += m == k;
		}
		n = n ? n : 1;
		if (n > c->dpw[i / c->per])
			c->dpw[i / c->per] = n;
	}
	return 0;
}

/* Every worker's job, placed: 0 or -errno, said; -EINVAL: --cpus does not
 * fit the workers. */
static int build_jobs(struct runctx *c, struct eng_job **out)
{
	struct eng_job *jobs;
	struct cli_slot *slots;
	unsigned i;
	int err = 0;

	jobs = calloc(c->njobs, sizeof(*jobs));
	slots = calloc(c->njobs, sizeof(*slots));
	if (!jobs || !slots) {
		cli_say("out of memory");
		err = -ENOMEM;
	}
	if (!err) {
		/* cli_place says why */
		err = cli_place(c->o, c->spec->targets, c->spec->targets ? c->ndev : 1,
				c->spec->targets ? c->per : c->njobs,
				c->mode, slots);
	}
	for (i = 0; !err && i < c->njobs; i++)
		fill_job(&jobs[i], c, i, &slots[i]);
	if (!err)
		err = group_jobs(c, jobs);
	free(slots);
	if (err)
		free(jobs);
	else
		*out = jobs;
	return err;
}

/* ---- failures ---- */

static const char *job_name(const struct runctx *c, unsigned i)
{
	return c->spec->targets ? c->spec->targets[i / c->per]->name : "nop";
}

static void mode_refused(enum eng_mode m)
{
	switch (m) {
	case ENG_MODE_HYBRID:
		cli_say("kernel refuses IORING_SETUP_HYBRID_IOPOLL: hybrid polling needs Linux 6.13 or newer");
		break;
	case ENG_MODE_SQPOLL:
		cli_say("kernel refuses IORING_SETUP_SQPOLL: SQ polling needs Linux 5.1 or newer (5.11 without root)");
		break;
	default:
		cli_say("kernel refuses IORING_SETUP_IOPOLL: polled completion needs Linux 5.1 or newer");
	}
}

static void io_failed(const struct runctx *c, const char *name, int err)
{
	bool polled = c->mode == ENG_MODE_POLL || c->mode == ENG_MODE_HYBRID;

	if (err == -EOPNOTSUPP && polled && !strncmp(name, "nvme", 4))
		cli_say("%s has no poll queues: load the nvme driver with poll_queues=N", name);
	else if (err == -EOPNOTSUPP && polled)
		cli_say("%s has no poll queues (queue/io_poll is 0): polled completion needs an NVMe drive with poll queues",
		    name);
	else
		cli_say("%s: IO failed: %s", name, strerror(-err));
}

static void setup_failed(const struct runctx *c, unsigned i, int err)
{
	const char *name = job_name(c, i);

	if (c->o->backend == ENG_BACKEND_LIBAIO)
		cli_say("%s: io_setup failed: %s (see /proc/sys/fs/aio-max-nr)", name, strerror(-err));
	else if ((err == -ENOSYS || err == -EPERM) && c->mode != ENG_MODE_IRQ)
		cli_say("%s: io_uring_setup failed: %s (io_uring disabled here? --completion %s needs io_uring)",
		    name, strerror(-err), eng_mode_name(c->mode));
	else if (err == -ENOSYS || err == -EPERM)
		cli_say("%s: io_uring_setup failed: %s (io_uring disabled here? try --engine libaio)",
		    name, strerror(-err));
	else
		cli_say("%s: io_uring_setup failed: %s", name, strerror(-err));
}

static void say_failure(const struct runctx *c, unsigned i, const struct eng_result *res)
{
	const char *name = job_name(c, i);
	const char *e = strerror(-res->err);

	switch (res->stage) {
	case ENG_STAGE_MODE: mode_refused(c->mode); break;
	case ENG_STAGE_IO: io_failed(c, name, res->err); break;
	case ENG_STAGE_SETUP: setup_failed(c, i, res->err); break;
	case ENG_STAGE_PIN: cli_say("%s: cannot pin its worker to a CPU: %s", name, e); break;
	case ENG_STAGE_MEMORY: cli_say("%s: cannot allocate the worker's memory: %s", name, e); break;
	case ENG_STAGE_REGISTER: cli_say("%s: registering buffers or file with io_uring failed: %s", name, e); break;
	case ENG_STAGE_NONE: cli_say("%s: the worker failed: %s", name, e); break;
	}
}

/* Worker i stopped by itself after completing reads: an IO error ended
 * it mid-run (a device that went away), which ends that device only. One
 * that stopped before any read completed failed at its start instead. */
static bool stopped_mid_run(const struct runctx *c, unsigned i)
{
	struct eng_progress p;

	return !eng_run_progress(c->r, i, 1, &p) && p.ndone && p.ios;
}

/* The first failed worker, said in one line: 0 or its -errno (else
 * create_err's). A worker an IO error stopped mid-run is not a failed
 * run: its device is reported with the error (collect). */
static int check_results(const struct runctx *c, int create_err)
{
	const struct eng_result *res;
	unsigned i;

	for (i = 0; i < c->njobs; i++) {
		res = eng_run_result(c->r, i);
		if (res->stage == ENG_STAGE_IO && !create_err && stopped_mid_run(c, i))
			continue;
		if (res->stage != ENG_STAGE_NONE) {
			say_failure(c, i, res);
			return res->err ? res->err : -EIO;
		}
	}
	if (create_err)
		cli_say("cannot start the workers: %s", strerror(-create_err));
	return create_err;
}

/* Once per process: a command of several runs (sweep's depths,
 * saturate's steps) falls back in each, for the same reason. */
static void say_fallback(const struct runctx *c)
{
	static bool said;
	const struct eng_result *res;
	unsigned i;

	for (i = 0; !said && i < c->njobs; i++) {
		res = eng_run_result(c->r, i);
		if (res->fell_back) {
			cli_say("io_uring unavailable (%s): using libaio", strerror(-res->fallback_err));
			said = true;
		}
	}
}

/* Whether some worker read into unregistered buffers (said once). */
static bool say_unfixed(const struct runctx *c)
{
	const struct eng_result *res;
	unsigned i;

	for (i = 0; i < c->njobs; i++) {
		res = eng_run_result(c->r, i);
		if (res->unfixed_err) {
			cli_limits_say_unfixed(c->o, res->unfixed_err);
			return true;
		}
	}
	return false;
}

/* ---- the measured loop ---- */

static uint64_t now_ns(void)
{
	return eng_mono_ns();
}

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * CLI_NS_PER_S + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / CLI_NS_PER_S), (long)(ns % CLI_NS_PER_S) };

	nanosleep(&ts, NULL);	/* EINTR is fine: the loop looks again */
}

static void live_sample(struct runctx *c, double dt)
{
	struct eng_progress p;
	uint64_t cur, base;
	unsigned d;

	for (d = 0; d < c->ndev; d++) {
		cur = eng_run_progress(c->r, d * c->per, c->per, &p) ? 0 : p.ios;
		base = c->prev[d];
		c->pd[d].iops = dt > 0 && cur >= base ? (double)(cur - base) / dt : 0.0;
		c->prev[d] = cur;
	}
}

/* Names a device with IOs in flight that completed none for
 * --stall-timeout, once per stall. */
static void stall_watch(struct runctx *c, uint64_t t)
{
	struct eng_progress p;
	struct cli_stall *st;
	unsigned d;

	for (d = 0; c->o->stall_ns && d < c->ndev; d++) {
		st = &c->st[d];
		if (eng_run_progress(c->r, d * c->per, c->per, &p))
			continue;
		if (p.ios + p.errors != st->done || !st->since || p.ndone == c->per ||
		    !p.inflight) {
			st->done = p.ios + p.errors;
			st->since = t;
			st->said = false;
			continue;
		}
		if (!st->said && t - st->since >= c->o->stall_ns) {
			cli_progress_clear();
			cli_say("%s: no completion for %.3g s, %u IOs in flight",
			    c->pd[d].name, cli_secs(t - st->since), p.inflight);
			st->said = true;
		}
	}
}

/* With --ios: every device has reached its count or is stalled (said):
 * a stalled one would never reach it. */
static bool ios_left_only_stalled(const struct runctx *c)
{
	struct eng_progress p;
	unsigned d;

	for (d = 0; d < c->ndev; d++)
		if (!c->st[d].said &&
		    (eng_run_progress(c->r, d * c->per, c->per, &p) || p.ndone < c->per))
			return false;
	return true;
}

/* A worker failed before its first read completed: the setup is wrong
 * (no poll queues, a misaligned block size), so the run stops and says
 * why. */
static bool failed_at_start(const struct runctx *c)
{
	struct eng_progress p;
	unsigned i;

	for (i = 0; i < c->njobs; i++)
		if (!eng_run_progress(c->r, i, 1, &p) && p.ndone && !p.ios)
			return true;
	return false;
}

/* With --ios, the run ends when every worker has its count (or is
 * stalled); by time, when the time is up (the caller's clock), every
 * worker stopped or one failed at its start. A device whose workers an
 * error stopped mid-run leaves the others going. */
static bool should_stop(const struct runctx *c)
{
	if (cli_runner_interrupted())
		return true;
	if (c->o->ios)
		return eng_run_done(c->r) || ios_left_only_stalled(c) || failed_at_start(c);
	return eng_run_done(c->r) || failed_at_start(c);
}

/* The measured phase samples the timeline on every whole second (then
 * calls the spec's each_second hook), waking up on the boundary rather
 * than at the next tick. */
static uint64_t next_wait(bool hook, uint64_t dur_ns, uint64_t el, unsigned sec)
{
	uint64_t left = dur_ns ? dur_ns - el : TICK_NS, wait = TICK_NS;

	if (hook && (uint64_t)(sec + 1) * CLI_NS_PER_S - el < wait)
		wait = (uint64_t)(sec + 1) * CLI_NS_PER_S - el;
	return left < wait ? left : wait;
}

static void wait_phase(struct runctx *c, const char *label, uint64_t dur_ns,
		       bool measuring)
{
	uint64_t t0 = now_ns(), last = t0, t;
	bool hook = measuring;
	unsigned sec = 0;

	live_sample(c, 0);
	while (!should_stop(c)) {
		t = now_ns();
		stall_watch(c, t);
		/* not on the last boundary: the caller has the final figures */
		if (hook && t - t0 >= (uint64_t)(sec + 1) * CLI_NS_PER_S &&
		    (!dur_ns || (uint64_t)(sec + 1) * CLI_NS_PER_S < dur_ns)) {
			sec++;
			c->tl_ok &= !cli_tl_second(&c->tl, c->r, TL_WAIT_NS);
			cli_temp_second(&c->temp, sec, &c->tl);
			if (c->spec->each_second)
				c->spec->each_second(c->spec->ctx, &c->tl);
			/* settled: the window just seen is the report */
			if (c->steady.asked && cli_steady_check(c->o, &c->tl, &c->steady))
				return;
		}
		if (dur_ns && t - t0 >= dur_ns)
			return;
		if (c->live && t - last >= CLI_NS_PER_S) {
			live_sample(c, cli_secs(t - last));
			cli_progress_show(label, cli_secs(t - t0), cli_secs(dur_ns), c->pd, c->ndev);
			last = t;
		}
		sleep_ns(next_wait(hook, dur_ns, t - t0, sec));
	}
}

/* The end: each worker gets min(2s, --stall-timeout) to finish what it
 * has in flight (forever with the watch off); a second stop request ends
 * the wait. Returns how many workers are still in the kernel. */
static unsigned drain(struct runctx *c)
{
	uint64_t grace = c->o->stall_ns, t0 = now_ns(), t;
	unsigned left;

	if (grace > CLI_DRAIN_NS)
		grace = CLI_DRAIN_NS;
	for (;;) {
		left = eng_run_join_for(c->r, TICK_NS);
		t = now_ns();
		if (!left || cli_runner_hurried() || (grace && t - t0 >= grace))
			return left;
	}
}

static void measure(struct runctx *c)
{
	const char *label = c->spec->label ? c->spec->label : "run";
	char ramp[160];

	/* the step's own label stays on the line while it ramps up */
	snprintf(ramp, sizeof(ramp), "%s, ramp", label);
	eng_run_start(c->r);
	if (c->o->ramp_ns && !should_stop(c))
		wait_phase(c, ramp, c->o->ramp_ns, false);
	/* stopped during the ramp: no measured window at all, rather than one
	 * of a few microseconds that would be scaled up to a rate */
	if (!should_stop(c)) {
		eng_run_measure(c->r);
		c->wall_start = wall_ns();
		wait_phase(c, label, c->o->time_ns, true);
		c->wall_end = wall_ns();
	}
	eng_run_stop(c->r);
	c->nstalled = drain(c);
	cli_progress_clear();
}

/* ---- gathering ---- */

static int alloc_devs(const struct runctx *c, struct cli_report *out)
{
	struct cli_dev *d;
	unsigned i;

	out->dev = calloc(c->ndev, sizeof(*out->dev));
	if (!out->dev)
		return -ENOMEM;
	out->ndev = c->ndev;
	for (i = 0; i < c->ndev; i++) {
		d = &out->dev[i];
		snprintf(d->name, sizeof(d->name), "%s", job_name(c, i * c->per));
		snprintf(d->path, sizeof(d->path), "%s",
			 c->spec->targets ? c->spec->targets[i]->path : "");
		d->nworkers = c->per;
		d->devices_per_worker = c->dpw[i] ? c->dpw[i] : 1;
		d->cpus = calloc(c->per, sizeof(*d->cpus));
		d->hist = c->o->latency ? malloc(sizeof(*d->hist)) : NULL;
		if (!d->cpus || (c->o->latency && !d->hist))
			return -ENOMEM;
		if (d->hist)
			eng_hist_reset(d->hist);
		if (c->o->rate && c->spec->targets &&
		    cli_open_init(d, c->spec->rates ? c->spec->rates[i] : (double)c->o->rate,
				  c->o->latency))
			return -ENOMEM;
	}
	return 0;
}

static void add_result(struct cli_dev *d, unsigned w, const struct eng_result *res)
{
	double el = cli_secs(res->elapsed_ns);

	d->engine = eng_backend_name(res->backend);
	d->cpus[w] = res->cpu;
	d->ios += res->ios;
	d->bytes += res->bytes;
	d->errors += res->errors;
	d->calls += res->calls;
	d->user_s += res->user_s;
	d->sys_s += res->sys_s;
	/* a stalled worker reports IOs but no CPU time: its IOs would make
	 * the others' look cheap */
	if (!res->stalled)
		d->cpu_ios += res->ios + res->errors;
	if (res->user_s + res->sys_s > d->busiest_s)
		d->busiest_s = res->user_s + res->sys_s;
	if (el > d->elapsed_s)
		d->elapsed_s = el;
	if (d->hist && res->hist && !res->stalled)
		eng_hist_merge(d->hist, res->hist);
	d->stalled |= res->stalled;
	d->inflight_at_end += res->inflight_at_end;
	cli_open_add(d, res);
	if (res->stage == ENG_STAGE_IO && !d->fatal)
		d->fatal = -res->err;	/* check_results let only mid-run ones by */
}

/* Device d's failures: per-errno counts summed over its workers, and the
 * earliest first failure among them. */
static void collect_errs(const struct runctx *c, unsigned d, struct cli_dev *dev)
{
	uint64_t count[ENG_ERR_SLOTS] = { 0 }, first_ns = UINT64_MAX;
	const struct eng_result *res;
	unsigned w, i;
	int first = 0;

	for (w = 0; w < c->per; w++) {
		res = eng_run_result(c->r, d * c->per + w);
		if (!res->errors)
			continue;	/* a stalled worker's are named too (late_result) */
		for (i = 0; i < ENG_ERR_SLOTS; i++)
			count[i] += res->errs.count[i];
		if (res->errs.first_ns < first_ns) {
			first_ns = res->errs.first_ns;
			first = res->errs.first;
		}
	}
	cli_dev_errs(dev, count, first, cli_secs(first_ns));
}

static int collect(struct runctx *c, struct cli_report *out)
{
	unsigned i;

	out->command = c->o->cmd;
	out->mode = c->mode;
	out->interrupted = cli_runner_interrupted();
	out->engine = eng_backend_name(eng_run_result(c->r, 0)->backend);
	if (alloc_devs(c, out))
		return -ENOMEM;
	for (i = 0; i < c->njobs; i++)
		add_result(&out->dev[i / c->per], i % c->per, eng_run_result(c->r, i));
	for (i = 0; i < c->ndev; i++)
		if (out->dev[i].elapsed_s > out->elapsed_s)
			out->elapsed_s = out->dev[i].elapsed_s;
	for (i = 0; i < c->ndev; i++) {
		/* a device an error stopped early delivered nothing after it:
		 * its rate is over the run's window, like everyone's */
		if (out->dev[i].fatal)
			out->dev[i].elapsed_s = out->elapsed_s;
		collect_errs(c, i, &out->dev[i]);
		cli_lat_from_hist(&out->dev[i], out->dev[i].hist);
		cli_open_finish(&out->dev[i]);
		cli_dev_rates(&out->dev[i]);
		out->stalled |= out->dev[i].stalled;
	}
	out->steady = c->steady;
	out->temp = c->temp_acct;
	if (cli_steady_apply(c->o, &c->tl, &c->steady, out) || cli_report_total(out) ||
	    cli_tl_last(&c->tl, c->r) || !c->tl_ok)
		return -ENOMEM;
	cli_steady_total(out);
	for (i = 0; i < c->ndev; i++) {
		out->dev[i].tl = cli_tl_take(&c->tl, i);
		out->dev[i].wall_start_ns = c->wall_start;
		out->dev[i].wall_end_ns = c->wall_end;
	}
	out->total.tl = cli_tl_take(&c->tl, c->ndev);
	out->total.wall_start_ns = c->wall_start;
	out->total.wall_end_ns = c->wall_end;
	return 0;
}

static int ctx_init(struct runctx *c, const struct cli_opts *o,
		    const struct cli_run_spec *spec)
{
	memset(c, 0, sizeof(*c));
	c->o = o;
	c->spec = spec;
	c->ndev = spec->targets ? spec->ntargets : 1;
	c->per = spec->targets ? o->jobs_per_device : o->jobs;
	c->njobs = c->ndev * c->per;
	c->live = cli_progress_enabled(o->quiet);
	if (!c->njobs)
		return -EINVAL;
	c->pd = calloc(c->ndev, sizeof(*c->pd));
	c->prev = calloc(c->ndev, sizeof(*c->prev));
	c->st = calloc(c->ndev, sizeof(*c->st));
	c->dpw = calloc(c->ndev, sizeof(*c->dpw));
	if (!c->pd || !c->prev || !c->st || !c->dpw || cli_tl_init(&c->tl, c->ndev, c->per))
		return -ENOMEM;
	c->tl_ok = true;
	if (o->steady_pct) {
		/* the window and the seconds that may end its devices' samples */
		if (cli_tl_keep(&c->tl, cli_steady_window(o) + 2))
			return -ENOMEM;
		c->steady.asked = true;
		c->steady.window_s = (double)cli_steady_window(o);
	}
	for (unsigned d = 0; d < c->ndev; d++)
		c->pd[d].name = job_name(c, d * c->per);
	return 0;
}

/* An explicit polled mode on a block device without poll queues fails on
 * its first read: say so before starting anything. Files are left to the
 * engine, which sees the failure when a read reaches the device. */
static int check_poll_queues(const struct runctx *c)
{
	const struct eng_target *t;
	unsigned i;

	if (c->o->mode_auto || (c->mode != ENG_MODE_POLL && c->mode != ENG_MODE_HYBRID))
		return 0;
	for (i = 0; c->spec->targets && i < c->spec->ntargets; i++) {
		t = c->spec->targets[i];
		if (t->is_blk && topo_io_poll(NULL, t->dev) != 1) {
			io_failed(c, t->name, -EOPNOTSUPP);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/* Everything before the engine: 0 or -errno, said; -EINVAL only for
 * options that do not fit (a usage error). */
static int prepare(struct runctx *c, struct eng_job **jobs)
{
	int err = check_combination(c->o, c->spec->op);

	if (!err)
		err = check_poll_queues(c);
	if (!err)
		err = cli_limits_run(c->o, c->spec->targets ? c->ndev : 0, c->njobs,
				     c->spec->op == ENG_OP_READ);
	if (!err)
		err = build_jobs(c, jobs);
	/* no refusal left: the targets' first reads (the zero sample, the
	 * drive's log), once per target in a command, before any IO */
	if (!err)
		cli_drive_before(c->o, c->spec->targets, c->spec->targets ? c->spec->ntargets : 0);
	/* each drive's hwmon, found through its account (controller) */
	if (!err && cli_temp_start(&c->temp, c->o, c->spec->targets,
				   c->spec->targets ? c->spec->ntargets : 0, &c->temp_acct)) {
		cli_say("out of memory");
		err = -ENOMEM;
	}
	return err;
}

/* The workers set up and waiting: 0 or -errno, said. */
static int launch(struct runctx *c, const struct eng_job *jobs)
{
	int err = eng_run_create(&c->r, jobs, c->njobs);

	if (err && !c->r) {
		cli_say("cannot start the workers: %s", strerror(-err));
		return err;
	}
	if (err)
		return check_results(c, err);
	say_fallback(c);
	return 0;
}

/* What the engine, the kernel or a device refused fails at run time,
 * whatever its errno: an EINVAL from io_uring_setup is not a usage error. */
static int refused(int err)
{
	return err == -EINVAL ? -EOPNOTSUPP : err;
}

int cli_runner_run(const struct cli_opts *o, const struct cli_run_spec *spec,
		   struct cli_report *out)
{
	struct eng_job *jobs = NULL;
	struct runctx c;
	int err;

	memset(out, 0, sizeof(*out));
	cli_runner_signals();
	err = ctx_init(&c, o, spec);
	if (err)
		cli_say("%s", err == -ENOMEM ? "out of memory" : "no workers to run");
	c.mode = runner_mode(o, spec->targets, spec->targets ? spec->ntargets : 0);
	if (!err)
		err = prepare(&c, &jobs);
	if (!err)
		err = refused(launch(&c, jobs));
	if (!err)
		out->unfixed_bufs = say_unfixed(&c);
	if (!err) {
		measure(&c);
		/* the drive's log after the run, outside the measured window */
		cli_drive_after(spec->targets, spec->targets ? spec->ntargets : 0);
		err = refused(check_results(&c, 0));
	}
	if (!err && collect(&c, out)) {
		cli_say("out of memory");
		err = -ENOMEM;
	}
	free(jobs);
	if (c.r)
		eng_run_destroy(c.r);
	free(c.pd);
	free(c.prev);
	free(c.st);
	free(c.dpw);
	/* a stalled worker may still answer a snapshot into the run's memory,
	 * not into the timeline's copies: those are the runner's own */
	cli_tl_free(&c.tl);
	cli_temp_free(&c.temp);
	return err;
}
