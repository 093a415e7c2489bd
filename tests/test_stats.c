/* The statistics behind `iostorm compare` (model/stats.c): the spread of
 * repeated runs, Welch's t-test, and the Student t distribution, against
 * figures worked out apart from the code, plus the edge cases (one run,
 * constant sets, bad values) where a wrong answer would mark a change
 * significant that is not.
 *
 * How the expected figures were derived: python3 with its standard
 * library only (scipy is not installed here), never through this code.
 * - means, stdev, harmonic mean: the statistics module (fmean, stdev,
 *   harmonic_mean); cov = stdev / fmean.
 * - Welch t, se, df: the data as exact fractions (Fraction(str(x))), so
 *   ga = va/na, gb = vb/nb and df = (ga + gb)^2 / (ga^2/(na-1) +
 *   gb^2/(nb-1)) are exact before the final sqrt and rounding.
 * - t CDF: composite Simpson integration of the t density: 0.5 +-
 *   int_0^|t| f with at least 20000 intervals (the same with twice as many
 *   agrees to 1e-15), and small tails int_|t|^inf f via x = |t|/u over
 *   u in (0, 1] (200000 intervals, again checked against 400000). The
 *   density is normalised by math.lgamma for df < 1000 and by
 *   integrating it numerically over [0, 40] for df >= 1000. This is a
 *   different method from the code's continued fraction and series.
 * - two-sided p = 2 * that tail integral at the exact t and df.
 * - quantiles: bisection then Newton on that Simpson CDF; the CI is
 *   diff -+ quantile((1 + conf) / 2, df) * se.
 * - df = 1 (Cauchy): 0.5 + atan(t)/pi, quantile 1/tan(pi (1 - p)).
 *   df = 2: 0.5 + t / (2 sqrt(2 + t^2)), quantile (2p - 1) / sqrt(2p(1-p)),
 *   in 50-digit decimals.
 * The code agrees with all of them to 1e-13 or better; the checks allow
 * 1e-9, far inside what a comparison needs and far outside libm's
 * differences between platforms. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "model/stats.h"
#include "tests/helpers.h"

#define REL 1e-9

static int close_to(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

#define CHECK_NEAR(got, want) CHECKF(close_to((got), (want), REL), \
	"got %.17g, want %.17g", (double)(got), (double)(want))

static const double a1[] = { 100, 102, 98, 101, 99 };
static const double b1[] = { 105, 107, 103, 106, 104 };
/* the same centre shift of 1.0, but b is three times as noisy */
static const double a2[] = { 10.1, 9.8, 10.3, 10.0, 9.9 };
static const double b2[] = { 10.9, 11.8, 10.2, 11.5, 10.7 };
/* unequal sizes as well as unequal variances */
static const double a3[] = { 1520, 1490, 1535 };
static const double b3[] = { 1610, 1580, 1655, 1600, 1620, 1590, 1645 };
static const double zero3[] = { 3, 0, 4 };

static void check_spread(const double *v, unsigned n, double amean, double hmean,
			 double stddev, double cov, double min, double max)
{
	struct model_spread s;

	CHECK(model_spread(v, n, &s) == 0);
	CHECK(s.n == n);
	CHECK_NEAR(s.amean, amean);
	CHECK_NEAR(s.hmean, hmean);
	CHECK_NEAR(s.stddev, stddev);
	CHECK_NEAR(s.cov, cov);
	CHECK(s.min == min && s.max == max);
}

static void test_spread(void)
{
	check_spread(a1, 5, 100, 99.979997199319811, 1.5811388300841898,
		     0.015811388300841899, 98, 102);
	check_spread(b1, 5, 105, 104.98094996167418, 1.5811388300841898,
		     0.015058465048420854, 103, 107);
	check_spread(a2, 5, 10.02, 10.017065132913785, 0.1923538406167134,
		     0.019196990081508325, 9.8, 10.3);
	check_spread(b2, 5, 11.02, 10.990398355822812, 0.63796551630946374,
		     0.057891607650586548, 10.2, 11.8);
}

