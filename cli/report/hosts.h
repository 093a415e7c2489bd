/* The rows of a report over several hosts: one per host and the
 * cluster's, with the percentiles of the hosts' histograms merged bucket
 * by bucket (never an average of percentiles). iostorm-mpi run and
 * iostorm merge print them alike. */
#ifndef CLI_REPORT_HOSTS_H
#define CLI_REPORT_HOSTS_H

#include <stdint.h>
#include <stdio.h>

#include "cli/report/report.h"

/* The column heads: host, drives, IOPS, MiB/s, p50 us, p99 us, p99.99,
 * errors. */
void cli_hosts_head(FILE *f);
/* One row: d's IOPS, bandwidth, latency (has_lat, lat) and errors; d NULL
 * for a host that measured nothing ("-"). The percentiles are marked as
 * every table marks them (cli_fmt_pct), the marks or'ed into *marks. */
void cli_hosts_row(FILE *f, const char *name, unsigned drives, const struct cli_dev *d,
		   unsigned *marks);
/* "latency: merged over every IO of every host (N IOs)", and the line
 * that explains the rows' marks. */
void cli_hosts_merged_line(FILE *f, uint64_t ios, unsigned marks);

#endif
