/* The measured loop: ramp, measure, watch for stalls and the end, drain. */
#include "cli/runner/runner_int.h"
#include "cli/runner/stop.h"

#include <stdio.h>
#include <time.h>

#include "cli/live/live.h"
#include "cli/report/out.h"
#include "cli/report/progress.h"
#include "cli/runner/temp.h"
#include "engine/clock.h"

#define TICK_NS 100000000ull	/* how often the wait loop looks around */
#define CLI_DRAIN_NS (2 * CLI_NS_PER_S)	/* the most a worker gets to drain */
/* A worker answers a snapshot between two loops: after its current IO at
 * QD1. One that has not by then is counted in the next interval. */
#define TL_WAIT_NS (CLI_NS_PER_S / 4)

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
			char line[256];

			cli_progress_clear();
			snprintf(line, sizeof(line), "%s: no completion for %.3g s, %u IOs in flight",
				 c->names[d], cli_secs(t - st->since), p.inflight);
			cli_say("%s", line);
			st->said = true;
			if (c->window)
				cli_live_event(&(struct cli_live_event){
					.run = c->run, .device = c->names[d],
					.t_s = cli_secs(t - c->mono_start), .what = "stall",
					.text = line });
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
	if (c->spec->ios)
		return eng_run_done(c->r) || ios_left_only_stalled(c) || failed_at_start(c);
	return eng_run_done(c->r) || failed_at_start(c);
}

/* The measured phase samples the timeline on every whole interval (then
 * calls the spec's each_second hook), waking up on the boundary rather
 * than at the next tick. */
static uint64_t next_wait(uint64_t iv, uint64_t dur_ns, uint64_t el, unsigned sec)
{
	uint64_t left = dur_ns ? dur_ns - el : TICK_NS, wait = TICK_NS;

	if (iv && (uint64_t)(sec + 1) * iv - el < wait)
		wait = (uint64_t)(sec + 1) * iv - el;
	return left < wait ? left : wait;
}

/* The live line of the measured window: each interval's IOPS, from its
 * set (the ramp's, which has no sets, from the workers' progress). */
static void line_interval(void *ctx, const struct cli_interval_set *s)
{
	struct runctx *c = ctx;
	const struct cli_interval *iv;
	unsigned k;

	if (s->last)
		return;
	for (k = 0; k < s->ndev && k < c->ndev; k++) {
		iv = &s->dev[k];
		c->pd[k].name = iv->device;
		c->pd[k].iops = iv->t1_s > iv->t0_s ? (double)iv->ios / (iv->t1_s - iv->t0_s) : 0;
	}
	cli_progress_show(c->label, s->total->t1_s, cli_secs(c->spec->time_ns), c->pd, k);
}

static const struct cli_live_sink line_sink = { .interval = line_interval };

/* The interval just taken, with its CPU time, to every sink. */
static void interval_out(struct runctx *c)
{
	const struct cli_interval_set *s = cli_tl_set(&c->tl);

	if (!s)
		return;
	cli_tl_cpu(&c->tl, &c->cpu);
	cli_live_interval(s);
}

void cli_runner_last_interval(struct runctx *c)
{
	if (c->window && cli_tl_set(&c->tl))
		cli_live_interval(cli_tl_set(&c->tl));
}

/* The measured window starts: its sets' description, the CPU's base, the
 * window to every sink. */
static void window_start(struct runctx *c, const char *label)
{
	c->run = cli_live_next_run();
	c->label = label;
	c->window = true;
	cli_tl_window(&c->tl, c->names, c->spec->op == ENG_OP_NOP ? 0 : c->o->bs,
		      c->o->latency, c->run, label, c->wall_start);
	cli_cpu_start(&c->cpu);
	cli_live_window(&(struct cli_live_window){
		.run = c->run, .label = label, .wall_start_ns = c->wall_start,
		.interval_ns = c->spec->interval_ns, .time_ns = c->spec->time_ns,
		.ndev = c->ndev, .devices = c->names });
	if (c->live && cli_live_add(&line_sink, c))
		c->live = false;	/* the table is full: no line rather than none of the rest */
}

static void wait_phase(struct runctx *c, const char *label, uint64_t dur_ns,
		       bool measuring)
{
	uint64_t t0 = now_ns(), last = t0, t, iv = measuring ? c->spec->interval_ns : 0;
	unsigned sec = 0;

	live_sample(c, 0);
	while (!should_stop(c)) {
		t = now_ns();
		stall_watch(c, t);
		/* not on the last boundary: the caller has the final figures */
		if (iv && t - t0 >= (uint64_t)(sec + 1) * iv &&
		    (!dur_ns || (uint64_t)(sec + 1) * iv < dur_ns)) {
			sec++;
			c->tl_ok &= !cli_tl_second(&c->tl, c->r, TL_WAIT_NS, sec * iv);
			interval_out(c);
			cli_temp_second(&c->temp, sec, &c->tl);
			if (c->spec->each_second)
				c->spec->each_second(c->spec->ctx, &c->tl);
			/* settled: the window just seen is the report */
			if (c->steady.asked && cli_steady_check(c->o, &c->tl, &c->steady))
				return;
		}
		if (dur_ns && t - t0 >= dur_ns)
			return;
		if (c->live && !measuring && t - last >= CLI_NS_PER_S) {
			live_sample(c, cli_secs(t - last));
			cli_progress_show(label, cli_secs(t - t0), cli_secs(dur_ns), c->pd, c->ndev);
			last = t;
		}
		sleep_ns(next_wait(iv, dur_ns, t - t0, sec));
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

void cli_runner_measure(struct runctx *c)
{
	const char *label = c->spec->label ? c->spec->label : "run";
	char line[192], ramp[sizeof(line) + 8];

	/* the step's own label stays on the line while it ramps up; the note
	 * is for the line, the window is known by its label alone */
	snprintf(line, sizeof(line), "%s%s%s", label, c->spec->note ? ", " : "",
		 c->spec->note ? c->spec->note : "");
	snprintf(ramp, sizeof(ramp), "%s, ramp", line);
	eng_run_start(c->r);
	if (c->spec->ramp_ns && !should_stop(c))
		wait_phase(c, ramp, c->spec->ramp_ns, false);
	/* stopped during the ramp: no measured window at all, rather than one
	 * of a few microseconds that would be scaled up to a rate */
	if (!should_stop(c)) {
		eng_run_measure(c->r);
		c->wall_start = wall_ns();
		c->mono_start = now_ns();
		window_start(c, label);
		wait_phase(c, line, c->spec->time_ns, true);
		c->wall_end = wall_ns();
		cli_cpu_stop(&c->cpu);
	}
	eng_run_stop(c->r);
	c->nstalled = drain(c);
	cli_live_remove(&line_sink, c);
	cli_progress_clear();
}
