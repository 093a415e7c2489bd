/* A percentile's interval (model/pctci.c): the exact order-statistics
 * ranks, their widening to bucket edges, the batches keeper, and the
 * coverage model: how often the 95% interval holds the true percentile of
 * a known distribution, iid and autocorrelated, printed as a table.
 *
 * How the expected ranks were derived: python3's standard library only,
 * never through this code. p = Fraction(pct) / 100, tail = (1 - conf) / 2,
 * the binomial CDF summed exactly as Fractions of math.comb(n, k) p^k
 * q^(n-k); r = the smallest k with P(K <= k) > tail, s = 1 + the smallest
 * k with P(K > k) <= tail. For n of 1e5 and more only the upper tail was
 * summed (k from 99800 up for n = 1e5, p = 0.999), every term from there
 * to n, which holds all of the distribution's mass below 1 - tail. Known
 * values agree: n = 10 and 100 medians (2, 9) and (40, 61). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hist.h"
#include "engine/rng.h"
#include "model/pctci.h"
#include "model/stats.h"
#include "tests/helpers.h"

static const struct {
	uint64_t n;
	double pct, conf;
	uint64_t r, s;
} rank_cases[] = {
	{ 1, 50, 0.95, 0, 2 },
	{ 2, 50, 0.95, 0, 3 },
	{ 10, 50, 0.95, 2, 9 },
	{ 100, 50, 0.95, 40, 61 },
	{ 100, 99, 0.95, 97, 101 },
	{ 1000, 99, 0.95, 983, 997 },
	{ 1000, 99.9, 0.95, 997, 1001 },
	{ 1000, 0.1, 0.95, 0, 4 },
	{ 1000, 50, 0.95, 469, 532 },
	{ 2000, 99.9, 0.95, 1995, 2001 },
	{ 100, 1, 0.95, 0, 4 },
	{ 500, 90, 0.95, 436, 464 },
	{ 500, 90, 0.5, 446, 456 },
	{ 20, 50, 0.99, 4, 17 },
	{ 4000, 99.99, 0.95, 3998, 4001 },
	{ 3000, 99.9, 0.95, 2993, 3001 },
	{ 100000, 99.9, 0.95, 99880, 99920 },
};

static void test_ranks(void)
{
	uint64_t lo, hi;
	unsigned i;

	for (i = 0; i < sizeof(rank_cases) / sizeof(rank_cases[0]); i++) {
		lo = hi = 12345;
		CHECK(model_pct_ranks(rank_cases[i].n, rank_cases[i].pct, rank_cases[i].conf, &lo,
				      &hi) == 0);
		CHECKF(lo == rank_cases[i].r && hi == rank_cases[i].s,
		       "n %" PRIu64 " pct %g conf %g: got %" PRIu64 "..%" PRIu64
		       ", want %" PRIu64 "..%" PRIu64, rank_cases[i].n, rank_cases[i].pct,
		       rank_cases[i].conf, lo, hi, rank_cases[i].r, rank_cases[i].s);
	}
	/* near the ends of (0, 100): one side unbounded, the other a few
	 * ranks in */
	CHECK(model_pct_ranks(1000, 1e-9, 0.95, &lo, &hi) == 0 && lo == 0 && hi == 1);
	CHECK(model_pct_ranks(1000, 100 - 1e-9, 0.95, &lo, &hi) == 0 && lo == 1000 &&
	      hi == 1001);
	/* bad arguments, and nothing written */
	lo = hi = 7;
	CHECK(model_pct_ranks(0, 50, 0.95, &lo, &hi) == -EINVAL);
	CHECK(model_pct_ranks(10, 0, 0.95, &lo, &hi) == -EINVAL);
	CHECK(model_pct_ranks(10, 100, 0.95, &lo, &hi) == -EINVAL);
	CHECK(model_pct_ranks(10, -1, 0.95, &lo, &hi) == -EINVAL);
	CHECK(model_pct_ranks(10, NAN, 0.95, &lo, &hi) == -EINVAL);
	CHECK(model_pct_ranks(10, 50, 0, &lo, &hi) == -EINVAL);
	CHECK(model_pct_ranks(10, 50, 1, &lo, &hi) == -EINVAL);
	CHECK(model_pct_ranks(10, 50, NAN, &lo, &hi) == -EINVAL);
	CHECK(lo == 7 && hi == 7);
}

