/* The table that shows what a run measured (the record, cli/report/record.h)
 * and the report's output: the table, then the JSON (cli/report/json.c). */
#ifndef CLI_REPORT_H
#define CLI_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "cli/opts/opts.h"
#include "cli/report/record.h"

/* One line per device that had errors, like "loop3: 13628 errors from
 * 3.02s: first EIO (Input/output error), most EIO". */
void cli_report_print_errors(FILE *f, const struct cli_report *r);
/* d's user+sys CPU time per IO in ns, as the tables show it: "-" where
 * unknown. buf is returned. */
const char *cli_fmt_cost(char *buf, size_t len, const struct cli_dev *d);

/* Sums the devices into r->total (merging histograms when present). */
int cli_report_total(struct cli_report *r);
/* The table alone on cli_out_text(o): what cli_report_output prints first
 * (merge builds its JSON itself). -EIO when any device had an IO error,
 * else 0. */
int cli_report_print(const struct cli_report *r, const struct cli_opts *o);
/* The table on cli_out_text(o), then the JSON where --json asks for it,
 * with extra's keys (NULL: none) after the report's own. 0 or -errno,
 * said: -EIO also when any device had an IO error, once all is written. */
int cli_report_output(const struct cli_report *r, const struct cli_opts *o,
		      json_t *extra);

#endif
