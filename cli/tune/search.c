/* tune's runs: one configuration measured, a stage's successive halving
 * in random order, the paired rounds that decide whether a stage's best
 * replaces what it carried in, the winner against the default, and each
 * knob's worth (docs/tune.md, "The search"). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "cli/tune/tune.h"
#include "cli/report/out.h"
#include "cli/report/report.h"
#include "cli/runner/runner.h"
#include "cli/runner/stop.h"
#include "engine/clock.h"

double tune_elapsed(const struct tune *t)
{
	return (double)(eng_mono_ns() - t->t0_ns) / 1e9;
}

/* The run's IOPS as batch means over its intervals: TUNE_BATCHES batches
 * of neighbouring intervals, each its IOs over its time, and the mean's
 * Student-t interval over them (NAN with fewer than 3). */
static void iops_ci(const struct cli_tl_series *tl, double *lo, double *hi)
{
	double v[TUNE_BATCHES], m, io, dt;
	unsigned nb = tl->n < TUNE_BATCHES ? tl->n : TUNE_BATCHES, b, i, from, to;

	*lo = *hi = NAN;
	if (nb < 3)
		return;
	for (b = 0; b < nb; b++) {
		from = b * tl->n / nb;
		to = (b + 1) * tl->n / nb;
		io = dt = 0;
		for (i = from; i < to; i++) {
			io += (double)tl->s[i].ios;
			dt += tl->s[i].dt_s;
		}
		if (!(dt > 0))
			return;
		v[b] = io / dt;
	}
	if (model_mean_ci(v, nb, MODEL_AMEAN, 0.95, &m, lo, hi))
		*lo = *hi = NAN;
}

/* The goal's figure of one run and its interval within the run. */
static void fig_of(const struct tune *t, const struct cli_report *rep, struct tune_run *r)
{
	const struct cli_dev *d = &rep->total;
	const struct model_pct_ci *c = &d->lat.ci[2];	/* p99: model_pct_list */

	r->lo = r->hi = NAN;
	switch (t->goal) {
	case MODEL_TUNE_IOPS:
		r->fig = r->iops;
		iops_ci(&d->tl, &r->lo, &r->hi);
		break;
	case MODEL_TUNE_LATENCY:
		r->fig = d->has_lat ? r->p99_ns : NAN;
		if (d->has_lat && c->ios) {
			r->lo = c->has_lo ? (double)c->lo : NAN;
			r->hi = c->has_hi ? (double)c->hi : NAN;
		}
		break;
	case MODEL_TUNE_IOPS_PER_CORE:
		/* every CPU second the IO cost: the workers' own and the
		 * interrupts' on their CPUs (docs/tune.md) */
		r->fig = r->cpu_s + r->irq_s > 0 ? (double)r->ios / (r->cpu_s + r->irq_s) : NAN;
		break;
	}
}

void tune_run_of(const struct tune *t, const struct cli_report *rep, struct tune_run *r)
{
	const struct cli_dev *d = &rep->total;
	struct cli_noise_pct p;

	r->window_s = d->elapsed_s;
	r->ios = d->ios;
	r->iops = d->iops;
	r->p99_ns = d->has_lat ? (double)d->lat.p99 : NAN;
	r->cpu_s = d->cpu_s;
	r->irq_s = d->noise.known ? d->noise.irq_s : 0;
	cli_noise_pct(&d->noise, &p);
	r->other_pct = p.other;
	r->noisy = cli_noise_high(p.other, p.res, d->elapsed_s) ||
		   cli_noise_high(p.steal, p.res, d->elapsed_s);
	fig_of(t, rep, r);
}

