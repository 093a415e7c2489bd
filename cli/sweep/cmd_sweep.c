/* iostorm sweep [--qd LIST] TARGET...: all targets at once at each queue
 * depth in turn; IOPS and latency per depth, the knee (the smallest depth
 * reaching 90% of the best IOPS) and the depth where p99 has doubled from
 * the first depth. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/check/check.h"
#include "cli/commands.h"
#include "cli/runner/limits.h"
#include "cli/live/stream.h"
#include "cli/out/drive_json.h"
#include "cli/out/json.h"
#include "cli/opts/opts.h"
#include "cli/out/out.h"
#include "cli/opts/qd_list.h"
#include "cli/out/report.h"
#include "cli/out/setup_json.h"
#include "cli/out/spread.h"
#include "cli/runner/repeat.h"
#include "cli/runner/runner.h"
#include "cli/runner/stop.h"
#include "cli/runner/targets.h"
#include "cli/out/openloop.h"
#include "cli/sweep/rate_list.h"
#include "model/sweep.h"

#define DEFAULT_QDS "1,2,4,8,16,32,64,128,256"
/* sweep --rate: the depth limit of every rate (and the closed loop that
 * finds the maximum) unless --qd names one */
#define RATE_QD 32
#define BEFORE_POINTS UINT_MAX
_Static_assert(CLI_MAX_RATES <= CLI_MAX_QDS, "a point per rate");
#define STR_(x) #x
#define STR(x) STR_(x)

/* One target's figures at one depth, for the JSON's by_device: its row
 * of the point's report, without histogram, CPUs or samples; its repeats
 * owned. */
struct pdev {
	struct cli_dev d;
};

struct point {
	uint32_t qd;
	/* sweep --rate: the load (% of each target's maximum; < 0: rates
	 * given as such) and the value of the list's entry */
	bool rated;
	double load_pct, rate;
	bool done;
	bool partial;		/* cut short by a stop request: its figures
				 * cover the part of its window measured */
	bool unfixed;		/* read into unregistered buffers */
	unsigned ndev;		/* the targets it ran: those no earlier
				 * depth saw fail */
	struct cli_dev total;	/* hist NULL */
	struct pdev *dev;	/* ndev entries once done; owned */
};

/* Per target: why it failed at some depth ("" while healthy); from then on
 * it is left out of the deeper points. */
