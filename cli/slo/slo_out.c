/* --slo's words and JSON: the plan with the search's time at most, a row
 * per target and point as it is measured, each target's capacity (or
 * that it misses the bounds at any rate, with the latency it reaches),
 * and the report's "slo" object (docs/json.md). */
#include <math.h>
#include <stdio.h>

#include "cli/report/out.h"
#include "cli/slo/slo.h"

const char *cli_slo_broke_name(const struct model_slo *slo, int verdict)
{
	if (verdict == MODEL_SLO_HELD)
		return NULL;
	if (verdict == MODEL_SLO_BEHIND || verdict < 0 || (unsigned)verdict >= slo->n)
		return "behind";
	return model_slo_pcts[slo->pct[verdict]].name;
}

void cli_slo_print_plan(FILE *f, const struct cli_opts *o, unsigned ntargets)
{
	unsigned cap = cli_slo_cap(o), reps = o->repeat > 1 ? o->repeat : 1;
	double each = cli_secs(o->ramp_ns + o->time_ns);
	char words[160];

	cli_slo_words(&o->slo, words, sizeof(words));
	fprintf(f, "slo: %s, latency from when each IO was due; a search of at most %u points%s of %.3gs ramp + %.3gs: at most %.0fs for %s\n",
		words, cap, reps > 1 ? " per repeat" : "", cli_secs(o->ramp_ns), cli_secs(o->time_ns),
		(double)cap * reps * each, ntargets == 1 ? "the target" : "all targets at once");
	fflush(f);
}

void cli_slo_print_head(FILE *f, const struct model_slo *slo)
{
	unsigned i;

	fprintf(f, "%-12s %6s %10s %10s", "target", "point", "rate", "IOPS");
	for (i = 0; i < slo->n; i++)
		fprintf(f, " %8s", model_slo_pcts[slo->pct[i]].name);
	fprintf(f, "   (latency in us from when due)\n");
}

void cli_slo_print_point(FILE *f, const struct cli_slo *sl, const struct cli_slo_dev *d,
			 const struct cli_slo_pt *p)
{
	const struct model_slo *slo = &sl->o->slo;
	char us[24], num[16];
	unsigned i;

	snprintf(num, sizeof(num), "%u%s", d->npt, p->again ? "*" : "");
	fprintf(f, "%-12s %6s %10.0f %10.0f", d->t->name, num, p->rate, p->iops);
	for (i = 0; i < slo->n; i++)
		fprintf(f, " %8s", cli_fmt_us(us, sizeof(us), (double)p->ns[slo->pct[i]], p->has_lat));
	if (p->verdict == MODEL_SLO_HELD)
		fprintf(f, "   held\n");
	else
		fprintf(f, "   broke: %s\n", p->verdict == MODEL_SLO_BEHIND ? "fell behind the rate" :
			cli_slo_broke_name(slo, p->verdict));
	fflush(f);
}

/* A target that misses the bounds at the lowest rate tried: what it does
 * reach there. */
static void say_missed(FILE *f, const struct cli_slo *sl, const struct cli_slo_dev *d,
		       const char *words)
{
	const struct model_slo *slo = &sl->o->slo;
	const struct cli_slo_pt *low = cli_slo_lowest(d);
	char us[24];
	unsigned i;

	fprintf(f, "%s: misses %s at any rate", d->t->name, words);
	if (low && low->has_lat) {
		fprintf(f, ": at %.0f IOPS (%.2g%% of its maximum)", low->rate, 100.0 * low->rate / d->max);
		for (i = 0; i < slo->n; i++)
			fprintf(f, "%s %s %s us", i ? "," : "", model_slo_pcts[slo->pct[i]].name,
				cli_fmt_us(us, sizeof(us), (double)low->ns[slo->pct[i]], true));
	}
	fputc('\n', f);
}

