/* --slo's words and JSON: the plan with the search's time at most, a row
 * per target and point as it is measured, each target's capacity (or
 * that it misses the bounds at any rate, with the latency it reaches),
 * and the report's "slo" object (docs/json.md). */
#include <math.h>
#include <stdio.h>

#include "cli/report/json.h"
#include "cli/report/out.h"
#include "engine/arrival.h"
#include "cli/slo/slo.h"

const char *cli_slo_broke_name(const struct model_slo *slo, int verdict)
{
	if (model_slo_held(verdict) || verdict == MODEL_SLO_UNDECIDED)
		return NULL;
	if (verdict == MODEL_SLO_GENERATOR)
		return "generator";
	if (verdict == MODEL_SLO_BEHIND || verdict < 0 || (unsigned)verdict >= slo->n)
		return "behind";
	return model_slo_pcts[slo->pct[verdict]].name;
}

json_t *cli_slo_held_json(int verdict)
{
	if (model_slo_held(verdict))
		return json_true();
	return model_slo_broke(verdict) ? json_false() : json_null();
}

/* The bound whose interval left p undecided, or broke from due where the
 * generator broke it: the first such, or -1. */
static int open_bound(const struct model_slo *slo, const struct cli_slo_pt *p)
{
	unsigned i;

	for (i = 0; p->has_lat && i < slo->n; i++) {
		const struct model_pct_ci *c = &p->ci[slo->pct[i]];

		if (!c->has_hi || c->hi > slo->ns[i])
			return (int)i;
	}
	return -1;
}

void cli_slo_print_plan(FILE *f, const struct cli_opts *o, unsigned ntargets)
{
	unsigned cap = cli_slo_cap(o), reps = o->repeat > 1 ? o->repeat : 1;
	double each = cli_secs(o->ramp_ns + o->time_ns);
	char words[160];

	cli_slo_words(&o->slo, words, sizeof(words));
	fprintf(f, "slo: %s, latency from when each IO was due; a search of at most %u points%s of %.3gs ramp + %.3gs, each measured on up to %u windows while its 95%% interval spans a bound: at most %.0fs for %s\n",
		words, cap, reps > 1 ? " per repeat" : "", cli_secs(o->ramp_ns), cli_secs(o->time_ns),
		MODEL_SLO_WINDOWS, (double)cap * reps * each * MODEL_SLO_WINDOWS,
		ntargets == 1 ? "the target" : "all targets at once");
	fflush(f);
}

void cli_slo_print_head(FILE *f, const struct model_slo *slo)
{
	unsigned i;

	fprintf(f, "%-12s %6s %10s %10s %8s", "target", "point", "rate", "IOPS", "IOs");
	for (i = 0; i < slo->n; i++)
		fprintf(f, " %8s %-17s", model_slo_pcts[slo->pct[i]].name, "(95% interval)");
	fprintf(f, " %6s   (latency in us from when due; late: issued over %lluus after due)\n",
		"late%", (unsigned long long)(ENG_RATE_LATE_NS / 1000));
}

/* "[lo..hi]" in us, "-" for an unbounded end. */
static void ci_words(char *buf, size_t len, const struct model_pct_ci *c, bool has)
{
	char a[24], b[24];

	if (!has) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, "[%s..%s]", c->has_lo ? cli_fmt_us(a, sizeof(a), (double)c->lo, true) : "-",
		 c->has_hi ? cli_fmt_us(b, sizeof(b), (double)c->hi, true) : "-");
}

/* Why the generator broke bound b of p (model_slo_judge): its IOs issued
 * late with a slot free, and the bound or more late. */
static void print_generator(FILE *f, const struct model_slo *slo, const struct cli_slo_pt *p, int b)
{
	char us[24];

	if (b < 0)
		fprintf(f, "   broke by the generator: fell behind the rate");
	else
		fprintf(f, "   broke %s by the generator: %.1f%% of its IOs issued %s us or more late",
			model_slo_pcts[slo->pct[b]].name,
			p->ios ? 100.0 * (double)model_slo_late_from(p->late_oct, slo->ns[b]) / (double)p->ios : 0.0,
			cli_fmt_us(us, sizeof(us), (double)slo->ns[b], true));
	fprintf(f, ", %.1f%% over %lluus with a slot free (%llu waited for a slot)",
		p->ios ? 100.0 * (double)model_slo_late_from(p->late_oct, ENG_RATE_LATE_NS) / (double)p->ios : 0.0,
		(unsigned long long)(ENG_RATE_LATE_NS / 1000),
		(unsigned long long)p->late_oct[ENG_LATE_SLOT]);
	if (isfinite(p->delay_pct))
		fprintf(f, ", its workers waited for a CPU %.1f%% of the time (%s us an IO)",
			p->delay_pct, cli_fmt_us(us, sizeof(us), p->delay_ns_per_io, true));
	fprintf(f, "; the host's doing, not the device's\n");
}