struct failed {
	char why[CLI_MAX_TARGETS][96];
	unsigned at[CLI_MAX_TARGETS];	/* index of the point it failed at;
					 * BEFORE_POINTS: in sweep --rate's
					 * closed-loop maximum, before any */
	bool any;
	bool stalled;		/* a stalled device's workers are still in
				 * the kernel: end with cli_runner_abandon */
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

static int show_qd_list(const struct cli_opts *o, char *buf, size_t len)
{
	return snprintf(buf, len, "%s", o->qd_list ? o->qd_list : DEFAULT_QDS);
}

static int set_rate_list(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	struct cli_rate_list l;

	if (cli_rate_list_parse(arg, &l, err, errlen))
		return -EINVAL;
	o->rate_list = arg;
	return 0;
}

static const struct cli_optdesc own[] = {
	{ "qd", 'd', "LIST", 0, CLI_OF_LIST, set_qd_list, show_qd_list, NULL,
	  "queue depths to run, increasing, comma-separated;\n"
	  "with --rate one depth, the limit of every rate\n"
	  "(" STR(RATE_QD) " unless given)" },
	{ "rate", 0x500, "LIST", 0, CLI_OF_LIST, set_rate_list, NULL, NULL,
	  "sweep by load instead of depth: an open loop at\n"
	  "each entry, increasing: 10%,50%,100% of each\n"
	  "target's closed-loop maximum at --qd (measured\n"
	  "first), or IOs per second per device: 1k,5k,20k" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL, NULL },
};

static int cmd_sweep(int argc, char **argv);

const struct cli_verb cli_verb_sweep = {
	.name = "sweep",
	.what = "IOPS and latency per queue depth",
	.synopsis = "iostorm sweep [options] [--qd LIST] TARGET...\n\n"
		"Runs every TARGET at once at each queue depth of LIST, reporting IOPS\n"
		"and latency per depth, the knee (the smallest depth reaching 90% of\n"
		"the best IOPS) and the depth where p99 latency has doubled from the\n"
		"first depth. --qd takes a comma-separated list here; --time and\n"
		"--ramp are each depth's.\n\n"
		"With --rate LIST it sweeps load instead: an open loop at each rate\n"
		"(--rate in 'iostorm run'), at most --qd in flight, reporting latency\n"
		"from when each IO was due and the service time against load, and the\n"
		"load where p99 has doubled from the first.",
	.operands = CLI_OPERANDS_TARGETS,
	.groups = CLI_OG_ENGINE | CLI_OG_TARGET | CLI_OG_JSON | CLI_OG_REPEAT | CLI_OG_RATE,
	.own = own,
	.qd = 1,
	.ramp_ns = CLI_NS_PER_S,
	.time_ns = 3 * CLI_NS_PER_S,
	.jobfile = true,
	.run = cmd_sweep,
};

/* A rate point's first column: its load, or its rate per device. */
static void rate_col(const struct point *p, char *buf, size_t len)
{
	if (p->load_pct >= 0)
		snprintf(buf, len, "%.4g%%", p->load_pct);
	else
		cli_fmt_count((uint64_t)p->rate, buf, len);
}

static void print_rate_point(FILE *f, const struct point *p)
{
	const struct cli_dev *d = &p->total;
	char col[24], p50[16], p99[16], p9999[16], mean[16], svc[16], cost[32];

	rate_col(p, col, sizeof(col));
	fprintf(f, "%7s %10.0f %10.0f %8s %8s %8s %8s %8s %7s%s%s\n", col, d->open.asked, d->iops,
		cli_fmt_us(mean, sizeof(mean), (double)(uint64_t)d->lat.mean, d->has_lat),
		cli_fmt_us(p50, sizeof(p50), (double)d->lat.p50, d->has_lat),
		cli_fmt_us(p99, sizeof(p99), (double)d->lat.p99, d->has_lat),
		cli_fmt_us(p9999, sizeof(p9999), (double)d->lat.p9999, d->has_lat),
		cli_fmt_us(svc, sizeof(svc), (double)d->open.svc.p99, d->open.has_svc),
		cli_fmt_cost(cost, sizeof(cost), d),
		cli_open_overloaded(d) ? "   overloaded" : "",
		p->partial ? "   (interrupted: part of its window)" : "");
	fflush(f);
}

static void print_point(FILE *f, const struct point *p)
{
	const struct cli_dev *d = &p->total;
	char p50[16], p99[16], p9999[16], mean[16], cost[32];

	if (p->rated) {
		print_rate_point(f, p);
		return;
	}
	/* the mean cut to whole ns, like the percentiles */
	fprintf(f, "%6u %10.0f %9.1f %8s %8s %8s %8s %7s%s\n", p->qd, d->iops, d->bw_bytes / CLI_MIB,
		cli_fmt_us(mean, sizeof(mean), (double)(uint64_t)d->lat.mean, d->has_lat),
		cli_fmt_us(p50, sizeof(p50), (double)d->lat.p50, d->has_lat),
		cli_fmt_us(p99, sizeof(p99), (double)d->lat.p99, d->has_lat),
		cli_fmt_us(p9999, sizeof(p9999), (double)d->lat.p9999, d->has_lat),
		cli_fmt_cost(cost, sizeof(cost), d),
		p->partial ? "   (interrupted: part of its window)" : "");
	fflush(f);
}

/* A target with failed IOs, a stall or an error that stopped it at point
 * i is named and left out of the deeper points. */
static void check_failed(struct failed *fl, unsigned t, unsigned i,
			 const struct point *p, const struct cli_dev *d)
{
	if (!d->errors && !d->stalled && !d->fatal)
		return;
	if (d->stalled)
		snprintf(fl->why[t], sizeof(fl->why[t]), "stalled at QD%u", p->qd);
	else if (d->fatal)
		snprintf(fl->why[t], sizeof(fl->why[t]), "%s stopped it at QD%u",
			 cli_errno_name(d->fatal), p->qd);
	else
		snprintf(fl->why[t], sizeof(fl->why[t]), "%llu %s error%s at QD%u",
			 (unsigned long long)d->errors, cli_errno_name(d->errs.first),
			 d->errors == 1 ? "" : "s", p->qd);
	fl->at[t] = i;
	fl->any = true;
	fl->stalled |= d->stalled;
	cli_say("%s: %s; left out of the deeper points", d->name, fl->why[t]);
}

/* The targets' own figures at point p, in the order they ran. */
static void keep_devices(struct point *p, struct cli_report *rep)
{
	unsigned t;

	p->dev = calloc(rep->ndev ? rep->ndev : 1, sizeof(*p->dev));
	for (t = 0; p->dev && t < rep->ndev; t++) {
		p->dev[t].d = rep->dev[t];
		p->dev[t].d.hist = NULL;
		p->dev[t].d.cpus = NULL;
		p->dev[t].d.tl = (struct cli_tl_series){ NULL, 0, 0 };
		p->dev[t].d.open.svc_hist = NULL;	/* its figures stay */
		rep->dev[t].reps = NULL;	/* moved */
	}
}

/* With --repeat, the spread of every depth's total over its repeats. */
static void print_spread(const struct point *pt, unsigned n, unsigned repeat, FILE *f)
{
	struct cli_dev row;
	unsigned i;

	if (repeat < 2)
		return;
	cli_spread_head(f, repeat, "qd", 6);
	for (i = 0; i < n && pt[i].done; i++) {
		row = pt[i].total;
		snprintf(row.name, sizeof(row.name), "QD%u", pt[i].qd);
		cli_spread_row(f, &row, 6);
	}
}

/* Point p's rate for each target it runs (tp's order, idx their indexes
 * in the sweep): its entry, or its load of the target's maximum. *top
 * gets the highest, at least 1 (the runner's checks of an open loop). */
static void point_rates(const struct point *p, const double *max, const unsigned *idx,
			unsigned n, double per, double *rates, uint64_t *top)
{
	unsigned t;

	*top = 1;
	for (t = 0; t < n; t++) {
		rates[t] = p->load_pct >= 0 ? p->load_pct / 100.0 * max[idx[t]] : p->rate;
		/* at least one IO per second per worker (a target whose maximum
		 * was tiny), as the runner's checks ask */
		rates[t] = rates[t] < per ? per : rates[t];
		if ((uint64_t)ceil(rates[t]) > *top)
			*top = (uint64_t)ceil(rates[t]);
	}
}

static int run_points(const struct cli_opts *o, struct cli_targets *ts,
		      struct point *pt, unsigned n, struct failed *fl, FILE *f,
		      const double *max)
{
	const struct eng_target *tp[CLI_MAX_TARGETS];
	unsigned idx[CLI_MAX_TARGETS];
	double rates[CLI_MAX_TARGETS];
	struct cli_run_spec spec = { .op = ENG_OP_READ, .targets = tp };
	struct cli_report rep;
	struct cli_opts step = *o;	/* o at this point's depth */
	char label[64], col[24];
	unsigned i, t;
	int rc = 0;

	step.json = NULL;
	if (n && pt[0].rated)
		fprintf(f, "%7s %10s %10s %8s %8s %8s %8s %8s %7s   (latency in us from when due, all targets; svc: from submission; ns/IO: the workers' CPU per IO)\n",
			pt[0].load_pct >= 0 ? "load" : "rate", "asked", "IOPS", "mean", "p50", "p99",
			"p99.99", "svc p99", "ns/IO");
	else
		fprintf(f, "%6s %10s %9s %8s %8s %8s %8s %7s   (latency in us, all targets; ns/IO: the workers' CPU per IO)\n",
			"qd", "IOPS", "MiB/s", "mean", "p50", "p99", "p99.99", "ns/IO");
	for (i = 0; i < n && !rc && !cli_runner_interrupted(); i++) {
		for (spec.ntargets = 0, t = 0; t < ts->n; t++) {
			if (fl->why[t][0])
				continue;
			idx[spec.ntargets] = t;
			tp[spec.ntargets++] = &ts->t[t];
		}
		if (!spec.ntargets)
			break;		/* every target failed */
		pt[i].ndev = spec.ntargets;
		step.qd = pt[i].qd;
		step.batch = o->batch < step.qd ? o->batch : step.qd;
		snprintf(label, sizeof(label), "sweep QD%u (%u/%u)", step.qd, i + 1, n);
		if (pt[i].rated) {
			point_rates(&pt[i], max, idx, spec.ntargets, o->jobs_per_device, rates,
				    &step.rate);
			spec.rates = rates;
			rate_col(&pt[i], col, sizeof(col));
			snprintf(label, sizeof(label), "sweep %s (%u/%u)", col, i + 1, n);
		}
		spec.label = label;
		rc = cli_runner_repeat(&step, &spec, &rep, NULL, NULL);
		/* a point cut short keeps what it measured, like a run; one
		 * stopped in its ramp measured nothing */
		if (!rc && (!rep.interrupted || rep.total.ios + rep.total.errors)) {
			pt[i].partial = rep.interrupted;
			pt[i].total = rep.total;
			pt[i].total.hist = NULL;
			pt[i].total.cpus = NULL;
			memset(&rep.total.tl, 0, sizeof(rep.total.tl));	/* moved */
			rep.total.reps = NULL;	/* moved */
			rep.total.open.svc_hist = NULL;	/* moved */
			pt[i].done = true;
			pt[i].unfixed = rep.unfixed_bufs;
			keep_devices(&pt[i], &rep);
			print_point(f, &pt[i]);
		}
		if (!rc)
			cli_report_print_errors(f, &rep);
		for (t = 0; !rc && t < rep.ndev; t++)
			check_failed(fl, idx[t], i, &pt[i], &rep.dev[t]);
		cli_report_free(&rep);
	}
	print_spread(pt, n, o->repeat, f);
	return rc;
}

/* The targets point i ran: those that had not failed before it. */
static json_t *point_devices(const struct cli_targets *ts, const struct failed *fl,
			     unsigned i)
{
	json_t *a = json_array();
	unsigned t;

	for (t = 0; a && t < ts->n; t++)
		if (!fl->why[t][0] || (fl->at[t] != BEFORE_POINTS && fl->at[t] >= i))
			json_array_append_new(a, json_string(ts->t[t].name));
	return a;
}

/* [{name, iops, p50_ns, p99_ns}] of the targets point p ran; latency null
 * without it. */
static json_t *by_device(const struct point *p)
{
	json_t *a = json_array();
	unsigned t;

	const struct cli_dev *d;

	for (t = 0; a && p->dev && t < p->ndev; t++) {
		d = &p->dev[t].d;
		json_array_append_new(a, json_pack("{s:s, s:f, s:o, s:o, s:o, s:o, s:o}", "name", d->name,
			"iops", d->iops,
			"p50_ns", d->has_lat ? json_integer((json_int_t)d->lat.p50) : json_null(),
			"p99_ns", d->has_lat ? json_integer((json_int_t)d->lat.p99) : json_null(),
			"repeats", cli_json_repeats(d),
			"asked_iops", d->open.on ? json_real(d->open.asked) : json_null(),
			"cpu", cli_json_cpu(d)));
	}
	return a;
}

static json_t *points_json(const struct point *pt, unsigned n,
			   const struct cli_targets *ts, const struct failed *fl)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < n && pt[i].done; i++) {
		json_t *x = json_pack("{s:I, s:b, s:f, s:f, s:o, s:I, s:I, s:I, s:f, s:o, s:o, s:o, s:o}",
						   "qd", (json_int_t)pt[i].qd,
						   "interrupted", pt[i].partial,
						   "iops", pt[i].total.iops, "bw_bytes", pt[i].total.bw_bytes,
						   "lat_ns", cli_json_lat(&pt[i].total),
						   "ios", (json_int_t)pt[i].total.ios,
						   "errors", (json_int_t)pt[i].total.errors,
						   "calls", (json_int_t)pt[i].total.calls,
						   "ios_per_call", pt[i].total.ios_per_call,
						   "devices", point_devices(ts, fl, i),
						   "by_device", by_device(&pt[i]),
						   "timeline", cli_json_timeline(&pt[i].total.tl),
						   "repeats", cli_json_repeats(&pt[i].total));

		if (x) {
			json_object_set_new(x, "load_pct", pt[i].rated && pt[i].load_pct >= 0 ?
					    json_real(pt[i].load_pct) : json_null());
			json_object_set_new(x, "asked_iops", pt[i].rated ?
					    json_real(pt[i].total.open.asked) : json_null());
			json_object_set_new(x, "open_loop", cli_open_json(&pt[i].total));
			json_object_set_new(x, "cpu", cli_json_cpu(&pt[i].total));
		}
		json_array_append_new(a, x);
	}
	return a;
}

