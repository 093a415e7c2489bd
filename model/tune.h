/* iostorm tune's search as values (docs/tune.md): the plan that fits a
 * time budget, the halving of a stage's candidates, the random order of
 * runs, and the decision between two configurations measured in paired
 * rounds. Pure: figures in, figures out; cli/tune runs and says. Every
 * call returns 0 or -errno and writes its out-parameters only on success. */
#ifndef MODEL_TUNE_H
#define MODEL_TUNE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/stats.h"

enum model_tune_goal {
	MODEL_TUNE_IOPS,		/* all targets at once, higher better */
	MODEL_TUNE_LATENCY,		/* QD1 p99, lower better */
	MODEL_TUNE_IOPS_PER_CORE,	/* IOs per CPU-second, every CPU the
					 * IO costs counted, higher better */
};

bool model_tune_higher_better(enum model_tune_goal g);

/* The stages, searched in this order, each carrying its winner on
 * (docs/tune.md says why this order). */
enum model_tune_stage {
	MODEL_TUNE_ENGINE,		/* engine and completion */
	MODEL_TUNE_DEPTH,		/* jobs per device and queue depth */
	MODEL_TUNE_BATCH,		/* batch and reap */
	MODEL_TUNE_PLACE,		/* placement, CPUs, SMT, group */
	MODEL_TUNE_NSTAGES
};

#define MODEL_TUNE_MAX_CAND 24		/* candidates in one stage */
#define MODEL_TUNE_MAX_ROUNDS 5		/* halving rounds: ceil(log2 24) */
/* A run's measured window at least: five intervals of 100 ms (the
 * shortest --interval), so that its IOPS has a batch-means interval. */
#define MODEL_TUNE_MIN_RUN_S 0.5
/* Paired rounds (one run of each, the order alternating) that decide
 * whether a stage's best replaces the configuration it carried in, the
 * winner against the default, and each knob's worth. Fixed: the test is
 * read once, at the end, never as soon as it turns significant (which
 * would inflate false wins). */
#define MODEL_TUNE_STAGE_ROUNDS 4
#define MODEL_TUNE_FINAL_ROUNDS 4
#define MODEL_TUNE_KNOB_ROUNDS 3

/* What the budget buys. The search's run lengths are a unit w times a
 * power of two: round r of a stage runs each of its n_r candidates for
 * w 2^r (n_0 the stage's candidates, n_{r+1} = ceil(n_r / 2), for
 * model_tune_halvings rounds), so each round of a stage costs about the
 * same. A stage's decision runs what it carried in and its finalists
 * (MODEL_TUNE_FINALISTS at most) once a round; those runs, the final's,
 * the knobs' and the check of the written job file take 2w each. Every run
 * costs ramp_s + over_s on top of its window. */
struct model_tune_plan {
	double budget_s;		/* what is left to plan */
	double w_s;			/* the unit: the shortest run's window */
	unsigned stage_from;		/* the first stage planned */
	unsigned ncand[MODEL_TUNE_NSTAGES];
	unsigned rounds[MODEL_TUNE_NSTAGES];	/* halving rounds */
	unsigned nknob;			/* knobs whose worth is measured */
	unsigned runs;			/* runs in the plan */
	double window_s;		/* their windows summed */
	double total_s;			/* and what they cost, ramps and
					 * overheads included */
	double least_budget_s;		/* the least budget that gives
					 * MODEL_TUNE_MIN_RUN_S (set on
					 * -ENOSPC too) */
};

/* Plans stages stage_from.. (ncand[s] candidates each, 0 for a stage
 * with nothing to search), a decision per stage, the final, nknob knobs
 * and the job file's check, into budget_s. -EINVAL for a bad argument,
 * -ENOSPC (p->least_budget_s set, nothing else) when the unit would be
 * under MODEL_TUNE_MIN_RUN_S. */
int model_tune_plan(double budget_s, double ramp_s, double over_s, const unsigned *ncand,
		    unsigned stage_from, unsigned nknob, struct model_tune_plan *p);

/* Halving rounds for n candidates: ceil(log2 n), 1 for n <= 2, 0 for 0. */
unsigned model_tune_rounds(unsigned n);
/* The rounds a stage halves for: until at most MODEL_TUNE_FINALISTS are
 * left (ceil(log2 n) - 1 for n > 2; 0 for n <= 2). */
unsigned model_tune_halvings(unsigned n);
/* A stage's last few, each set against what the stage carried in, in the
 * same rounds: one slip in a short halving run then costs no stage its
 * better candidate. */
#define MODEL_TUNE_FINALISTS 2

/* The better half of n candidates by their figures fig[] (NAN: failed,
 * last): ceil(n / 2) indexes into keep, best first, ties to the lower
 * index. Returns the count. -EINVAL when n is 0 or over
 * MODEL_TUNE_MAX_CAND. */
int model_tune_halve(const double *fig, unsigned n, bool higher_better, unsigned *keep);

/* idx[0..n) shuffled (Fisher-Yates) by the generator state *seed
 * (splitmix64), which it advances: the runs' random order. */
void model_tune_shuffle(unsigned *idx, unsigned n, uint64_t *seed);

/* b (a challenger) against a (what is carried), n paired rounds: the
 * paired t-test (model_change_paired, the Amean: fixed-time runs), at
 * confidence 1 - alpha. */
enum model_tune_verdict {
	MODEL_TUNE_BETTER,		/* b is better, p < alpha */
	MODEL_TUNE_WORSE,		/* b is worse, p < alpha */
	MODEL_TUNE_UNDECIDED,		/* neither: within the noise */
};
int model_tune_decide(const double *a, const double *b, unsigned n, bool higher_better,
		      double alpha, struct model_change *c, enum model_tune_verdict *v);
/* k challengers b[0..k) against the same a, n rounds each, as
 * model_tune_decide with Holm's correction over the k tests (a stage's
 * finalists: the family's error stays alpha). c[] and v[] get k each. */
int model_tune_decide_k(const double *a, const double *const *b, unsigned k, unsigned n,
			bool higher_better, double alpha, struct model_change *c,
			enum model_tune_verdict *v);

const char *model_tune_goal_name(enum model_tune_goal g);
const char *model_tune_stage_name(enum model_tune_stage s);
const char *model_tune_verdict_name(enum model_tune_verdict v);

#endif
