/* saturate --slo's section and JSON: each device's capacity alone, the
 * common share of them that holds with every device at once, the gap as
 * a share of the summed alone capacities, and saturate's attribution of
 * the closed-loop gap at QDn beside it. */
#include "cli/saturate/sat_int.h"

#include <math.h>
#include <stdio.h>

#include "cli/report/out.h"
#include "cli/words/findings_words.h"

/* The point together at the lowest share that broke, or NULL. */
static const struct sat_together_pt *first_fail(const struct sat_together *t)
{
	const struct sat_together_pt *best = NULL;
	unsigned i;

	for (i = 0; i < t->npt; i++)
		if (model_slo_broke(t->pt[i].verdict) && (!best || t->pt[i].frac < best->frac))
			best = &t->pt[i];
	return best;
}

/* Every device's alone capacity in one line, their sum, and what the
 * devices serve together. */
static void print_gap(const struct sat *s, const char *words)
{
	const struct sat_together *t = s->together;
	const struct sat_together_pt *ff;
	double frac = model_slo_capacity(&t->s), lo, hi, cap, first = -1;
	char verdict[CLI_GAP_WORDS_MAX];
	bool same = true;
	unsigned i;

	for (i = 0; i < s->n; i++) {
		cap = s->slo->dev[i].failed ? 0 : model_slo_capacity_mean(s->slo->dev[i].caps, s->slo->dev[i].nsearch, &lo, &hi);
		if (!(cap > 0))
			continue;
		if (first < 0)
			first = cap;
		same &= fabs(cap / first - 1) < 0.05;
	}
	if (same)
		fprintf(s->out, "alone, each of %u devices serves %.0f IOPS within %s (%.0f summed)",
			t->ndev, t->sum_alone / t->ndev, words, t->sum_alone);
	else
		fprintf(s->out, "alone, %u devices serve %.0f IOPS summed within %s", t->ndev,
			t->sum_alone, words);
	if (!t->ran || !t->s.done) {
		fprintf(s->out, "; together: not finished\n");
		return;
	}
	ff = first_fail(t);
	if (frac >= 1 && !ff)
		fprintf(s->out, "; together, all of that (%s): no gap at the target\n",
			t->s.confirmed ? "confirmed" : "unconfirmed");
	else if (!(frac > 0))
		fprintf(s->out, "; together, no common share down to %.0f%% holds", 100.0 * MODEL_SLO_FLOOR);
	else
		fprintf(s->out, "; together, %.0f%% of that (%.0f IOPS, a gap of %.0f%%%s)", 100.0 * frac,
			frac * t->sum_alone, 100.0 * (1 - frac),
			t->s.confirmed ? "" : ", unconfirmed");
	if (ff) {
		cli_gap_verdict_text(&s->gap, verdict, sizeof(verdict));
		fprintf(s->out, ": %s broke %s first at %.0f%%; saturate's attribution of the gap at QD%u: %s\n",
			s->dev[ff->dev].t->name,
			ff->verdict == MODEL_SLO_BEHIND ? "by falling behind" : cli_slo_broke_name(&s->o->slo, ff->verdict),
			100.0 * ff->frac, s->o->qd, verdict);
	}
}

void cli_sat_print_slo(const struct sat *s)
{
	char words[160];

	cli_slo_words(&s->o->slo, words, sizeof(words));
	fprintf(s->out, "\nat the target, each device alone:\n");
	cli_slo_print_summary(s->out, s->slo);
	if (s->together && s->together->ndev >= 2)
		print_gap(s, words);
	fflush(s->out);
}

static json_t *together_pt_json(const struct sat *s, const struct sat_together_pt *p, bool again)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < s->n; i++) {
		json_t *x;

		if (!(p->pt[i].rate > 0))
			continue;
		x = cli_slo_pt_json(&p->pt[i], &s->o->slo);
		if (x) {
			json_object_del(x, "search");
			json_object_del(x, "again");
			json_object_set_new(x, "name", json_string(s->dev[i].t->name));
		}
		json_array_append_new(a, x);
	}
	return json_pack("{s:f, s:b, s:o, s:o, s:o, s:o}", "fraction", p->frac, "again", again,
			 "held", cli_slo_held_json(p->verdict),
			 "device", p->dev >= 0 ? json_string(s->dev[p->dev].t->name) : json_null(),
			 "broke", cli_slo_broke_name(&s->o->slo, p->verdict) ?
				json_string(cli_slo_broke_name(&s->o->slo, p->verdict)) : json_null(),
			 "by_device", a);
}

static json_t *together_json(const struct sat *s)
{
	const struct sat_together *t = s->together;
	const struct sat_together_pt *ff;
	double frac;
	json_t *pts;
	unsigned i;

	if (!t || t->ndev < 2)
		return json_null();
	frac = t->s.done ? model_slo_capacity(&t->s) : 0;
	ff = first_fail(t);
	pts = json_array();
	for (i = 0; pts && i < t->npt; i++)
		json_array_append_new(pts, together_pt_json(s, &t->pt[i], t->s.pt[i].again));
	return json_pack("{s:I, s:f, s:o, s:o, s:o, s:b, s:o, s:o, s:o, s:o}",
			 "devices", (json_int_t)t->ndev, "sum_alone_iops", t->sum_alone,
			 "fraction", t->s.done ? json_real(frac) : json_null(),
			 "capacity_iops", t->s.done && frac > 0 ? json_real(frac * t->sum_alone) : json_null(),
			 "gap_pct", t->s.done ? json_real(100.0 * (1 - frac)) : json_null(),
			 "confirmed", t->s.confirmed,
			 "first_failing_fraction", ff ? json_real(ff->frac) : json_null(),
			 "first_failing_device", ff ? json_string(s->dev[ff->dev].t->name) : json_null(),
			 "first_failing_percentile", ff ? json_string(cli_slo_broke_name(&s->o->slo, ff->verdict)) : json_null(),
			 "points", pts);
}

json_t *cli_sat_slo_json(const struct sat *s)
{
	char verdict[CLI_GAP_WORDS_MAX];
	json_t *j;

	if (!s->slo)
		return json_null();
	j = cli_slo_json(s->slo);
	if (j) {
		json_object_set_new(j, "together", together_json(s));
		cli_gap_verdict_text(&s->gap, verdict, sizeof(verdict));
		json_object_set_new(j, "attribution", json_pack("{s:s, s:s}", "kind",
			model_gap_verdict_name(s->gap.verdict), "text", verdict));
	}
	return j;
}