static void check_welch(const double *a, unsigned na, const double *b, unsigned nb,
			double conf, double diff, double se, double t, double df,
			double p, double ci_lo, double ci_hi)
{
	struct model_welch w;

	CHECK(model_welch(a, na, b, nb, conf, &w) == 0);
	CHECK_NEAR(w.diff, diff);
	CHECK_NEAR(w.se, se);
	CHECK_NEAR(w.t, t);
	CHECK_NEAR(w.df, df);
	CHECK_NEAR(w.p, p);
	CHECK_NEAR(w.ci_lo, ci_lo);
	CHECK_NEAR(w.ci_hi, ci_hi);
}

static void test_welch(void)
{
	/* equal variances 2.5: se = 1, t = 5, df = 8 exactly;
	 * t(0.975, 8) = 2.3060041352041636 (tables: 2.306) */
	check_welch(a1, 5, b1, 5, 0.95, 5, 1, 5, 8, 0.0010528257933665401,
		    2.6939958647958364, 7.306004135204164);
	/* df = 288/61 exactly; t(0.975, df) = 2.6168979204116209 */
	check_welch(a2, 5, b2, 5, 0.95, 1, 0.29799328851502682, 3.3557802760701212,
		    4.721311475409836, 0.022052441876068068, 0.22018198298840619,
		    1.7798180170115938);
	/* t(0.975, df) = 2.6229072254493322, t(0.995, df) = 4.1738495587557116 */
	check_welch(a3, 3, b3, 7, 0.95, 99.285714285714292, 16.882950382129369,
		    5.880827227378953, 4.6879658382501672, 0.002505137184033624,
		    55.003301741524602, 143.56812682990397);
	check_welch(a3, 3, b3, 7, 0.99, 99.285714285714292, 16.882950382129369,
		    5.880827227378953, 4.6879658382501672, 0.002505137184033624,
		    28.818819282769056, 169.75260928865953);
	/* b against a is a against b mirrored */
	check_welch(b2, 5, a2, 5, 0.95, -1, 0.29799328851502682, -3.3557802760701212,
		    4.721311475409836, 0.022052441876068068, -1.7798180170115938,
		    -0.22018198298840619);
}

static void test_t_cdf(void)
{
	static const struct { double t, df, want; } c[] = {
		/* fractional df: Simpson of the density */
		{ 1.3, 2.5, 0.8497566053646457 },
		{ -4, 0.5, 0.15961004149433577 },
		{ 2.1, 7.3, 0.96387664328757283 },
		{ 2.5, 30.5, 0.99099187706810787 },
		{ -30, 3, 4.067640213581981e-05 },
		/* df >= 50, both sides of w0 = log1p(t^2/df) = 1: tail integrals */
		{ -6, 60.5, 5.990969185695197e-08 },
		{ -12, 60.5, 6.0416708431596696e-18 },
		/* large df, the normal's 0.9750021048517795 less about
		 * phi(t) (t^3 + t) / (4 df) = 1.39e-7 */
		{ 1.96, 1e6, 0.97500196620736501 },
		{ -5, 1e6, 2.866998935445376e-07 },
		{ 2.5, 1e9, 0.99379033459479871 },
		/* where the continued fraction alone keeps nothing: Phi(-5) =
		 * 2.8665157187919391e-07 plus 4.83e-17 */
		{ -5, 1e12, 2.8665157192751291e-07 },
		{ 2, 1e12, 0.9772498680516859 },
		/* Cauchy, 0.5 + atan(t) / pi */
		{ -3, 1, 0.10241638234956674 },
		{ 0.5, 1, 0.64758361765043326 },
		{ 10, 1, 0.96827448256944648 },
		/* df = 2, 0.5 + t / (2 sqrt(2 + t^2)) in 50-digit decimals */
		{ -1000, 2, 4.9999925000125002e-07 },
		{ 0.75, 2, 0.73426064283290915 },
		/* the normal: Phi(1.96), tables */
		{ 1.96, INFINITY, 0.9750021048517795 },
		{ 0, 3.7, 0.5 },
	};
	unsigned i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		CHECKF(close_to(model_t_cdf(c[i].t, c[i].df), c[i].want, REL),
		       "cdf(%g, %g) = %.17g, want %.17g", c[i].t, c[i].df,
		       model_t_cdf(c[i].t, c[i].df), c[i].want);
	CHECK(model_t_cdf(INFINITY, 3) == 1 && model_t_cdf(-INFINITY, 3) == 0);
	CHECK(isnan(model_t_cdf(NAN, 3)) && isnan(model_t_cdf(1, NAN)));
	CHECK(isnan(model_t_cdf(1, 0)) && isnan(model_t_cdf(1, -2)));
}

