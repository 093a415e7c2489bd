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

int main(void)
{
	test_spread();
	test_welch();
	test_t_cdf();
	test_t_quantile();
	test_edges();
	return t_result();
}
