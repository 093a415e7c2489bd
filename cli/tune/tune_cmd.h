/* iostorm tune as a whole: what `iostorm tune` runs after reading its
 * command line, and what each host runs under `iostorm-mpi tune`
 * (docs/tune.md). */
#ifndef CLI_TUNE_CMD_H
#define CLI_TUNE_CMD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/opts/opts.h"

struct tune;

/* Everything before the search's first run, from o (its targets named,
 * o->write_config the path this host writes): the refusals, the job
 * file's path checked and reserved, the targets opened, the plan (a
 * budget too short for it refused) and the never-written targets refused,
 * each said in one line. text: where the search's words go. o is read
 * until tune_close. 0 with *out, or -errno (*out NULL). */
int tune_open(const struct cli_opts *o, FILE *text, struct tune **out);
/* The plan said, the search, the job file written and run from the file,
 * the settings check names, the words at the end. 0 or -errno; the figures
 * measured are in tune_json whatever it returns. */
int tune_go(struct tune *t);
/* The report's "tune" object (docs/json.md). */
json_t *tune_json(const struct tune *t);
/* The whole report: {"schema", "command": "tune", "tune", "setup"}, what
 * `iostorm tune --json` writes and each host's under iostorm-mpi. */
json_t *tune_report_json(const struct tune *t);
/* A device stalled: its workers still hold the targets, which must be
 * left (cli_command_abandon), not closed. */
bool tune_stalled(const struct tune *t);
bool tune_interrupted(const struct tune *t);
/* Closes what tune_open opened; NULL: nothing. */
void tune_close(struct tune *t);

#endif