static void test_t_quantile(void)
{
	static const struct { double p, df, want; } q[] = {
		{ 0.975, 2.5, 3.5746548420036981 },
		{ 0.05, 7.3, -1.8829300179564363 },
		{ 0.995, 60.5, 2.6595640091112425 },
		{ 0.975, 1e6, 1.9599663568141075 },
		/* z + (z^3 + z) / (4 df) = 1.9599639845424264 */
		{ 0.975, 1e12, 1.9599639845424257 },
		{ 0.975, 1, 12.706204736174707 },	/* 1 / tan(0.025 pi) */
		{ 0.9, 2, 1.8856180831641267 },		/* 0.8 / sqrt(0.18) */
	};
	static const double ts[] = { -25, -3.7, -0.2, 0.9 };
	static const double dfs[] = { 0.3, 1, 4.72, 49.9, 50, 1e3, 1e8 };
	static const double ps[] = { 1e-12, 0.01, 0.3, 0.77, 0.999 };
	unsigned i, j;

	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++)
		CHECKF(close_to(model_t_quantile(q[i].p, q[i].df), q[i].want, REL),
		       "quantile(%g, %g) = %.17g, want %.17g", q[i].p, q[i].df,
		       model_t_quantile(q[i].p, q[i].df), q[i].want);
	/* round trips, to the 1e-10 the quantile promises; t > 1 is left
	 * out, where cdf is 1 - tail and a double keeps too little of it */
	for (i = 0; i < sizeof(dfs) / sizeof(dfs[0]); i++) {
		for (j = 0; j < sizeof(ts) / sizeof(ts[0]); j++) {
			double got = model_t_quantile(model_t_cdf(ts[j], dfs[i]), dfs[i]);

			CHECKF(close_to(got, ts[j], 1e-10), "df %g: quantile(cdf(%g)) = %.17g",
			       dfs[i], ts[j], got);
		}
		for (j = 0; j < sizeof(ps) / sizeof(ps[0]); j++) {
			double got = model_t_cdf(model_t_quantile(ps[j], dfs[i]), dfs[i]);

			CHECKF(close_to(got, ps[j], 1e-10), "df %g: cdf(quantile(%g)) = %.17g",
			       dfs[i], ps[j], got);
		}
	}
	/* far out in a heavy tail, and past the last double: cdf(-1e300, 0.05)
	 * is about 1e-16, the quantile of 1e-300 beyond DBL_MAX */
	CHECK_NEAR(model_t_quantile(model_t_cdf(-1e30, 0.3), 0.3), -1e30);
	CHECK_NEAR(model_t_quantile(model_t_cdf(-1e300, 0.05), 0.05), -1e300);
	CHECK(model_t_quantile(1e-300, 0.05) == -INFINITY);
	CHECK(model_t_quantile(0.5, 3) == 0);
	CHECK(model_t_quantile(0, 3) == -INFINITY && model_t_quantile(1, 3) == INFINITY);
	CHECK(isnan(model_t_quantile(-0.1, 3)) && isnan(model_t_quantile(1.1, 3)));
	CHECK(isnan(model_t_quantile(NAN, 3)) && isnan(model_t_quantile(0.3, 0)));
}