int tune_measure(struct tune *t, const struct tune_cfg *c, double window_s, unsigned stage,
		 unsigned round, struct tune_run *r)
{
	struct cli_run_spec spec;
	struct cli_report rep;
	uint64_t t0 = eng_mono_ns();
	double cost;
	int rc;

	memset(r, 0, sizeof(*r));
	r->stage = stage;
	r->round = round;
	r->fig = r->lo = r->hi = NAN;
	tune_cfg_spec(t, c, &spec);
	spec.quiet_noise = true;
	spec.time_ns = (uint64_t)(window_s * 1e9);
	rc = cli_runner_run(t->o, &spec, &rep);
	if (!rc && rep.stalled) {
		t->stalled = true;
		rc = -EIO;
	} else if (!rc && rep.interrupted) {
		t->interrupted = true;
	} else if (!rc && (rep.total.errors || rep.total.fatal)) {
		cli_report_print_errors(stderr, &rep);
		rc = -EIO;
	}
	if (!rc && !t->interrupted) {
		tune_run_of(t, &rep, r);
	}
	cli_report_free(&rep);
	cost = (double)(eng_mono_ns() - t0) / 1e9;
	r->cost_s = cost;
	t->runs++;
	if (!rc && r->noisy) {
		t->noisy_runs++;
		if (r->other_pct > t->noisy_max_pct)
			t->noisy_max_pct = r->other_pct;
	}
	/* what a run costs beside its ramp and window, as measured so far */
	cost -= window_s + (double)t->o->ramp_ns / 1e9;
	if (cost > 0)
		t->over_s += (cost - t->over_s) / (double)t->runs;
	return rc;
}

/* ---- the plan, again at each step with what is left ---- */

static double left_s(const struct tune *t)
{
	return (double)t->budget_ns / 1e9 - tune_elapsed(t);
}

/* Each stage's candidates from stage `from` on, as they would be with
 * what is carried now (later stages' counts are estimates: their
 * candidates follow what wins before them). */
static int count_stages(struct tune *t, unsigned from, unsigned *ncand)
{
	unsigned s, keep = t->ncand, first[MODEL_TUNE_NSTAGES + 1];
	int n = 0;

	memset(ncand, 0, MODEL_TUNE_NSTAGES * sizeof(*ncand));
	memcpy(first, t->stage_first, sizeof(first));
	t->counting = true;
	for (s = from; s < MODEL_TUNE_NSTAGES && n >= 0; s++) {
		n = tune_space(t, (enum model_tune_stage)s);
		t->ncand = keep;
		if (n >= 0)
			ncand[s] = (unsigned)n;
	}
	t->counting = false;
	memcpy(t->stage_first, first, sizeof(first));
	return n < 0 ? n : 0;
}

/* The knobs whose worth is measured: those where c differs from the
 * default. */
static unsigned knobs_of(const struct tune *t, const struct tune_cfg *c)
{
	unsigned k, n = 0;

	for (k = 0; k < TUNE_NKNOBS; k++)
		n += tune_knob_differs(c, &t->dflt, (enum tune_knob)k);
	return n;
}

/* The unit for what is left from stage `from` (MODEL_TUNE_NSTAGES: the
 * final on): the plan, with fewer knobs and then fewer stages where the
 * budget does not hold them all. 0, or -ENOSPC: nothing fits. */
static int replan(struct tune *t, unsigned from, struct model_tune_plan *p)
{
	unsigned ncand[MODEL_TUNE_NSTAGES], s, nk = TUNE_NKNOBS;
	double ramp = (double)t->o->ramp_ns / 1e9, over = t->runs ? t->over_s : TUNE_OVERHEAD_S;
	int rc = count_stages(t, from, ncand);

	if (rc)
		return rc;
	if (from >= MODEL_TUNE_NSTAGES)
		nk = knobs_of(t, &t->best);
	for (;;) {
		rc = model_tune_plan(left_s(t), ramp, over, ncand, from, nk, p);
		if (rc != -ENOSPC)
			break;
		if (nk) {
			nk = 0;
			continue;
		}
		/* the last stage with candidates goes first */
		for (s = MODEL_TUNE_NSTAGES; s > from && ncand[s - 1] < 2; s--)
			;
		if (s == from)
			break;
		ncand[s - 1] = 0;
	}
	if (!rc)
		t->w_s = p->w_s;
	return rc;
}

/* ---- a stage ---- */

static const char *stage_option(unsigned s)
{
	static const char *const o[] = { "--engine/--completion", "--jobs-per-device/--qd",
					 "--batch/--reap", "--placement/--cpus/--group" };

	return s < MODEL_TUNE_NSTAGES ? o[s] : "?";
}

