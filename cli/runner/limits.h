/* Resource limits answered before any worker starts: a configuration that
 * cannot fit fails in one line that names the need and the limit, rather
 * than as a worker's allocation failure, an EMFILE on the hundredth target
 * or the OOM killer halfway through. */
#ifndef CLI_LIMITS_H
#define CLI_LIMITS_H

#include <stdbool.h>

#include "cli/opts/opts.h"
#include "cli/runner/spec.h"

/* File descriptors and memory for one run of njobs workers on ntargets
 * targets (0 for nop) at s->qd x o->bs. Raises the soft RLIMIT_NOFILE to
 * the hard one where that suffices, silently. Returns 0; -EMFILE when even
 * the hard limit is too small; -ENOMEM when the workers' memory is more
 * than MemAvailable (each said). Never -EINVAL: both are facts of the
 * machine, not usage errors. */
int cli_limits_run(const struct cli_opts *o, const struct cli_run_spec *s, unsigned ntargets,
		   unsigned njobs, bool reads);
/* The same for o's whole command: every target with its s->jobs_per_device
 * workers at s->qd. */
int cli_limits_check(const struct cli_opts *o, const struct cli_run_spec *s);
/* Says once per process that io_uring read into unregistered buffers
 * because registering them failed with err (RLIMIT_MEMLOCK). */
void cli_limits_say_unfixed(const struct cli_opts *o, const struct cli_run_spec *s, int err);

#endif
