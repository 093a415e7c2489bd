/* iostorm latency TARGET: QD1 only, one line per second like ioping, then
 * the full percentile table.
 *
 * One run: once a second the workers copy their running histogram and
 * counters (an engine snapshot), and the line shows the difference from
 * the previous copy; the last line is the final report less the last copy.
 * So every IO of the measured window lands in exactly one line and in the
 * table, with no gap between seconds. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/out.h"
#include "cli/report.h"
#include "cli/runner.h"

#define ANSWER_WAIT_NS CLI_NS_PER_S	/* a worker answers after its current IO */

static int cmd_latency(int argc, char **argv);

const struct cli_verb cli_verb_latency = {
	.name = "latency",
	.what = "QD1 latency, one line per second",
	.synopsis = "iostorm latency [options] TARGET\n\n"
		"Reads one block at a time (QD1) from TARGET and prints IOPS, p50, p99\n"
		"and max latency of each second, then the full percentile table of the\n"
		"whole measured time.",
	.groups = CLI_OG_ENGINE | CLI_OG_TARGET | CLI_OG_JSON,
	.qd = 1,
	.ramp_ns = 2 * CLI_NS_PER_S,
	.time_ns = 10 * CLI_NS_PER_S,
	.jobfile = true,
	.run = cmd_latency,
};

struct lat_ctx {
	FILE *f;
	const char *name;
	json_t *secs;
	unsigned njobs;
	struct eng_snapshot *prev;	/* per worker: the last copy seen */
	bool *have_prev;
	struct eng_hist sum, part;	/* this second, all workers */
	struct eng_hist before;		/* the last copies, all workers */
	unsigned sec;			/* lines printed */
};

/* Adds worker i's second into c->sum; returns its IOs and sets *dt. */
static uint64_t take_second(struct lat_ctx *c, const struct eng_snapshot *s,
			    unsigned i, uint64_t *dt)
{
	struct eng_snapshot *p = &c->prev[i];
	uint64_t since = c->have_prev[i] ? p->t_ns : s->start_ns;
	uint64_t ios = s->ios - (c->have_prev[i] ? p->ios : 0);

	if (c->have_prev[i]) {
		eng_hist_diff(&c->part, &s->hist, &p->hist);
		eng_hist_merge(&c->sum, &c->part);
	} else {
		eng_hist_merge(&c->sum, &s->hist);
	}
	*dt = s->t_ns > since ? s->t_ns - since : 0;
	memcpy(p, s, sizeof(*p));
	c->have_prev[i] = true;
	return ios;
}

static void print_second(struct lat_ctx *c, uint64_t ios, uint64_t dt_ns)
{
	double iops = dt_ns ? (double)ios * (double)CLI_NS_PER_S / (double)dt_ns : 0.0;
	unsigned sec = ++c->sec;
	double mean = c->sum.count ? eng_hist_mean(&c->sum) : 0.0;
	char avg[16], p50[16], p99[16], max[16];

	fprintf(c->f, "%s %4u: %9.0f IOPS   mean %8s us   p50 %8s us   p99 %8s us   max %8s us\n",
		c->name, sec, iops,
		cli_fmt_us(avg, sizeof(avg), mean, c->sum.count > 0),
		cli_fmt_us(p50, sizeof(p50), (double)eng_hist_percentile(&c->sum, 50), true),
		cli_fmt_us(p99, sizeof(p99), (double)eng_hist_percentile(&c->sum, 99), true),
		cli_fmt_us(max, sizeof(max), (double)(c->sum.count ? c->sum.max_ns : 0), true));
	fflush(c->f);
	json_array_append_new(c->secs, json_pack("{s:I, s:f, s:I, s:{s:f, s:I, s:I, s:I}}",
		"second", (json_int_t)sec, "iops", iops, "ios", (json_int_t)ios,
		"lat_ns", "mean", mean, "p50", (json_int_t)eng_hist_percentile(&c->sum, 50),
		"p99", (json_int_t)eng_hist_percentile(&c->sum, 99),
		"max", (json_int_t)(c->sum.count ? c->sum.max_ns : 0)));
}

