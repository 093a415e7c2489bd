/* The figures each repeat of a measurement keeps (--repeat), named once:
 * the JSON's `repeats` object, the table's spread lines and 'iostorm
 * compare' read this table. */
#ifndef CLI_REPORT_SPREAD_H
#define CLI_REPORT_SPREAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/report/record.h"
#include "model/stats.h"

enum cli_metric {
	CLI_M_IOPS, CLI_M_MEAN, CLI_M_P50, CLI_M_P99, CLI_M_P999,
	CLI_M_CPU_USER, CLI_M_CPU_SYS, CLI_M_IOS_PER_CPU,	/* model/cost.h */
	CLI_NMETRICS
};

struct cli_metric_desc {
	const char *key;	/* in repeats.runs[] and repeats: "lat_p99_ns" */
	const char *label;	/* in tables: "p99" */
	const char *what;	/* in titles: "p99 latency" */
	bool rate;		/* a rate: summed up by its harmonic mean, and
				 * higher is better; else a time (ns): the
				 * arithmetic mean, and lower is better */
	const char *obj, *field;	/* where a record (a device, a total, a
					 * sweep point) holds its own figure:
					 * rec.obj.field, rec.field where obj
					 * is NULL */
};

extern const struct cli_metric_desc cli_metrics[CLI_NMETRICS];
/* Their keys, NULL-terminated: the names an option choosing one takes. */
extern const char *const cli_metric_keys[CLI_NMETRICS + 1];

/* The metric named key ("lat_p99_ns"), or -1. */
int cli_metric_by_key(const char *key);
/* A record's own figure of metric m (cli_metric_desc's obj and field);
 * NULL where it has none. */
const json_t *cli_metric_of_record(const json_t *rec, enum cli_metric m);

/* The estimator that pools metric m over repeats, runs or rounds bounded
 * alike: by_ios (--ios: equal IOs each) or else equal time, open_loop
 * (--rate: the IOs held). docs/compare.md, "One estimator per metric":
 * the one table of it, which compare and check --measure read. */
enum model_mean cli_mean_of(enum cli_metric m, bool by_ios, bool open_loop);

/* d's own figures as one repeat's. */
void cli_rep_of(const struct cli_dev *d, struct cli_rep *x);
/* Metric m of one repeat; NAN where it has no latency, or no cost (no
 * IO, no CPU time). */
double cli_rep_value(const struct cli_rep *x, enum cli_metric m);
/* d's repeats as {"n", "runs": [...], "iops": spread, "lat_mean_ns": ...}
 * (docs/json.md, shape `repeats`): a device of one run (no reps) is one
 * repeat of its own figures. NULL when out of memory. New reference. */
json_t *cli_json_repeats(const struct cli_dev *d);
/* The spread over repeats, one line per row (devices, then the total where
 * there are several), when r holds more than one repeat; nothing else. */
void cli_spread_print(FILE *f, const struct cli_report *r);
/* Its parts: the title lines (what: the first column's name) and one row,
 * its name padded to namew. */
void cli_spread_head(FILE *f, unsigned n, const char *what, int namew);
void cli_spread_row(FILE *f, const struct cli_dev *d, int namew);

#endif
