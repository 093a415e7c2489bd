/* Steady state of a window: see steady.h. */
#include "model/steady.h"

#include <math.h>

bool model_steady(const double *v, unsigned n, double pct, struct model_steady *s)
{
	double sum = 0, sxy = 0, sxx = 0, xm = (n - 1) / 2.0, d, slope;
	unsigned i;

	*s = (struct model_steady){ 0 };
	if (n < 2)
		return false;
	for (i = 0; i < n; i++)
		sum += v[i];
	s->mean = sum / n;
	if (s->mean <= 0)
		return false;
	for (i = 0; i < n; i++) {
		d = fabs(v[i] - s->mean);
		if (100.0 * d / s->mean > s->dev_pct)
			s->dev_pct = 100.0 * d / s->mean;
		sxy += (i - xm) * (v[i] - s->mean);
		sxx += (i - xm) * (i - xm);
	}
	slope = sxy / sxx;
	s->slope_pct = 100.0 * fabs(slope) * n / s->mean;
	return s->dev_pct <= pct && s->slope_pct <= pct;
}
