/* Latency histogram: percentiles within 1% of the exact order statistic,
 * index/bounds consistent, merge, mean and stddev. */
#include "engine/hist.h"
#include "tests/helpers.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#define NSAMP 200000

static uint64_t sm_state = 12345;

static uint64_t rnd(void)
{
	uint64_t z = (sm_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in [0, 1) */
static double rnd01(void)
{
	return (double)(rnd() >> 11) / 9007199254740992.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The order statistic the histogram promises to approximate. */
static uint64_t exact_pct(const uint64_t *sorted, size_t n, double pct)
{
	double want;
	size_t rank;

	if (pct <= 0.0)
		return sorted[0];
	if (pct >= 100.0)
		return sorted[n - 1];
	want = ceil(pct / 100.0 * (double)n * (1.0 - 1e-12));
	rank = want < 1.0 ? 1 : (size_t)want;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

static const double pcts[] = {
	0, 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 99.999, 100
};

static struct eng_hist h, parts[3], merged;
static uint64_t v[NSAMP];

static void check_dist(const char *name, size_t n)
{
	long double sum = 0, mean, var = 0;
	uint64_t usum = 0;
	size_t i, k;

	eng_hist_reset(&h);
	for (i = 0; i < n; i++) {
		eng_hist_add(&h, v[i]);
		usum += v[i];
		sum += v[i];
	}
	mean = sum / n;
	for (i = 0; i < n; i++)
		var += ((long double)v[i] - mean) * ((long double)v[i] - mean);
	var /= n;
	qsort(v, n, sizeof(v[0]), cmp_u64);

	CHECKF(h.count == n, "%s: count %" PRIu64, name, h.count);
	CHECKF(h.min_ns == v[0], "%s: min %" PRIu64 " want %" PRIu64,
	       name, h.min_ns, v[0]);
	CHECKF(h.max_ns == v[n - 1], "%s: max %" PRIu64 " want %" PRIu64,
	       name, h.max_ns, v[n - 1]);
	CHECKF(eng_hist_mean(&h) == (double)usum / (double)n,
	       "%s: mean %.6f want %.6f", name, eng_hist_mean(&h),
	       (double)usum / (double)n);
	/* E[x^2] - mean^2 leaves rounding noise of about mean * 1e-8 */
	CHECKF(fabs(eng_hist_stddev(&h) - (double)sqrtl(var)) <=
	       1e-6 * (double)(sqrtl(var) + mean),
	       "%s: stddev %.6f want %.6f", name, eng_hist_stddev(&h),
	       (double)sqrtl(var));
	for (k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		uint64_t got = eng_hist_percentile(&h, pcts[k]);
		uint64_t want = exact_pct(v, n, pcts[k]);
		double err = fabs((double)got - (double)want);

		CHECKF(err <= 0.01 * (double)want,
		       "%s: p%g = %" PRIu64 ", exact %" PRIu64, name,
		       pcts[k], got, want);
	}
}

static void test_distributions(void)
{
	size_t i;

	for (i = 0; i < NSAMP; i++)	/* uniform 10 us .. 2 ms */
		v[i] = 10000 + rnd() % 1990000;
	check_dist("uniform", NSAMP);

	for (i = 0; i < NSAMP; i++)	/* exponential, mean 80 us */
		v[i] = 1000 + (uint64_t)(-80000.0 * log(1.0 - rnd01()));
	check_dist("exponential", NSAMP);

	for (i = 0; i < NSAMP; i++)	/* 90% near 20 us, 10% near 5 ms */
		v[i] = (rnd() % 10 ? 20000 : 5000000) + rnd() % 3000;
	check_dist("bimodal", NSAMP);

	for (i = 0; i < 1000; i++)
		v[i] = 123457;
	check_dist("single value", 1000);

	v[0] = 77;
	check_dist("one sample", 1);

	for (i = 0; i < NSAMP; i++)	/* 10 s .. 100 s */
		v[i] = 10000000000ull + rnd() % 90000000000ull;
	check_dist("huge", NSAMP);

	for (i = 0; i < NSAMP; i++)	/* exact region, 0 included */
		v[i] = rnd() % 128;
	check_dist("below 128", NSAMP);

	for (i = 0; i < NSAMP; i++)	/* spanning 1 ns .. 1 s */
		v[i] = (uint64_t)exp(rnd01() * log(1e9));
	check_dist("log-uniform", NSAMP);

	for (i = 0; i < 10; i++)	/* beyond the last bucket */
		v[i] = (1ull << 50) + i;
	check_dist("overflow", 10);
}

static void test_empty(void)
{
	eng_hist_reset(&h);
	CHECK(h.count == 0 && h.min_ns == UINT64_MAX && h.max_ns == 0);
	CHECK(eng_hist_percentile(&h, 50) == 0);
	CHECK(eng_hist_percentile(&h, 0) == 0);
	CHECK(eng_hist_percentile(&h, 100) == 0);
	CHECK(eng_hist_mean(&h) == 0.0);
	CHECK(eng_hist_stddev(&h) == 0.0);
}

static void check_index(uint64_t ns, unsigned *prev)
{
	unsigned fast = eng_hist_index(ns), slow = eng_hist_index_slow(ns);
	uint64_t lo, hi;

	CHECKF(fast == slow, "ns %" PRIu64 ": index %u, slow %u", ns, fast,
	       slow);
	CHECKF(fast < ENG_HIST_BUCKETS, "ns %" PRIu64 ": index %u", ns, fast);
	if (prev) {
		CHECKF(fast >= *prev, "ns %" PRIu64 ": index %u after %u", ns,
		       fast, *prev);
		*prev = fast;
	}
	eng_hist_bounds(fast, &lo, &hi);
	CHECKF(lo <= ns && ns <= hi, "ns %" PRIu64 " outside bucket %u "
	       "[%" PRIu64 ", %" PRIu64 "]", ns, fast, lo, hi);
}

static void test_index(void)
{
	unsigned prev = 0, e, i;
	uint64_t ns, p;

	for (ns = 0; ns < 100000; ns++)
		check_index(ns, &prev);
	for (; ns < (1ull << 40); ns += ns / 97 + 1)
		check_index(ns, &prev);
	prev = 0;
	for (e = 0; e < 64; e++) {
		/* 2^e - 1 < 2^(e-1) + 1 only for e < 2 */
		unsigned *order = e < 2 ? NULL : &prev;

		p = 1ull << e;
		check_index(p - 1, order);
		check_index(p, order);
		check_index(p + 1, order);
	}
	check_index(UINT64_MAX, &prev);
	CHECK(eng_hist_index(UINT64_MAX) == ENG_HIST_BUCKETS - 1);
	CHECK(eng_hist_index((1ull << (ENG_HIST_MAX_EXP + 1)) - 1) ==
	      ENG_HIST_BUCKETS - 1);
	for (i = 0; i < 1000000; i++)
		check_index(rnd() >> (rnd() % 64), NULL);
}

static void test_bounds(void)
{
	uint64_t lo, hi, plo, phi;
	unsigned i;

	eng_hist_bounds(0, &plo, &phi);
	CHECK(plo == 0 && phi == 0);
	for (i = 1; i < ENG_HIST_BUCKETS; i++) {
		eng_hist_bounds(i, &lo, &hi);
		CHECKF(lo == phi + 1, "bucket %u starts at %" PRIu64
		       ", previous ends at %" PRIu64, i, lo, phi);
		CHECKF(hi >= lo, "bucket %u: [%" PRIu64 ", %" PRIu64 "]", i,
		       lo, hi);
		if (i < ENG_HIST_SUB)
			CHECKF(lo == i && hi == i, "bucket %u not exact", i);
		else if (i < ENG_HIST_BUCKETS - 1)
			CHECKF((double)(hi - lo + 1) <= 0.01 * (double)lo,
			       "bucket %u: width %" PRIu64 " > 1%% of %" PRIu64,
			       i, hi - lo + 1, lo);
		plo = lo;
		phi = hi;
	}
	CHECK(phi == UINT64_MAX);
	CHECK(plo == ((uint64_t)(2 * ENG_HIST_SUB - 1)
		      << (ENG_HIST_MAX_EXP - ENG_HIST_SUB_BITS)));
}

static void test_merge(void)
{
	unsigned i, j;

	eng_hist_reset(&h);
	for (j = 0; j < 3; j++)
		eng_hist_reset(&parts[j]);
	for (i = 0; i < NSAMP; i++) {
		uint64_t ns = rnd() >> (rnd() % 64);

		eng_hist_add(&h, ns);
		eng_hist_add(&parts[i % 3 == 2 ? 2 : i % 2], ns);
	}
	eng_hist_reset(&merged);
	eng_hist_merge(&merged, &parts[0]);
	eng_hist_merge(&merged, &parts[1]);
	eng_hist_merge(&merged, &parts[2]);
	CHECK(merged.count == h.count);
	CHECK(merged.sum_ns == h.sum_ns);
	CHECK(merged.min_ns == h.min_ns);
	CHECK(merged.max_ns == h.max_ns);
	CHECK(fabs(merged.sumsq - h.sumsq) <= 1e-9 * h.sumsq);
	CHECK(!memcmp(merged.b, h.b, sizeof(h.b)));
	/* merging an empty histogram changes nothing, min included */
	eng_hist_reset(&parts[0]);
	eng_hist_merge(&merged, &parts[0]);
	CHECK(merged.min_ns == h.min_ns && merged.count == h.count);
	/* and merging into an empty one copies */
	eng_hist_merge(&parts[0], &h);
	CHECK(parts[0].min_ns == h.min_ns && parts[0].max_ns == h.max_ns);
	CHECK(eng_hist_percentile(&parts[0], 99) ==
	      eng_hist_percentile(&h, 99));
}

/* Two snapshots of one running histogram: their difference is exactly the
 * histogram of what came in between, min and max within a bucket. */
static void test_diff(void)
{
	static struct eng_hist before, between, d;
	unsigned i;

	eng_hist_reset(&h);
	eng_hist_reset(&between);
	for (i = 0; i < NSAMP / 2; i++)
		eng_hist_add(&h, 1000 + rnd() % 1000000);
	before = h;
	for (i = 0; i < NSAMP / 2; i++) {
		uint64_t ns = 5000 + rnd() % 50000;

		eng_hist_add(&h, ns);
		eng_hist_add(&between, ns);
	}
	eng_hist_diff(&d, &h, &before);
	CHECK(d.count == between.count && d.sum_ns == between.sum_ns);
	CHECK(!memcmp(d.b, between.b, sizeof(d.b)));
	for (i = 1; i < 100; i += 7) {
		uint64_t a = eng_hist_percentile(&d, i), b = eng_hist_percentile(&between, i);

		CHECKF((a > b ? a - b : b - a) <= b / 100, "p%u: diff %" PRIu64 " vs %" PRIu64,
		       i, a, b);
	}
	CHECKF(d.max_ns >= between.max_ns && d.max_ns <= between.max_ns + between.max_ns / 100,
	       "diff max %" PRIu64 " vs %" PRIu64, d.max_ns, between.max_ns);
	CHECKF(d.min_ns <= between.min_ns && d.min_ns + d.min_ns / 100 >= between.min_ns,
	       "diff min %" PRIu64 " vs %" PRIu64, d.min_ns, between.min_ns);
	/* the running max (from the first half) must not leak into the interval */
	CHECK(h.max_ns > 100000 && d.max_ns < 60000);
	/* nothing in between: empty */
	eng_hist_diff(&d, &h, &h);
	CHECK(d.count == 0 && eng_hist_percentile(&d, 99) == 0);
}

int main(void)
{
	test_empty();
	test_index();
	test_bounds();
	test_distributions();
	test_merge();
	test_diff();
	return t_result();
}