/* The cases where a careless test reads noise, or nothing, as a change. */
static void test_edges(void)
{
	static const double five[] = { 5, 5, 5 }, five4[] = { 5, 5, 5, 5 };
	static const double seven[] = { 7, 7 }, ramp[] = { 1, 2, 3, 4 };
	static const double tenth[] = { 0.1, 0.1, 0.1 }, fifth[] = { 0.2, 0.2, 0.2 };
	static const double zero[] = { 3, 0, 4 }, neg[] = { 3, -1, 4 }, sym[] = { -1, 1 };
	static const double huge[] = { DBL_MAX, -DBL_MAX }, huge2[] = { DBL_MAX, DBL_MAX / 2 };
	static const double top[] = { DBL_MAX, DBL_MAX }, bottom[] = { -DBL_MAX, -DBL_MAX };
	double bad[] = { 1, 2, 3 };
	struct model_spread s;
	struct model_welch w, keep;

	/* a single run is no basis for significance, and nothing is written */
	memset(&keep, 0xa5, sizeof(keep));
	w = keep;
	CHECK(model_welch(a1, 1, b1, 5, 0.95, &w) == -EINVAL);
	CHECK(model_welch(a1, 5, b1, 1, 0.95, &w) == -EINVAL);
	CHECK(model_welch(a1, 0, b1, 5, 0.95, &w) == -EINVAL);
	CHECK(memcmp(&w, &keep, sizeof(w)) == 0);
	CHECK(model_welch(a1, 5, b1, 5, 0, &w) == -EINVAL);
	CHECK(model_welch(a1, 5, b1, 5, 1, &w) == -EINVAL);
	CHECK(model_welch(a1, 5, b1, 5, 95, &w) == -EINVAL);
	CHECK(model_welch(a1, 5, b1, 5, NAN, &w) == -EINVAL);
	CHECK(model_spread(a1, 0, &s) == -EINVAL);
	bad[1] = NAN;
	CHECK(model_spread(bad, 3, &s) == -EINVAL);
	CHECK(model_welch(a1, 5, bad, 3, 0.95, &w) == -EINVAL);
	bad[1] = -INFINITY;
	CHECK(model_spread(bad, 3, &s) == -EINVAL);
	CHECK(model_welch(bad, 3, a1, 5, 0.95, &w) == -EINVAL);

	/* constant and equal: no difference, certainly */
	CHECK(model_welch(five, 3, five4, 4, 0.95, &w) == 0);
	CHECK(w.diff == 0 && w.se == 0 && w.t == 0 && w.p == 1 && w.df == 5);
	CHECK(w.ci_lo == 0 && w.ci_hi == 0);
	/* constant and different: a certain difference, either way */
	CHECK(model_welch(five, 3, seven, 2, 0.95, &w) == 0);
	CHECK(w.diff == 2 && w.t == INFINITY && w.p == 0 && w.df == 3);
	CHECK(w.ci_lo == 2 && w.ci_hi == 2);
	CHECK(model_welch(seven, 2, five, 3, 0.95, &w) == 0);
	CHECK(w.t == -INFINITY && w.p == 0);
	/* 0.1 * 3 / 3 is not 0.1 in doubles: a constant set's mean must be
	 * its value, or rounding noise becomes a variance */
	CHECK(model_spread(tenth, 3, &s) == 0 && s.amean == 0.1 && s.stddev == 0);
	CHECK(model_welch(tenth, 3, fifth, 3, 0.95, &w) == 0);
	CHECK(w.se == 0 && w.t == INFINITY && w.p == 0);
	/* one constant set: Welch's df is the other's n - 1, exactly 3 here;
	 * vb = 5/3, se = sqrt(5/12), t = -2.5 / se = -3.8729833462074170 */
	CHECK(model_welch(five, 3, ramp, 4, 0.95, &w) == 0);
	CHECK_NEAR(w.df, 3);
	CHECK_NEAR(w.t, -3.872983346207417);

	/* hmean only of positive values; stddev and cov need two */
	CHECK(model_spread(zero, 3, &s) == 0 && isnan(s.hmean));
	CHECK_NEAR(s.amean, 7.0 / 3);
	CHECK(model_spread(neg, 3, &s) == 0 && isnan(s.hmean));
	CHECK(model_spread(a1, 1, &s) == 0);
	CHECK(s.n == 1 && s.amean == 100 && s.hmean == 100 && s.min == 100 && s.max == 100);
	CHECK(isnan(s.stddev) && isnan(s.cov));
	CHECK(model_spread(sym, 2, &s) == 0 && s.amean == 0 && isnan(s.cov));
	CHECK_NEAR(s.stddev, sqrt(2));

	/* overflow is an error, not an inf that reads as "no change" */
	CHECK(model_spread(huge, 2, &s) == -EDOM);
	CHECK(model_spread(huge2, 2, &s) == -EDOM);
	CHECK(model_spread(top, 2, &s) == 0 && s.amean == DBL_MAX && s.stddev == 0);
	CHECK(model_welch(top, 2, bottom, 2, 0.95, &w) == -EDOM);
}

/* The change, its interval and its test on one estimator: figures from
 * mpmath at 40 digits, apart from this code (the formulas are the
 * definitions in docs/compare.md, Welch's df from the exact variances,
 * p = I_x(df/2, 1/2), quantiles by root finding on it). */