void cli_slo_print_summary(FILE *f, const struct cli_slo *sl)
{
	const struct model_slo *slo = &sl->o->slo;
	const struct cli_slo_pt *ff;
	char words[160], us[24];
	double cap, lo, hi;
	unsigned i;

	cli_slo_words(slo, words, sizeof(words));
	fprintf(f, "capacity within %s (a search of at most %u points):\n", words, cli_slo_cap(sl->o));
	for (i = 0; i < sl->n; i++) {
		const struct cli_slo_dev *d = &sl->dev[i];

		if (d->failed) {
			fprintf(f, "%s: none: %s\n", d->t->name, d->why[0] ? d->why : "no closed-loop maximum");
			continue;
		}
		if (!d->nsearch) {
			fprintf(f, "%s: none: its search did not finish\n", d->t->name);
			continue;
		}
		cap = model_slo_capacity_mean(d->caps, d->nsearch, &lo, &hi);
		if (!(cap > 0)) {
			say_missed(f, sl, d, words);
			continue;
		}
		fprintf(f, "%s: %.0f IOPS (%.0f%% of its closed-loop %.0f)", d->t->name, cap,
			100.0 * cap / d->max, d->max);
		if (d->nsearch > 1 && isfinite(lo) && isfinite(hi))
			fprintf(f, ", 95%% interval %.0f..%.0f over %u searches", lo, hi, d->nsearch);
		fprintf(f, "%s", d->s.confirmed ? ", confirmed" : ", unconfirmed (the cap of points came first)");
		ff = cli_slo_first_fail(d);
		if (ff)
			fprintf(f, "; first failing rate %.0f IOPS: %s%s%s%s", ff->rate,
				cli_slo_broke_name(slo, ff->verdict),
				ff->verdict >= 0 ? " " : "",
				ff->verdict >= 0 ? cli_fmt_us(us, sizeof(us),
					(double)ff->ns[slo->pct[ff->verdict]], true) : "",
				ff->verdict >= 0 ? " us" : "");
		else
			fprintf(f, "; held at its maximum");
		fprintf(f, "; %u point%s\n", d->npt, d->npt == 1 ? "" : "s");
	}
	if (sl->interrupted)
		fprintf(f, "INTERRUPTED: a search cut short has no capacity\n");
	fflush(f);
}

json_t *cli_slo_bounds_json(const struct model_slo *slo)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < slo->n; i++)
		json_array_append_new(a, json_pack("{s:s, s:I}", "percentile",
						   model_slo_pcts[slo->pct[i]].name, "ns",
						   (json_int_t)slo->ns[i]));
	return a;
}

static json_t *pcts_json(const struct cli_slo_pt *p)
{
	json_t *o;
	int i;

	if (!p->has_lat)
		return json_null();
	o = json_object();
	for (i = 0; o && i < MODEL_SLO_NPCT; i++)
		json_object_set_new(o, model_slo_pcts[i].name, json_integer((json_int_t)p->ns[i]));
	return o;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *cli_slo_pt_json(const struct cli_slo_pt *p, const struct model_slo *slo)
{
	return json_pack("{s:I, s:f, s:f, s:b, s:o, s:b, s:o}", "search", (json_int_t)p->search,
			 "rate", p->rate, "iops", p->iops, "again", p->again,
			 "percentiles_ns", pcts_json(p), "held", p->verdict == MODEL_SLO_HELD,
			 "broke", str_or_null(cli_slo_broke_name(slo, p->verdict)));
}

static json_t *real_or_null(double v)
{
	return isfinite(v) && v > 0 ? json_real(v) : json_null();
}

static json_t *dev_json(const struct cli_slo *sl, const struct cli_slo_dev *d)
{
	const struct cli_slo_pt *ff = cli_slo_first_fail(d);
	double cap, lo, hi;
	json_t *pts = json_array(), *caps = json_array();
	unsigned i;

	cap = model_slo_capacity_mean(d->caps, d->nsearch, &lo, &hi);
	for (i = 0; pts && i < d->npt; i++)
		json_array_append_new(pts, cli_slo_pt_json(&d->pt[i], &sl->o->slo));
	for (i = 0; caps && i < d->nsearch; i++)
		json_array_append_new(caps, real_or_null(d->caps[i]));
	return json_pack("{s:s, s:f, s:o, s:o, s:o, s:b, s:b, s:o, s:o, s:o, s:o, s:o}",
			 "name", d->t->name, "max_iops", d->max,
			 "capacity_iops", real_or_null(cap),
			 "capacity_ci95", isfinite(lo) && isfinite(hi) ?
				json_pack("[f, f]", lo, hi) : json_null(),
			 "capacities", caps,
			 "confirmed", d->nsearch && d->s.confirmed,
			 "missed", d->nsearch && !d->failed && !(cap > 0),
			 "first_failing_iops", ff ? json_real(ff->rate) : json_null(),
			 "first_failing_percentile", ff ? str_or_null(cli_slo_broke_name(&sl->o->slo, ff->verdict)) : json_null(),
			 "failed", d->failed && d->why[0] ? json_string(d->why) : json_null(),
			 "lowest", cli_slo_lowest(d) ? cli_slo_pt_json(cli_slo_lowest(d), &sl->o->slo) : json_null(),
			 "points", pts);
}

json_t *cli_slo_json(const struct cli_slo *sl)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < sl->n; i++)
		json_array_append_new(a, dev_json(sl, &sl->dev[i]));
	return json_pack("{s:o, s:I, s:I, s:b, s:o}", "bounds", cli_slo_bounds_json(&sl->o->slo),
			 "max_points", (json_int_t)cli_slo_cap(sl->o),
			 "searches", (json_int_t)(sl->o->repeat > 1 ? sl->o->repeat : 1),
			 "interrupted", sl->interrupted, "devices", a);
}