/* [{name, why}] of the targets that failed, in target order. */
static json_t *failed_json(const struct cli_targets *ts, const struct failed *fl)
{
	json_t *a = json_array();
	unsigned t;

	for (t = 0; a && t < ts->n; t++)
		if (fl->why[t][0])
			json_array_append_new(a, json_pack("{s:s, s:s}", "name", ts->t[t].name,
							   "why", fl->why[t]));
	return a;
}

struct sweep {
	const struct cli_opts *o;
	const struct cli_targets *ts;
	const struct point *pt;
	unsigned n;		/* depths asked for */
	unsigned m;		/* depths measured, a prefix */
	unsigned lo, hi;	/* the curve: [lo, hi) ran one healthy set */
	const struct failed *fl;
	bool interrupted;	/* a stop request ended it */
	/* sweep --rate with loads: each target's closed-loop IOPS at qd */
	const double *max;
	bool has_max;
};

/* The deepest of the depths asked for. */
static uint32_t deepest(const uint32_t *qds, unsigned n)
{
	uint32_t qd = 1;
	unsigned i;

	for (i = 0; i < n; i++)
		qd = qds[i] > qd ? qds[i] : qd;
	return qd;
}

/* The settings that cost IOPS on the targets, at the deepest depth. */
static void say_check(const struct cli_opts *o, const struct cli_targets *ts,
		      const uint32_t *qds, unsigned n)
{
	const char *paths[CLI_MAX_TARGETS];
	struct cli_opts deep = *o;
	unsigned i;

	deep.qd = deepest(qds, n);
	for (i = 0; i < ts->n; i++)
		paths[i] = ts->t[i].path;
	cli_check_summary(&deep, paths, ts->n);
}