static const char *stage_value(const struct tune_cfg *c, unsigned s, char *buf, size_t len)
{
	char a[64];

	switch (s) {
	case MODEL_TUNE_ENGINE:
		return tune_knob_value(c, TUNE_K_ENGINE, buf, len);
	case MODEL_TUNE_DEPTH:
		snprintf(buf, len, "%u x QD%u", c->jobs, c->qd);
		return buf;
	case MODEL_TUNE_BATCH:
		snprintf(buf, len, "batch %u, reap %u", c->batch, c->reap);
		return buf;
	default:
		snprintf(buf, len, "%s%s", tune_knob_value(c, TUNE_K_PLACE, a, sizeof(a)),
			 c->group == CLI_GROUP_ON ? ", group on" : "");
		return buf;
	}
}

static bool stop_now(struct tune *t)
{
	if (cli_runner_interrupted())
		t->interrupted = true;
	return t->interrupted || t->stalled;
}

/* Candidate i measured for window_s; a failure lists it as not tried. */
static int measure_cand(struct tune *t, unsigned i, double window_s, unsigned round)
{
	struct tune_cand *k = &t->cand[i];
	struct tune_run r;
	char val[64], why[200];
	int rc = tune_measure(t, &k->c, window_s, k->stage, round, &r);

	if (rc && !t->stalled) {
		k->failed = true;
		k->fig = NAN;
		snprintf(why, sizeof(why), "failed here: %s (said above)", strerror(-rc));
		tune_not_tried(t, stage_option(k->stage), stage_value(&k->c, k->stage, val, sizeof(val)),
			       why);
		return 0;	/* the search goes on without it */
	}
	if (rc)
		return rc;
	if (t->interrupted)
		return 0;
	if (k->nrun < TUNE_MAX_RUNS)
		k->run[k->nrun++] = r;
	k->fig = r.fig;
	return 0;
}

/* a pair's figures hold the most rounds any decision takes */
_Static_assert(MODEL_TUNE_STAGE_ROUNDS <= MODEL_TUNE_FINAL_ROUNDS &&
	       MODEL_TUNE_KNOB_ROUNDS <= MODEL_TUNE_FINAL_ROUNDS, "tune_pair's rounds");

/* Rounds of what was carried in (p[0]->a) and challengers p[0..k)->b, one
 * run of each a round in an order drawn anew each round, so that slow
 * drift cancels in the differences and favours none; the figures into
 * each pair's fa and fb. A round counts where every run of it gave a
 * figure. Decided once, after the last round, with Holm's correction over
 * the k challengers (model_tune_decide_k). */
static int rounds_k(struct tune *t, struct tune_pair *const *p, unsigned k, unsigned rounds,
		    double window_s)
{
	const double *b[MODEL_TUNE_FINALISTS];
	struct model_change c[MODEL_TUNE_FINALISTS];
	enum model_tune_verdict v[MODEL_TUNE_FINALISTS];
	double fa[MODEL_TUNE_FINAL_ROUNDS], fb[MODEL_TUNE_FINALISTS][MODEL_TUNE_FINAL_ROUNDS];
	unsigned i, j, order[1 + MODEL_TUNE_FINALISTS], n = 0;
	struct tune_run r;
	bool whole;
	int rc = 0;

	for (j = 0; j < k; j++) {
		p[j]->rounds = 0;
		p[j]->tested = false;
	}
	for (i = 0; i < rounds && !rc && i < MODEL_TUNE_FINAL_ROUNDS; i++) {
		for (j = 0; j <= k; j++)
			order[j] = j;
		model_tune_shuffle(order, k + 1, &t->seed);
		whole = true;
		for (j = 0; j <= k && !rc; j++) {
			const struct tune_cfg *c0 = order[j] ? &p[order[j] - 1]->b : &p[0]->a;

			if (stop_now(t))
				return 0;
			rc = tune_measure(t, c0, window_s, MODEL_TUNE_NSTAGES, i, &r);
			if (rc || t->interrupted || !isfinite(r.fig)) {
				whole = false;
				continue;
			}
			if (order[j])
				fb[order[j] - 1][n] = r.fig;
			else
				fa[n] = r.fig;
		}
		n += whole && !rc;
	}
	for (j = 0; j < k; j++) {
		memcpy(p[j]->fa, fa, n * sizeof(*fa));
		memcpy(p[j]->fb, fb[j], n * sizeof(*fa));
		p[j]->rounds = n;
		b[j] = fb[j];
	}
	if (rc || n < 2)
		return rc;
	if (!model_tune_decide_k(fa, b, k, n, model_tune_higher_better(t->goal), t->o->alpha, c, v))
		for (j = 0; j < k; j++) {
			p[j]->ch = c[j];
			p[j]->v = v[j];
			p[j]->tested = true;
		}
	return 0;
}