static void check_change(const struct model_change *c, double a, double b, double change,
			 double lo, double hi, double t, double df, double p, double noise)
{
	CHECK_NEAR(c->a, a);
	CHECK_NEAR(c->b, b);
	CHECK_NEAR(c->change, change);
	CHECK_NEAR(c->ci_lo, lo);
	CHECK_NEAR(c->ci_hi, hi);
	CHECK_NEAR(c->t, t);
	CHECK_NEAR(c->df, df);
	CHECK_NEAR(c->p, p);
	CHECK_NEAR(c->noise, noise);
}

static void test_change(void)
{
	static const double one[] = { 1520 };
	struct model_change c, keep;

	/* Amean: Welch's test as test_welch's, the interval as % of a's mean */
	CHECK(model_change_of(a1, 5, b1, 5, MODEL_AMEAN, 0.95, &c) == 0);
	CHECK(c.design == MODEL_WELCH && c.na == 5 && c.nb == 5);
	check_change(&c, 100, 105, 0.05, 0.026939958647958339, 0.073060041352041661, 5, 8,
		     0.0010528257933665393, 0.015811388300841897);
	/* Hmean: Welch on the reciprocals, the interval mapped back; t is
	 * signed as the change */
	CHECK(model_change_of(a3, 3, b3, 7, MODEL_HMEAN, 0.95, &c) == 0);
	check_change(&c, 1514.7678699810462, 1613.878798483654, 0.065429780012331497,
		     0.03302381969625032, 0.099934735972280032, 5.7564771291984404,
		     4.0616026776344036, 0.0043097143247511433, 0.015845964664294862);
	/* a side of one value: the other side's spread stands for both */
	CHECK(model_change_of(one, 1, b3, 7, MODEL_AMEAN, 0.95, &c) == 0);
	CHECK(c.design == MODEL_ONE_VS_MANY);
	check_change(&c, 1520, 1614.2857142857143, 0.062030075187969925, 0.014267997880356052,
		     0.1097921524955838, 3.1778794947987145, 6, 0.01912710100787277,
		     0.018258660327514359);
	CHECK(model_change_of(b3, 7, one, 1, MODEL_AMEAN, 0.9, &c) == 0);
	check_change(&c, 1614.2857142857143, 1520, -0.058407079646017699, -0.094121299016635178,
		     -0.02269286027540022, -3.1778794947987145, 6, 0.01912710100787277,
		     0.017192225299535644);

	/* refusals write nothing */
	memset(&keep, 0xa5, sizeof(keep));
	c = keep;
	CHECK(model_change_of(one, 1, one, 1, MODEL_AMEAN, 0.95, &c) == -EINVAL);
	CHECK(model_change_of(a1, 0, b1, 5, MODEL_AMEAN, 0.95, &c) == -EINVAL);
	CHECK(model_change_of(a1, 5, b1, 5, MODEL_AMEAN, 1, &c) == -EINVAL);
	CHECK(model_change_of(a1, 5, b1, 5, (enum model_mean)7, 0.95, &c) == -EINVAL);
	CHECK(memcmp(&c, &keep, sizeof(c)) == 0);
}

static void test_paired(void)
{
	static const double pa[] = { 100, 102, 98, 101, 99 }, pb[] = { 104, 107, 101, 106, 102 };
	static const double flat[] = { 105, 107, 103, 106, 104 };
	struct model_change c;

	CHECK(model_change_paired(pa, pb, 5, MODEL_AMEAN, 0.95, &c) == 0);
	CHECK(c.design == MODEL_PAIRED && c.na == 5);
	check_change(&c, 100, 104, 0.04, 0.027583360017962358, 0.052416639982037642,
		     8.9442719099991588, 4, 0.00086421102888269733, 0.0070710678118654752);
	CHECK(model_change_paired(pa, pb, 5, MODEL_HMEAN, 0.95, &c) == 0);
	check_change(&c, 99.979997199319818, 103.94998954093817, 0.039707866101494133,
		     0.028905028077092055, 0.050739956769730379, 10.50033282743013, 4,
		     0.00046507757425814209, 0.0057508515664323056);
	/* the same shift in every round: certain, whatever the drift */
	CHECK(model_change_paired(a1, flat, 5, MODEL_AMEAN, 0.95, &c) == 0);
	CHECK(c.p == 0 && c.t == INFINITY && c.change == 0.05 && c.ci_lo == c.ci_hi);
	CHECK(model_change_paired(a1, a1, 5, MODEL_AMEAN, 0.95, &c) == 0);
	CHECK(c.p == 1 && c.change == 0 && c.noise == 0);
	CHECK(model_change_paired(pa, pb, 1, MODEL_AMEAN, 0.95, &c) == -EINVAL);
	CHECK(model_change_paired(zero3, pb, 3, MODEL_HMEAN, 0.95, &c) == -EINVAL);
}