/* {qd, by_device: [{name, iops}]}: the closed-loop maximum a sweep by
 * load is a share of; null otherwise. */
static json_t *max_json(const struct sweep *w)
{
	json_t *a;
	unsigned t;

	if (!w->has_max)
		return json_null();
	a = json_array();
	for (t = 0; a && t < w->ts->n; t++)
		json_array_append_new(a, json_pack("{s:s, s:f}", "name", w->ts->t[t].name,
						   "iops", w->max[t]));
	return json_pack("{s:I, s:o}", "qd", (json_int_t)w->o->qd, "by_device", a);
}

/* What each target's drive said of the sweep: [{"name", "drive"}]. */
static json_t *drives_json(const struct sweep *w)
{
	json_t *a = json_array();
	unsigned t;

	for (t = 0; a && t < w->ts->n; t++) {
		if (json_array_append_new(a, json_pack("{s:s, s:o}", "name", w->ts->t[t].name,
						       "drive", cli_json_drive(cli_drive_find(w->ts->t[t].path))))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *summary_json(const struct sweep *w, int knee, int dbl)
{
	const struct point *pt = w->pt;
	const char *paths[CLI_MAX_TARGETS];
	struct cli_report meta;

	memset(&meta, 0, sizeof(meta));
	meta.command = "sweep";
	meta.engine = pt[0].total.engine;
	meta.mode = w->o->mode;
	for (unsigned i = 0; i < w->m; i++)
		meta.unfixed_bufs |= pt[i].unfixed;
	for (unsigned i = 0; i < w->ts->n; i++)
		paths[i] = w->ts->t[i].path;
	bool rated = w->n && pt[0].rated;

	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:s, s:o, s:o, s:o, s:o}",
			 "schema", CLI_JSON_SCHEMA, "command", "sweep",
			 "config", cli_json_config(w->o, &meta),
			 "points", points_json(pt, w->m, w->ts, w->fl),
			 "failed", failed_json(w->ts, w->fl),
			 "knee_qd", knee >= 0 && !rated ? json_integer(pt[knee].qd) : json_null(),
			 "p99_double_qd", dbl >= 0 && !rated ? json_integer(pt[dbl].qd) : json_null(),
			 "interrupted", w->interrupted,
			 "setup", cli_json_setup(paths, w->ts->n),
			 "by", rated ? "rate" : "qd",
			 "max", max_json(w),
			 "p99_double_load_pct", dbl >= 0 && rated && pt[dbl].load_pct >= 0 ?
				json_real(pt[dbl].load_pct) : json_null(),
			 "p99_double_asked_iops", dbl >= 0 && rated ?
				json_real(pt[dbl].total.open.asked) : json_null(),
			 "drives", drives_json(w));
}

/* The depths the knee and p99 doubling are read over: the points that
 * ran the same healthy targets and saw none fail, after the last failure
 * (or before the first, when the last depth saw one). */
static void curve(struct sweep *w)
{
	unsigned t, first = w->m, last = 0;
	bool any = false;

	w->lo = 0;
	w->hi = w->m;
	/* a point cut short is reported, not read for the curve */
	if (w->m && w->pt[w->m - 1].partial)
		w->hi = w->m - 1;
	for (t = 0; t < w->ts->n; t++) {
		/* one left out before the first point changes no point's set */
		if (!w->fl->why[t][0] || w->fl->at[t] == BEFORE_POINTS)
			continue;
		any = true;
		first = w->fl->at[t] < first ? w->fl->at[t] : first;
		last = w->fl->at[t] > last ? w->fl->at[t] : last;
	}
	if (!any)
		return;
	if (last + 1 < w->m)
		w->lo = last + 1;
	else
		w->hi = first;
}

/* The depth sweep's lines: the knee and where p99 doubled. */
static void depth_summary(const struct sweep *w, unsigned k, int knee, int dbl, double best,
			  double p99_first, FILE *f)
{
	const struct point *pt = w->pt;

	if (w->m && pt[w->m - 1].partial)
		fprintf(f, "INTERRUPTED in depth %u of %u (QD%u, part of its window)\n", w->m, w->n,
			pt[w->m - 1].qd);
	else if (w->m < w->n)
		fprintf(f, "%s after %u of %u depths\n", w->interrupted ? "INTERRUPTED" : "STOPPED",
			w->m, w->n);
	if (k && (w->lo || w->hi < w->m))
		fprintf(f, "knee and p99 over QD%u..QD%u, the depths that ran one healthy set of targets\n",
			pt[w->lo].qd, pt[w->hi - 1].qd);
	if (knee >= 0)
		fprintf(f, "knee: QD%u, the smallest depth reaching %.0f%% of the best (%.0f of %.0f IOPS)\n",
			pt[knee].qd, 100.0 * MODEL_SWEEP_KNEE_FRAC, pt[knee].total.iops, best);
	if (dbl >= 0)
		fprintf(f, "p99 doubled: at QD%u (%.1f us against %.1f us at QD%u)\n", pt[dbl].qd,
			(double)pt[dbl].total.lat.p99 / CLI_NS_PER_US,
			(double)pt[w->lo].total.lat.p99 / CLI_NS_PER_US, pt[w->lo].qd);
	else if (k && p99_first > 0)
		fprintf(f, "p99 doubled: not within QD%u..QD%u\n", pt[w->lo].qd, pt[w->hi - 1].qd);
}

/* The sweep by load's lines: where p99 from schedule doubled, and the
 * first load a target could not keep up with. */
static void rate_summary(const struct sweep *w, unsigned k, int dbl, FILE *f)
{
	const struct point *pt = w->pt;
	char at[24], first[24], last[24];
	unsigned i;

	if (w->m && pt[w->m - 1].partial)
		fprintf(f, "INTERRUPTED in rate %u of %u (part of its window)\n", w->m, w->n);
	else if (w->m < w->n)
		fprintf(f, "%s after %u of %u rates\n", w->interrupted ? "INTERRUPTED" : "STOPPED",
			w->m, w->n);
	if (!k)
		return;
	rate_col(&pt[w->lo], first, sizeof(first));
	rate_col(&pt[w->hi - 1], last, sizeof(last));
	if (w->lo || w->hi < w->m)
		fprintf(f, "p99 over %s..%s, the rates that ran one healthy set of targets\n", first,
			last);
	if (dbl >= 0) {
		rate_col(&pt[dbl], at, sizeof(at));
		fprintf(f, "p99 doubled: at %s, %.0f IOPS asked (%.1f us from when due against %.1f us at %s)\n",
			at, pt[dbl].total.open.asked, (double)pt[dbl].total.lat.p99 / CLI_NS_PER_US,
			(double)pt[w->lo].total.lat.p99 / CLI_NS_PER_US, first);
	} else if (pt[w->lo].total.has_lat) {
		fprintf(f, "p99 doubled: not within %s..%s\n", first, last);
	}
	for (i = w->lo; i < w->hi; i++) {
		if (!cli_open_overloaded(&pt[i].total))
			continue;
		rate_col(&pt[i], at, sizeof(at));
		fprintf(f, "overloaded from %s: %.0f of %.0f IOPS asked\n", at, pt[i].total.iops,
			pt[i].total.open.asked);
		break;
	}
}

/* The knee and the p99 doubling, then the JSON where asked: 0 or -EIO. */
static int summary(struct sweep *w, FILE *f)
{
	const struct point *pt = w->pt;
	double iops[CLI_MAX_QDS], p99[CLI_MAX_QDS], best = 0;
	unsigned i, k;
	int knee = -1, dbl = -1;

	while (w->m < w->n && pt[w->m].done)
		w->m++;
	curve(w);
	for (k = 0, i = w->lo; i < w->hi; i++, k++) {
		iops[k] = pt[i].total.iops;
		p99[k] = pt[i].total.has_lat ? (double)pt[i].total.lat.p99 : -1;
		if (iops[k] > best)
			best = iops[k];
	}
	if (k) {
		knee = model_sweep_knee(iops, k);
		dbl = model_sweep_p99_double(p99, k);
		knee = knee >= 0 ? knee + (int)w->lo : -1;
		dbl = dbl >= 0 ? dbl + (int)w->lo : -1;
	}
	if (w->n && pt[0].rated)
		rate_summary(w, k, dbl, f);
	else
		depth_summary(w, k, knee, dbl, best, p99[0], f);
	fflush(f);
	if (!w->o->json && !cli_stream_on())
		return 0;
	/* cli_out_json says why it could not write the report */
	return cli_out_json(w->o->json, summary_json(w, knee, dbl), CLI_JSON_REPORT) ? -EIO : 0;
}

/* The deepest point's buffers and descriptors, before the first point
 * runs: a sweep that cannot finish says so before it starts. 0 or
 * cli_limits_check's -errno, said. */
static int check_deepest(const struct cli_opts *o, const uint32_t *qds, int n)
{
	struct cli_opts deep = *o;

	deep.qd = deepest(qds, (unsigned)n);
	return cli_limits_check(&deep);
}

/* A depth where any IO failed, or a target that stalled or was stopped,
 * makes the sweep exit 1, after its summary. */
static bool had_errors(const struct point *pt, unsigned n, const struct failed *fl)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (pt[i].done && pt[i].total.errors)
			return true;
	return fl->any;
}

