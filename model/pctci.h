/* How sure a latency percentile is: its 95% interval, from the IOs a
 * histogram counted (engine/hist.h), and from the run's own batches of
 * intervals. Pure: histograms in, figures out; nothing allocated,
 * measured or printed.
 *
 * Two intervals, and the wider is the one reported (docs/json.md,
 * "Intervals"):
 * - Order statistics. Of n IOs, the rank of the p-th percentile's sample
 *   is binomial(n, p); the ranks r_lo and r_hi that hold it with
 *   probability conf (the exact binomial quantiles, from the regularized
 *   incomplete beta) are read off the histogram's counts, r_lo's bucket
 *   widened to its lower edge, r_hi's to its upper. This holds for IOs
 *   that are independent of each other; a rank beyond n is an unbounded
 *   end.
 * - Batch means. Neighbouring latencies are alike (garbage collection, a
 *   burst, a preempted worker): the order-statistics interval is then too
 *   narrow. So the share of each batch's IOs above the whole run's
 *   percentile is taken as one sample of that share; over B batches (the
 *   run's own intervals, merged into at most MODEL_PCT_BATCHES) their
 *   spread, by Student's t with B - 1 degrees of freedom, gives an
 *   interval of the share, mapped back to latencies through the whole
 *   run's histogram. Where B < MODEL_PCT_MIN_BATCHES there is none, and
 *   the order statistics alone are reported. Batches shorter than the
 *   run's memory are not independent and understate the spread: while
 *   the shares' lag-1 autocorrelation (bias-corrected) is significant,
 *   neighbours are merged pairwise; what is left of it widens the
 *   standard error as for an AR(1) series; and where it is still
 *   significant with fewer than MODEL_PCT_MIN_BATCHES left, the run is
 *   too short to bound the percentile: both ends unbounded
 *   (docs/intervals.md).
 *
 * A percentile with fewer than MODEL_PCT_MIN_BEYOND IOs above it is not a
 * figure to print: the reports give how many IOs it rests on instead. */
#ifndef MODEL_PCTCI_H
#define MODEL_PCTCI_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/hist.h"

#define MODEL_PCT_CONF 0.95	/* every percentile's interval */
#define MODEL_PCT_BATCHES 32	/* batches kept at most (a power of two) */
#define MODEL_PCT_MIN_BATCHES 4	/* fewer: no batch-means interval */
#define MODEL_PCT_MIN_BEYOND 10	/* fewer IOs above it: not a figure */
#define MODEL_PCT_WIDE 0.10	/* text marks an interval wider than
				 * +-10% of its percentile */

/* The percentiles every report gives, in order (the `lat` shape). */
#define MODEL_PCT_N 5
extern const double model_pct_list[MODEL_PCT_N];	/* 50, 90, 99, 99.9, 99.99 */
extern const char *const model_pct_keys[MODEL_PCT_N];	/* "p50", ... "p99.99" */

struct model_pct_ci {
	uint64_t value;		/* eng_hist_percentile's */
	uint64_t ios;		/* IOs it rests on: the histogram's count */
	uint64_t beyond;	/* IOs above its value (from its bucket up) */
	bool has_lo, has_hi;	/* false: that end is unbounded */
	uint64_t lo, hi;	/* ns, where bounded: the wider of the two
				 * intervals at each end */
	bool batched;		/* the batch-means interval was computed (and
				 * is within lo..hi; it may have made both
				 * ends unbounded) */
	bool figure;		/* beyond >= MODEL_PCT_MIN_BEYOND */
	bool wide;		/* an end unbounded, or lo or hi more than
				 * MODEL_PCT_WIDE from value */
};

/* The interval of percentile pct (0 < pct < 100) of all, at conf (0 <
 * conf < 1), where batch[0..nbatch) are disjoint parts of all in time
 * order, each weighed by its IOs (they need not cover all of it)
 * (nbatch < MODEL_PCT_MIN_BATCHES, or batch NULL: order statistics
 * alone). -EINVAL for a bad pct or conf, -ENODATA when all is empty,
 * -ERANGE for 2^53 IOs or more. Writes ci only on success. */
int model_pct_ci(const struct eng_hist *all, const struct eng_hist *batch, unsigned nbatch,
		 double pct, double conf, struct model_pct_ci *ci);

/* Ranks of the order-statistics interval alone: with n samples, the
 * 1-based ranks lo..hi that hold the pct-th percentile's sample with
 * probability at least conf; *lo is 0 and *hi is n + 1 where an end is
 * unbounded. -EINVAL as model_pct_ci, or n == 0; -ERANGE for n >= 2^53. */
int model_pct_ranks(uint64_t n, double pct, double conf, uint64_t *lo, uint64_t *hi);

/* The run's batches: the intervals' histograms as they come, merged into
 * at most MODEL_PCT_BATCHES batches of `per` intervals each; when all are
 * full, neighbours are merged pairwise and per doubles, so that every
 * batch but the last holds the same number of intervals. The caller owns
 * h[MODEL_PCT_BATCHES] (reset by model_pct_batches_init). */
struct model_pct_batches {
	struct eng_hist *h;	/* MODEL_PCT_BATCHES */
	unsigned n;		/* batches in use; the last may be partly full */
	unsigned per;		/* intervals a full batch holds */
	unsigned in_last;	/* intervals in the last batch */
};

void model_pct_batches_init(struct model_pct_batches *b, struct eng_hist *h);
/* One interval's histogram, added in time order. */
void model_pct_batches_add(struct model_pct_batches *b, const struct eng_hist *iv);
/* The batches to hand model_pct_ci: the full ones, and the last where it
 * holds at least half a batch (a short tail batch would weigh as much as a
 * full one in the spread; its IOs are still in `all`). */
unsigned model_pct_batches_usable(const struct model_pct_batches *b);

#endif