/* A histogram of the values v0, v0 + step, ... (n of them). */
static void fill(struct eng_hist *h, uint64_t v0, uint64_t step, unsigned n)
{
	unsigned i;

	eng_hist_reset(h);
	for (i = 0; i < n; i++)
		eng_hist_add(h, v0 + step * i);
}

static struct eng_hist all, batch[MODEL_PCT_BATCHES], iv;

/* Rank widening on exact buckets (below 128 ns every value has its own),
 * then on 1% ones, and the clamps to min and max. */
static void test_ci_ranks(void)
{
	struct model_pct_ci ci, keep;
	uint64_t lo, hi;

	memset(&keep, 0x5a, sizeof(keep));
	ci = keep;
	eng_hist_reset(&all);
	CHECK(model_pct_ci(&all, NULL, 0, 50, 0.95, &ci) == -ENODATA);
	fill(&all, 1, 1, 100);
	CHECK(model_pct_ci(&all, NULL, 0, 0, 0.95, &ci) == -EINVAL);
	CHECK(model_pct_ci(&all, NULL, 0, 50, 1, &ci) == -EINVAL);
	CHECK(memcmp(&ci, &keep, sizeof(ci)) == 0);

	/* 1..100: ranks 40..61 are the values 40..61 */
	CHECK(model_pct_ci(&all, NULL, 0, 50, 0.95, &ci) == 0);
	CHECKF(ci.has_lo && ci.has_hi && ci.lo == 40 && ci.hi == 61 && ci.value == 50,
	       "%d %d %" PRIu64 " %" PRIu64 " %" PRIu64, ci.has_lo, ci.has_hi, ci.lo, ci.hi,
	       ci.value);
	CHECK(ci.ios == 100 && ci.beyond == 51 && ci.figure && !ci.batched && ci.wide);
	/* p99: ranks 97..101, the upper end beyond n */
	CHECK(model_pct_ci(&all, NULL, 0, 99, 0.95, &ci) == 0);
	CHECK(ci.has_lo && !ci.has_hi && ci.lo == 97 && ci.hi == 0 && ci.wide);
	CHECK(ci.beyond == 2 && !ci.figure);

	/* 2000, 2010, ... 2990: 16 ns buckets from 2048 (8 below). Rank 40
	 * is 2390, in [2384, 2399]; rank 61 is 2600, in [2592, 2607]. */
	fill(&all, 2000, 10, 100);
	CHECK(model_pct_ci(&all, NULL, 0, 50, 0.95, &ci) == 0);
	eng_hist_bounds(eng_hist_index(2390), &lo, &hi);
	CHECK(lo == 2384);
	eng_hist_bounds(eng_hist_index(2600), &lo, &hi);
	CHECK(hi == 2607);
	CHECKF(ci.lo == 2384 && ci.hi == 2607, "%" PRIu64 "..%" PRIu64, ci.lo, ci.hi);
	CHECK(ci.lo <= ci.value && ci.value <= ci.hi && !ci.wide);
	/* the clamps: all 1000 IOs at 2995 (bucket 2992..3007) */
	eng_hist_reset(&all);
	eng_hist_add_n(&all, 2995, 1000);
	CHECK(model_pct_ci(&all, NULL, 0, 50, 0.95, &ci) == 0);
	CHECK(ci.lo == 2995 && ci.hi == 2995 && ci.value == 2995);
}

/* Interval i holds i + 1 IOs of value 1000 + i, so a batch's count and
 * its buckets say which intervals it holds. */
static void add_interval(struct model_pct_batches *b, unsigned i)
{
	eng_hist_reset(&iv);
	eng_hist_add_n(&iv, 1000 + i, i + 1);
	model_pct_batches_add(b, &iv);
}

/* The intervals first..first + k - 1 and nothing else. */
static int holds(const struct eng_hist *h, unsigned first, unsigned k)
{
	uint64_t want = 0;
	unsigned i;

	for (i = first; i < first + k; i++)
		want += i + 1;
	if (h->count != want || h->min_ns != 1000 + first || h->max_ns != 1000 + first + k - 1)
		return 0;
	for (i = first; i < first + k; i++)
		if (h->b[eng_hist_index(1000 + i)] == 0)
			return 0;
	return 1;
}

