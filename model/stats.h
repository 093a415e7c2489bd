/* The statistics behind `iostorm compare` and `check --measure`: the
 * spread of N repeated measurements of one figure, whether two such sets
 * differ by more than their noise (Welch's t-test, as mmtests'
 * compare-kernels marks a significant change; or paired rounds), the
 * change on the estimator that fits the figure, and the corrections for
 * testing many figures at once. Pure: figures in, figures out, nothing allocated.
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

/* How a figure's repeats (or runs) are summed up into one: by the
 * arithmetic mean, or by the harmonic mean (1 / the Amean of the
 * reciprocals). Which fits depends on how the repeats were bounded:
 * docs/compare.md, "One estimator per metric". */
enum model_mean { MODEL_AMEAN, MODEL_HMEAN };

/* The mean of the kind asked over n values, and its interval at conf
 * (Student's t with n - 1 df, on the reciprocals for HMEAN and mapped
 * back: hi may be INFINITY); lo and hi are NAN when n == 1. -EINVAL when
 * n == 0, conf is not in (0,1), a value is not finite or (HMEAN) not
 * > 0; -EDOM on overflow. Writes only on success. */
int model_mean_ci(const double *v, unsigned n, enum model_mean mean, double conf, double *m,
		  double *lo, double *hi);

/* How a change was tested. */
enum model_design {
	MODEL_WELCH,		/* two independent sets, two or more each:
				 * Welch's unequal-variance t-test */
	MODEL_ONE_VS_MANY,	/* one value against a set of two or more: the
				 * set's variance stands for both (Student's t,
				 * df = n - 1, se = s sqrt(1 + 1/n)) */
	MODEL_PAIRED,		/* rounds of a and b measured side by side
				 * (ABBA): the t-test of the rounds' differences */
};

/* A change of b against a: one estimator for the figure, its interval
 * and its test. With MODEL_HMEAN everything is done on the reciprocals,
 * whose Amean is 1 / the Hmean, and the interval mapped back; so the
 * change always lies inside its own interval, and the interval leaves
 * out 0 exactly when p < 1 - conf. */
struct model_change {
	enum model_design design;
	enum model_mean mean;
	unsigned na, nb;	/* values (rounds, for MODEL_PAIRED) */
	double a, b;		/* each side's mean of the kind asked */
	double change;		/* b / a - 1, a fraction */
	double ci_lo, ci_hi;	/* its interval at conf, fractions; ci_hi may
				 * be INFINITY (HMEAN, an interval of the
				 * reciprocals that reaches 0) */
	double t, df, p;	/* the test on the mean's own scale (values
				 * or reciprocals), t signed as the change;
				 * p two-sided */
	double noise;		/* one value's own spread, a fraction of a's
				 * mean on that scale: the pooled standard
				 * deviation of both sides (of a's only, for
				 * ONE_VS_MANY; of the differences / sqrt(2),
				 * for PAIRED). 0 when every value is equal */
};

/* b against a, independent sets: Welch when both have two values or
 * more, ONE_VS_MANY when one has a single value. -EINVAL when a side is
 * empty, both have one value (no spread to test against), conf is not in
 * (0,1), a value is not finite, or (HMEAN) not > 0, or a's mean is 0;
 * -EDOM on overflow. */
int model_change_of(const double *a, unsigned na, const double *b, unsigned nb,
		    enum model_mean mean, double conf, struct model_change *c);

/* Paired rounds: a[i] and b[i] were measured together (an ABBA round:
 * a[i] the mean of its two A runs, b[i] of its two B runs), so drift that
 * is slow next to a round cancels in the differences b[i] - a[i] (of the
 * reciprocals, for HMEAN). The test is Student's one-sample t on them,
 * df = n - 1. For `check --measure` and `compare --ab`. -EINVAL when
 * n < 2 or as model_change_of. */
int model_change_paired(const double *a, const double *b, unsigned n, enum model_mean mean,
			double conf, struct model_change *c);

/* Multiple comparisons: p-values of a family of tests adjusted so that
 * "adjusted p < alpha" controls the family-wise error rate (Holm's
 * step-down Bonferroni) or the false-discovery rate (Benjamini-Hochberg's
 * step-up), at alpha. order is scratch space for n indexes; adj gets the
 * n adjusted values, in p's order (adj may be p itself). -EINVAL when a
 * p is not in [0,1]. n == 0 is nothing to do. */
enum model_adjust { MODEL_HOLM, MODEL_BH };
int model_p_adjust(const double *p, unsigned n, enum model_adjust how, unsigned *order,
		   double *adj);

/* What each test of a family says: its p adjusted over the family (as
 * model_p_adjust, into adj), and where that is below alpha the
 * direction of its change (change[i]: a model_change's change), else no
 * difference. A change of 0 found certain is no difference too. -EINVAL
 * as model_p_adjust, or when alpha is not in (0,1); writes adj and v
 * only on success. */
enum model_verdict { MODEL_NO_DIFFERENCE, MODEL_HIGHER, MODEL_LOWER };
int model_verdicts(const double *change, const double *p, unsigned n, enum model_adjust how,
		   double alpha, unsigned *order, double *adj, enum model_verdict *v);

/* Student's t distribution: P(T <= t) with df > 0 degrees of freedom (df
 * may be fractional), and its inverse for p in (0,1). NAN for a NaN
 * argument, df <= 0, or p outside [0,1]; the quantile of 0 and 1 is
 * -INFINITY and INFINITY. */
double model_t_cdf(double t, double df);
double model_t_quantile(double p, double df);

/* The regularized incomplete beta function I_x(a, b), a, b > 0 and x in
 * [0, 1]: its continued fraction with Loader's saddle-point form of the
 * front factor, so it keeps its relative precision for a + b up to 1e15
 * (a binomial of that many IOs). NAN for a bad argument, or where the
 * fraction did not settle. */
double model_beta_inc(double a, double b, double x);

/* Binomial(n, p), 1 <= n < 2^53, 0 < p < 1, k an integer in [0, n]:
 * P(K <= k) into *le and P(K > k) into *gt, each computed as itself (the
 * small one is not 1 less the other), and P(K = k). -EINVAL for a bad
 * argument (NAN from the pmf), -EDOM where the fraction did not settle. */
int model_binom_tails(double k, double n, double p, double *le, double *gt);
double model_binom_pmf(double k, double n, double p);

#endif
