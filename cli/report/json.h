/* The report as JSON (schema "iostorm/1"), built with jansson. The shape is
 * documented in docs/json.md. */
#ifndef CLI_JSON_H
#define CLI_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "cli/opts/opts.h"
#include "cli/report/out.h"
#include "cli/report/record.h"

/* {"mean", "stddev", "min", "p50", ..., "max"} in ns, and "cdf" where the
 * device keeps its histogram, or JSON null when the device has no latency
 * figures. New reference. */
json_t *cli_json_lat(const struct cli_dev *d);
/* The same from a cli_lat, whether it has figures, and its histogram
 * (NULL: no "cdf"). */
json_t *cli_json_lat_of(const struct cli_lat *l, bool has, const struct eng_hist *h);
/* A percentile's 95% interval as the reports write every interval
 * (docs/json.md, "Intervals"): [lo, hi], an unbounded end null; null
 * where none was worked out. */
json_t *cli_json_ci(const struct model_pct_ci *c);
/* Every option of o as an object. New reference. */
json_t *cli_json_config(const struct cli_opts *o, const struct cli_report *r);
/* One device's figures. New reference. */
/* [{t_s, dt_s, ios, iops, mean_ns, p50_ns, p99_ns, max_ns}], latency
 * null in a sample without it; NULL when out of memory. */
json_t *cli_json_timeline(const struct cli_tl_series *tl);
json_t *cli_json_dev(const struct cli_dev *d);
/* d's workers' CPU time and its cost per IO: {"user_s", "sys_s", "ios",
 * "user_ns_per_io", "sys_ns_per_io", "ios_per_cpu_s", "user_share"}, a
 * figure null where it cannot be worked out (docs/json.md, shape `cpu`).
 * New reference. */
json_t *cli_json_cpu(const struct cli_dev *d);
/* What placement noted of the workers' places: {"notes": [{"kind",
 * "device", "text"}], "dropped"}, the facts as the words say them on
 * stderr; null where nothing placed them (n NULL: docs/json.md,
 * placement_notes). New reference. */
json_t *cli_json_place_notes(const struct topo_notes *n);
/* The whole report; NULL when out of memory. New reference. */
json_t *cli_json_report(const struct cli_report *r, const struct cli_opts *o);
/* The same with "devices" an empty array, for cli_out_json_rows to fill
 * a device at a time (cli_json_dev) as it writes. */
json_t *cli_json_report_head(const struct cli_report *r, const struct cli_opts *o);

/* d's "open_loop" object (docs/json.md), JSON null for a closed loop
 * (cli/report/openloop.h keeps its figures). */
json_t *cli_open_json(const struct cli_dev *d);

#endif
