/* --steady: after each second of the measured window the runner asks
 * whether the last window of all devices' per-second IOPS (and mean
 * latency, where asked) is steady (model/steady.h), and stops when it is;
 * the report's figures are then rewritten as those of the window's
 * seconds, each device's latency merged from the timeline's kept
 * per-second histograms (cli_tl_keep). */
#ifndef CLI_RUNNER_STEADY_H
#define CLI_RUNNER_STEADY_H

#include <jansson.h>
#include <stdbool.h>

#include "cli/opts/opts.h"
#include "cli/report/record.h"
#include "cli/report/timeline.h"

struct cli_run_spec;	/* cli/runner/spec.h */

/* The window's seconds: --steady's DURATION. */
unsigned cli_steady_window(const struct cli_opts *o);
/* --steady against the other options and the run's: 0 or -EINVAL, said. */
int cli_steady_opts_check(const struct cli_opts *o, const struct cli_run_spec *s);
/* Looks at the last window of tl's total series; whether it is steady,
 * s filled (at_s where reached). */
bool cli_steady_check(const struct cli_opts *o, const struct cli_timeline *tl,
		      struct cli_steady *s);
/* Once reached: each device's IOs, errors, bytes, window, rates and
 * latency are those of its samples in the window, and the total is summed
 * again by the caller. 0, or -ERANGE where a sample's latency is no
 * longer kept. */
int cli_steady_apply(const struct cli_opts *o, const struct cli_timeline *tl,
		     const struct cli_steady *s, struct cli_report *out);
/* The report's steady: null without --steady. */
json_t *cli_steady_json(const struct cli_steady *s);
/* After the total is summed again: its IOs per call are the whole run's,
 * as each device's are (calls are counted for the whole run only). */
void cli_steady_total(struct cli_report *out);
/* The line under the table: reached, with its window, or never. */
void cli_steady_print(FILE *f, const struct cli_report *r);

#endif
