/* A row per host and the cluster's (hosts.h). */
#include "cli/report/hosts.h"

#include "cli/report/out.h"

#define NAMEW 20

void cli_hosts_head(FILE *f)
{
	fprintf(f, "%-*s %6s %10s %9s %8s %8s %8s %7s\n", NAMEW, "host", "drives", "IOPS", "MiB/s",
		"p50 us", "p99 us", "p99.99", "errors");
}

static void put_lat(FILE *f, const struct cli_dev *d, unsigned k, unsigned *marks)
{
	char buf[32];

	fprintf(f, " %8s", cli_fmt_pct(buf, sizeof(buf), &d->lat, d->has_lat, k, marks));
}

void cli_hosts_row(FILE *f, const char *name, unsigned drives, const struct cli_dev *d,
		   unsigned *marks)
{
	fprintf(f, "%-*s %6u", NAMEW, name, drives);
	if (!d) {
		fprintf(f, " %10s\n", "-");
		return;
	}
	fprintf(f, " %10.0f %9.1f", d->iops, d->bw_bytes / CLI_MIB);
	put_lat(f, d, 0, marks);	/* p50 */
	put_lat(f, d, 2, marks);	/* p99 */
	put_lat(f, d, 4, marks);	/* p99.99 */
	fprintf(f, " %7llu\n", (unsigned long long)d->errors);
}

void cli_hosts_merged_line(FILE *f, uint64_t ios, unsigned marks)
{
	fprintf(f, "latency: merged over every IO of every host (%llu IOs)\n",
		(unsigned long long)ios);
	cli_pct_legend(f, marks);
}
