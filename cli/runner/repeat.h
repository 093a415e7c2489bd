/* --repeat N: N full measurements of one spec, one after the other, each
 * with its own ramp, gathered into one report: every device's figures over
 * all repeats together (IOs and windows summed, latency merged, timelines
 * end to end) and each repeat's own figures in cli_dev.reps, from which
 * the table's spread and 'iostorm compare' work. */
#ifndef CLI_RUNNER_REPEAT_H
#define CLI_RUNNER_REPEAT_H

#include "cli/opts/opts.h"
#include "cli/report/report.h"
#include "cli/runner/runner.h"

/* Called after each repeat with that repeat's own report (1-based r),
 * before it is merged: latency prints the rest of its seconds there. */
typedef void (*cli_repeat_fn)(void *ctx, const struct cli_report *one, unsigned r);

/* cli_runner_run spec->repeat times (at least once) into out (free with
 * cli_report_free, also after a failure). The first repeat's failure is
 * the return value, as for cli_runner_run; a later one is said, and out
 * keeps the repeats before it (out->repeats says how many). A repeat that
 * was interrupted, stalled or lost a device is the last. each (NULL: none)
 * sees every repeat. 0 or -errno, said. */
int cli_runner_repeat(const struct cli_opts *o, const struct cli_run_spec *spec,
		      struct cli_report *out, cli_repeat_fn each, void *ctx);

#endif
