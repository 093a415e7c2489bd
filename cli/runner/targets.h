/* The targets a command runs: opened and checked before any IO, closed
 * by whoever opened them (cli/runner/targets.c). */
#ifndef CLI_RUNNER_TARGETS_H
#define CLI_RUNNER_TARGETS_H

#include "cli/opts/opts.h"
#include "engine/target.h"

struct cli_targets {
	struct eng_target *t;
	unsigned n;
};

/* Opens o->targets: checks each one's kind and size, that no device is
 * listed twice, and that --bs and --range fit its logical block size.
 * 0 or -errno, said: -EINVAL when the options do not fit a target (a
 * usage error); a target that cannot be opened is any other -errno (a
 * file system refusing O_DIRECT too). */
int cli_targets_open(struct cli_targets *ts, const struct cli_opts *o);
void cli_targets_close(struct cli_targets *ts);

/* Every NVMe namespace of this machine as "/dev/NAME", at most
 * CLI_MAX_TARGETS (said when there are more): the count, with *paths a
 * malloc'd array of malloc'd strings (NULL for 0; free with
 * cli_nvme_paths_free); 0 without a topology; -ENOMEM, said. */
int cli_nvme_paths(char ***paths);
void cli_nvme_paths_free(char **paths, unsigned n);

#endif
