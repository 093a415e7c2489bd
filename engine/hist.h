/* Log-linear latency histogram: exact below 2^SUB_BITS ns, then 2^SUB_BITS
 * linear buckets per power of two, so every bucket is narrower than 1% of
 * its lower bound. Covers 1 ns to 2^(MAX_EXP+1) ns (~2.4 h); larger values
 * land in the last bucket and are still exact in max. One per worker, merged after
 * the run. */
#ifndef ENG_HIST_H
#define ENG_HIST_H

#include <stdint.h>

#define ENG_HIST_SUB_BITS 7
#define ENG_HIST_SUB (1u << ENG_HIST_SUB_BITS)
#define ENG_HIST_MAX_EXP 42
#define ENG_HIST_BUCKETS (ENG_HIST_SUB * (ENG_HIST_MAX_EXP - ENG_HIST_SUB_BITS + 2))

struct eng_hist {
	uint64_t count;
	uint64_t sum_ns;
	double sumsq;		/* for the standard deviation */
	uint64_t min_ns;
	uint64_t max_ns;
	uint64_t b[ENG_HIST_BUCKETS];
};

void eng_hist_reset(struct eng_hist *h);
void eng_hist_merge(struct eng_hist *dst, const struct eng_hist *src);
/* d = now - before, for two snapshots of one histogram (before taken
 * first): the samples added in between. */
void eng_hist_diff(struct eng_hist *d, const struct eng_hist *now,
		   const struct eng_hist *before);
/* pct in [0, 100]; returns the value (ns) below which pct of samples lie,
 * reported as the middle of its bucket and clamped to [min, max]; 0 when
 * empty. */
uint64_t eng_hist_percentile(const struct eng_hist *h, double pct);
double eng_hist_mean(const struct eng_hist *h);
/* Samples in ns's bucket and above: those above ns, give or take the
 * bucket's width (under 1% of ns). */
uint64_t eng_hist_count_from(const struct eng_hist *h, uint64_t ns);
double eng_hist_stddev(const struct eng_hist *h);
/* Bucket index of a value and the bounds [lo, hi] of a bucket. */
unsigned eng_hist_index_slow(uint64_t ns);
void eng_hist_bounds(unsigned idx, uint64_t *lo, uint64_t *hi);

static inline unsigned eng_hist_index(uint64_t ns)
{
	unsigned e, idx;

	if (ns < ENG_HIST_SUB)
		return (unsigned)ns;
	e = 63u - (unsigned)__builtin_clzll(ns);
	if (e > ENG_HIST_MAX_EXP)
		return ENG_HIST_BUCKETS - 1;
	idx = ENG_HIST_SUB * (e - ENG_HIST_SUB_BITS + 1) +
	      (unsigned)((ns >> (e - ENG_HIST_SUB_BITS)) - ENG_HIST_SUB);
	return idx;
}

/* The bucket of ns (eng_hist_index) and the values it holds, lo to
 * lo + span; the last bucket's up to INT64_MAX, the longest interval a
 * caller keeps after clamping wrapped ones to 0. For a caller that adds
 * a run of nearby values a bucket at a time (engine/uring_loop_int.h). */
static inline unsigned eng_hist_bucket(uint64_t ns, uint64_t *lo, uint64_t *span)
{
	unsigned idx = eng_hist_index(ns), shift;

	if (ns < ENG_HIST_SUB) {
		*lo = ns;
		*span = 0;
	} else if (idx == ENG_HIST_BUCKETS - 1) {
		*lo = (2ull * ENG_HIST_SUB - 1) << (ENG_HIST_MAX_EXP - ENG_HIST_SUB_BITS);
		*span = (uint64_t)INT64_MAX - *lo;
	} else {
		shift = 63u - (unsigned)__builtin_clzll(ns) - ENG_HIST_SUB_BITS;
		*lo = ns >> shift << shift;
		*span = (1ull << shift) - 1;
	}
	return idx;
}

/* n samples of the same value: what eng_hist_add n times would record
 * (sumsq up to rounding). */
static inline void eng_hist_add_n(struct eng_hist *h, uint64_t ns, uint64_t n)
{
	h->b[eng_hist_index(ns)] += n;
	h->count += n;
	h->sum_ns += ns * n;
	h->sumsq += (double)ns * (double)ns * (double)n;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

static inline void eng_hist_add(struct eng_hist *h, uint64_t ns)
{
	h->b[eng_hist_index(ns)]++;
	h->count++;
	h->sum_ns += ns;
	h->sumsq += (double)ns * (double)ns;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

#endif