/* What p's verdict says, after its row. */
static void print_verdict(FILE *f, const struct model_slo *slo, const struct cli_slo_pt *p)
{
	int b = open_bound(slo, p);

	switch (p->verdict) {
	case MODEL_SLO_HELD:
		fprintf(f, "   held\n");
		return;
	case MODEL_SLO_AT_BOUND:
		fprintf(f, "   held: at the bound (its interval within +-%.0f%%)\n", 100 * MODEL_SLO_ZONE);
		return;
	case MODEL_SLO_BEHIND:
		fprintf(f, "   broke: fell behind the rate\n");
		return;
	case MODEL_SLO_UNDECIDED:
		fprintf(f, "   undecided: %s's interval spans its bound after %u window%s (%llu IOs)\n",
			b >= 0 ? model_slo_pcts[slo->pct[b]].name : "a percentile", p->windows,
			p->windows == 1 ? "" : "s", (unsigned long long)p->ios);
		return;
	case MODEL_SLO_GENERATOR:
		print_generator(f, slo, p, b);
		return;
	default:
		fprintf(f, "   broke: %s\n", cli_slo_broke_name(slo, p->verdict));
	}
}

void cli_slo_print_point(FILE *f, const struct cli_slo *sl, const struct cli_slo_dev *d,
			 const struct cli_slo_pt *p)
{
	const struct model_slo *slo = &sl->o->slo;
	char us[24], num[16], ci[48];
	unsigned i;

	snprintf(num, sizeof(num), "%u%s", d->npt, p->again ? "*" : "");
	fprintf(f, "%-12s %6s %10.0f %10.0f %8llu", d->t->name, num, p->rate, p->iops,
		(unsigned long long)p->ios);
	for (i = 0; i < slo->n; i++) {
		ci_words(ci, sizeof(ci), &p->ci[slo->pct[i]], p->has_lat);
		fprintf(f, " %8s %-17s", cli_fmt_us(us, sizeof(us), (double)p->ns[slo->pct[i]], p->has_lat), ci);
	}
	fprintf(f, " %6.1f", 100.0 * cli_slo_late_share(p));
	print_verdict(f, slo, p);
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

bool cli_slo_missed(const struct cli_slo_dev *d)
{
	double lo, hi;

	if (!d->nsearch || d->failed || model_slo_capacity_mean(d->caps, d->nsearch, &lo, &hi) > 0)
		return false;
	/* the device broke at the lowest rate decided, none undecided below */
	return d->s.hi > 0 && (!d->s.und_lo || d->s.hi <= d->s.und_lo);
}

const struct cli_slo_pt *cli_slo_first_generator(const struct cli_slo_dev *d)
{
	const struct cli_slo_pt *best = NULL;
	unsigned i;

	for (i = 0; i < d->npt; i++)
		if (d->pt[i].search == d->nsearch && d->pt[i].verdict == MODEL_SLO_GENERATOR &&
		    (!best || d->pt[i].rate < best->rate))
			best = &d->pt[i];
	return best;
}

/* The rates left undecided, and the generator's part: a line's tail. */
static void say_undecided(FILE *f, const struct cli_slo_dev *d)
{
	if (d->s.und_lo > 0)
		fprintf(f, "; undecided at %.0f..%.0f IOPS", d->s.und_lo, d->s.und_hi);
}

/* A line where the generator broke a bound at some point. */
static void say_generator(FILE *f, const struct cli_slo_dev *d)
{
	const struct cli_slo_pt *g = cli_slo_first_generator(d);

	if (!g)
		return;
	fprintf(f, "%s: the generator, not the device, broke the bounds from %.0f IOPS: %.1f%% of the IOs issued over %lluus late",
		d->t->name, g->rate, 100.0 * cli_slo_late_share(g),
		(unsigned long long)(ENG_RATE_LATE_NS / 1000));
	if (isfinite(g->delay_pct))
		fprintf(f, ", its workers waiting for a CPU %.1f%% of the time", g->delay_pct);
	fprintf(f, "; the host's doing (its CPU was busy), not counted against the device\n");
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
		if (cli_slo_missed(d)) {
			say_missed(f, sl, d, words);
			say_generator(f, d);
			continue;
		}
		if (!(cap > 0)) {
			fprintf(f, "%s: none decided: no rate held", d->t->name);
			say_undecided(f, d);
			fprintf(f, "; %u point%s\n", d->npt, d->npt == 1 ? "" : "s");
			say_generator(f, d);
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
		else if (!d->s.und_lo)
			fprintf(f, "; held at its maximum");
		say_undecided(f, d);
		fprintf(f, "; %u point%s\n", d->npt, d->npt == 1 ? "" : "s");
		say_generator(f, d);
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

/* {p50: ns, ...} of c, null without. */
static json_t *pcts_json(const struct model_pct_ci *c, bool has)
{
	json_t *o;
	int i;

	if (!has)
		return json_null();
	o = json_object();
	for (i = 0; o && i < MODEL_SLO_NPCT; i++)
		json_object_set_new(o, model_slo_pcts[i].name, json_integer((json_int_t)c[i].value));
	return o;
}

/* {p50: [lo, hi], ...} of c, each as every report writes an interval
 * (cli_json_ci), null without. */
static json_t *cis_json(const struct model_pct_ci *c, bool has)
{
	json_t *o;
	int i;

	if (!has)
		return json_null();
	o = json_object();
	for (i = 0; o && i < MODEL_SLO_NPCT; i++)
		json_object_set_new(o, model_slo_pcts[i].name, cli_json_ci(&c[i]));
	return o;
}

/* The IOs by how late, an octave each from the first up to the last that
 * holds any. */
static json_t *octs_json(const uint64_t *oct)
{
	json_t *a = json_array();
	int k, last = -1;

	for (k = 0; k < ENG_LATE_OCTS; k++)
		if (oct[k])
			last = k;
	for (k = 0; a && k <= last; k++)
		json_array_append_new(a, json_integer((json_int_t)oct[k]));
	return a;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *cli_slo_pt_json(const struct cli_slo_pt *p, const struct model_slo *slo)
{
	json_t *o = json_pack("{s:I, s:f, s:f, s:b, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:b, s:o}",
			      "search", (json_int_t)p->search, "rate", p->rate, "iops", p->iops,
			      "again", p->again, "ios", (json_int_t)p->ios,
			      "windows", (json_int_t)p->windows,
			      "percentiles_ns", pcts_json(p->ci, p->has_lat),
			      "percentiles_ns_ci", cis_json(p->ci, p->has_lat),
			      "service_ns", pcts_json(p->svc, p->has_svc),
			      "service_ns_ci", cis_json(p->svc, p->has_svc),
			      "held", cli_slo_held_json(p->verdict),
			      "at_bound", p->verdict == MODEL_SLO_AT_BOUND,
			      "broke", str_or_null(cli_slo_broke_name(slo, p->verdict)));

	if (o) {
		json_object_set_new(o, "late_share", json_real(cli_slo_late_share(p)));
		json_object_set_new(o, "lateness_octaves", octs_json(p->late_oct));
		json_object_set_new(o, "slot_waited_ios", json_integer((json_int_t)p->late_oct[ENG_LATE_SLOT]));
		json_object_set_new(o, "depth", json_real(p->depth));
		json_object_set_new(o, "run_delay_pct", isfinite(p->delay_pct) ?
				    json_real(p->delay_pct) : json_null());
	}
	return o;
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
	const struct cli_slo_pt *g = cli_slo_first_generator(d);
	json_t *o;

	o = json_pack("{s:s, s:f, s:o, s:o, s:o, s:b, s:b, s:o, s:o, s:o, s:o, s:o}",
			 "name", d->t->name, "max_iops", d->max,
			 "capacity_iops", real_or_null(cap),
			 "capacity_iops_ci", isfinite(lo) && isfinite(hi) ?
				json_pack("[f, f]", lo, hi) : json_null(),
			 "capacities", caps,
			 "confirmed", d->nsearch && d->s.confirmed,
			 "missed", cli_slo_missed(d),
			 "first_failing_iops", ff ? json_real(ff->rate) : json_null(),
			 "first_failing_percentile", ff ? str_or_null(cli_slo_broke_name(&sl->o->slo, ff->verdict)) : json_null(),
			 "failed", d->failed && d->why[0] ? json_string(d->why) : json_null(),
			 "lowest", cli_slo_lowest(d) ? cli_slo_pt_json(cli_slo_lowest(d), &sl->o->slo) : json_null(),
			 "points", pts);
	if (o) {
		json_object_set_new(o, "start_iops", real_or_null(d->start));
		json_object_set_new(o, "undecided_iops", d->nsearch && d->s.und_lo > 0 ?
				    json_pack("[f, f]", d->s.und_lo, d->s.und_hi) : json_null());
		json_object_set_new(o, "generator_iops", g ? json_real(g->rate) : json_null());
	}
	return o;
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
