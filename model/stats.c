/* Spread of repeated runs, Welch's t-test, a change with its interval and
 * test on one estimator (independent sets or paired rounds), Holm's and
 * Benjamini-Hochberg's adjustments, and the Student t distribution they
 * need. P(|T| > t) is the regularized incomplete beta function
 * I_x(df/2, 1/2), x = df / (df + t^2): its continued fraction (Numerical
 * Recipes' betacf, modified Lentz) for small df and far tails, and an
 * asymptotic series where the fraction loses its precision (large df). */
/* Written here, not taken from GSL: GSL is GPL-3, iostorm is MIT. */
#include "model/stats.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#define LN_SQRT_PI 0.57236494292470008707	/* lgamma(1/2) */
#define LN_SQRT_2PI 0.91893853320467274178
#define SQRT_PI 1.77245385090551602730

/* Lentz's method divides by its partial numerators and denominators: one
 * that comes out 0 is nudged to this instead of dividing by zero. */
#define CF_TINY (DBL_MIN / DBL_EPSILON)
/* It is used below df = 50 or far out in the tail (x < 1/e), where it
 * settles within 30 steps (counted over df 0.05..1e13, |t| 1e-3..1e4). */
#define CF_MAXIT 1000u

static double nudge(double v)
{
	return fabs(v) < CF_TINY ? CF_TINY : v;
}

/* The continued fraction of I_x(a, b) / (x^a (1-x)^b / (a B(a, b))). It
 * converges fast only for x < (a + 1) / (a + b + 2): the caller uses
 * I_x(a, b) = 1 - I_{1-x}(b, a) for the rest. NAN if it did not settle. */
static double beta_cf_n(double a, double b, double x, double maxit)
{
	double c = 1, d = nudge(1 - (a + b) * x / (a + 1)), h;
	unsigned m;

	d = 1 / d;
	h = d;
	for (m = 1; m <= maxit; m++) {
		double m2 = 2.0 * m, num, del;

		num = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
		d = 1 / nudge(1 + num * d);
		c = nudge(1 + num / c);
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
		d = 1 / nudge(1 + num * d);
		c = nudge(1 + num / c);
		del = d * c;
		h *= del;
		if (fabs(del - 1) <= DBL_EPSILON)
			return h;
	}
	return NAN;
}

static double beta_cf(double a, double b, double x)
{
	return beta_cf_n(a, b, x, CF_MAXIT);
}

/* lgamma(a + 1/2) - lgamma(a). Taken directly, the difference of two
 * large lgammas keeps only their absolute precision (1e-9 at df = 1e6),
 * so from a = 50 on it comes from the difference of the two Stirling
 * series, whose first four terms leave an error below 1e-19 there. */
static double lgamma_half_step(double a)
{
	static const double c[] = { 1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680 };
	double s = 0, za = 1 / a, zb = 1 / (a + 0.5), za2 = za * za, zb2 = zb * zb;
	unsigned k;

	if (a < 50)
		return lgamma(a + 0.5) - lgamma(a);
	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		s += c[k] * (zb - za);
		za *= za2;
		zb *= zb2;
	}
	return 0.5 * log(a) + a * log1p(0.5 / a) - 0.5 + s;
}

/* log(1 / (sqrt(df) B(df/2, 1/2))): the log of the t density at 0. */
static double t_log_norm(double df)
{
	return lgamma_half_step(df / 2) - LN_SQRT_PI - 0.5 * log(df);
}

/* P(|T| >= |t|) = I_x(df/2, 1/2) by the continued fraction. x = 1 / (1 + u^2)
 * and 1 - x = u^2 / (1 + u^2) are both formed without a subtraction. */
static double t_tail2_cf(double df, double u, double u2, double w0)
{
	double a = df / 2, x, y, front;

	x = 1 / (1 + u2);
	y = u >= 1 ? 1 / (1 + 1 / u2) : u2 / (1 + u2);
	/* x^a (1-x)^(1/2) / B(a, 1/2) */
	front = exp(-a * w0 - 0.5 * log1p(1 / u2) + lgamma_half_step(a) - LN_SQRT_PI);
	if (x < (a + 1) / (a + 2.5))
		return front * beta_cf(a, 0.5, x) / a;
	return 1 - front * beta_cf(0.5, a, y) / 0.5;
}

