/* The report table: a config line, one row per device, then the total row,
 * in aligned columns. */
#include "cli/report/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/report/drop.h"
#include "cli/runner/steady.h"
#include "cli/runner/temp.h"
#include "cli/report/json.h"
#include "cli/report/nvme_status.h"
#include "cli/report/openloop.h"
#include "cli/report/spread.h"

#define LATW 8




void cli_report_print_errors(FILE *f, const struct cli_report *r)
{
	const struct cli_errs *e;
	unsigned i;

	for (i = 0; i < r->ndev; i++) {
		if (!r->dev[i].errors && r->dev[i].fatal) {
			fprintf(f, "%s: %s (%s) stopped it before the measured window; the others went on\n",
				r->dev[i].name, cli_errno_name(r->dev[i].fatal),
				cli_errno_text(r->dev[i].fatal));
			continue;
		}
		if (!r->dev[i].errors)
			continue;
		e = &r->dev[i].errs;
		fprintf(f, "%s: %llu error%s from %.2fs: first %s (%s), most %s",
			r->dev[i].name, (unsigned long long)r->dev[i].errors,
			r->dev[i].errors == 1 ? "" : "s", e->first_s, cli_errno_name(e->first),
			cli_errno_text(e->first), cli_errno_name(e->common));
		if (r->dev[i].fatal)
			fprintf(f, "; %s stopped it, the others went on",
				cli_errno_name(r->dev[i].fatal));
		fputc('\n', f);
	}
}

/* One line per stalled device, after the error lines. */
static void print_stalled(FILE *f, const struct cli_report *r)
{
	unsigned i;

	for (i = 0; i < r->ndev; i++) {
		if (!r->dev[i].stalled)
			continue;
		fprintf(f, "%s: stalled: %llu IO%s still in flight at the end; figures up to the end of the measured window, no latency\n",
			r->dev[i].name, (unsigned long long)r->dev[i].inflight_at_end,
			r->dev[i].inflight_at_end == 1 ? "" : "s");
	}
}

static bool report_had_errors(const struct cli_report *r)
{
	unsigned i;

	for (i = 0; i < r->ndev; i++)
		if (r->dev[i].errors || r->dev[i].stalled || r->dev[i].fatal)
			return true;
	return false;
}






static void add_counts(struct cli_dev *t, const struct cli_dev *d)
{
	t->nworkers += d->nworkers;
	cli_dev_add_counters(t, d);
	t->iops += d->iops;
	t->bw_bytes += d->bw_bytes;
	if (d->elapsed_s > t->elapsed_s)
		t->elapsed_s = d->elapsed_s;
}

int cli_report_total(struct cli_report *r)
{
	struct cli_dev *t = &r->total;
	bool lat = false;
	unsigned i;

	free(t->hist);
	free(t->tl.s);
	free(t->reps);
	free(t->open.svc_hist);
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "total");
	t->engine = r->engine;
	for (i = 0; i < r->ndev; i++) {
		add_counts(t, &r->dev[i]);
		lat |= r->dev[i].hist != NULL;
	}
	/* rates are the sum of each device's own rate, not ios over the
	 * longest window */
	t->ios_per_call = t->calls ? (double)(t->ios + t->errors) / (double)t->calls : 0.0;
	if (cli_open_total(r))
		return -ENOMEM;
	if (!lat)
		return 0;
	t->hist = malloc(sizeof(*t->hist));
	if (!t->hist)
		return -ENOMEM;
	eng_hist_reset(t->hist);
	for (i = 0; i < r->ndev; i++)
		if (r->dev[i].hist)
			eng_hist_merge(t->hist, r->dev[i].hist);
	cli_lat_from_hist(t, t->hist);
	return 0;
}

static void print_lat(FILE *f, const struct cli_dev *d, unsigned *marks)
{
	char buf[32];
	unsigned k;

	fprintf(f, " %*s", LATW, cli_fmt_us(buf, sizeof(buf), d->lat.mean, d->has_lat));
	for (k = 0; k < MODEL_PCT_N; k++)
		fprintf(f, " %*s", LATW, cli_fmt_pct(buf, sizeof(buf), &d->lat, d->has_lat, k, marks));
	fprintf(f, " %*s", LATW, cli_fmt_us(buf, sizeof(buf), (double)d->lat.max, d->has_lat));
}

const char *cli_fmt_cost(char *buf, size_t len, const struct cli_dev *d)
{
	/* the exact total: known whatever the split's resolution */
	if (d->cpu_ios)
		snprintf(buf, len, "%.0f", 1e9 * d->cpu_s / (double)d->cpu_ios);
	else
		snprintf(buf, len, "-");
	return buf;
}

/* The CPU cost columns: user+sys ns per IO and user's share, percent;
 * "-" where unknown. */
