/* A solved ceiling model as the reports show it: the resources in report
 * order with their figures, taken before any move changes them, the
 * sentence that names the binding resource, the table and the JSON.
 * Shared by plan and saturate. */
#ifndef CLI_CEIL_OUT_H
#define CLI_CEIL_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "model/ceiling.h"

/* The figures of a solved model, kept: model_ceil_plan changes them. */
struct cli_ceil_snap {
	struct model_ceil_fig *fig;
	unsigned *idx;		/* report order */
	unsigned n;
	double predicted, demand;
	int binding;
};

/* 0 or -ENOMEM; free with cli_ceil_snap_free, also after a failure. */
int cli_ceil_snap_take(const struct model_ceil *m, struct cli_ceil_snap *s);
void cli_ceil_snap_free(struct cli_ceil_snap *s);
/* "the link at 0000:20:01.1 holds its 1 drive to 869802 IOPS" */
void cli_ceil_binding_text(char *buf, size_t len, const struct model_ceil *m,
			   const struct cli_ceil_snap *s);
/* The table: one row per resource a drive uses. */
void cli_ceil_print(FILE *out, const struct model_ceil *m, const struct cli_ceil_snap *s);
/* [{kind, name, demand_iops, capacity_iops, predicted_iops, utilization,
 * node, implied}] */
json_t *cli_ceil_resources_json(const struct model_ceil *m, const struct cli_ceil_snap *s);

#endif