static void test_batches(void)
{
	struct model_pct_batches b;
	unsigned i, k;

	memset(batch, 0x5a, sizeof(batch));
	model_pct_batches_init(&b, batch);
	CHECK(b.n == 0 && b.per == 1 && model_pct_batches_usable(&b) == 0);
	CHECK(batch[MODEL_PCT_BATCHES - 1].count == 0);
	for (i = 0; i < MODEL_PCT_BATCHES; i++)
		add_interval(&b, i);
	CHECK(b.n == 32 && b.per == 1 && b.in_last == 1 && model_pct_batches_usable(&b) == 32);
	for (i = 0; i < MODEL_PCT_BATCHES; i++)
		CHECK(holds(&batch[i], i, 1));
	/* the 33rd: pairs merged, per 2, the new one starts batch 17 */
	add_interval(&b, 32);
	CHECK(b.n == 17 && b.per == 2 && b.in_last == 1);
	for (i = 0; i < 16; i++)
		CHECKF(holds(&batch[i], 2 * i, 2), "batch %u", i);
	CHECK(holds(&batch[16], 32, 1));
	CHECK(batch[17].count == 0 && batch[31].count == 0);
	/* half a batch counts */
	CHECK(model_pct_batches_usable(&b) == 17);
	for (i = 33; i < 64; i++)
		add_interval(&b, i);
	CHECK(b.n == 32 && b.per == 2 && b.in_last == 2 && model_pct_batches_usable(&b) == 32);
	/* the 65th: 16 batches of 4, then one of 1 that is under half */
	add_interval(&b, 64);
	CHECK(b.n == 17 && b.per == 4 && b.in_last == 1 && model_pct_batches_usable(&b) == 16);
	for (i = 0; i < 16; i++)
		CHECKF(holds(&batch[i], 4 * i, 4), "batch %u", i);
	add_interval(&b, 65);
	CHECK(b.in_last == 2 && model_pct_batches_usable(&b) == 17);
	/* and once more: 64 * 4 intervals, then per 8 */
	for (i = 66; i < 129; i++)
		add_interval(&b, i);
	CHECK(b.n == 17 && b.per == 8 && b.in_last == 1);
	for (i = 0, k = 0; i < 16; i++, k += 8)
		CHECKF(holds(&batch[i], k, 8), "batch %u", i);
}

/* Batches that disagree widen the interval; fewer than the minimum are
 * not used. */
static void test_ci_batched(void)
{
	struct model_pct_ci os, bm, few;
	struct model_pct_batches b;
	unsigned i;

	model_pct_batches_init(&b, batch);
	eng_hist_reset(&all);
	/* 20 intervals, 1000 IOs each: half of them all fast, half slow */
	for (i = 0; i < 20; i++) {
		fill(&iv, i % 2 ? 100000 : 50000, 13, 1000);
		model_pct_batches_add(&b, &iv);
		eng_hist_merge(&all, &iv);
	}
	CHECK(model_pct_ci(&all, NULL, 0, 50, 0.95, &os) == 0);
	CHECK(model_pct_ci(&all, batch, model_pct_batches_usable(&b), 50, 0.95, &bm) == 0);
	CHECK(model_pct_ci(&all, batch, MODEL_PCT_MIN_BATCHES - 1, 50, 0.95, &few) == 0);
	CHECK(!os.batched && bm.batched && !few.batched);
	CHECK(os.lo == few.lo && os.hi == few.hi && os.has_lo == few.has_lo &&
	      os.has_hi == few.has_hi);
	CHECK(os.value == bm.value);
	CHECKF(bm.lo < os.lo && bm.hi > os.hi && bm.lo < 60000 && bm.hi > 100000,
	       "os %" PRIu64 "..%" PRIu64 " bm %" PRIu64 "..%" PRIu64, os.lo, os.hi, bm.lo, bm.hi);
}

/* ---- the coverage model ---- */

#define DRAWS 1000
#define NIV 25		/* the run's intervals, each a batch */
#define KNOT_BITS 12
#define KNOTS (1u << KNOT_BITS)
#define MIN_COVER 0.93
#define NPCT 3

static const double cover_pct[NPCT] = { 50, 99, 99.9 };
/* the standard normal's quantiles at cover_pct (python3's
 * statistics.NormalDist().inv_cdf) */
static const double cover_z[NPCT] = { 0, 2.3263478740408408, 3.0902323061678132 };

/* A distribution sampled by its inverse CDF, linear between KNOTS + 1
 * knots at u = i / KNOTS: the sampled distribution's quantile at p is
 * that same interpolation at p, exactly, whatever the curve between. */
struct inv {
	double x[KNOTS + 1];
};

static struct inv inv_exp, inv_logn, inv_mix, inv_norm;

/* The AR1 cells' map from the Gaussian state to a latency: 100 us
 * exp(0.5 x), linear between knots over x in [-8, 8]. Being increasing,
 * it maps the state's quantiles to the latency's exactly. */
