/* iostorm sweep [--qd LIST] TARGET...: all targets at once at each queue
 * depth in turn; IOPS and latency per depth, the knee (the smallest depth
 * reaching 90% of the best IOPS) and the depth where p99 has doubled from
 * the first depth. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/limits.h"
#include "cli/json.h"
#include "cli/opts.h"
#include "cli/out.h"
#include "cli/qd_list.h"
#include "cli/report.h"
#include "cli/runner.h"
#include "model/sweep.h"

#define DEFAULT_QDS "1,2,4,8,16,32,64,128,256"

struct point {
	uint32_t qd;
	bool done;
	bool unfixed;		/* read into unregistered buffers */
	struct cli_dev total;	/* hist NULL */
};

/* --qd takes a list here: checked now, read again by the command. */
static int set_qd_list(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	uint32_t qds[CLI_MAX_QDS];

	if (cli_qd_list_parse(arg, qds, CLI_MAX_QDS, err, errlen) < 0)
		return -EINVAL;
	o->qd_list = arg;
	return 0;
}

static const struct cli_optdesc own[] = {
	{ "qd", 'd', "LIST", 0, CLI_OF_LIST, set_qd_list,
	  "queue depths to run, increasing, comma-separated\n"
	  "(default " DEFAULT_QDS ")" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

static int cmd_sweep(int argc, char **argv);

const struct cli_verb cli_verb_sweep = {
	.name = "sweep",
	.what = "IOPS and latency per queue depth",
	.synopsis = "iostorm sweep [options] [--qd LIST] TARGET...\n\n"
		"Runs every TARGET at once at each queue depth of LIST (default\n"
		DEFAULT_QDS "), reporting IOPS and latency per depth,\n"
		"the knee (the smallest depth reaching 90% of the best IOPS) and the\n"
		"depth where p99 latency has doubled from the first depth. --qd takes\n"
		"a comma-separated list here. Defaults: --ramp 1s, --time 3s per depth.",
	.groups = CLI_OG_ENGINE | CLI_OG_TARGET | CLI_OG_JSON,
	.own = own,
	.qd = 1,
	.ramp_ns = CLI_NS_PER_S,
	.time_ns = 3 * CLI_NS_PER_S,
	.jobfile = true,
	.run = cmd_sweep,
};

static void print_point(FILE *f, const struct point *p)
{
	const struct cli_dev *d = &p->total;
	char p50[16], p99[16], p9999[16], mean[16];

	/* the mean cut to whole ns, like the percentiles */
	fprintf(f, "%6u %10.0f %9.1f %8s %8s %8s %8s\n", p->qd, d->iops, d->bw_bytes / CLI_MIB,
		cli_fmt_us(mean, sizeof(mean), (double)(uint64_t)d->lat.mean, d->has_lat),
		cli_fmt_us(p50, sizeof(p50), (double)d->lat.p50, d->has_lat),
		cli_fmt_us(p99, sizeof(p99), (double)d->lat.p99, d->has_lat),
		cli_fmt_us(p9999, sizeof(p9999), (double)d->lat.p9999, d->has_lat));
	fflush(f);
}

static int run_points(const struct cli_opts *o, struct cli_targets *ts,
		      struct point *pt, unsigned n, FILE *f)
{
	const struct eng_target *tp[CLI_MAX_TARGETS];
	struct cli_run_spec spec = { .op = ENG_OP_READ, .targets = tp, .ntargets = ts->n };
	struct cli_report rep;
	struct cli_opts step = *o;	/* o at this point's depth */
	char label[64];
	unsigned i;
	int rc = CLI_EXIT_OK;

	for (i = 0; i < ts->n; i++)
		tp[i] = &ts->t[i];
	step.json = NULL;
	fprintf(f, "%6s %10s %9s %8s %8s %8s %8s   (latency in us, all targets)\n",
		"qd", "IOPS", "MiB/s", "mean", "p50", "p99", "p99.99");
	for (i = 0; i < n && !rc && !cli_runner_interrupted(); i++) {
		step.qd = pt[i].qd;
		step.batch = o->batch < step.qd ? o->batch : step.qd;
		snprintf(label, sizeof(label), "sweep QD%u (%u/%u)", step.qd, i + 1, n);
		spec.label = label;
		rc = cli_runner_run(&step, &spec, &rep);
		if (!rc && !rep.interrupted) {
			pt[i].total = rep.total;
			pt[i].total.hist = NULL;
			pt[i].total.cpus = NULL;
			pt[i].done = true;
			pt[i].unfixed = rep.unfixed_bufs;
			print_point(f, &pt[i]);
		}
		if (!rc)
			cli_report_print_errors(f, &rep);
		cli_report_free(&rep);
	}
	return rc;
}

static json_t *points_json(const struct point *pt, unsigned n)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < n && pt[i].done; i++)
		json_array_append_new(a, json_pack("{s:I, s:f, s:f, s:o}", "qd", (json_int_t)pt[i].qd,
						   "iops", pt[i].total.iops, "bw_bytes", pt[i].total.bw_bytes,
						   "lat_ns", cli_json_lat(&pt[i].total)));
	return a;
}

