/* compare's report: the table per compared report and its setup changes
 * on the text stream, and the JSON (docs/json.md, compare). */
#ifndef CLI_COMPARE_CMP_OUT_H
#define CLI_COMPARE_CMP_OUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/compare/compare.h"
#include "cli/opts/opts.h"

/* The table of each side against the base (o->targets[0]); cmd[i] is
 * report i's command. */
void cmp_out_text(FILE *f, const struct cli_opts *o, const char *const *cmd,
		  const struct cmp_side *side, unsigned nside);
/* The JSON to o->json; gate: --fail-worse was met. 0 or -EIO, said. */
int cmp_out_json(const struct cli_opts *o, const char *const *cmd,
		 const struct cmp_side *side, unsigned nside, bool gate);

#endif
