/* The knee and the p99 doubling of a sweep, on given figures. */
#include "model/sweep.h"

int model_sweep_knee(const double *iops, unsigned n)
{
	double best = -1;
	unsigned i;

	for (i = 0; i < n; i++)
		if (iops[i] > best)
			best = iops[i];
	if (best <= 0)
		return -1;
	for (i = 0; i < n; i++)
		if (iops[i] >= MODEL_SWEEP_KNEE_FRAC * best)
			return (int)i;
	return -1;
}

int model_sweep_p99_double(const double *p99, unsigned n)
{
	unsigned i;

	if (!n || p99[0] <= 0)
		return -1;
	for (i = 1; i < n; i++)
		if (p99[i] >= 2.0 * p99[0])
			return (int)i;
	return -1;
}
