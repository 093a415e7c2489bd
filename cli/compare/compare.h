/* One comparison: a side (one or more reports, each a run of one setup)
 * against the base's runs, row by row and metric by metric: each side's
 * figure, the change, its confidence interval and its test on one
 * estimator (model/stats.h), the run-to-run noise beside it; then, over
 * every test of the command, the Benjamini-Hochberg marks and the Holm
 * gate. The arithmetic only; cmp_out.c shows it. */
#ifndef CLI_COMPARE_H
#define CLI_COMPARE_H

#include <stdbool.h>

#include "cli/compare/rows.h"
#include "cli/compare/setup_diff.h"
#include "model/stats.h"

/* The reports of one setup: its runs. */
struct cmp_group {
	const char *const *file;	/* inside argv */
	const char *cmd;		/* the first report's command */
	unsigned n;
	struct cmp_rows *rows;		/* one per report; owned */
};

/* What a metric's samples are: one figure per run (the run's repeats
 * summed up), or, with one run on each side, that run's repeats. */
enum cmp_level { CMP_RUNS, CMP_REPEATS };

/* How the reports bounded their repeats, which decides each metric's
 * estimator (docs/compare.md). */
struct cmp_bound {
	bool by_ios;		/* --ios: equal IOs per repeat; else equal time */
	bool open_loop;		/* --rate: the IOs per repeat are held */
};

/* "equal time", "equal IOs (--ios)", ... */
const char *cmp_bound_name(struct cmp_bound b);
/* The estimator that pools metric m (enum cli_metric) over repeats and
 * runs bounded as b says: cli_mean_of's (cli/report/spread.h). */
enum model_mean cmp_mean_of(unsigned m, struct cmp_bound b);

/* One side of one metric. */
struct cmp_sum {
	unsigned n;		/* samples */
	struct model_spread s;	/* of the samples */
	double center;		/* their mean of the metric's kind */
	double ci_lo, ci_hi;	/* the center's interval; NAN with one sample */
	/* one run with no repeats, a percentile: its own 95% interval within
	 * that run (the report's, docs/intervals.md); NAN: none, or that end
	 * unbounded. It says how sure the one figure is, not how far the
	 * next run may drift */
	double pct_lo, pct_hi;
	bool has_pct_ci;
};

struct cmp_metric {
	bool have;		/* both sides have it */
	/* a side's part of the CPU time's split below its tick (rows.h):
	 * the most it can be per IO, ns (0 not known); < 0: not below. Such
	 * a side has no figure: the metric is shown, not changed or tested */
	double below_base, below_next;
	enum cmp_level level;
	enum model_mean mean;
	struct cmp_sum base, next;
	double change_pct;	/* of next's center against base's */
	bool tested;		/* a spread to test against (two samples on a
				 * side at least) */
	struct model_change c;
	double ci_lo_pct, ci_hi_pct;	/* c's interval, % */
	double noise_pct;	/* c.noise in %: one sample's spread */
	double q;		/* Benjamini-Hochberg's adjusted p (NAN untested) */
	double p_holm;		/* Holm's adjusted p (NAN untested) */
	bool significant;	/* q < alpha: marked */
	bool worse;		/* the change is in the bad direction */
	bool gate;		/* p_holm < alpha, worse by more than
				 * --fail-worse, and measured across runs (or
				 * --trust-repeats) */
};

struct cmp_line {
	const char *key;	/* inside a report's rows */
	struct cmp_metric m[CLI_NMETRICS];
};

struct cmp_side {
	struct cmp_group g;		/* this side's runs */
	struct cmp_line *lines;		/* the rows both have, base's order */
	unsigned nlines;
	const char **only_base, **only_next;	/* keys inside the rows */
	unsigned nonly_base, nonly_next;
	struct cmp_changes changes;	/* the base's first run against its first */
	bool untested;			/* a metric had one value on each side */
	bool within_run;		/* a metric was tested on one run's repeats */
	bool gate;			/* some metric's gate */
};

/* The whole family of tests of one compare command. */
struct cmp_family {
	unsigned tests;			/* tested metrics, every side's */
	unsigned marked;		/* q < alpha */
	unsigned gated;			/* the gate met */
};

/* A group's union of row keys, in first-seen order, into keys (room for
 * every row of every report); returns how many. */
unsigned cmp_group_keys(const struct cmp_group *g, const char **keys);
/* s's rows (already in s->g) against base's at confidence 1 - alpha;
 * paired: run k of each side was measured in round k (--ab), so a metric
 * every round has is tested on the rounds' differences. The marks and the
 * gate wait for cmp_family_adjust. 0 or -ENOMEM. */
int cmp_side_build(struct cmp_side *s, const struct cmp_group *base, struct cmp_bound bound,
		   double alpha, bool paired);
/* Holm and Benjamini-Hochberg over every tested metric of every side:
 * each metric's q, p_holm, significant and gate, each side's gate, and
 * the family's counts. fail_pct < 0: no gate; trust_repeats: the gate may
 * fail on tests of one run's repeats. 0 or -ENOMEM. */
int cmp_family_adjust(struct cmp_side *side, unsigned nside, double alpha, double fail_pct,
		      bool trust_repeats, struct cmp_family *f);
void cmp_side_free(struct cmp_side *s);
void cmp_group_free(struct cmp_group *g);

#endif
