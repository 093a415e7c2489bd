/* iostorm check's report: its findings as text and as JSON. */
#ifndef CLI_CHECK_CHECK_OUT_H
#define CLI_CHECK_CHECK_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "cli/check/check.h"
#include "cli/opts/opts.h"

/* One finding a paragraph: where, the setting now and what is better,
 * what it costs and where that figure comes from, the fix; then one line
 * saying how many settings cost IOPS. */
void cli_check_print(const struct cli_check *c, const struct cli_opts *o, FILE *f);
/* {"schema", "command": "check", "setup", "findings"}; NULL: no memory. */
json_t *cli_check_json(const struct cli_check *c);

#endif