/* Taylor coefficients of (sinh(w/2) / (w/2))^(-1/2) in w^2, worked out
 * as exact fractions (J.C.P. Miller's recurrence for a power of a series)
 * and rounded: 1, -1/48, 1/2560, -61/7741440, ... They shrink by (2 pi)^2
 * each, the radius of convergence being 2 pi. */
static const double asym_g[] = {
	1.00000000000000000e+00, -2.08333333333333322e-02, 3.90625000000000022e-04,
	-7.87967096560846585e-06, 1.69676657917217824e-07, -3.80506419172190625e-09,
	8.74837759631540668e-11, -2.04452335941197380e-12, 4.83335179796770420e-14,
	-1.15243410176738599e-15, 2.76605204359937013e-17, -6.67428195089165963e-19,
	1.61745507718158000e-20, -3.93397792009137993e-22,
};

/* Gamma(1/2, X) e^X = sqrt(pi) erfcx(sqrt(X)), which libm lacks; the
 * product below has erfc underflow and exp overflow past X = 708, while
 * from X = 50 on the asymptotic series of erfcx reaches a term below 1e-21
 * before it diverges. */
static double gamma_half_scaled(double X)
{
	double sum = 1, term = 1;
	unsigned k;

	if (X <= 50)
		return SQRT_PI * exp(X) * erfc(sqrt(X));
	for (k = 1; k < 100; k++) {
		term *= -(2.0 * k - 1) / (2 * X);
		sum += term;
		if (fabs(term) <= DBL_EPSILON / 4 * sum)
			break;
	}
	return sum / sqrt(X);
}

/* P(|T| >= |t|) for large df, where the continued fraction is useless:
 * with x near 1 each of its steps cancels down to 1 - x, so its error
 * grows as eps df / t^2 (1e-11 at df = 1e6, every digit at 1e12). Instead,
 * with x = e^-w, I_x(a, 1/2) = int_w0^inf e^-(a-1/4)w w^-1/2 g(w) dw / B,
 * g(w) = (sinh(w/2) / (w/2))^(-1/2); g's Taylor series integrates term by
 * term into upper incomplete gammas Gamma(2k+1/2, X), X = (a - 1/4) w0,
 * an asymptotic series in 1/(a - 1/4)^2 whose terms shrink by (2 pi)^2 or
 * more each, so their alternating signs cancel nothing. For a >= 25 and
 * w0 <= 1 they fall below 1e-18 within asym_g. */
static double t_tail2_asym(double df, double w0)
{
	double A = df / 2 - 0.25, X = A * w0, rA = 1 / sqrt(A);
	double s = 0.5, ws = sqrt(w0), u, sum;
	unsigned k, j;

	/* u = Gamma(s, X) e^X / A^(s - 1/2), stepped up by
	 * Gamma(s + 1, X) = s Gamma(s, X) + X^s e^-X */
	u = gamma_half_scaled(X);
	sum = u;
	for (k = 1; k < sizeof(asym_g) / sizeof(asym_g[0]); k++) {
		double term;

		for (j = 0; j < 2; j++) {
			u = s / A * u + ws * rA;
			ws *= w0;
			s += 1;
		}
		term = asym_g[k] * u;
		sum += term;
		if (fabs(term) <= DBL_EPSILON / 4 * sum)
			break;
	}
	return exp(lgamma_half_step(df / 2) - LN_SQRT_PI - X) * rA * sum;
}

/* The series needs a - 1/4 large; below df = 50 the continued fraction
 * loses at most eps df / t^2 < 1e-14 anyway. */
#define ASYM_DF 50

/* P(|T| >= |t|) for finite df > 0. Computed as the tail itself, not as
 * 1 - 2 P(T <= -|t|), so a small p-value keeps its relative precision.
 * With u = t / sqrt(df), u^2 overflowing or underflowing is taken care of. */
