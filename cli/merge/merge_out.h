/* What merge says beside the report it shares with run: the window it
 * covered, a row per host and the cluster's, how each stream ended, and
 * the JSON keys that carry them (docs/merge.md). */
#ifndef CLI_MERGE_OUT_H
#define CLI_MERGE_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "cli/merge/stream.h"
#include "cli/merge/view.h"
#include "cli/opts/opts.h"

/* "merge: run 0 ("run") of 2 streams from 2 hosts: ..." */
void mg_print_head(FILE *f, const struct mg_set *set, const struct mg_view *v,
		   const struct cli_opts *o);
/* A row per host and the cluster's (the report's total): IOPS, MiB/s,
 * merged percentiles, errors. */
void mg_print_hosts(FILE *f, const struct mg_view *v, const struct mg_set *set);
/* How far apart the windows of v's devices started, by their hosts'
 * clocks (seconds); -1 with fewer than two that say. */
double mg_start_spread(const struct mg_view *v);
/* One line on stderr per stream that did not end by itself, or was cut
 * short, or had bad lines. */
void mg_say_ends(const struct mg_set *set);
/* The keys merge adds to the report (cli_report_output's extra):
 * "config" and "setup" of the first stream in v, "hosts", "merge". New
 * reference, NULL: no memory. */
json_t *mg_json_extra(const struct mg_set *set, const struct mg_view *v, const struct cli_opts *o,
		      const struct mg_sel *sel, const unsigned *runs, unsigned nruns);

/* The report of v, as run's cli_report_output writes one: the table,
 * then with --json the JSON, each device's lat_ns with the "cdf" and
 * "above" of its merged histogram, and extra's keys (mg_json_extra).
 * 0 or -errno said; -EIO also when a device had IO errors, once all is
 * written. */
int mg_report_output(const struct mg_view *v, const struct cli_opts *o, json_t *extra);

#endif
