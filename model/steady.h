/* Steady state, as fio's steadystate has it: a window of per-second
 * values is steady when every value stays within pct of the window's mean
 * and the least-squares line through them rises or falls by less than pct
 * of the mean over the window (its slope times the window's length), so
 * a slow drift within the band is not steady. Pure: values only. */
#ifndef MODEL_STEADY_H
#define MODEL_STEADY_H

#include <stdbool.h>

struct model_steady {
	double mean;
	double dev_pct;		/* the largest |v - mean|, % of the mean */
	double slope_pct;	/* |slope| * n, % of the mean */
};

/* Whether the n values v (n >= 2, seconds apart) are steady within pct
 * (0-100); s filled either way (n < 2 or a mean of 0: not steady). */
bool model_steady(const double *v, unsigned n, double pct, struct model_steady *s);

#endif