/* sweep --rate: its points, one per entry of the list, all at one depth
 * (--qd naming one, else RATE_QD). The count, or -EINVAL with err. */
static int rate_points(struct cli_opts *o, struct point *pt, uint32_t *qds, bool *pct,
		       char *err, size_t errlen)
{
	struct cli_rate_list l;
	unsigned i;
	int nq = 1;

	if (cli_rate_list_parse(o->rate_list, &l, err, errlen))
		return -EINVAL;
	qds[0] = RATE_QD;
	if (o->qd_list)
		nq = cli_qd_list_parse(o->qd_list, qds, CLI_MAX_QDS, err, errlen);
	if (nq < 0)
		return -EINVAL;
	if (nq != 1) {
		snprintf(err, errlen, "--qd: '%s': sweep --rate takes one depth, the limit of every rate",
			 o->qd_list);
		return -EINVAL;
	}
	o->qd = qds[0];
	*pct = l.pct;
	for (i = 0; i < l.n; i++) {
		pt[i].rated = true;
		pt[i].load_pct = l.pct ? l.v[i] : -1;
		pt[i].rate = l.v[i];
		qds[i] = o->qd;
	}
	return (int)l.n;
}

/* The open loop's refusals, before the maximum or any point runs: with
 * rates given as such, the lowest must give each worker an IO a second;
 * a load's rates are raised to that (point_rates). */
