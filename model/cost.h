/* What a measurement cost in CPU: the workers' user and system time per IO
 * completed, IOs per CPU-second, and the share of it spent in user space
 * (iostorm's own code; the rest is the kernel's). Pure: CPU seconds and an
 * IO count in, figures out. A total is the same computation on the summed
 * CPU time and summed IOs, so devices add up to it (never an average of
 * their ratios). */
#ifndef MODEL_COST_H
#define MODEL_COST_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* A figure that cannot be worked out: a cost per IO without any IO, IOs
 * per CPU-second or a share without any CPU time. Test with
 * model_cost_known() before printing; JSON writes it as null. */
#define MODEL_COST_UNKNOWN (-INFINITY)

struct model_cost {
	double user_ns_per_io;		/* user CPU time per IO, ns */
	double sys_ns_per_io;		/* system CPU time per IO, ns */
	double ios_per_cpu_s;		/* IOs per second of user+sys time */
	double user_share;		/* user / (user + sys), 0..1 */
};

/* The cost of ios IOs (good and failed) that took user_s and sys_s
 * seconds of the workers' CPU time. 0, or -EINVAL for a negative or
 * non-finite time (c untouched). Without IOs every figure is unknown;
 * without CPU time (a window shorter than the clock's tick) the costs
 * per IO are 0 and the rate and share unknown. */
int model_cost(double user_s, double sys_s, uint64_t ios, struct model_cost *c);
bool model_cost_known(double v);

#endif