static json_t *summary_json(const struct cli_opts *o, const struct point *pt,
			   unsigned n, int knee, int dbl, bool interrupted)
{
	struct cli_report meta;

	memset(&meta, 0, sizeof(meta));
	meta.command = "sweep";
	meta.engine = pt[0].total.engine;
	meta.mode = o->mode;
	for (unsigned i = 0; i < n && pt[i].done; i++)
		meta.unfixed_bufs |= pt[i].unfixed;
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:b}",
			 "schema", CLI_JSON_SCHEMA, "command", "sweep",
			 "config", cli_json_config(o, &meta),
			 "points", points_json(pt, n),
			 "knee_qd", knee >= 0 ? json_integer(pt[knee].qd) : json_null(),
			 "p99_double_qd", dbl >= 0 ? json_integer(pt[dbl].qd) : json_null(),
			 "interrupted", interrupted);
}

/* The knee and the p99 doubling, then the JSON where asked. */
static int summary(const struct cli_opts *o, const struct point *pt, unsigned n, FILE *f)
{
	double iops[CLI_MAX_QDS], p99[CLI_MAX_QDS], best = 0;
	unsigned m = 0;
	int knee, dbl;

	while (m < n && pt[m].done) {
		iops[m] = pt[m].total.iops;
		p99[m] = pt[m].total.has_lat ? (double)pt[m].total.lat.p99 : -1;
		if (iops[m] > best)
			best = iops[m];
		m++;
	}
	knee = model_sweep_knee(iops, m);
	dbl = model_sweep_p99_double(p99, m);
	if (m < n)
		fprintf(f, "INTERRUPTED after %u of %u depths\n", m, n);
	if (knee >= 0)
		fprintf(f, "knee: QD%u, the smallest depth reaching %.0f%% of the best (%.0f of %.0f IOPS)\n",
			pt[knee].qd, 100.0 * MODEL_SWEEP_KNEE_FRAC, iops[knee], best);
	if (dbl >= 0)
		fprintf(f, "p99 doubled: at QD%u (%.1f us against %.1f us at QD%u)\n", pt[dbl].qd,
			p99[dbl] / CLI_NS_PER_US, p99[0] / CLI_NS_PER_US, pt[0].qd);
	else if (m && p99[0] > 0)
		fprintf(f, "p99 doubled: not within QD%u..QD%u\n", pt[0].qd, pt[m - 1].qd);
	fflush(f);
	if (!o->json || !m)
		return CLI_EXIT_OK;
	return cli_out_json(o->json, summary_json(o, pt, m, knee, dbl, m < n), CLI_JSON_REPORT);
}

/* The deepest point's buffers and descriptors, before the first point
 * runs: a sweep that cannot finish says so before it starts (said). */
static bool deepest_fits(const struct cli_opts *o, const uint32_t *qds, int n)
{
	struct cli_opts deep = *o;
	int i;

	for (deep.qd = 1, i = 0; i < n; i++)
		deep.qd = qds[i] > deep.qd ? qds[i] : deep.qd;
	return !cli_limits_check(&deep);
}

/* A depth where any IO failed makes the sweep exit 1, after its summary. */
static bool had_errors(const struct point *pt, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (pt[i].done && pt[i].total.errors)
			return true;
	return false;
}

static int cmd_sweep(int argc, char **argv)
{
	struct cli_opts o;
	struct cli_targets ts = { NULL, 0 };
	struct point pt[CLI_MAX_QDS];
	uint32_t qds[CLI_MAX_QDS];
	char err[256];
	FILE *f;
	int n, i, rc;

	if (!cli_opts_cmdline(&o, &cli_verb_sweep, argc, argv, &rc))
		return rc;
	rc = CLI_EXIT_USAGE;
	n = cli_qd_list_parse(o.qd_list ? o.qd_list : DEFAULT_QDS, qds, CLI_MAX_QDS, err,
			      sizeof(err));
	if (n < 0)
		cli_say("%s", err);
	else if (!o.ntargets || o.ntargets > CLI_MAX_TARGETS)
		cli_say("%s (try 'iostorm sweep --help')",
			o.ntargets ? "too many targets" : "no TARGET given");
	else if (deepest_fits(&o, qds, n))
		rc = cli_targets_open(&ts, &o);
	else
		rc = CLI_EXIT_RUNTIME;
	if (rc)
		goto out;
	memset(pt, 0, sizeof(pt));
	for (i = 0; i < n; i++)
		pt[i].qd = qds[i];
	f = cli_out_text(&o);
	fprintf(f, "iostorm sweep: %u target%s, bs %u, %d depths, %.3gs ramp + %.3gs each\n",
		ts.n, ts.n == 1 ? "" : "s", o.bs, n, cli_secs(o.ramp_ns), cli_secs(o.time_ns));
	rc = run_points(&o, &ts, pt, (unsigned)n, f);
	if (!rc)
		rc = summary(&o, pt, (unsigned)n, f);
	if (!rc && had_errors(pt, (unsigned)n))
		rc = CLI_EXIT_RUNTIME;
out:
	cli_targets_close(&ts);
	return rc;
}