static int rate_check(const struct cli_opts *o, const struct point *pt)
{
	struct cli_opts r = *o;

	r.rate = pt[0].load_pct >= 0 ? r.jobs_per_device : (uint64_t)pt[0].rate;
	return cli_runner_rate_check(&r);
}

/* The closed-loop maximum a sweep by load is a share of: every target at
 * once at --qd, as at a depth sweep's point; a target that fails there is
 * left out of the sweep. 0 or -errno (said). */
static int measure_max(const struct cli_opts *o, struct cli_targets *ts, struct failed *fl,
		       double *max, FILE *f)
{
	const struct eng_target *tp[CLI_MAX_TARGETS];
	struct cli_run_spec spec = { .op = ENG_OP_READ, .targets = tp, .ntargets = ts->n,
				     .label = "sweep maximum" };
	struct cli_opts step = *o;
	struct cli_report rep;
	unsigned t;
	int rc;

	step.json = NULL;
	step.rate = 0;
	step.batch = o->batch < o->qd ? o->batch : o->qd;
	for (t = 0; t < ts->n; t++)
		tp[t] = &ts->t[t];
	rc = cli_runner_repeat(&step, &spec, &rep, NULL, NULL);
	if (!rc) {
		fprintf(f, "maximum, closed loop at QD%u:", o->qd);
		for (t = 0; t < rep.ndev; t++) {
			const struct cli_dev *d = &rep.dev[t];

			max[t] = d->iops;
			fprintf(f, "%s %s %.0f IOPS", t ? "," : "", d->name, d->iops);
			if (d->errors || d->stalled || d->fatal || !(d->iops > 0)) {
				snprintf(fl->why[t], sizeof(fl->why[t]), "failed in the closed-loop maximum");
				fl->at[t] = BEFORE_POINTS;
				fl->any = true;
				fl->stalled |= d->stalled;
			}
		}
		fputc('\n', f);
		cli_report_print_errors(f, &rep);
		for (t = 0; t < rep.ndev; t++)
			if (fl->why[t][0])
				cli_say("%s: %s; left out of the sweep", rep.dev[t].name, fl->why[t]);
		if (rep.interrupted)
			rc = -EINTR;
	}
	cli_report_free(&rep);
	return rc;
}

