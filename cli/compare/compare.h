/* One comparison: a report against the base, row by row and metric by
 * metric: each side's summary over its repeats, the change, its
 * confidence interval and Welch's t-test (model/stats.h). The arithmetic
 * only; cmp_out.c shows it. */
#ifndef CLI_COMPARE_H
#define CLI_COMPARE_H

#include <stdbool.h>

#include "cli/compare/rows.h"
#include "cli/compare/setup_diff.h"
#include "model/stats.h"

/* One side of one metric. */
struct cmp_sum {
	unsigned n;
	struct model_spread s;
	double center;		/* Hmean for a rate, Amean for a time */
	double ci_lo, ci_hi;	/* the confidence interval of its Amean;
				 * NAN with one repeat */
};

struct cmp_metric {
	bool have;		/* both sides have it */
	struct cmp_sum base, next;
	double change_pct;	/* of next's center against base's */
	bool tested;		/* both sides have two repeats or more */
	struct model_welch w;
	double ci_lo_pct, ci_hi_pct;	/* w's interval, % of base's Amean */
	bool significant;	/* tested and p < alpha */
	bool worse;		/* the change is in the bad direction */
	bool gate;		/* significant, worse, and by more than
				 * --fail-worse */
};

struct cmp_line {
	const struct cmp_row *base, *next;
	struct cmp_metric m[CLI_NMETRICS];
};

struct cmp_side {
	const char *file;
	struct cmp_rows rows;
	struct cmp_line *lines;		/* the rows both have, base's order */
	unsigned nlines;
	const char **only_base, **only_next;	/* keys inside the rows */
	unsigned nonly_base, nonly_next;
	struct cmp_changes changes;
	bool untested;			/* a row had one repeat on a side */
	bool gate;			/* some metric's gate */
};

/* next's rows (already in s->rows) against base's, at significance alpha
 * and confidence 1 - alpha; fail_pct < 0: no gate. 0 or -ENOMEM. */
int cmp_side_build(struct cmp_side *s, const struct cmp_rows *base, double alpha,
		   double fail_pct);
void cmp_side_free(struct cmp_side *s);

#endif
