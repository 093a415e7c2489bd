/* A lasting drop in a run's per-second IOPS: a step down, not noise. The
 * split of the seconds that maximises the fall of the mean from the
 * seconds before it to those after, with at least MODEL_DROP_MIN_S seconds
 * on each side, is a drop when the fall is at least MODEL_DROP_MIN_PCT of
 * the mean before and more than MODEL_DROP_K times the noise (the standard
 * deviation) of either side. A single slow second cannot fill a side and
 * raises the noise of the side it is in; a slow ramp's sides are as noisy
 * as its fall is large (a linear ramp's best split falls 3.5 standard
 * deviations of a side, below K). Pure: values only. */
#ifndef MODEL_DROP_H
#define MODEL_DROP_H

#include <stdbool.h>

#define MODEL_DROP_MIN_S 3		/* seconds on each side, at least */
#define MODEL_DROP_MIN_PCT 10.0		/* the fall, of the mean before */
#define MODEL_DROP_K 4.0		/* the fall, in standard deviations */

struct model_drop {
	unsigned at;			/* index of the first second after */
	double before, after;		/* mean IOPS of each side */
	double sd_before, sd_after;
	double fall_pct;		/* 100 * (before - after) / before */
};

/* Whether the n per-second values v hold a drop; d filled only when they
 * do. */
bool model_drop_find(const double *v, unsigned n, struct model_drop *d);

#endif
