/* iostorm check --measure: for each runtime-changeable setting that costs
 * IOPS on the targets (scheduler, iostats, nomerges, wbt), a short A/B
 * alternating over rounds, at --qd and at QD1, judged as compare --ab
 * judges (the paired t-test, Holm over the session); every
 * setting restored after, also on SIGINT/SIGTERM, and from the journal
 * left by a crash at the next `check` (cli/check/restore.h). */
#ifndef CLI_CHECK_MEASURE_H
#define CLI_CHECK_MEASURE_H

#include <jansson.h>

#include "cli/opts/opts.h"
#include "model/check.h"
#include "setup/setup.h"

/* Measures the findings f[0..nf) whose kind is runtime-changeable, on
 * devs[i] (o->targets[i]); prints its table unless o->json is "-"; adds
 * "measured" to root when root is not NULL. 0 or -errno (said). Restores
 * every setting it changed before it returns. */
int cli_check_measure(const struct cli_opts *o, const struct setup_dev *devs,
		      unsigned ndevs, const struct check_finding *f, unsigned nf,
		      json_t *root);

#endif
