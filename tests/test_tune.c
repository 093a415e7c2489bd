/* tune's search as values (model/tune.h): the plan fills the budget and no
 * more, refuses one too small with the least that fits; the halving keeps
 * the better half, best first, failures last; the shuffle is a
 * permutation that moves things; the paired decision says better, worse
 * or undecided as the test does, whichever way is better. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "model/tune.h"
#include "tests/helpers.h"

static void plan(void)
{
	unsigned n[MODEL_TUNE_NSTAGES] = { 4, 12, 1, 4 };
	struct model_tune_plan p, q;

	CHECK(model_tune_halvings(2) == 0 && model_tune_halvings(3) == 1 &&
	      model_tune_halvings(4) == 1 && model_tune_halvings(12) == 3 &&
	      model_tune_halvings(1) == 0);
	CHECK(model_tune_rounds(0) == 0 && model_tune_rounds(1) == 1 &&
	      model_tune_rounds(2) == 1 && model_tune_rounds(3) == 2 &&
	      model_tune_rounds(4) == 2 && model_tune_rounds(12) == 4);
	CHECK(model_tune_plan(300, 0.5, 0.25, n, 0, 2, &p) == 0);
	/* the budget is what the plan costs, ramps and overheads included */
	CHECKF(fabs(p.total_s - 300) < 1e-6, "%f", p.total_s);
	CHECK(p.w_s >= MODEL_TUNE_MIN_RUN_S);
	/* runs: engine 4 + 12 decided (what it carried and 2 finalists, 4
	 * rounds), depth 12+6+3 + 12, placement 4 + 12, final 8, knobs 2 x 6,
	 * the check 1 */
	CHECKF(p.runs == 16 + 33 + 16 + 8 + 12 + 1, "%u", p.runs);
	/* units: engine 4 +24, depth 12+12+12 +24, placement 4 +24, final
	 * 16, knobs 24, check 2 */
	CHECKF(fabs(p.window_s / p.w_s - (28 + 60 + 28 + 16 + 24 + 2)) < 1e-9, "%f",
	       p.window_s / p.w_s);
	CHECK(fabs(p.total_s - (p.window_s + p.runs * 0.75)) < 1e-6);
	/* too small: refused, with the least budget that fits */
	memset(&q, 0, sizeof(q));
	CHECK(model_tune_plan(60, 0.5, 0.25, n, 0, 2, &q) == -ENOSPC);
	CHECK(q.least_budget_s > 60 && q.w_s == 0);
	CHECK(model_tune_plan(q.least_budget_s, 0.5, 0.25, n, 0, 2, &p) == 0);
	CHECK(fabs(p.w_s - MODEL_TUNE_MIN_RUN_S) < 1e-9);
	/* later: only what is left */
	CHECK(model_tune_plan(100, 0.5, 0.25, n, 3, 0, &p) == 0 && p.runs == 16 + 8 + 1);
	n[1] = MODEL_TUNE_MAX_CAND + 1;
	CHECK(model_tune_plan(300, 0.5, 0.25, n, 0, 2, &p) == -EINVAL);
	CHECK(model_tune_plan(NAN, 0.5, 0.25, n, 3, 0, &p) == -EINVAL);
}

static void halve(void)
{
	double f[5] = { 10, 30, NAN, 30, 20 };
	unsigned k[MODEL_TUNE_MAX_CAND];

	CHECK(model_tune_halve(f, 5, true, k) == 3);
	CHECK(k[0] == 1 && k[1] == 3 && k[2] == 4);	/* ties: lower index first */
	CHECK(model_tune_halve(f, 5, false, k) == 3);
	CHECK(k[0] == 0 && k[1] == 4 && k[2] == 1);	/* NAN last either way */
	CHECK(model_tune_halve(f, 2, true, k) == 1 && k[0] == 1);
	CHECK(model_tune_halve(f, 1, true, k) == 1 && k[0] == 0);
	CHECK(model_tune_halve(f, 0, true, k) == -EINVAL);
	f[0] = f[1] = NAN;
	CHECK(model_tune_halve(f, 2, true, k) == 1 && k[0] == 0);
}

static void shuffle(void)
{
	unsigned idx[16], seen[16], i, moved = 0, same = 0;
	uint64_t s = 1, s2 = 1;

	for (i = 0; i < 16; i++)
		idx[i] = i;
	model_tune_shuffle(idx, 16, &s);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < 16; i++) {
		CHECK(idx[i] < 16);
		if (idx[i] < 16)
			seen[idx[i]]++;
		moved += idx[i] != i;
	}
	for (i = 0; i < 16; i++)
		CHECK(seen[i] == 1);
	CHECK(moved > 8);
	CHECK(s != 1);		/* the state moved on */
	/* the same seed, the same order: a run's order is stated by its seed */
	for (i = 0; i < 16; i++)
		seen[i] = i;
	model_tune_shuffle(seen, 16, &s2);
	for (i = 0; i < 16; i++)
		same += seen[i] == idx[i];
	CHECK(same == 16);
}

static void decide(void)
{
	double a[4] = { 100, 102, 98, 101 }, b[4] = { 130, 131, 128, 133 };
	double c[4] = { 101, 100, 99, 102 };
	struct model_change ch;
	enum model_tune_verdict v;

	CHECK(!model_tune_decide(a, b, 4, true, 0.05, &ch, &v) && v == MODEL_TUNE_BETTER);
	CHECK(ch.change > 0.25 && ch.ci_lo > 0);
	CHECK(!model_tune_decide(a, b, 4, false, 0.05, &ch, &v) && v == MODEL_TUNE_WORSE);
	CHECK(!model_tune_decide(b, a, 4, false, 0.05, &ch, &v) && v == MODEL_TUNE_BETTER);
	CHECK(!model_tune_decide(a, c, 4, true, 0.05, &ch, &v) && v == MODEL_TUNE_UNDECIDED);
	/* two finalists: Holm over both; one better, one within the noise */
	{
		const double *two[2] = { c, b };
		struct model_change c2[2];
		enum model_tune_verdict v2[2];
		double b2[4] = { 104, 106, 101, 105 };	/* p about 0.01 alone */

		CHECK(!model_tune_decide_k(a, two, 2, 4, true, 0.05, c2, v2));
		CHECK(v2[0] == MODEL_TUNE_UNDECIDED && v2[1] == MODEL_TUNE_BETTER);
		/* alone b2 is better at 0.05; beside a test of p near 1 Holm
		 * still keeps it (the smaller p against alpha / 2) */
		two[1] = b2;
		CHECK(!model_tune_decide(a, b2, 4, true, 0.05, &ch, &v) && v == MODEL_TUNE_BETTER);
		CHECK(!model_tune_decide_k(a, two, 2, 4, true, 0.05, c2, v2));
		CHECKF((c2[1].p < 0.025) == (v2[1] == MODEL_TUNE_BETTER), "p %g", c2[1].p);
		CHECK(model_tune_decide_k(a, two, 3, 4, true, 0.05, c2, v2) == -EINVAL);
	}
	CHECK(model_tune_decide(a, b, 1, true, 0.05, &ch, &v) == -EINVAL);
	CHECK(model_tune_decide(a, b, 4, true, 0, &ch, &v) == -EINVAL);
	CHECK(!strcmp(model_tune_goal_name(MODEL_TUNE_IOPS_PER_CORE), "iops-per-core"));
	CHECK(!model_tune_higher_better(MODEL_TUNE_LATENCY) &&
	      model_tune_higher_better(MODEL_TUNE_IOPS));
}

int main(void)
{
	plan();
	halve();
	shuffle();
	decide();
	return t_result();
}