/* A side's own mean and interval: Student's t on the values, or on the
 * reciprocals for the Hmean (mpmath, as test_change) */
static void test_mean_ci(void)
{
	double m, lo, hi;

	CHECK(model_mean_ci(a3, 3, MODEL_AMEAN, 0.95, &m, &lo, &hi) == 0);
	CHECK_NEAR(m, 1515);
	CHECK_NEAR(lo, 1458.0812544960486);
	CHECK_NEAR(hi, 1571.9187455039514);
	CHECK(model_mean_ci(a3, 3, MODEL_HMEAN, 0.95, &m, &lo, &hi) == 0);
	CHECK_NEAR(m, 1514.7678699810462);
	CHECK_NEAR(lo, 1459.6638779992596);
	CHECK_NEAR(hi, 1574.1955650139549);
	CHECK(model_mean_ci(a3, 1, MODEL_HMEAN, 0.95, &m, &lo, &hi) == 0);
	CHECK(m == 1520 && isnan(lo) && isnan(hi));
	CHECK(model_mean_ci(zero3, 3, MODEL_HMEAN, 0.95, &m, &lo, &hi) == -EINVAL);
	CHECK(model_mean_ci(a3, 0, MODEL_AMEAN, 0.95, &m, &lo, &hi) == -EINVAL);
}

/* Holm and Benjamini-Hochberg by their definitions (worked by hand and
 * in python: sort, scale by n - k + 1 or n / k, make monotone). */
static void test_adjust(void)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.005, 0.2, 0.04 };
	static const double holm[] = { 0.05, 0.12, 0.12, 0.03, 0.2, 0.12 };
	static const double bh[] = { 0.03, 0.048, 0.048, 0.03, 0.2, 0.048 };
	double adj[6], bad[] = { 0.1, 1.5 };
	unsigned order[6], i;

	CHECK(model_p_adjust(p, 6, MODEL_HOLM, order, adj) == 0);
	for (i = 0; i < 6; i++)
		CHECK_NEAR(adj[i], holm[i]);
	CHECK(model_p_adjust(p, 6, MODEL_BH, order, adj) == 0);
	for (i = 0; i < 6; i++)
		CHECK_NEAR(adj[i], bh[i]);
	/* in place, and one test is its own family */
	memcpy(adj, p, sizeof(p));
	CHECK(model_p_adjust(adj, 6, MODEL_BH, order, adj) == 0);
	for (i = 0; i < 6; i++)
		CHECK_NEAR(adj[i], bh[i]);
	CHECK(model_p_adjust(p, 1, MODEL_HOLM, order, adj) == 0 && adj[0] == p[0]);
	CHECK(model_p_adjust(p, 0, MODEL_HOLM, order, adj) == 0);
	CHECK(model_p_adjust(bad, 2, MODEL_BH, order, adj) == -EINVAL);
	bad[1] = NAN;
	CHECK(model_p_adjust(bad, 2, MODEL_HOLM, order, adj) == -EINVAL);
}

/* A family's verdicts: test_adjust's p, Holm's {0.05, 0.12, 0.12, 0.03,
 * 0.2, 0.12} and BH's {0.03, 0.048, 0.048, 0.03, 0.2, 0.048}; a change's
 * direction only where the adjusted p is under alpha (0.05 is not under
 * 0.05) */
