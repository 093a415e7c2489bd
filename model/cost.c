/* The CPU cost per IO (cost.h). */
#include "model/cost.h"

#include <errno.h>

bool model_cost_known(double v)
{
	return isfinite(v) && v >= 0;
}

int model_cost(double user_s, double sys_s, uint64_t ios, struct model_cost *c)
{
	double cpu_s = user_s + sys_s;

	if (!isfinite(user_s) || !isfinite(sys_s) || user_s < 0 || sys_s < 0)
		return -EINVAL;
	c->user_ns_per_io = ios ? 1e9 * user_s / (double)ios : MODEL_COST_UNKNOWN;
	c->sys_ns_per_io = ios ? 1e9 * sys_s / (double)ios : MODEL_COST_UNKNOWN;
	/* no CPU time at all: too short for the clock, not free */
	c->ios_per_cpu_s = ios && cpu_s > 0 ? (double)ios / cpu_s : MODEL_COST_UNKNOWN;
	c->user_share = ios && cpu_s > 0 ? user_s / cpu_s : MODEL_COST_UNKNOWN;
	return 0;
}