static int cmd_sweep(int argc, char **argv)
{
	struct cli_opts o;
	struct cli_targets ts = { NULL, 0 };
	struct point pt[CLI_MAX_QDS];
	struct failed *fl = NULL;
	struct sweep w;
	uint32_t qds[CLI_MAX_QDS];
	double max[CLI_MAX_TARGETS] = { 0 };
	bool pct = false;
	char err[256];
	FILE *f;
	int n = 0, i, rc, done;

	memset(pt, 0, sizeof(pt));
	rc = cli_opts_cmdline(&o, &cli_verb_sweep, argc, argv);
	if (rc)
		goto out;
	rc = -EINVAL;
	if (o.rate_list)
		n = rate_points(&o, pt, qds, &pct, err, sizeof(err));
	else
		n = cli_qd_list_parse(o.qd_list ? o.qd_list : DEFAULT_QDS, qds, CLI_MAX_QDS, err,
				      sizeof(err));
	if (n < 0)
		cli_say("%s", err);
	else if (o.rate_list && (rc = rate_check(&o, pt)))
		;	/* said */
	else if (!(rc = check_deepest(&o, qds, n)))
		rc = cli_targets_open(&ts, &o);
	if (!rc && !(fl = calloc(1, sizeof(*fl)))) {
		cli_say("out of memory");
		rc = -ENOMEM;
	}
	if (rc)
		goto out;
	for (i = 0; i < n; i++)
		pt[i].qd = qds[i];
	say_check(&o, &ts, qds, (unsigned)n);
	f = cli_out_text(&o);
	if (o.rate_list)
		fprintf(f, "iostorm sweep: %u target%s, bs %u, %d %s at QD%u (%s), %.3gs ramp + %.3gs each\n",
			ts.n, ts.n == 1 ? "" : "s", o.bs, n,
			pct ? "loads of each target's closed-loop maximum" : "rates per device", o.qd,
			cli_arrival_name(o.arrival), cli_secs(o.ramp_ns), cli_secs(o.time_ns));
	else
		fprintf(f, "iostorm sweep: %u target%s, bs %u, %d depths, %.3gs ramp + %.3gs each\n",
			ts.n, ts.n == 1 ? "" : "s", o.bs, n, cli_secs(o.ramp_ns), cli_secs(o.time_ns));
	rc = pct ? measure_max(&o, &ts, fl, max, f) : 0;
	if (rc == -EINTR)
		rc = 0;		/* stopped before the first rate: said as such */
	else if (!rc)
		rc = run_points(&o, &ts, pt, (unsigned)n, fl, f, max);
	w = (struct sweep){ .o = &o, .ts = &ts, .pt = pt, .n = (unsigned)n, .fl = fl,
			    .interrupted = cli_runner_interrupted(), .max = max, .has_max = pct };
	/* a point that failed as a whole (said) keeps the ones before it; a
	 * stop request before any point measured still gets its report */
	if (rc != -EINVAL && (pt[0].done || (!rc && w.interrupted))) {
		done = summary(&w, f);
		rc = rc ? rc : done;
	}
	if (!rc && had_errors(pt, (unsigned)n, fl))
		rc = -EIO;
	if (fl->stalled)	/* workers hold a target */
		cli_runner_abandon(cli_exit_status(rc ? rc : -EIO));
out:
	for (i = 0; i < CLI_MAX_QDS; i++) {
		free(pt[i].total.tl.s);
		free(pt[i].total.open.svc_hist);
		free(pt[i].total.reps);
		for (unsigned t = 0; pt[i].dev && t < pt[i].ndev; t++)
			free(pt[i].dev[t].d.reps);
		free(pt[i].dev);
	}
	free(fl);
	cli_targets_close(&ts);
	return cli_exit_status(rc);
}
