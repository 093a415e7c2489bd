/* Log-linear latency histogram: everything but the hot-path add, which is
 * inline in hist.h. */
#include "engine/hist.h"

#include <math.h>
#include <string.h>

void eng_hist_reset(struct eng_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

void eng_hist_merge(struct eng_hist *dst, const struct eng_hist *src)
{
	unsigned i;

	if (!src->count)
		return;
	for (i = 0; i < ENG_HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	dst->sumsq += src->sumsq;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

/* min and max of an interval are not differences of running extremes: they
 * come from the lowest and highest bucket that gained samples (so within a
 * bucket's width, like every percentile), clamped by the running ones. */
void eng_hist_diff(struct eng_hist *d, const struct eng_hist *now,
		   const struct eng_hist *before)
{
	uint64_t lo, hi;
	unsigned i, first = ENG_HIST_BUCKETS, last = 0;

	eng_hist_reset(d);
	for (i = 0; i < ENG_HIST_BUCKETS; i++) {
		d->b[i] = now->b[i] - before->b[i];
		if (d->b[i]) {
			first = first < i ? first : i;
			last = i;
		}
	}
	if (first == ENG_HIST_BUCKETS)
		return;
	d->count = now->count - before->count;
	d->sum_ns = now->sum_ns - before->sum_ns;
	d->sumsq = now->sumsq - before->sumsq;
	eng_hist_bounds(first, &lo, &hi);
	d->min_ns = lo > now->min_ns ? lo : now->min_ns;
	eng_hist_bounds(last, &lo, &hi);
	d->max_ns = hi < now->max_ns ? hi : now->max_ns;
}

/* The reference for the inline eng_hist_index(): same mapping, found by
 * walking the powers of two instead of counting leading zeros. */
unsigned eng_hist_index_slow(uint64_t ns)
{
	unsigned e = ENG_HIST_SUB_BITS;
	uint64_t width;

	if (ns < ENG_HIST_SUB)
		return (unsigned)ns;
	while (e < 63 && ns >= (1ull << (e + 1)))
		e++;
	if (e > ENG_HIST_MAX_EXP)
		return ENG_HIST_BUCKETS - 1;
	/* group e covers [2^e, 2^(e+1)) in ENG_HIST_SUB steps of width */
	width = 1ull << (e - ENG_HIST_SUB_BITS);
	return ENG_HIST_SUB * (e - ENG_HIST_SUB_BITS + 1) +
	       (unsigned)((ns - (1ull << e)) / width);
}

/* The last bucket also takes every value beyond 2^(MAX_EXP+1), so its upper
 * bound is UINT64_MAX. */
void eng_hist_bounds(unsigned idx, uint64_t *lo, uint64_t *hi)
{
	unsigned grp, sub, shift;

	if (idx < ENG_HIST_SUB) {
		*lo = *hi = idx;
		return;
	}
	if (idx >= ENG_HIST_BUCKETS)
		idx = ENG_HIST_BUCKETS - 1;
	grp = idx / ENG_HIST_SUB;
	sub = idx % ENG_HIST_SUB;
	shift = grp - 1;	/* width of a bucket in group grp is 2^shift */
	*lo = ((uint64_t)ENG_HIST_SUB + sub) << shift;
	*hi = *lo + (1ull << shift) - 1;
	if (idx == ENG_HIST_BUCKETS - 1)
		*hi = UINT64_MAX;
}

static uint64_t clamp_u64(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

uint64_t eng_hist_percentile(const struct eng_hist *h, double pct)
{
	uint64_t rank, seen = 0, lo, hi;
	double want;
	unsigned i;

	if (!h->count)
		return 0;
	if (!(pct > 0.0))	/* also catches NaN */
		return h->min_ns;
	if (pct >= 100.0)
		return h->max_ns;
	/* The relative slack keeps 99.9% of 1000 samples at rank 999 rather
	 * than 1000 when pct / 100 * count rounds up to 999.0000000000001. */
	want = ceil(pct / 100.0 * (double)h->count * (1.0 - 1e-12));
	rank = want < 1.0 ? 1 : (uint64_t)want;
	if (rank > h->count)
		rank = h->count;
	for (i = 0; i < ENG_HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank)
			break;
	}
	if (i == ENG_HIST_BUCKETS)	/* buckets disagree with count */
		return h->max_ns;
	eng_hist_bounds(i, &lo, &hi);
	return clamp_u64(lo + (hi - lo) / 2, h->min_ns, h->max_ns);
}

double eng_hist_mean(const struct eng_hist *h)
{
	if (!h->count)
		return 0.0;
	return (double)h->sum_ns / (double)h->count;
}

double eng_hist_stddev(const struct eng_hist *h)
{
	double mean, var;

	if (h->count < 2)
		return 0.0;
	mean = eng_hist_mean(h);
	var = h->sumsq / (double)h->count - mean * mean;
	/* E[x^2] - mean^2 cancels badly when stddev << mean and can dip
	 * below zero by rounding */
	return var > 0.0 ? sqrt(var) : 0.0;
}

uint64_t eng_hist_count_from(const struct eng_hist *h, uint64_t ns)
{
	unsigned i;
	uint64_t n = 0;

	for (i = eng_hist_index(ns); i < ENG_HIST_BUCKETS; i++)
		n += h->b[i];
	return n;
}
