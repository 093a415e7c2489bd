/* iostorm latency TARGET: QD1 only, one line per second like ioping, then
 * the full percentile table.
 *
 * Each second is its own measured run of the runner, back to back (the
 * ramp only before the first): the runner reports final figures, and a
 * fresh histogram per window is the simplest honest per-second view. The
 * cost is a few milliseconds between windows (worker start-up) that are
 * not measured; the table merges every window's histogram. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/json.h"
#include "cli/opts.h"
#include "cli/report.h"
#include "cli/runner.h"
#include "cli/saturate.h"

#define NS_PER_S 1000000000ull
#define WINDOW_NS NS_PER_S

static const char synopsis[] = "iostorm latency [options] TARGET\n\n"
	"Reads one block at a time (QD1) from TARGET and prints IOPS, p50, p99\n"
	"and max latency once a second, then the full percentile table. Each\n"
	"second is its own short run; the ramp comes before the first.";

static void us(char *buf, size_t len, double ns)
{
	double v = ns / 1e3;

	snprintf(buf, len, v < 10 ? "%.2f" : v < 1000 ? "%.1f" : "%.0f", v);
}

static void print_second(FILE *f, unsigned sec, const struct cli_dev *d)
{
	char p50[16] = "-", p99[16] = "-", max[16] = "-";

	if (d->has_lat) {
		us(p50, sizeof(p50), (double)d->lat.p50);
		us(p99, sizeof(p99), (double)d->lat.p99);
		us(max, sizeof(max), (double)d->lat.max);
	}
	fprintf(f, "%s %4u: %9.0f IOPS   p50 %8s us   p99 %8s us   max %8s us\n",
		d->name, sec, d->iops, p50, p99, max);
	fflush(f);
}

/* Adds one window's device into the running total (the first window's
 * report, whose memory it reuses). */
static void accumulate(struct cli_dev *t, const struct cli_dev *d)
{
	t->ios += d->ios;
	t->bytes += d->bytes;
	t->errors += d->errors;
	t->calls += d->calls;
	t->user_s += d->user_s;
	t->sys_s += d->sys_s;
	t->elapsed_s += d->elapsed_s;
	if (t->hist && d->hist)
		eng_hist_merge(t->hist, d->hist);
}

static json_t *second_json(unsigned sec, const struct cli_dev *d)
{
	return json_pack("{s:I, s:f, s:I, s:o}", "second", (json_int_t)sec, "iops", d->iops,
			 "ios", (json_int_t)d->ios, "lat_ns", cli_json_lat(d));
}

static int output(struct cli_report *agg, const struct cli_opts *o, json_t *secs)
{
	char err[512];
	json_t *j;
	int rc;

	cli_report_print(agg, o, o->json && !strcmp(o->json, "-") ? stderr : stdout);
	if (!o->json)
		return CLI_EXIT_OK;
	j = cli_json_report(agg, o);
	if (!j || json_object_set(j, "seconds", secs)) {
		json_decref(j);
		fprintf(stderr, "iostorm latency: cannot build the JSON report (out of memory)\n");
		return CLI_EXIT_RUNTIME;
	}
	rc = cli_json_write(j, o->json, err, sizeof(err));
	json_decref(j);
	if (rc)
		fprintf(stderr, "iostorm latency: %s\n", err);
	return rc ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}

static int windows(const struct cli_opts *o, const struct eng_target *t,
		   struct cli_report *agg, json_t *secs)
{
	struct cli_run_spec spec = { ENG_OP_READ, &t, 1, "latency" };
	struct cli_opts w = *o;
	struct cli_report rep;
	FILE *f = o->json && !strcmp(o->json, "-") ? stderr : stdout;
	uint64_t left = o->time_ns;
	unsigned sec = 0;
	int rc = CLI_EXIT_OK;

	fprintf(f, "iostorm latency: %s, QD1, bs %u, %.3gs in 1s windows after a %.3gs ramp\n",
		t->path, o->bs, (double)o->time_ns / 1e9, (double)o->ramp_ns / 1e9);
	w.quiet = true;		/* one line a second already */
	w.json = NULL;
	while (left && !rc && !cli_runner_interrupted()) {
		w.time_ns = left < WINDOW_NS ? left : WINDOW_NS;
		w.ramp_ns = sec ? 0 : o->ramp_ns;
		rc = cli_runner_run(&w, &spec, &rep);
		if (rc) {
			cli_report_free(&rep);
			break;
		}
		print_second(f, ++sec, &rep.dev[0]);
		json_array_append_new(secs, second_json(sec, &rep.dev[0]));
		if (!agg->dev) {
			*agg = rep;	/* takes its memory */
			memset(&rep, 0, sizeof(rep));
		} else {
			accumulate(&agg->dev[0], &rep.dev[0]);
			agg->interrupted |= rep.interrupted;
		}
		cli_report_free(&rep);
		left -= w.time_ns;
	}
	return rc;
}

int cli_cmd_latency(int argc, char **argv)
{
	struct cli_opts o;
	struct cli_targets ts = { NULL, 0 };
	struct cli_report agg;
	json_t *secs = json_array();
	int rc;

	memset(&agg, 0, sizeof(agg));
	rc = cli_sat_cmdline(&o, "latency", argc, argv, synopsis, NULL, NULL, NULL,
			     1, 2 * NS_PER_S, 10 * NS_PER_S);
	if (rc != CLI_OPTS_GO)
		goto out;
	rc = CLI_EXIT_USAGE;
	if (o.ntargets != 1)
		fprintf(stderr, "iostorm latency: %s (try 'iostorm latency --help')\n",
			o.ntargets ? "one TARGET only (run it once per target)" : "no TARGET given");
	else if (o.qd != 1)
		fprintf(stderr, "iostorm latency: --qd %u: latency measures QD1 only; 'iostorm sweep' covers other depths\n", o.qd);
	else if (!o.latency)
		fprintf(stderr, "iostorm latency: --no-latency leaves nothing to show\n");
	else if (o.ios || !o.time_ns)
		fprintf(stderr, "iostorm latency: runs by --time, not --ios\n");
	else if (!secs)
		rc = CLI_EXIT_RUNTIME;
	else
		rc = cli_targets_open(&ts, &o);
	if (rc)
		goto out;
	o.batch = 1;
	rc = windows(&o, &ts.t[0], &agg, secs);
	if (!rc && agg.dev) {
		agg.interrupted |= cli_runner_interrupted();
		cli_lat_from_hist(&agg.dev[0], agg.dev[0].hist);
		cli_dev_rates(&agg.dev[0]);
		agg.elapsed_s = agg.dev[0].elapsed_s;
		if (cli_report_total(&agg))
			rc = CLI_EXIT_RUNTIME;
		else
			rc = output(&agg, &o, secs);
	}
out:
	cli_report_free(&agg);
	cli_targets_close(&ts);
	json_decref(secs);
	return rc;
}