/* Paired rounds of a and b alone (the final, a knob). */
static int paired(struct tune *t, struct tune_pair *p, unsigned rounds, double window_s)
{
	return rounds_k(t, &p, 1, rounds, window_s);
}

/* The halving: rounds of every candidate left, in random order, each
 * round twice as long as the last, the better half kept, until at most
 * MODEL_TUNE_FINALISTS are left; their indexes into alive (best first),
 * the count. */
static int halve_stage(struct tune *t, unsigned *alive, unsigned n)
{
	unsigned keep[MODEL_TUNE_MAX_CAND], na = n, r, i, rounds = model_tune_halvings(n);
	double fig[MODEL_TUNE_MAX_CAND];
	int rc;

	for (r = 0; r < rounds; r++) {
		/* random order: thermal drift favours no candidate */
		memcpy(keep, alive, na * sizeof(*alive));
		model_tune_shuffle(keep, na, &t->seed);
		for (i = 0; i < na; i++) {
			if (stop_now(t))
				return 0;
			if (t->cand[keep[i]].failed)
				continue;
			rc = measure_cand(t, keep[i], t->w_s * (double)(1u << r), r);
			if (rc)
				return rc;
		}
		for (i = 0; i < na; i++) {
			fig[i] = t->cand[alive[i]].fig;
			t->cand[alive[i]].round_out = r;	/* until kept below */
		}
		rc = model_tune_halve(fig, na, model_tune_higher_better(t->goal), keep);
		if (rc < 0)
			return rc;
		for (i = 0; i < (unsigned)rc; i++)
			keep[i] = alive[keep[i]];
		na = (unsigned)rc;
		memcpy(alive, keep, na * sizeof(*alive));
	}
	for (i = 0; i < na; i++)
		t->cand[alive[i]].round_out = TUNE_SURVIVED;
	return (int)na;
}

static int run_stage(struct tune *t, enum model_tune_stage s)
{
	unsigned first, n, alive[MODEL_TUNE_MAX_CAND], i, k = 0, inc = 0, fin[MODEL_TUNE_FINALISTS];
	struct tune_pair *pp[MODEL_TUNE_FINALISTS];
	struct model_tune_plan p;
	double best_ch = 0;
	int rc = tune_space(t, s), na, pick = -1;

	if (rc < 0)
		return rc;
	first = t->stage_first[s];
	n = t->ncand - first;
	t->stage_first[s + 1] = t->ncand;
	if (n < 2)
		return 0;	/* what is carried in is all there is */
	rc = replan(t, s, &p);
	if (rc == -ENOSPC || (!rc && p.ncand[s] < 2)) {
		t->skipped[s] = true;	/* the budget holds no more of it */
		return 0;
	}
	if (rc)
		return rc;
	for (i = 0; i < n; i++) {
		alive[i] = first + i;
		if (tune_cfg_same(&t->cand[first + i].c, &t->best))
			inc = first + i;
	}
	na = halve_stage(t, alive, n);
	if (na < 0 || stop_now(t))
		return na < 0 ? na : 0;
	/* the finalists other than what was carried in, and that ran */
	for (i = 0; i < (unsigned)na; i++)
		if (alive[i] != inc && !t->cand[alive[i]].failed)
			fin[k++] = alive[i];
	if (!k)
		return 0;
	if (t->cand[inc].failed) {
		t->best = t->cand[fin[0]].c;	/* what was carried cannot run */
		return 0;
	}
	/* a finalist replaces what was carried in only on a paired test:
	 * the halving's one run each ranks, it does not prove */
	for (i = 0; i < k; i++) {
		pp[i] = &t->stage_pair[s][i];
		pp[i]->a = t->best;
		pp[i]->b = t->cand[fin[i]].c;
	}
	t->stage_npairs[s] = k;
	rc = rounds_k(t, pp, k, MODEL_TUNE_STAGE_ROUNDS, 2 * t->w_s);
	for (i = 0; !rc && i < k; i++)
		if (pp[i]->tested && pp[i]->v == MODEL_TUNE_BETTER &&
		    (pick < 0 || pp[i]->ch.change * (model_tune_higher_better(t->goal) ? 1 : -1) >
				 best_ch)) {
			pick = (int)i;
			best_ch = pp[i]->ch.change * (model_tune_higher_better(t->goal) ? 1 : -1);
		}
	if (pick >= 0)
		t->best = t->cand[fin[pick]].c;
	return rc;
}

