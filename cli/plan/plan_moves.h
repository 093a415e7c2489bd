/* plan's moves in words and JSON: where the free slots came from (said
 * once), each move with the ceiling after it (an assumed slot marked),
 * why the plan stops, and the ceiling once every move is done. */
#ifndef CLI_PLAN_MOVES_H
#define CLI_PLAN_MOVES_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/plan/ceil_out.h"
#include "cli/plan/plan.h"
#include "model/ceiling.h"

/* m after model_ceil_plan; s its figures before the moves; export: the
 * topology is an lstopo file (else this machine). */
void cli_plan_moves_print(FILE *out, const struct model_ceil *m, const struct cli_plan *p,
			  const struct cli_ceil_snap *s, bool export);
/* [{device, from: {host_bridge, port}, to: {host_bridge, port, node},
 * ceiling_after, assumed}] */
json_t *cli_plan_moves_json(const struct model_ceil *m, const struct cli_plan *p);
/* {source, count, host_bridges} */
json_t *cli_plan_slots_json(const struct model_ceil *m, const struct cli_plan *p);
/* {predicted_iops, binding, binding_kind, binding_text, stop} */
json_t *cli_plan_after_json(const struct model_ceil *m);

#endif
