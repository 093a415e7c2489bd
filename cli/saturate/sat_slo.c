/* saturate --slo: the gap at a latency target. Each device alone at QDn
 * (the closed-loop maximum its search starts from), all of them at once
 * at QDn (what saturate's attribution reads), each device's search for
 * its capacity alone (cli/slo), then all of them at once, each at its
 * alone capacity; where a bound breaks there, the same search
 * (model/slo.h) over the common share of the alone capacities, from 100%
 * down to 1%, for the highest at which every device still holds. */
#include "cli/saturate/sat_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report/out.h"
#include "cli/runner/stop.h"

void cli_sat_plan_slo(struct sat *s)
{
	const struct cli_opts *o = s->o;
	unsigned cap = cli_slo_cap(o), reps = o->repeat > 1 ? o->repeat : 1;
	double each = cli_secs(o->ramp_ns + o->time_ns);
	char words[160];

	cli_slo_words(&o->slo, words, sizeof(words));
	s->nsteps = s->n + 1;
	s->step_ns = (o->ramp_ns + o->time_ns) * reps;
	fprintf(s->out, "iostorm saturate --slo: %u device%s; each alone at QD%u, all at once at QD%u, then each alone in a search for its capacity within %s, then all at once at a common share of those capacities\n",
		s->n, s->n == 1 ? "" : "s", o->qd, o->qd, words);
	fprintf(s->out, "plan: %u closed-loop steps of %.3gs ramp + %.3gs measured%s, then %u searches of at most %u points%s of %.3gs ramp + %.3gs, each measured on up to %u windows while undecided: at most %.0fs\n",
		s->nsteps, cli_secs(o->ramp_ns), cli_secs(o->time_ns), reps > 1 ? ", repeated" : "",
		s->n + 1, cap, reps > 1 ? " (each device's repeated)" : "", cli_secs(o->ramp_ns),
		cli_secs(o->time_ns), MODEL_SLO_WINDOWS,
		(double)s->nsteps * cli_secs(s->step_ns) +
		(double)cap * each * MODEL_SLO_WINDOWS * (s->n * reps + 1));
	fflush(s->out);
}

void cli_sat_slo_free(struct sat *s)
{
	unsigned i;

	if (s->slo)
		cli_slo_free(s->slo);
	free(s->slo);
	s->slo = NULL;
	for (i = 0; s->together && i < s->together->npt; i++)
		free(s->together->pt[i].pt);
	free(s->together);
	s->together = NULL;
}

/* The first device that broke at a point together, and why; where none
 * broke, the first left undecided (or broken by the generator), and
 * why; else held (at the bound where any was). */
static int together_verdict(const struct cli_slo_pt *pts, const bool *on, unsigned n, int *dev)
{
	int v = MODEL_SLO_HELD;
	unsigned i;

	*dev = -1;
	for (i = 0; i < n; i++) {
		if (!on[i] || pts[i].verdict == MODEL_SLO_HELD)
			continue;
		if (model_slo_broke(pts[i].verdict)) {
			*dev = (int)i;
			return pts[i].verdict;
		}
		if (v == MODEL_SLO_HELD || (model_slo_held(v) && !model_slo_held(pts[i].verdict))) {
			v = pts[i].verdict;
			*dev = model_slo_held(v) ? -1 : (int)i;
		}
	}
	return v;
}

static void print_together(const struct sat *s, const struct sat_together_pt *p, unsigned k,
			   bool again)
{
	const struct model_slo *slo = &s->o->slo;
	char us[24];
	unsigned i, b;

	fprintf(s->out, "%-12s %5u%s %9.1f%%", "together", k, again ? "*" : " ", 100.0 * p->frac);
	for (i = 0; i < s->n; i++) {
		if (!(p->pt[i].rate > 0))
			continue;
		fprintf(s->out, "  %s %.0f", s->dev[i].t->name, p->pt[i].iops);
		for (b = 0; b < slo->n; b++)
			fprintf(s->out, " %s %s", model_slo_pcts[slo->pct[b]].name,
				cli_fmt_us(us, sizeof(us), (double)p->pt[i].ns[slo->pct[b]], p->pt[i].has_lat));
	}
	if (model_slo_held(p->verdict))
		fprintf(s->out, "   held%s\n", p->verdict == MODEL_SLO_AT_BOUND ? ": at the bound" : "");
	else if (p->verdict == MODEL_SLO_UNDECIDED)
		fprintf(s->out, "   undecided: %s\n", s->dev[p->dev].t->name);
	else if (p->verdict == MODEL_SLO_GENERATOR)
		fprintf(s->out, "   broke: %s by the generator (the host's doing, not the device's)\n",
			s->dev[p->dev].t->name);
	else
		fprintf(s->out, "   broke: %s %s\n", s->dev[p->dev].t->name,
			p->verdict == MODEL_SLO_BEHIND ? "fell behind the rate" :
			cli_slo_broke_name(slo, p->verdict));
	fflush(s->out);
}

