/* iostorm tune's search as values (model/tune.h). */
#include "model/tune.h"

#include <errno.h>
#include <math.h>

bool model_tune_higher_better(enum model_tune_goal g)
{
	return g != MODEL_TUNE_LATENCY;
}

unsigned model_tune_rounds(unsigned n)
{
	unsigned r = 0;

	if (!n)
		return 0;
	while ((1u << r) < n)
		r++;
	return r ? r : 1;
}

unsigned model_tune_halvings(unsigned n)
{
	return n > MODEL_TUNE_FINALISTS ? model_tune_rounds(n) - 1 : 0;
}

/* The windows of a stage's halving in units of w, and its runs. */
static void stage_cost(unsigned n, unsigned *runs, double *units)
{
	unsigned r, nr = n;

	*runs = 0;
	*units = 0;
	for (r = 0; r < model_tune_halvings(n); r++) {
		*runs += nr;
		*units += (double)nr * (double)(1u << r);
		nr = (nr + 1) / 2;
	}
}

int model_tune_plan(double budget_s, double ramp_s, double over_s, const unsigned *ncand,
		    unsigned stage_from, unsigned nknob, struct model_tune_plan *p)
{
	struct model_tune_plan q = { .budget_s = budget_s, .stage_from = stage_from,
				     .nknob = nknob };
	double units = 0, u, fixed;
	unsigned s, runs;

	if (!(budget_s >= 0) || !(ramp_s >= 0) || !(over_s >= 0) || !ncand ||
	    stage_from > MODEL_TUNE_NSTAGES)
		return -EINVAL;
	for (s = stage_from; s < MODEL_TUNE_NSTAGES; s++) {
		if (ncand[s] > MODEL_TUNE_MAX_CAND)
			return -EINVAL;
		q.ncand[s] = ncand[s];
		if (ncand[s] < 2)
			continue;	/* what is carried in: nothing to search */
		q.rounds[s] = model_tune_halvings(ncand[s]);
		stage_cost(ncand[s], &runs, &u);
		/* what it carries in and its finalists, a run each a round */
		q.runs += runs + (1 + MODEL_TUNE_FINALISTS) * MODEL_TUNE_STAGE_ROUNDS;
		units += u + 2.0 * (1 + MODEL_TUNE_FINALISTS) * MODEL_TUNE_STAGE_ROUNDS;
	}
	q.runs += 2 * MODEL_TUNE_FINAL_ROUNDS + 2 * MODEL_TUNE_KNOB_ROUNDS * nknob + 1;
	units += 2.0 * (2 * MODEL_TUNE_FINAL_ROUNDS + 2 * MODEL_TUNE_KNOB_ROUNDS * nknob + 1);
	fixed = q.runs * (ramp_s + over_s);
	q.least_budget_s = fixed + units * MODEL_TUNE_MIN_RUN_S;
	if (budget_s < q.least_budget_s) {
		p->least_budget_s = q.least_budget_s;
		return -ENOSPC;
	}
	q.w_s = (budget_s - fixed) / units;
	q.window_s = units * q.w_s;
	q.total_s = fixed + q.window_s;
	*p = q;
	return 0;
}

int model_tune_halve(const double *fig, unsigned n, bool higher_better, unsigned *keep)
{
	unsigned order[MODEL_TUNE_MAX_CAND], i, j, t, k;

	if (!n || n > MODEL_TUNE_MAX_CAND || !fig || !keep)
		return -EINVAL;
	for (i = 0; i < n; i++)
		order[i] = i;
	/* insertion sort, stable: ties keep the lower index first */
	for (i = 1; i < n; i++) {
		t = order[i];
		for (j = i; j > 0; j--) {
			double a = fig[order[j - 1]], b = fig[t];
			bool before;

			if (isnan(b))
				break;
			before = isnan(a) || (higher_better ? b > a : b < a);
			if (!before)
				break;
			order[j] = order[j - 1];
		}
		order[j] = t;
	}
	k = (n + 1) / 2;
	for (i = 0; i < k; i++)
		keep[i] = order[i];
	return (int)k;
}

/* splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom
 * number generators", OOPSLA 2014): one state word, any seed. */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void model_tune_shuffle(unsigned *idx, unsigned n, uint64_t *seed)
{
	unsigned i, j, t;

	for (i = n; i > 1; i--) {
		/* the modulo's bias is below 2^-32 for any n a stage holds */
		j = (unsigned)(next(seed) % i);
		t = idx[i - 1];
		idx[i - 1] = idx[j];
		idx[j] = t;
	}
}

int model_tune_decide(const double *a, const double *b, unsigned n, bool higher_better,
		      double alpha, struct model_change *c, enum model_tune_verdict *v)
{
	struct model_change ch;
	int rc;

	if (!(alpha > 0 && alpha < 1))
		return -EINVAL;
	rc = model_change_paired(a, b, n, MODEL_AMEAN, 1 - alpha, &ch);
	if (rc)
		return rc;
	*c = ch;
	if (!(ch.p < alpha) || ch.change == 0)
		*v = MODEL_TUNE_UNDECIDED;
	else
		*v = (ch.change > 0) == higher_better ? MODEL_TUNE_BETTER : MODEL_TUNE_WORSE;
	return 0;
}

int model_tune_decide_k(const double *a, const double *const *b, unsigned k, unsigned n,
			bool higher_better, double alpha, struct model_change *c,
			enum model_tune_verdict *v)
{
	double p[MODEL_TUNE_FINALISTS], adj[MODEL_TUNE_FINALISTS];
	unsigned order[MODEL_TUNE_FINALISTS], i;
	enum model_tune_verdict w;
	int rc;

	if (!k || k > MODEL_TUNE_FINALISTS)
		return -EINVAL;
	for (i = 0; i < k; i++) {
		rc = model_tune_decide(a, b[i], n, higher_better, alpha, &c[i], &w);
		if (rc)
			return rc;
		p[i] = c[i].p;
	}
	rc = model_p_adjust(p, k, MODEL_HOLM, order, adj);
	if (rc)
		return rc;
	for (i = 0; i < k; i++) {
		if (!(adj[i] < alpha) || c[i].change == 0)
			v[i] = MODEL_TUNE_UNDECIDED;
		else
			v[i] = (c[i].change > 0) == higher_better ? MODEL_TUNE_BETTER :
								    MODEL_TUNE_WORSE;
	}
	return 0;
}

const char *model_tune_goal_name(enum model_tune_goal g)
{
	switch (g) {
	case MODEL_TUNE_IOPS: return "iops";
	case MODEL_TUNE_LATENCY: return "latency";
	case MODEL_TUNE_IOPS_PER_CORE: return "iops-per-core";
	}
	return "?";
}

const char *model_tune_stage_name(enum model_tune_stage s)
{
	switch (s) {
	case MODEL_TUNE_ENGINE: return "engine";
	case MODEL_TUNE_DEPTH: return "depth";
	case MODEL_TUNE_BATCH: return "batch";
	case MODEL_TUNE_PLACE: return "placement";
	case MODEL_TUNE_NSTAGES: break;
	}
	return "?";
}

const char *model_tune_verdict_name(enum model_tune_verdict v)
{
	switch (v) {
	case MODEL_TUNE_BETTER: return "better";
	case MODEL_TUNE_WORSE: return "worse";
	case MODEL_TUNE_UNDECIDED: return "undecided";
	}
	return "?";
}
