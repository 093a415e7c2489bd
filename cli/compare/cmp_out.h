/* compare's report: the table per compared side and its setup changes
 * on the text stream, and the JSON (docs/json.md, compare). */
#ifndef CLI_COMPARE_CMP_OUT_H
#define CLI_COMPARE_CMP_OUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/compare/ab.h"
#include "cli/compare/compare.h"
#include "cli/opts/opts.h"

/* The table of each side against the base, after a head that states the
 * tests, the corrections and the estimators (bound: how the repeats were
 * bounded; ab: --ab's sides, or NULL). */
void cmp_out_text(FILE *f, const struct cli_opts *o, const struct cmp_group *base,
		  const struct cmp_side *side, unsigned nside, const struct cmp_family *fam,
		  struct cmp_bound bound, const struct cmp_ab *ab);
/* The JSON to o->json; gate: --fail-worse was met. 0 or -EIO, said. */
int cmp_out_json(const struct cli_opts *o, const struct cmp_group *base,
		 const struct cmp_side *side, unsigned nside, const struct cmp_family *fam,
		 struct cmp_bound bound, const struct cmp_ab *ab, bool gate);

#endif