static double t_tail2(double t, double df)
{
	double u = fabs(t) / sqrt(df), u2 = u * u, w0;

	if (u2 == 0)
		return 1;
	/* -log(x); u itself overflows for df < 1 */
	w0 = isinf(u2) ? 2 * (log(fabs(t)) - 0.5 * log(df)) : log1p(u2);
	if (df >= ASYM_DF && w0 <= 1)
		return t_tail2_asym(df, w0);
	return t_tail2_cf(df, u, u2, w0);
}

double model_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	if (isinf(df))
		return 0.5 * erfc(-t / sqrt(2.0));
	tail = t_tail2(t, df) / 2;
	return t < 0 ? tail : 1 - tail;
}

static double t_density(double t, double df)
{
	if (isinf(df))
		return exp(-t * t / 2 - LN_SQRT_2PI);
	return exp(t_log_norm(df) - (df + 1) / 2 * log1p(t * t / df));
}

/* The t < 0 with model_t_cdf(t) = p < 1/2: Newton's method kept inside a
 * bracket that shrinks at every step, bisecting where a step would leave
 * it, so the far tails of small df (flat density, Newton overshoots) are
 * as safe as the centre. */
static double lower_quantile(double p, double df)
{
	double lo = -1, hi = 0, t;
	unsigned i;

	while (model_t_cdf(lo, df) > p) {
		hi = lo;
		lo *= 2;
		if (isinf(lo))
			return -INFINITY;
	}
	t = (lo + hi) / 2;
	for (i = 0; i < 400; i++) {
		double f = model_t_cdf(t, df) - p, next;

		if (f == 0)
			return t;
		if (f < 0)
			lo = t;
		else
			hi = t;
		next = t - f / t_density(t, df);
		if (!(next > lo && next < hi))
			next = lo + (hi - lo) / 2;
		if (fabs(next - t) <= 2 * DBL_EPSILON * fabs(next) ||
		    hi - lo <= 2 * DBL_EPSILON * fabs(lo))
			return next;
		t = next;
	}
	return t;
}