static void print_cost(FILE *f, const struct cli_dev *d)
{
	struct model_cost c;
	char buf[32];

	cli_dev_cost(d, &c);
	fprintf(f, " %7s", cli_fmt_cost(buf, sizeof(buf), d));
	if (model_cost_known(c.user_share))
		fprintf(f, " %5.1f", 100.0 * c.user_share);
	else
		fprintf(f, " %5s", "-");
}

static void print_row(FILE *f, const struct cli_dev *d, int namew, unsigned *marks)
{
	double cpu = d->elapsed_s > 0 ? 100.0 * d->cpu_s / d->elapsed_s : 0.0;

	fprintf(f, "%-*s %10.0f %9.1f", namew, d->name, d->iops,
		d->bw_bytes / CLI_MIB);
	print_lat(f, d, marks);
	fprintf(f, " %6.1f", cpu);
	print_cost(f, d);
	/* no calls counted for IOs that were done (a merged stream's): not known */
	if (!d->calls && d->ios + d->errors)
		fprintf(f, " %7s %7llu\n", "-", (unsigned long long)d->errors);
	else
		fprintf(f, " %7.2f %7llu\n", d->ios_per_call, (unsigned long long)d->errors);
}

static void print_config(const struct cli_report *r, const struct cli_opts *o,
			 FILE *f)
{
	fprintf(f, "iostorm %s: %s, completion %s", r->command,
		r->engine ? r->engine : "?", eng_mode_name(r->mode));
	if (o->groups & CLI_OG_TARGET)
		fprintf(f, ", bs %u", o->bs);
	fprintf(f, ", qd %u, batch %u", o->qd, o->batch);
	if (o->time_ns)
		fprintf(f, ", time %.3gs", cli_secs(o->time_ns));
	if (o->ios)
		fprintf(f, ", %llu IOs", (unsigned long long)o->ios);
	fprintf(f, ", ramp %.3gs", cli_secs(o->ramp_ns));
	if (r->repeats > 1)
		fprintf(f, ", %u repeats", r->repeats);
	if (o->rate)
		fprintf(f, ", rate %llu/s per device (%s)", (unsigned long long)o->rate,
			cli_arrival_name(o->arrival));
	fprintf(f, "%s%s\n",
		o->buffered ? ", buffered" : "", r->interrupted ? ", INTERRUPTED" : "");
}

static void print_table(const struct cli_report *r, const struct cli_opts *o,
			FILE *f)
{
	int namew = 6;
	unsigned i, marks = 0;

	for (i = 0; i < r->ndev; i++)
		if ((int)strlen(r->dev[i].name) > namew)
			namew = (int)strlen(r->dev[i].name);
	print_config(r, o, f);
	fprintf(f, "%-*s %10s %9s %*s %*s %*s %*s %*s %*s %*s %6s %7s %5s %7s %7s\n",
		namew, "device", "IOPS", "MiB/s", LATW, "mean", LATW, "p50",
		LATW, "p90", LATW, "p99", LATW, "p99.9", LATW, "p99.99",
		LATW, "max", "CPU%", "ns/IO", "usr%", "IO/call", "errors");
	for (i = 0; i < r->ndev; i++)
		print_row(f, &r->dev[i], namew, &marks);
	if (r->ndev > 1)
		print_row(f, &r->total, namew, &marks);
	if (r->elapsed_s <= 0)
		fprintf(f, "nothing was measured: the run stopped before its ramp ended\n");
	else
		fprintf(f, "latency in microseconds over %.2fs measured; CPU%% is the workers' CPU time%s,\n"
			"ns/IO that CPU time per IO completed, usr%% its share in user space (iostorm; the rest is the kernel's;\n"
			"- where below one scheduler tick: docs/cpu.md)\n",
			r->elapsed_s, r->mode == ENG_MODE_SQPOLL ?
			" (not of the SQPOLL kernel threads, which keep a core busy each)" : "");
	cli_pct_legend(f, marks);
	cli_open_print(f, r);
	cli_spread_print(f, r);
	cli_report_print_errors(f, r);
	cli_drop_print(f, r);
	cli_steady_print(f, r);
	cli_temp_print(f, r);
	print_stalled(f, r);
}

int cli_report_print(const struct cli_report *r, const struct cli_opts *o)
{
	print_table(r, o, cli_out_text(o));
	return report_had_errors(r) ? -EIO : 0;
}

int cli_report_output(const struct cli_report *r, const struct cli_opts *o,
		      json_t *extra)
{
	int errs = cli_report_print(r, o);
	json_t *j;

	if (!cli_out_report_wanted(o))
		return errs;
	j = cli_json_report(r, o);
	if (j && extra && json_object_update(j, extra)) {
		json_decref(j);
		j = NULL;
	}
	/* cli_out_json says why it could not write the report */
	return cli_out_json(o->json, j, CLI_JSON_REPORT) ? -EIO : errs;
}

