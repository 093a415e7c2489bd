/* Each repeat's figures and their spread: Min, Hmean for rates and Amean
 * for times, Stddev, CoV and Max, as mmtests' compare-kernels shows them. */
#include "cli/report/spread.h"

#include <math.h>
#include <string.h>

#include "cli/report/out.h"
#include "model/stats.h"

/* The one table of the metrics: enum, key, label, rate, and where a
 * record holds it; the descriptions and the names --metric takes are both
 * made from it. */
#define METRICS(X)										\
	X(CLI_M_IOPS, "iops", "IOPS", "IOPS", true, NULL, "iops")				\
	X(CLI_M_MEAN, "lat_mean_ns", "mean", "mean latency", false, "lat_ns", "mean")		\
	X(CLI_M_P50, "lat_p50_ns", "p50", "p50 latency", false, "lat_ns", "p50")		\
	X(CLI_M_P99, "lat_p99_ns", "p99", "p99 latency", false, "lat_ns", "p99")		\
	X(CLI_M_P999, "lat_p999_ns", "p99.9", "p99.9 latency", false, "lat_ns", "p99.9")	\
	X(CLI_M_CPU_USER, "cpu_user_ns_per_io", "usr/IO", "user CPU time per IO", false,	\
	  "cpu", "user_ns_per_io")								\
	X(CLI_M_CPU_SYS, "cpu_sys_ns_per_io", "sys/IO", "system CPU time per IO", false,	\
	  "cpu", "sys_ns_per_io")								\
	X(CLI_M_IOS_PER_CPU, "ios_per_cpu_s", "IO/CPU-s", "IOs per CPU-second", true,		\
	  "cpu", "ios_per_cpu_s")
#define DESC(m, key, label, what, rate, obj, field) [m] = { key, label, what, rate, obj, field },
#define KEY(m, key, label, what, rate, obj, field) [m] = key,

const struct cli_metric_desc cli_metrics[CLI_NMETRICS] = { METRICS(DESC) };
const char *const cli_metric_keys[CLI_NMETRICS + 1] = { METRICS(KEY) [CLI_NMETRICS] = NULL };

int cli_metric_by_key(const char *key)
{
	int m;

	for (m = 0; key && m < CLI_NMETRICS; m++)
		if (!strcmp(cli_metrics[m].key, key))
			return m;
	return -1;
}

const json_t *cli_metric_of_record(const json_t *rec, enum cli_metric m)
{
	const struct cli_metric_desc *d = &cli_metrics[m];
	const json_t *v = json_object_get(d->obj ? json_object_get(rec, d->obj) : rec, d->field);

	return json_is_number(v) ? v : NULL;
}

/* Over equal time, IOs / time is the Amean of the rates and the mean
 * latency per IO the Hmean of the means (a closed loop: a repeat's IOs go
 * as 1 / its mean latency); over equal IOs (--ios), or IOs held by
 * --rate, the other way round. Percentiles pool into no mean: the Amean
 * of each one's own. */
enum model_mean cli_mean_of(enum cli_metric m, bool by_ios, bool open_loop)
{
	enum model_mean per_io = by_ios || open_loop ? MODEL_AMEAN : MODEL_HMEAN;

	if (m == CLI_M_IOPS)
		return by_ios ? MODEL_HMEAN : MODEL_AMEAN;
	/* CPU time per IO pools as time over IOs, like the mean latency: a
	 * busy worker's IOs over equal time go as 1 / its cost per IO; IOs
	 * per CPU-second, its reciprocal, by the other mean */
	if (m == CLI_M_MEAN || m == CLI_M_CPU_USER || m == CLI_M_CPU_SYS)
		return per_io;
	if (m == CLI_M_IOS_PER_CPU)
		return per_io == MODEL_HMEAN ? MODEL_AMEAN : MODEL_HMEAN;
	return MODEL_AMEAN;
}

/* A cost figure of one repeat, NAN where unknown. */
static double rep_cost(const struct cli_rep *x, enum cli_metric m)
{
	struct model_cost c;
	double v;

	if (model_cost(x->user_s, x->sys_s, x->cpu_ios, &c))
		return NAN;
	/* a part of the split below the tick is no figure (record.h) */
	if ((m == CLI_M_CPU_USER && cli_cpu_below(x->user_s, x->tick_s)) ||
	    (m == CLI_M_CPU_SYS && cli_cpu_below(x->sys_s, x->tick_s)))
		return NAN;
	v = m == CLI_M_CPU_USER ? c.user_ns_per_io : m == CLI_M_CPU_SYS ? c.sys_ns_per_io :
		c.ios_per_cpu_s;
	return model_cost_known(v) ? v : NAN;
}

double cli_rep_value(const struct cli_rep *x, enum cli_metric m)
{
	switch (m) {
	case CLI_M_IOPS:
		return x->iops;
	case CLI_M_MEAN:
		return x->has_lat ? x->mean_ns : NAN;
	case CLI_M_P50:
		return x->has_lat ? (double)x->p50_ns : NAN;
	case CLI_M_P99:
		return x->has_lat ? (double)x->p99_ns : NAN;
	case CLI_M_P999:
		return x->has_lat ? (double)x->p999_ns : NAN;
	case CLI_M_CPU_USER:
	case CLI_M_CPU_SYS:
	case CLI_M_IOS_PER_CPU:
		return rep_cost(x, m);
	default:
		return NAN;
	}
}