#define G_LO -8.0
#define G_HI 8.0
static double g_knot[KNOTS + 1];

static double g_of(double x)
{
	double f = (x - G_LO) / (G_HI - G_LO) * KNOTS;
	unsigned i;

	if (!(f > 0))
		return g_knot[0];
	i = (unsigned)f;
	if (i >= KNOTS)
		return g_knot[KNOTS];
	return g_knot[i] + (f - i) * (g_knot[i + 1] - g_knot[i]);
}

static double interp(const struct inv *t, double u)
{
	double f = u * KNOTS;
	unsigned i = (unsigned)f;

	if (i >= KNOTS)
		return t->x[KNOTS];
	return t->x[i] + (f - i) * (t->x[i + 1] - t->x[i]);
}

/* u from the generator's top 53 bits */
static double draw_u(struct eng_rng *r)
{
	return (double)(eng_rng_next(r) >> 11) * 0x1p-53;
}

static double norm_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

/* 98% around 80 us, 2% around 2 ms, both lognormal with sigma 0.25: a
 * slow mode that holds p99 and p99.9. Of l = log(x). */
static double mix_cdf_log(double l)
{
	return 0.98 * norm_cdf((l - log(80e3)) / 0.25) + 0.02 * norm_cdf((l - log(2e6)) / 0.25);
}

