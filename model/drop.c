/* The step down in a per-second series: see drop.h. */
#include "model/drop.h"

#include <math.h>

/* Mean and standard deviation of m values that sum to s, squares to q. */
static void side(double s, double q, unsigned m, double *mean, double *sd)
{
	double var;

	*mean = s / m;
	var = q / m - *mean * *mean;
	*sd = var > 0 ? sqrt(var) : 0.0;
}

bool model_drop_find(const double *v, unsigned n, struct model_drop *d)
{
	double s = 0, q = 0, sa = 0, qa = 0;
	struct model_drop best = { 0 }, x;
	unsigned i;
	bool found = false;

	if (n < 2 * MODEL_DROP_MIN_S)
		return false;
	for (i = 0; i < n; i++) {
		sa += v[i];
		qa += v[i] * v[i];
	}
	/* s, q: the seconds before i; sa - s, qa - q: from i on */
	for (i = 0; i + MODEL_DROP_MIN_S <= n; i++) {
		if (i >= MODEL_DROP_MIN_S) {
			x.at = i;
			side(s, q, i, &x.before, &x.sd_before);
			side(sa - s, qa - q, n - i, &x.after, &x.sd_after);
			if (x.before > 0 &&
			    (!found || x.before - x.after > best.before - best.after)) {
				best = x;
				found = true;
			}
		}
		s += v[i];
		q += v[i] * v[i];
	}
	if (!found)
		return false;
	best.fall_pct = 100.0 * (best.before - best.after) / best.before;
	if (best.fall_pct < MODEL_DROP_MIN_PCT ||
	    best.before - best.after <= MODEL_DROP_K * best.sd_before ||
	    best.before - best.after <= MODEL_DROP_K * best.sd_after)
		return false;
	*d = best;
	return true;
}