void cli_rep_of(const struct cli_dev *d, struct cli_rep *x)
{
	memset(x, 0, sizeof(*x));
	x->ios = d->ios;
	x->elapsed_s = d->elapsed_s;
	x->iops = d->iops;
	x->user_s = d->user_s;
	x->sys_s = d->sys_s;
	x->cpu_ios = d->cpu_ios;
	x->tick_s = d->tick_s;
	x->has_lat = d->has_lat;
	if (!d->has_lat)
		return;
	x->mean_ns = d->lat.mean;
	x->p50_ns = d->lat.p50;
	x->p99_ns = d->lat.p99;
	x->p999_ns = d->lat.p999;
}

/* d's repeats, or d itself as the one repeat of a single run. */
static const struct cli_rep *reps_of(const struct cli_dev *d, struct cli_rep *own,
				     unsigned *n)
{
	if (d->nreps) {
		*n = d->nreps;
		return d->reps;
	}
	cli_rep_of(d, own);
	*n = 1;
	return own;
}

/* The spread of metric m over x[0..n); false where a repeat lacks it. */
static bool spread_of(const struct cli_rep *x, unsigned n, enum cli_metric m,
		      struct model_spread *s)
{
	double v[CLI_MAX_REPEAT];
	unsigned i;

	for (i = 0; i < n && i < CLI_MAX_REPEAT; i++) {
		v[i] = cli_rep_value(&x[i], m);
		if (isnan(v[i]))
			return false;
	}
	return !model_spread(v, i, s);
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *spread_json(const struct model_spread *s)
{
	return json_pack("{s:f, s:f, s:f, s:o, s:o, s:o}", "min", s->min, "max", s->max,
			 "amean", s->amean, "hmean", num_or_null(s->hmean),
			 "stddev", num_or_null(s->stddev), "cov", num_or_null(s->cov));
}

static json_t *run_json(const struct cli_rep *x)
{
	json_t *j = json_pack("{s:I, s:f}", "ios", (json_int_t)x->ios, "elapsed_s", x->elapsed_s);
	unsigned m;

	for (m = 0; j && m < CLI_NMETRICS; m++)
		json_object_set_new(j, cli_metrics[m].key,
				    num_or_null(cli_rep_value(x, (enum cli_metric)m)));
	return j;
}

json_t *cli_json_repeats(const struct cli_dev *d)
{
	struct model_spread s;
	struct cli_rep own;
	unsigned n, i, m;
	const struct cli_rep *x = reps_of(d, &own, &n);
	json_t *j = json_pack("{s:I, s:[]}", "n", (json_int_t)n, "runs");
	json_t *runs = json_object_get(j, "runs");

	for (i = 0; j && i < n; i++) {
		if (json_array_append_new(runs, run_json(&x[i]))) {
			json_decref(j);
			return NULL;
		}
	}
	for (m = 0; j && m < CLI_NMETRICS; m++)
		if (json_object_set_new(j, cli_metrics[m].key,
					spread_of(x, n, (enum cli_metric)m, &s) ?
					spread_json(&s) : json_null())) {
			json_decref(j);
			return NULL;
		}
	return j;
}

void cli_spread_head(FILE *f, unsigned n, const char *what, int namew)
{
	fprintf(f, "over %u repeats: IOPS Hmean, latency Amean (us), each with its CoV%%\n", n);
	fprintf(f, "%-*s %10s %10s %10s %6s %8s %6s %8s %6s %8s %6s\n", namew, what,
		"IOPS", "min", "max", "CoV%", "mean", "CoV%", "p99", "CoV%", "p99.9", "CoV%");
}

static void print_center(FILE *f, const struct cli_rep *x, unsigned n, enum cli_metric m)
{
	struct model_spread s;
	char buf[32];

	if (!spread_of(x, n, m, &s)) {
		fprintf(f, " %8s %6s", "-", "-");
		return;
	}
	fprintf(f, " %8s", cli_fmt_us(buf, sizeof(buf), s.amean, true));
	if (isfinite(s.cov))
		fprintf(f, " %6.1f", 100.0 * s.cov);
	else
		fprintf(f, " %6s", "-");
}

void cli_spread_row(FILE *f, const struct cli_dev *d, int namew)
{
	struct model_spread s;
	struct cli_rep own;
	unsigned n;
	const struct cli_rep *x = reps_of(d, &own, &n);
	bool ok = spread_of(x, n, CLI_M_IOPS, &s);

	fprintf(f, "%-*s", namew, d->name);
	if (ok)
		fprintf(f, " %10.0f %10.0f %10.0f", isfinite(s.hmean) ? s.hmean : s.amean,
			s.min, s.max);
	else
		fprintf(f, " %10s %10s %10s", "-", "-", "-");
	if (ok && isfinite(s.cov))
		fprintf(f, " %6.1f", 100.0 * s.cov);
	else
		fprintf(f, " %6s", "-");
	print_center(f, x, n, CLI_M_MEAN);
	print_center(f, x, n, CLI_M_P99);
	print_center(f, x, n, CLI_M_P999);
	fputc('\n', f);
}

void cli_spread_print(FILE *f, const struct cli_report *r)
{
	int namew = 6;
	unsigned i;

	if (r->repeats < 2)
		return;
	for (i = 0; i < r->ndev; i++)
		if ((int)strlen(r->dev[i].name) > namew)
			namew = (int)strlen(r->dev[i].name);
	cli_spread_head(f, r->repeats, "device", namew);
	for (i = 0; i < r->ndev; i++)
		cli_spread_row(f, &r->dev[i], namew);
	if (r->ndev > 1)
		cli_spread_row(f, &r->total, namew);
}