/* x with cdf(x) = u, by bisection in [lo, hi] */
static double invert(double (*cdf)(double), double u, double lo, double hi)
{
	unsigned i;

	for (i = 0; i < 64; i++) {
		double mid = lo + (hi - lo) / 2;

		if (cdf(mid) < u)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

/* The ends u = 0 and 1 are cut at 2^-20 from them: a tail past the
 * 99.9999th percentile, which none of the percentiles tested reaches. */
static void setup_knots(void)
{
	double var = 0;
	unsigned i;

	for (i = 0; i <= KNOTS; i++) {
		double u = fmin(fmax((double)i / KNOTS, 0x1p-20), 1 - 0x1p-20);
		double z = invert(norm_cdf, u, -10, 10);

		inv_norm.x[i] = z;
		inv_exp.x[i] = -100e3 * log1p(-u);
		inv_logn.x[i] = 100e3 * exp(0.5 * z);
		inv_mix.x[i] = exp(invert(mix_cdf_log, u, log(1e3), log(1e8)));
		g_knot[i] = 100e3 * exp(0.5 * (G_LO + (G_HI - G_LO) * i / KNOTS));
	}
	/* The innovations' variance, exactly (a linear piece from a to b
	 * over 1 / KNOTS has the mean square (a^2 + ab + b^2) / 3), is
	 * brought to 1, so that the AR1 state is standard normal at every
	 * step: 1.0016 before, from the knots' curvature and the cut ends. */
	for (i = 0; i < KNOTS; i++) {
		double a = inv_norm.x[i], b = inv_norm.x[i + 1];

		var += (a * a + a * b + b * b) / 3 / KNOTS;
	}
	for (i = 0; i <= KNOTS; i++)
		inv_norm.x[i] /= sqrt(var);
}

enum dep { IID, AR1 };

struct cell {
	const char *dist;
	enum dep dep;
	const struct inv *inv;	/* IID: the marginal; AR1: the innovations */
	double phi;		/* AR1: x(t) = phi x(t-1) + sqrt(1 - phi^2) e(t) */
};

/* AR1 cells are lognormal: 100 us exp(0.5 x), x standard normal at every
 * step (the process starts from its stationary law). */
static const struct cell cells[] = {
	{ "exponential", IID, &inv_exp, 0 },
	{ "lognormal", IID, &inv_logn, 0 },
	{ "bimodal 2%", IID, &inv_mix, 0 },
	{ "lognormal", AR1, &inv_norm, 0.5 },
	{ "lognormal", AR1, &inv_norm, 0.9 },
};
#define NCELL (sizeof(cells) / sizeof(cells[0]))

static const unsigned cover_n[] = { 100, 1000, 100000 };
#define NN (sizeof(cover_n) / sizeof(cover_n[0]))

struct tally {
	unsigned draws, bounded, cover_bounded, cover_all, batched;
};

/* The true percentile as the histogram records it: values are kept as
 * whole ns, floor(x), so the recorded distribution's percentile is
 * floor(xi) (no IO value lies strictly between). */
static double truth(const struct cell *c, double pct)
{
	unsigned k;

	if (c->dep == IID)
		return floor(interp(c->inv, pct / 100));
	for (k = 0; k < NPCT; k++)
		if (cover_pct[k] == pct)
			break;
	return floor(g_of(cover_z[k]));
}

/* One run of n IOs in NIV intervals, through the batches keeper, and its
 * intervals tallied against the truth. */
static void one_draw(const struct cell *c, unsigned n, struct eng_rng *r, struct tally *t)
{
	struct model_pct_batches b;
	double a = sqrt(1 - c->phi * c->phi), x = 0;
	unsigned k, i, end = 0, p;

	model_pct_batches_init(&b, batch);
	eng_hist_reset(&all);
	if (c->dep == AR1)
		x = interp(c->inv, draw_u(r));
	for (k = 0; k < NIV; k++) {
		i = end;
		end = (unsigned)((uint64_t)n * (k + 1) / NIV);
		eng_hist_reset(&iv);
		for (; i < end; i++) {
			double v;

			if (c->dep == IID) {
				v = interp(c->inv, draw_u(r));
			} else {
				x = c->phi * x + a * interp(c->inv, draw_u(r));
				v = g_of(x);
			}
			/* into both: cheaper than merging 25 histograms of
			 * ENG_HIST_BUCKETS each when n is small */
			eng_hist_add(&iv, (uint64_t)v);
			eng_hist_add(&all, (uint64_t)v);
		}
		model_pct_batches_add(&b, &iv);
	}
	for (p = 0; p < NPCT; p++) {
		struct model_pct_ci ci;
		double xi = truth(c, cover_pct[p]);
		int ok;

		if (model_pct_ci(&all, batch, model_pct_batches_usable(&b), cover_pct[p], 0.95,
				 &ci)) {
			CHECK(0);
			continue;
		}
		ok = (!ci.has_lo || (double)ci.lo <= xi) && (!ci.has_hi || xi <= (double)ci.hi);
		t[p].draws++;
		t[p].cover_all += ok;
		t[p].batched += ci.batched;
		if (ci.has_lo && ci.has_hi) {
			t[p].bounded++;
			t[p].cover_bounded += ok;
		}
	}
}

/* Coverage among the draws whose interval has both ends is what the
 * check holds to 93%; a cell with fewer than MIN_BOUNDED of them is not
 * judged on that (its few bounded draws say little), but every cell is on
 * coverage over all draws, an unbounded end covering. */
#define MIN_BOUNDED 100

static void test_coverage(void)
{
	unsigned ci, ni, d, p;

	setup_knots();
	printf("%-12s %-9s %7s %6s %6s %8s %9s %9s\n", "dist", "dep", "n", "pct", "draws",
	       "bounded", "cover_bd", "cover_all");
	for (ci = 0; ci < NCELL; ci++) {
		const struct cell *c = &cells[ci];
		char dep[16];

		if (c->dep == IID)
			snprintf(dep, sizeof(dep), "iid");
		else
			snprintf(dep, sizeof(dep), "AR1 %.1f", c->phi);
		for (ni = 0; ni < NN; ni++) {
			struct tally t[NPCT] = { { 0 } };
			struct eng_rng r;

			CHECK(eng_rng_init(&r, 1000 * ci + ni, 0, 4096, 4096) == 0);
			for (d = 0; d < DRAWS; d++)
				one_draw(c, cover_n[ni], &r, t);
			for (p = 0; p < NPCT; p++) {
				double cb = t[p].bounded ? (double)t[p].cover_bounded / t[p].bounded : NAN;
				double ca = (double)t[p].cover_all / t[p].draws;

				printf("%-12s %-9s %7u %6g %6u %8u %8.1f%% %8.1f%%\n", c->dist, dep,
				       cover_n[ni], cover_pct[p], t[p].draws, t[p].bounded,
				       100 * cb, 100 * ca);
				CHECKF(ca >= MIN_COVER, "%s %s n %u p%g: %.3f of all draws", c->dist,
				       dep, cover_n[ni], cover_pct[p], ca);
				CHECKF(t[p].bounded < MIN_BOUNDED || cb >= MIN_COVER,
				       "%s %s n %u p%g: %.3f of %u bounded draws", c->dist, dep,
				       cover_n[ni], cover_pct[p], cb, t[p].bounded);
			}
		}
	}
	fflush(stdout);
}

int main(void)
{
	test_ranks();
	test_ci_ranks();
	test_batches();
	test_ci_batched();
	test_coverage();
	return t_result();
}