/* ---- the end: the winner against the default, and each knob ---- */

static int finish(struct tune *t)
{
	struct model_tune_plan p;
	unsigned k;
	int rc;

	if (tune_cfg_same(&t->best, &t->dflt))
		return 0;	/* the default won: nothing to set against it */
	rc = replan(t, MODEL_TUNE_NSTAGES, &p);
	if (rc == -ENOSPC) {
		t->final_skipped = true;
		return 0;
	}
	if (rc)
		return rc;
	t->final.a = t->dflt;
	t->final.b = t->best;
	rc = paired(t, &t->final, MODEL_TUNE_FINAL_ROUNDS, 2 * t->w_s);
	for (k = 0; !rc && p.nknob && k < TUNE_NKNOBS && !stop_now(t); k++) {
		struct tune_knob_row *row;

		if (!tune_knob_differs(&t->best, &t->dflt, (enum tune_knob)k))
			continue;
		row = &t->knob[t->nknob++];
		row->k = (enum tune_knob)k;
		row->p.a = t->best;
		tune_cfg_knob_from(&row->p.a, &t->dflt, (enum tune_knob)k);
		row->p.b = t->best;
		rc = paired(t, &row->p, MODEL_TUNE_KNOB_ROUNDS, 2 * t->w_s);
	}
	return rc;
}

void tune_check_verdict(struct tune *t)
{
	struct model_change c;

	t->check_tested = false;
	if (!t->checked || t->final.rounds < 2 || !isfinite(t->check.fig))
		return;
	if (model_change_of(t->final.fb, t->final.rounds, &t->check.fig, 1, MODEL_AMEAN,
			    1 - t->o->alpha, &c))
		return;
	t->check_tested = true;
	t->check_ch = c;
	t->reproduced = !(c.p < t->o->alpha);
}

int tune_plan_first(struct tune *t)
{
	unsigned ncand[MODEL_TUNE_NSTAGES], s, nk = 0;
	int rc;

	/* the engine stage's refusals are listed with the plan: its
	 * candidates are made from the default, as they will be */
	rc = count_stages(t, 0, ncand);
	if (!rc) {
		t->stage_first[0] = t->ncand;
		rc = tune_space(t, MODEL_TUNE_ENGINE);
		t->ncand = t->stage_first[0];
	}
	if (rc < 0)
		return rc;
	/* the knobs measured at the end are those the search moved: as many
	 * as the stages searched, at a guess */
	for (s = 0; s < MODEL_TUNE_NSTAGES; s++)
		nk += ncand[s] > 1;
	rc = model_tune_plan(left_s(t), (double)t->o->ramp_ns / 1e9, TUNE_OVERHEAD_S, ncand, 0,
			     nk, &t->plan0);
	if (rc == -ENOSPC)
		return rc;
	if (!rc)
		t->w_s = t->plan0.w_s;
	return rc;
}

int tune_search(struct tune *t)
{
	unsigned s;
	int rc = 0;

	t->best = t->dflt;
	for (s = 0; s < MODEL_TUNE_NSTAGES && !rc && !stop_now(t); s++) {
		rc = run_stage(t, (enum model_tune_stage)s);
		if (!rc && !stop_now(t))
			tune_say_stage(t, (enum model_tune_stage)s);
	}
	if (!rc && !stop_now(t))
		rc = finish(t);
	return rc;
}
