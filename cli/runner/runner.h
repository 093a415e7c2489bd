/* One measured run of the engine, reusable by every command: build the
 * jobs for targets opened by cli/runner/targets.h, ramp, measure with a
 * live line, stop on the time, the IO count or SIGINT/SIGTERM
 * (cli/runner/stop.h), and gather per-device figures. Each measured
 * window and each of its intervals goes to the live sinks
 * (cli/live/live.h: the live line, --stream, --listen) as it happens.
 * Errors are printed here as one line; every call returns 0 or -errno
 * (-EINVAL: the options do not fit, a usage error; see cli_exit_status). */
#ifndef CLI_RUNNER_H
#define CLI_RUNNER_H

#include <stdbool.h>

#include "cli/opts/opts.h"
#include "cli/report/report.h"
#include "cli/runner/spec.h"
#include "cli/report/timeline.h"
#include "engine/engine.h"
#include "engine/target.h"

/* Runs spec with options o and fills out (free with cli_report_free, also
 * after a failure). 0 or -errno, said: -EINVAL only for options that do
 * not fit; a worker or the kernel refusing is another -errno. An
 * interrupted run still returns 0 with out->interrupted set; IOs that
 * completed with an error are in out, not in the return value. */
int cli_runner_run(const struct cli_opts *o, const struct cli_run_spec *spec,
		   struct cli_report *out);
/* --rate: an open loop runs on io_uring, one ring per worker, at least
 * one IO per second per worker. 0, or -EINVAL said (a usage error);
 * cli_runner_run checks it too. */
int cli_runner_rate_check(const struct cli_run_spec *s);

#endif