double model_t_quantile(double p, double df)
{
	if (isnan(p) || !(df > 0) || p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	if (p == 0.5)
		return 0;
	/* 1 - p is exact for p >= 1/2, and the t distribution is symmetric */
	if (p > 0.5)
		return -lower_quantile(1 - p, df);
	return lower_quantile(p, df);
}

/* ---- the incomplete beta and the binomial, for a percentile's ranks ---- */

/* Stirling's error: lgamma(z) less (z - 1/2) log z - z + log sqrt(2 pi).
 * From z = 15 on its series (terms in 1/z^2) is below 1e-16 after the
 * fifth term; below, lgamma itself is small enough to keep the digits. */
static double stirling_err(double z)
{
	double zz = 1 / (z * z);

	if (z < 15)
		return lgamma(z) - (z - 0.5) * log(z) + z - LN_SQRT_2PI;
	return (1.0 / 12 - zz * (1.0 / 360 - zz * (1.0 / 1260 - zz * (1.0 / 1680 -
							      zz / 1188)))) / z;
}

/* x log(x / m) + m - x, the deviance of x from m (Loader, "Fast and
 * accurate computation of binomial probabilities", 2000): where x is near
 * m both terms are huge and nearly cancel, so there it is the series
 * in v = (x - m) / (x + m), whose terms are all positive. */
static double deviance(double x, double m)
{
	double v, v2, s, ej, next;
	unsigned j;

	if (fabs(x - m) < 0.1 * (x + m)) {
		v = (x - m) / (x + m);
		v2 = v * v;
		s = (x - m) * v;
		ej = 2 * x * v;
		for (j = 1; j < 1000; j++) {
			ej *= v2;
			next = s + ej / (2 * j + 1);
			if (next == s)
				return s;
			s = next;
		}
		return s;
	}
	return x * log(x / m) + m - x;
}

/* log(x^a (1-x)^b / B(a, b)), y = 1 - x given apart so that neither is
 * rounded. Written as lgamma(a+b) - lgamma(a) - lgamma(b) + a log x +
 * b log y it would cancel terms of size (a+b) log(a+b) down to a few
 * units, leaving eps (a+b) log(a+b) of error (1e-3 relative at 1e12 IOs);
 * with Stirling's formula the large terms become two deviances, which are
 * small where the result is not negligible. */
static double beta_log_front(double a, double b, double x, double y)
{
	double s = a + b;

	return -deviance(a, x * s) - deviance(b, y * s) + 0.5 * log(a * b / s) - LN_SQRT_2PI +
	       stirling_err(s) - stirling_err(a) - stirling_err(b);
}

/* Both tails: I_x(a, b) into *lower and 1 - I_x(a, b) into *upper, each
 * computed as itself where it is the small one. The fraction needs about
 * sqrt(a b / (a + b)) steps near the centre of the distribution, so its
 * limit grows with that (a binomial of 1e12 IOs takes some 1e6). */
static int beta_inc2(double a, double b, double x, double y, double *lower, double *upper)
{
	double front, cf, maxit;

	if (x <= 0 || y >= 1) {
		*lower = 0;
		*upper = 1;
		return 0;
	}
	if (x >= 1 || y <= 0) {
		*lower = 1;
		*upper = 0;
		return 0;
	}
	maxit = CF_MAXIT + 20 * sqrt(a * b / (a + b));
	if (maxit > 4e9)
		return -EDOM;
	front = exp(beta_log_front(a, b, x, y));
	if (x < (a + 1) / (a + b + 2)) {
		cf = beta_cf_n(a, b, x, maxit);
		*lower = front * cf / a;
		*upper = 1 - *lower;
	} else {
		cf = beta_cf_n(b, a, y, maxit);
		*upper = front * cf / b;
		*lower = 1 - *upper;
	}
	return isnan(cf) ? -EDOM : 0;
}

double model_beta_inc(double a, double b, double x)
{
	double lower, upper;

	if (!(a > 0 && b > 0 && x >= 0 && x <= 1) || isinf(a) || isinf(b))
		return NAN;
	if (beta_inc2(a, b, x, 1 - x, &lower, &upper))
		return NAN;
	return lower;
}

int model_binom_tails(double k, double n, double p, double *le, double *gt)
{
	double q = 1 - p;

	if (!(n >= 1 && n < 0x1p53 && k >= 0 && k <= n && k == floor(k) && n == floor(n) &&
	      p > 0 && p < 1))
		return -EINVAL;
	if (k == n) {
		*le = 1;
		*gt = 0;
		return 0;
	}
	/* P(K <= k) = I_q(n - k, k + 1) (the k-th success comes later) */
	return beta_inc2(n - k, k + 1, q, p, le, gt);
}

double model_binom_pmf(double k, double n, double p)
{
	double q = 1 - p;

	if (!(n >= 1 && n < 0x1p53 && k >= 0 && k <= n && k == floor(k) && n == floor(n) &&
	      p > 0 && p < 1))
		return NAN;
	if (k == 0)
		return exp(n * log1p(-p));
	if (k == n)
		return exp(n * log(p));
	/* Loader's saddle point form: the same cancellation as beta_log_front */
	return exp(stirling_err(n) - stirling_err(k) - stirling_err(n - k) - deviance(k, n * p) -
		   deviance(n - k, n * q) + 0.5 * log(n / (k * (n - k))) - LN_SQRT_2PI);
}

/* model_spread, and the sample variance itself, which Welch needs
 * unrounded by a square root. */
static int spread(const double *v, unsigned n, struct model_spread *out, double *var)
{
	struct model_spread s = { .n = n, .hmean = NAN, .stddev = NAN, .cov = NAN };
	double sum = 0, rsum = 0, ss = 0;
	bool positive = true;
	unsigned i;

	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return -EINVAL;
	s.min = s.max = v[0];
	for (i = 0; i < n; i++) {
		s.min = fmin(s.min, v[i]);
		s.max = fmax(s.max, v[i]);
		sum += v[i];
		if (v[i] > 0)
			rsum += 1 / v[i];
		else
			positive = false;
	}
	/* A constant set's mean is its value exactly, so its variance is 0
	 * and not rounding noise that a t-test would read as a difference. */
	if (s.min == s.max) {
		s.amean = s.min;
	} else {
		/* values near DBL_MAX that are not all equal: their squared
		 * deviations would overflow anyway */
		if (!isfinite(sum))
			return -EDOM;
		s.amean = sum / n;
	}
	if (positive)
		s.hmean = n / rsum;
	/* two passes: the deviations from the mean, not sum(v^2) - n mean^2,
	 * which loses digits to cancellation when the spread is small next to
	 * the mean (IOPS of 1e6 that differ by 1e2 lose eight) */
	for (i = 0; i < n; i++) {
		double d = v[i] - s.amean;

		ss += d * d;
	}
	if (n >= 2) {
		*var = ss / (n - 1);
		s.stddev = sqrt(*var);
		if (!isfinite(s.stddev))
			return -EDOM;
		if (s.amean != 0)
			s.cov = s.stddev / s.amean;
	}
	*out = s;
	return 0;
}

int model_spread(const double *v, unsigned n, struct model_spread *s)
{
	double var;

	return spread(v, n, s, &var);
}

int model_welch(const double *a, unsigned na, const double *b, unsigned nb,
		double conf, struct model_welch *out)
{
	struct model_spread sa, sb;
	struct model_welch w;
	double va, vb, ga, gb, q;
	int ret;

	if (na < 2 || nb < 2 || !(conf > 0 && conf < 1))
		return -EINVAL;
	ret = spread(a, na, &sa, &va);
	if (!ret)
		ret = spread(b, nb, &sb, &vb);
	if (ret)
		return ret;
	ga = va / na;
	gb = vb / nb;
	w.diff = sb.amean - sa.amean;
	w.se = sqrt(ga + gb);
	if (!isfinite(w.diff) || !isfinite(w.se))
		return -EDOM;
	if (w.se == 0) {
		/* no noise at all: any difference is certain, none is none */
		w.df = (double)na + nb - 2;
		w.t = w.diff == 0 ? 0 : copysign(INFINITY, w.diff);
		w.p = w.diff == 0 ? 1 : 0;
		w.ci_lo = w.ci_hi = w.diff;
	} else {
		/* the Welch-Satterthwaite df in the shares of se^2, so that
		 * squaring tiny variances cannot underflow to 0 / 0 */
		double fa = ga / (ga + gb), fb = gb / (ga + gb);

		w.t = w.diff / w.se;
		w.df = 1 / (fa * fa / (na - 1) + fb * fb / (nb - 1));
		w.p = t_tail2(w.t, w.df);
		/* the lower tail's (1 - conf) / 2 is exact where conf is near 1 */
		q = -model_t_quantile((1 - conf) / 2, w.df);
		if (isnan(w.p) || isnan(q))
			return -EDOM;
		w.ci_lo = w.diff - q * w.se;
		w.ci_hi = w.diff + q * w.se;
	}
	*out = w;
	return 0;
}

/* ---- a change, its interval and its test, on one estimator ---- */

/* Value i on the mean's own scale: itself, or its reciprocal for HMEAN;
 * with a given, b[i]'s less a[i]'s (a paired difference). */
static double scaled(const double *a, const double *b, unsigned i, enum model_mean mean)
{
	double x = mean == MODEL_HMEAN ? 1 / b[i] : b[i];

	if (a)
		x -= mean == MODEL_HMEAN ? 1 / a[i] : a[i];
	return x;
}

/* The mean and the sum of squared deviations of the scaled values. A
 * constant set's mean is its value exactly and its deviations 0, so that
 * rounding is never read as noise. */
static int moments(const double *a, const double *b, unsigned n, enum model_mean mean,
		   double *m, double *ss)
{
	double sum = 0, first, d;
	bool constant = true;
	unsigned i;

	for (i = 0; i < n; i++)
		if (!isfinite(b[i]) || (a && !isfinite(a[i])) ||
		    (mean == MODEL_HMEAN && (!(b[i] > 0) || (a && !(a[i] > 0)))))
			return -EINVAL;
	first = scaled(a, b, 0, mean);
	for (i = 0; i < n; i++) {
		d = scaled(a, b, i, mean);
		constant &= d == first;
		sum += d;
	}
	if (!isfinite(sum))
		return -EDOM;
	*m = constant ? first : sum / n;
	*ss = 0;
	for (i = 0; i < n && !constant; i++) {
		d = scaled(a, b, i, mean) - *m;
		*ss += d * d;
	}
	return isfinite(*ss) ? 0 : -EDOM;
}

int model_mean_ci(const double *v, unsigned n, enum model_mean mean, double conf, double *m,
		  double *lo, double *hi)
{
	double mv, ss, h, l = NAN, u = NAN;
	int ret;

	if (!n || !(conf > 0 && conf < 1) || (mean != MODEL_AMEAN && mean != MODEL_HMEAN))
		return -EINVAL;
	ret = moments(NULL, v, n, mean, &mv, &ss);
	if (ret)
		return ret;
	if (n >= 2) {
		h = -model_t_quantile((1 - conf) / 2, n - 1) * sqrt(ss / (n - 1) / n);
		if (isnan(h))
			return -EDOM;
		l = mv - h;
		u = mv + h;
		if (mean == MODEL_HMEAN) {
			/* a larger reciprocal is a smaller figure */
			l = 1 / (mv + h);
			u = mv - h > 0 ? 1 / (mv - h) : INFINITY;
		}
	}
	*m = mean == MODEL_HMEAN ? 1 / mv : mv;
	*lo = l;
	*hi = u;
	return 0;
}

/* The test of the difference d (on the mean's scale, b's less a's, a's
 * mean being ma) with standard error se and df degrees of freedom, and
 * the change and its interval mapped back from that scale. */
static int change_finish(struct model_change *c, double ma, double d, double se, double df,
			 double conf)
{
	double lo = d, hi = d, q;

	if (!isfinite(d) || !isfinite(se))
		return -EDOM;
	if (se == 0) {
		/* no noise at all: any difference is certain, none is none */
		c->t = d == 0 ? 0 : copysign(INFINITY, d);
		c->p = d == 0 ? 1 : 0;
	} else {
		c->t = d / se;
		c->p = t_tail2(c->t, df);
		/* the lower tail's (1 - conf) / 2 is exact where conf is near 1 */
		q = -model_t_quantile((1 - conf) / 2, df);
		if (isnan(c->p) || isnan(q))
			return -EDOM;
		lo = d - q * se;
		hi = d + q * se;
	}
	c->df = df;
	if (c->mean == MODEL_AMEAN) {
		c->a = ma;
		c->b = ma + d;
		c->change = d / ma;
		c->ci_lo = (ma > 0 ? lo : hi) / ma;
		c->ci_hi = (ma > 0 ? hi : lo) / ma;
	} else {
		/* the Hmean is 1 / the reciprocals' Amean: a larger
		 * reciprocal is a smaller figure, so the ends swap */
		c->a = 1 / ma;
		c->b = 1 / (ma + d);
		c->t = -c->t;
		c->change = ma / (ma + d) - 1;
		c->ci_lo = ma / (ma + hi) - 1;
		c->ci_hi = ma + lo > 0 ? ma / (ma + lo) - 1 : INFINITY;
	}
	return 0;
}

int model_change_of(const double *a, unsigned na, const double *b, unsigned nb,
		    enum model_mean mean, double conf, struct model_change *out)
{
	struct model_change c = { .mean = mean, .na = na, .nb = nb };
	double ma, mb, ssa, ssb, va, vb, ga, gb, se, df;
	int ret;

	if (!na || !nb || (na < 2 && nb < 2) || !(conf > 0 && conf < 1) ||
	    (mean != MODEL_AMEAN && mean != MODEL_HMEAN))
		return -EINVAL;
	ret = moments(NULL, a, na, mean, &ma, &ssa);
	if (!ret)
		ret = moments(NULL, b, nb, mean, &mb, &ssb);
	if (ret)
		return ret;
	if (ma == 0)
		return -EINVAL;
	if (na >= 2 && nb >= 2) {
		c.design = MODEL_WELCH;
		va = ssa / (na - 1);
		vb = ssb / (nb - 1);
		ga = va / na;
		gb = vb / nb;
		se = sqrt(ga + gb);
		/* Welch-Satterthwaite, in the shares of se^2 (no underflow) */
		df = ga + gb > 0 ? 1 / ((ga / (ga + gb)) * (ga / (ga + gb)) / (na - 1) +
					(gb / (ga + gb)) * (gb / (ga + gb)) / (nb - 1)) :
				   (double)na + nb - 2;
		c.noise = sqrt((ssa + ssb) / (na + nb - 2)) / fabs(ma);
	} else {
		/* the single value is one more draw of the set's spread */
		unsigned n = na >= 2 ? na : nb;
		double v = (na >= 2 ? ssa : ssb) / (n - 1);

		c.design = MODEL_ONE_VS_MANY;
		se = sqrt(v * (1 + 1.0 / n));
		df = n - 1;
		c.noise = sqrt(v) / fabs(ma);
	}
	ret = change_finish(&c, ma, mb - ma, se, df, conf);
	if (ret)
		return ret;
	*out = c;
	return 0;
}

int model_change_paired(const double *a, const double *b, unsigned n, enum model_mean mean,
			double conf, struct model_change *out)
{
	struct model_change c = { .design = MODEL_PAIRED, .mean = mean, .na = n, .nb = n };
	double ma, ssa, md, ssd, sd;
	int ret;

	if (n < 2 || !(conf > 0 && conf < 1) || (mean != MODEL_AMEAN && mean != MODEL_HMEAN))
		return -EINVAL;
	ret = moments(NULL, a, n, mean, &ma, &ssa);
	if (!ret)
		ret = moments(a, b, n, mean, &md, &ssd);
	if (ret)
		return ret;
	if (ma == 0)
		return -EINVAL;
	sd = sqrt(ssd / (n - 1));
	/* a difference holds the noise of two runs */
	c.noise = sd / sqrt(2.0) / fabs(ma);
	ret = change_finish(&c, ma, md, sd / sqrt((double)n), n - 1, conf);
	if (ret)
		return ret;
	*out = c;
	return 0;
}

/* ---- multiple comparisons ---- */

int model_p_adjust(const double *p, unsigned n, enum model_adjust how, unsigned *order,
		   double *adj)
{
	double run, v;
	unsigned i, j, k;

	for (i = 0; i < n; i++)
		if (!(p[i] >= 0 && p[i] <= 1))
			return -EINVAL;
	if (how != MODEL_HOLM && how != MODEL_BH)
		return -EINVAL;
	/* ascending p, ties in their given order (an insertion sort: a
	 * family is hundreds of tests, not millions) */
	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && p[order[j - 1]] > p[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	if (how == MODEL_HOLM) {
		/* step down: the k-th smallest (from 0) times n - k, never
		 * below the one before it */
		for (k = 0, run = 0; k < n; k++) {
			v = fmin(1, (double)(n - k) * p[order[k]]);
			run = fmax(run, v);
			adj[order[k]] = run;
		}
		return 0;
	}
	/* step up: the k-th smallest (from 1) times n / k, never above the
	 * one after it */
	for (k = n, run = 1; k > 0; k--) {
		v = fmin(1, (double)n / k * p[order[k - 1]]);
		run = fmin(run, v);
		adj[order[k - 1]] = run;
	}
	return 0;
}

int model_verdicts(const double *change, const double *p, unsigned n, enum model_adjust how,
		   double alpha, unsigned *order, double *adj, enum model_verdict *v)
{
	unsigned i;
	int ret;

	if (!(alpha > 0 && alpha < 1))
		return -EINVAL;
	ret = model_p_adjust(p, n, how, order, adj);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		v[i] = !(adj[i] < alpha) || change[i] == 0 ? MODEL_NO_DIFFERENCE :
		       change[i] > 0 ? MODEL_HIGHER : MODEL_LOWER;
	return 0;
}
