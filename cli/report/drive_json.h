/* A target's drive account (cli/runner/drive.h) as JSON: the "drive"
 * object of a report's devices, and the facts of it the setup record
 * carries (docs/json.md, shapes `drive` and `smart`). */
#ifndef CLI_REPORT_DRIVE_JSON_H
#define CLI_REPORT_DRIVE_JSON_H

#include <jansson.h>

#include "cli/runner/drive.h"

/* {"zero_read_pct", "zero_sampled", "smart_before", "smart_after",
 * "smart_change"}; null for no account (nop, a report read back). */
json_t *cli_json_drive(const struct cli_drive *d);
/* The share that read as zeros, null where not sampled. */
json_t *cli_json_zero_pct(const struct cli_drive *d);
/* The names of the warning bits set before the run, null where the log
 * was not read. */
json_t *cli_json_warnings_before(const struct cli_drive *d);

#endif