static void test_verdicts(void)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.005, 0.2, 0.04 };
	static const double ch[] = { 0.02, -0.01, 0.03, -0.1, 0.5, 0 };
	enum model_verdict v[6], keep[6];
	double adj[6], bad[] = { 0.1, 1.5 };
	unsigned order[6], i;

	CHECK(model_verdicts(ch, p, 6, MODEL_HOLM, 0.05, order, adj, v) == 0);
	CHECK_NEAR(adj[3], 0.03);
	CHECK_NEAR(adj[0], 0.05);
	for (i = 0; i < 6; i++)
		CHECK(v[i] == (i == 3 ? MODEL_LOWER : MODEL_NO_DIFFERENCE));
	CHECK(model_verdicts(ch, p, 6, MODEL_HOLM, 0.1, order, adj, v) == 0);
	CHECK(v[0] == MODEL_HIGHER && v[3] == MODEL_LOWER && v[1] == MODEL_NO_DIFFERENCE &&
	      v[4] == MODEL_NO_DIFFERENCE);
	/* BH marks all but the 0.2; a change of 0 is no difference */
	CHECK(model_verdicts(ch, p, 6, MODEL_BH, 0.05, order, adj, v) == 0);
	CHECK(v[0] == MODEL_HIGHER && v[1] == MODEL_LOWER && v[2] == MODEL_HIGHER &&
	      v[3] == MODEL_LOWER && v[4] == MODEL_NO_DIFFERENCE && v[5] == MODEL_NO_DIFFERENCE);
	CHECK(model_verdicts(ch, p, 0, MODEL_HOLM, 0.05, order, adj, v) == 0);
	/* refused: nothing written */
	memcpy(keep, v, sizeof(v));
	CHECK(model_verdicts(ch, bad, 2, MODEL_HOLM, 0.05, order, adj, v) == -EINVAL);
	CHECK(model_verdicts(ch, p, 6, MODEL_HOLM, 0, order, adj, v) == -EINVAL);
	CHECK(model_verdicts(ch, p, 6, MODEL_HOLM, 1, order, adj, v) == -EINVAL);
	CHECK(memcmp(keep, v, sizeof(v)) == 0);
}

/* xorshift64*: the same draws on every machine */
static double draw(unsigned long long *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (double)((*s * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

/* The change always lies inside its own interval, and the interval
 * leaves 0 out exactly when p < 1 - conf, for every design and mean, on
 * sets drawn at random: skewed, noisy, of every size. */
static void test_change_inside(void)
{
	unsigned long long s = 0x9e3779b97f4a7c15ULL;
	double a[9], b[9];
	unsigned trial, i, na, nb, bad = 0, disagree = 0;

	for (trial = 0; trial < 20000; trial++) {
		struct model_change c;
		enum model_mean mean = trial % 2 ? MODEL_HMEAN : MODEL_AMEAN;
		double conf = trial % 3 ? 0.95 : 0.99, scale = 1 + 99 * draw(&s);
		int ret;

		na = 1 + (unsigned)(draw(&s) * 8);
		nb = trial % 5 ? na : 1 + (unsigned)(draw(&s) * 8);
		for (i = 0; i < 9; i++) {
			/* a heavy right tail, as latencies have */
			a[i] = scale * (1 + 0.3 * draw(&s) / (0.05 + draw(&s)));
			b[i] = scale * (1 + 0.3 * draw(&s) / (0.05 + draw(&s))) *
			       (0.8 + 0.4 * draw(&s));
		}
		if (trial % 4 == 3 && na >= 2)
			ret = model_change_paired(a, b, na, mean, conf, &c);
		else if (na + nb >= 3)
			ret = model_change_of(a, na, b, nb, mean, conf, &c);
		else
			continue;
		CHECK(ret == 0);
		if (ret)
			continue;
		if (!(c.ci_lo <= c.change && c.change <= c.ci_hi)) {
			if (!bad++)
				CHECKF(0, "trial %u: change %g outside [%g, %g]", trial, c.change,
				       c.ci_lo, c.ci_hi);
		}
		if ((c.ci_lo > 0 || c.ci_hi < 0) != (c.p < 1 - conf) &&
		    fabs(c.p - (1 - conf)) > 1e-9)
			disagree++;
		/* the side's mean is the estimator named: Amean or Hmean */
		if (c.design != MODEL_PAIRED) {
			struct model_spread sp;

			CHECK(model_spread(a, na, &sp) == 0);
			CHECK_NEAR(c.a, mean == MODEL_HMEAN ? sp.hmean : sp.amean);
		}
	}
	CHECKF(bad == 0, "%u changes outside their interval", bad);
	CHECKF(disagree == 0, "%u intervals disagree with their p", disagree);
}

int main(void)
{
	test_spread();
	test_welch();
	test_t_cdf();
	test_t_quantile();
	test_edges();
	test_change();
	test_paired();
	test_mean_ci();
	test_adjust();
	test_verdicts();
	test_change_inside();
	return t_result();
}
