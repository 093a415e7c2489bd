/* What plan takes from a saturate report (--from saturate.json): each
 * device's solo QDn IOPS and, per node, the IOs per CPU-second its
 * devices' workers did in those solo steps, what SMT added (smt.ratio)
 * and the memory write bandwidth measured (ceiling.memory). */
#ifndef CLI_PLAN_FROM_H
#define CLI_PLAN_FROM_H

#include <stddef.h>

#include "cli/plan/plan.h"

struct cli_plan_from {
	struct cli_plan_rate *rates;
	unsigned nrates;
	struct cli_plan_cpu *cpus;
	unsigned ncpus;
	struct cli_plan_mem *mems;	/* ceiling.memory: measured per node */
	unsigned nmems;
	unsigned bs;			/* the report's config.bs; 0: none */
};

/* Reads path into f. 0; -errno when it cannot be read (err: why); -EINVAL
 * when it is no saturate report with solo QDn figures (err: one line
 * naming what is wrong). f is freed with cli_plan_from_free, whatever this
 * returned. */
int cli_plan_from_read(const char *path, struct cli_plan_from *f, char *err, size_t errlen);
void cli_plan_from_free(struct cli_plan_from *f);

#endif
