/* --group: the devices whose workers are placed on one CPU share one
 * worker thread and one io_uring ring (eng_job.group). */
#ifndef CLI_GROUP_H
#define CLI_GROUP_H

#include "cli/runner/spec.h"
#include "engine/engine.h"

/* Whether --group refuses the run's options (one line said, -EINVAL): on
 * needs io_uring rings, so neither libaio nor SQ polling. */
int cli_group_check(const struct cli_run_spec *s);

/* Gives the jobs pinned to one CPU one group, when --group and the
 * completion mode ask for it, and says once per process which devices
 * share which CPU's worker (names[i]: job i's device). Returns how many
 * jobs share a worker. */
unsigned cli_group_jobs(const struct cli_run_spec *s, enum eng_mode mode, struct eng_job *jobs,
			unsigned n, const char *const *names);

#endif
