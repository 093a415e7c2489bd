/* The statistics behind `iostorm compare`: the spread of N repeated
 * measurements of one figure, and whether two such sets differ by more
 * than their noise (Welch's t-test, as mmtests' compare-kernels marks a
 * significant change). Pure: figures in, figures out, nothing allocated.
 * Every call returns 0 or -errno and writes its out-parameter only on
 * success. */
#ifndef MODEL_STATS_H
#define MODEL_STATS_H

struct model_spread {
	unsigned n;
	double min, max;
	double amean;		/* arithmetic mean */
	double hmean;		/* harmonic mean; NAN when a value is <= 0 */
	double stddev;		/* sample standard deviation (n - 1); NAN when n < 2 */
	double cov;		/* stddev / amean (a fraction, not %, signed as
				 * amean is); NAN when n < 2 or amean == 0 */
};

/* -EINVAL when n == 0 or v holds a NaN/inf; -EDOM when their sum or
 * squared deviations overflow a double (values past about 1e154 that are
 * not all equal). */
int model_spread(const double *v, unsigned n, struct model_spread *s);

struct model_welch {
	double diff;		/* amean(b) - amean(a) */
	double se;		/* sqrt(va/na + vb/nb) */
	double t;		/* diff / se; 0 when both are constant and equal,
				 * +-INFINITY when constant and different */
	double df;		/* Welch-Satterthwaite degrees of freedom; with
				 * both variances 0: na + nb - 2 */
	double p;		/* two-sided p-value */
	double ci_lo, ci_hi;	/* the `conf` confidence interval of diff
				 * (conf = 0.95 for 95%) */
};

/* Welch's unequal-variance t-test of b against a. -EINVAL when na < 2 or
 * nb < 2 (never significance from a single run), conf not in (0,1), or a
 * value is not finite; -EDOM where model_spread says so, or when the
 * difference of the means overflows. */
int model_welch(const double *a, unsigned na, const double *b, unsigned nb,
		double conf, struct model_welch *w);

/* Student's t distribution: P(T <= t) with df > 0 degrees of freedom (df
 * may be fractional), and its inverse for p in (0,1). NAN for a NaN
 * argument, df <= 0, or p outside [0,1]; the quantile of 0 and 1 is
 * -INFINITY and INFINITY. */
double model_t_cdf(double t, double df);
double model_t_quantile(double p, double df);

#endif