static void each_second(void *ctx, struct eng_run *r)
{
	struct lat_ctx *c = ctx;
	uint64_t ios = 0, dt, dt_max = 0;
	int seq = eng_run_snapshot(r);
	unsigned i;

	if (seq < 0)
		return;		/* out of memory: the table still comes */
	/* a worker that did not answer in time is left out of this line and
	 * counted in the next one */
	(void)eng_run_snapshot_wait(r, seq, ANSWER_WAIT_NS);
	eng_hist_reset(&c->sum);
	for (i = 0; i < c->njobs; i++) {
		const struct eng_snapshot *s = eng_run_snapshot_get(r, i, seq);

		if (!s || !s->start_ns)
			continue;
		ios += take_second(c, s, i, &dt);
		dt_max = dt > dt_max ? dt : dt_max;
	}
	print_second(c, ios, dt_max);
}

/* The last line: the whole window's figures less the last copies. */
static void last_second(struct lat_ctx *c, const struct cli_dev *d)
{
	uint64_t ios = 0, seen_ns = 0, el = (uint64_t)(d->elapsed_s * (double)CLI_NS_PER_S);
	unsigned i;

	if (!d->hist)
		return;
	eng_hist_reset(&c->before);
	for (i = 0; i < c->njobs; i++) {
		if (!c->have_prev[i])
			continue;
		eng_hist_merge(&c->before, &c->prev[i].hist);
		ios += c->prev[i].ios;
		if (c->prev[i].t_ns - c->prev[i].start_ns > seen_ns)
			seen_ns = c->prev[i].t_ns - c->prev[i].start_ns;
	}
	if (d->ios <= ios || el <= seen_ns)
		return;
	eng_hist_diff(&c->sum, d->hist, &c->before);
	print_second(c, d->ios - ios, el - seen_ns);
}

/* extra: {"seconds": [...]}, the JSON's lines, filled here. */
static int measure(const struct cli_opts *o, const struct eng_target *t,
		   json_t *extra)
{
	struct lat_ctx c = { .name = t->name, .secs = json_object_get(extra, "seconds"),
			     .njobs = o->jobs_per_device };
	struct cli_run_spec spec = { .op = ENG_OP_READ, .targets = &t, .ntargets = 1,
				     .label = "latency", .each_second = each_second, .ctx = &c };
	struct cli_opts run_opts = *o;	/* o without the live line */
	struct cli_report rep;
	int rc;

	c.f = cli_out_text(o);
	c.prev = calloc(c.njobs, sizeof(*c.prev));
	c.have_prev = calloc(c.njobs, sizeof(*c.have_prev));
	if (!c.prev || !c.have_prev) {
		cli_say("out of memory");
		rc = CLI_EXIT_RUNTIME;
		goto out;
	}
	fprintf(c.f, "iostorm latency: %s, QD1, bs %u, %.3gs after a %.3gs ramp\n",
		t->path, o->bs, cli_secs(o->time_ns), cli_secs(o->ramp_ns));
	run_opts.quiet = true;		/* one line a second already */
	rc = cli_runner_run(&run_opts, &spec, &rep);
	if (!rc && rep.ndev)
		last_second(&c, &rep.dev[0]);
	if (!rc)
		rc = cli_report_output(&rep, o, extra);
	if (rep.stalled)	/* its workers hold the target */
		cli_runner_abandon(rc ? rc : CLI_EXIT_RUNTIME);
	cli_report_free(&rep);
out:
	free(c.have_prev);
	free(c.prev);
	return rc;
}

static int cmd_latency(int argc, char **argv)
{
	struct cli_opts o;
	struct cli_targets ts = { NULL, 0 };
	json_t *extra = json_pack("{s:[]}", "seconds");
	int rc;

	if (!cli_opts_cmdline(&o, &cli_verb_latency, argc, argv, &rc))
		goto out;
	rc = CLI_EXIT_USAGE;
	if (o.ntargets != 1)
		cli_say("%s (try 'iostorm latency --help')",
			o.ntargets ? "one TARGET only (run it once per target)" : "no TARGET given");
	else if (o.qd != 1)
		cli_say("--qd %u: latency measures QD1 only; 'iostorm sweep' covers other depths", o.qd);
	else if (!o.latency)
		cli_say("--no-latency leaves nothing to show");
	else if (o.ios || !o.time_ns)
		cli_say("runs by --time, not --ios");
	else if (!extra)
		rc = CLI_EXIT_RUNTIME;
	else
		rc = cli_targets_open(&ts, &o);
	if (rc)
		goto out;
	o.batch = 1;
	rc = measure(&o, &ts.t[0], extra);
out:
	cli_targets_close(&ts);
	json_decref(extra);
	return rc;
}