/* All devices with an alone capacity at once, at a common share of it. */
static int together(struct sat *s)
{
	struct sat_together *t = calloc(1, sizeof(*t));
	double caps[CLI_MAX_TARGETS] = { 0 }, rates[CLI_MAX_TARGETS], lo, hi, frac;
	bool on[CLI_MAX_TARGETS], again;
	struct cli_slo_pt *pts;
	unsigned i;
	int rc = 0;

	if (!t) {
		cli_say("out of memory");
		return -ENOMEM;
	}
	s->together = t;
	for (i = 0; i < s->n; i++) {
		caps[i] = s->slo->dev[i].failed ? 0 : model_slo_capacity_mean(s->slo->dev[i].caps, s->slo->dev[i].nsearch, &lo, &hi);
		on[i] = caps[i] > 0;
		t->ndev += on[i];
		t->sum_alone += caps[i];
	}
	if (t->ndev < 2) {
		fprintf(s->out, "together: fewer than two devices have a capacity alone, nothing to run at once\n");
		return 0;
	}
	model_slo_search_init(&t->s, 1.0, MODEL_SLO_FLOOR, cli_slo_cap(s->o));
	fprintf(s->out, "%-12s %6s %10s  (each device: IOPS and latency in us from when due)\n", "", "point",
		"share");
	while (!rc && !model_slo_next(&t->s, &frac, &again) && !cli_runner_interrupted()) {
		pts = calloc(s->n, sizeof(*pts));
		if (!pts) {
			cli_say("out of memory");
			return -ENOMEM;
		}
		for (i = 0; i < s->n; i++) {
			rates[i] = frac * caps[i];
			if (rates[i] < s->o->jobs_per_device)
				rates[i] = s->o->jobs_per_device;
		}
		rc = cli_slo_point(s->slo, on, rates, pts);
		if (rc || s->slo->interrupted) {
			free(pts);
			break;
		}
		t->ran = true;
		t->pt[t->npt] = (struct sat_together_pt){ .frac = frac, .pt = pts };
		t->pt[t->npt].verdict = together_verdict(pts, on, s->n, &t->pt[t->npt].dev);
		model_slo_add(&t->s, frac, again, t->pt[t->npt].verdict);
		t->npt++;
		print_together(s, &t->pt[t->npt - 1], t->npt, again);
	}
	return rc;
}

int cli_sat_slo_run(struct sat *s)
{
	const struct eng_target *tp[CLI_MAX_TARGETS];
	double max[CLI_MAX_TARGETS];
	unsigned i;
	int rc = 0;

	cli_sat_notes(s);
	for (i = 0; i < s->n && !rc && !cli_runner_interrupted(); i++)
		rc = cli_sat_step(s, SAT_QDN_SOLO, (int)i);
	if (!rc && !cli_runner_interrupted())
		rc = cli_sat_step(s, SAT_QDN_ALL, -1);
	if (rc || cli_runner_interrupted())
		goto out;
	s->slo = calloc(1, sizeof(*s->slo));
	if (!s->slo) {
		cli_say("out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < s->n; i++) {
		tp[i] = s->dev[i].t;
		max[i] = s->dev[i].done[SAT_QDN_SOLO] && !s->dev[i].failed ?
			 s->dev[i].fig[SAT_QDN_SOLO].iops : 0;
	}
	rc = cli_slo_init(s->slo, s->o, tp, max, s->n, "saturate");
	for (i = 0; !rc && i < s->n && !cli_runner_interrupted(); i++) {
		if (s->slo->dev[i].failed)
			continue;
		s->slo->only = (int)i;
		rc = cli_slo_run(s->slo, s->out);
	}
	s->slo->only = -1;
	if (!rc && !cli_runner_interrupted())
		rc = together(s);
	for (i = 0; i < s->n; i++) {
		s->stalled |= s->slo->dev[i].stalled;
		if (s->slo->dev[i].failed && !s->dev[i].failed && s->slo->dev[i].why[0]) {
			s->dev[i].failed = true;
			snprintf(s->dev[i].why, sizeof(s->dev[i].why), "%s", s->slo->dev[i].why);
		}
	}
	s->io_errors |= s->slo->io_errors;
	s->interrupted |= s->slo->interrupted;
out:
	s->interrupted |= cli_runner_interrupted();
	return rc;
}
