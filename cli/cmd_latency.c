/* iostorm latency TARGET: QD1 only, one line per second like ioping, then
 * the full percentile table.
 *
 * One run; each line is a sample of the runner's timeline (cli/report/timeline.h):
 * the difference between two copies of the workers' running histogram and
 * counters, and the last line the final report less the last copy. So
 * every IO of the measured window lands in exactly one line and in the
 * table, with no gap between seconds. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/opts/opts.h"
#include "cli/report/json.h"
#include "cli/report/out.h"
#include "cli/report/report.h"
#include "cli/runner/repeat.h"
#include "cli/runner/runner.h"
#include "cli/runner/targets.h"

static int cmd_latency(int argc, char **argv);

const struct cli_verb cli_verb_latency = {
	.name = "latency",
	.what = "QD1 latency, one line per second",
	.synopsis = "iostorm latency [options] TARGET\n\n"
		"Reads one block at a time (QD1) from TARGET and prints IOPS, p50, p99\n"
		"and max latency of each second, then the full percentile table of the\n"
		"whole measured time.",
	.operands = CLI_OPERANDS_TARGETS,
	.groups = CLI_OG_ENGINE | CLI_OG_TARGET | CLI_OG_JSON | CLI_OG_REPEAT | CLI_OG_RATE,
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
	unsigned sec;			/* lines printed of this repeat */
	unsigned line;			/* lines printed */
	unsigned repeat;		/* the repeat running, from 1 */
	unsigned marks;			/* cli_fmt_pct's, over the lines */
};

static void print_second(struct lat_ctx *c, const struct cli_tl_sample *x)
{
	unsigned sec = ++c->line;
	char avg[16], p50[16], p99[16], max[16];

	fprintf(c->f, "%s %4u: %9.0f IOPS   mean %8s us   p50 %8s us   p99 %8s us   max %8s us\n",
		c->name, sec, x->iops,
		cli_fmt_us(avg, sizeof(avg), x->mean_ns, x->has_lat),
		cli_fmt_pct_ci(p50, sizeof(p50), x->p50_ns, &x->p50_ci, x->has_lat, &c->marks),
		cli_fmt_pct_ci(p99, sizeof(p99), x->p99_ns, &x->p99_ci, x->has_lat, &c->marks),
		cli_fmt_us(max, sizeof(max), (double)x->max_ns, true));
	fflush(c->f);
	c->sec++;
	json_array_append_new(c->secs, json_pack("{s:I, s:I, s:f, s:I, s:{s:f, s:I, s:I, s:I, s:o, s:o}}",
		"second", (json_int_t)sec, "repeat", (json_int_t)c->repeat,
		"iops", x->iops, "ios", (json_int_t)x->ios,
		"lat_ns", "mean", x->mean_ns, "p50", (json_int_t)x->p50_ns,
		"p99", (json_int_t)x->p99_ns, "max", (json_int_t)x->max_ns,
		"p50_ci", cli_json_ci(&x->p50_ci), "p99_ci", cli_json_ci(&x->p99_ci)));
}

/* The timeline's newest sample, a line (a second whose worker did not
 * answer in time has none: its IOs are in the next line). */
static void each_second(void *ctx, const struct cli_timeline *tl)
{
	struct lat_ctx *c = ctx;
	const struct cli_tl_series *sr = &tl->dev[0];

	if (sr->n > c->sec)
		print_second(c, &sr->s[sr->n - 1]);
}

/* The last part of repeat r's window: its final figures less the last
 * copy; the next repeat's seconds start again from its own window. */
static void each_repeat(void *ctx, const struct cli_report *one, unsigned r)
{
	struct lat_ctx *c = ctx;

	while (one->ndev && one->dev[0].tl.n > c->sec)
		print_second(c, &one->dev[0].tl.s[c->sec]);
	c->sec = 0;
	c->repeat = r + 1;
}

/* extra: {"seconds": [...]}, the JSON's lines, filled here. */
static int measure(const struct cli_opts *o, const struct eng_target *t,
		   json_t *extra)
{
	struct lat_ctx c = { .name = t->name, .secs = json_object_get(extra, "seconds"),
			     .repeat = 1 };
	struct cli_run_spec spec = cli_run_spec_of(o, ENG_OP_READ);
	struct cli_report rep;
	int rc;

	c.f = cli_out_text(o);
	fprintf(c.f, "iostorm latency: %s, QD1, bs %u, %.3gs after a %.3gs ramp",
		t->path, o->bs, cli_secs(o->time_ns), cli_secs(o->ramp_ns));
	if (o->repeat > 1)
		fprintf(c.f, ", %u times", o->repeat);
	if (o->rate)
		fprintf(c.f, ", open loop at %llu/s (%s): latency from when each IO was due",
			(unsigned long long)o->rate, cli_arrival_name(o->arrival));
	fputc('\n', c.f);
	spec.targets = &t;
	spec.ntargets = 1;
	spec.label = "latency";
	spec.each_second = each_second;
	spec.ctx = &c;
	spec.quiet = true;		/* one line a second already */
	rc = cli_runner_repeat(o, &spec, &rep, each_repeat, &c);
	cli_pct_legend(c.f, c.marks);
	if (!rc)
		rc = cli_report_output(&rep, o, extra);
	if (rep.stalled)	/* its workers hold the target */
		cli_command_abandon(cli_exit_status(rc ? rc : -EIO));
	cli_report_free(&rep);
	return rc;
}

static int cmd_latency(int argc, char **argv)
{
	struct cli_opts o;
	struct cli_targets ts = { NULL, 0 };
	json_t *extra = json_pack("{s:[]}", "seconds");
	int rc = cli_opts_cmdline(&o, &cli_verb_latency, argc, argv);

	if (!rc && !extra) {
		cli_say("out of memory");
		rc = -ENOMEM;
	}
	if (rc)
		goto out;
	rc = -EINVAL;
	if (o.ntargets != 1)
		cli_say("%s (try 'iostorm latency --help')",
			o.ntargets ? "one TARGET only (run it once per target)" : "no TARGET given");
	else if (o.qd != 1)
		cli_say("--qd %u: latency measures QD1 only; 'iostorm sweep' covers other depths", o.qd);
	else if (!o.latency)
		cli_say("--no-latency leaves nothing to show");
	else if (o.ios || !o.time_ns)
		cli_say("runs by --time, not --ios");
	else
		rc = cli_targets_open(&ts, &o);
	if (rc)
		goto out;
	rc = measure(&o, &ts.t[0], extra);	/* at QD1, --batch is 1 (cli_opts_at_qd) */
out:
	cli_targets_close(&ts);
	json_decref(extra);
	return cli_exit_status(rc);
}
