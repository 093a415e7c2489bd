/* One window of merged streams as a report: the devices (and hosts)
 * asked, each device's intervals added up, as cli_report rows, so the
 * table, the JSON, compare and plot read it as they read a run. */
#ifndef CLI_MERGE_VIEW_H
#define CLI_MERGE_VIEW_H

#include <stdbool.h>

#include "cli/merge/stream.h"
#include "cli/out/report.h"

/* Which devices and hosts: NULL lists take every one. A device is named
 * as the stream names it ("nvme0n1") or as "HOST:DEVICE"; a host by its
 * header's name (every stream of it) or its name in the report. */
struct mg_sel {
	char *const *dev;
	unsigned ndev;
	char *const *host;
	unsigned nhost;
};

/* One host's row: its devices added up, latency merged. */
struct mg_host_row {
	unsigned stream;
	unsigned ndev;
	struct cli_dev d;		/* name, counters, rates, hist owned */
};

struct mg_view {
	unsigned run;
	const char *label;		/* its window line's, "run" without one */
	struct cli_report r;
	struct mg_host_row *host;
	unsigned nhost;
	double t_lo, t_hi;		/* the time covered, seconds */
	unsigned nint;			/* intervals taken, every device's */
};

/* Whether the selection takes acc's device of stream s. */
bool mg_sel_takes(const struct mg_sel *sel, const struct mg_stream *s, const char *dev);
/* The windows (run indexes) that hold intervals sel takes, in increasing
 * order, into runs (up to max): their number. */
unsigned mg_runs(const struct mg_set *set, const struct mg_sel *sel, unsigned *runs,
		 unsigned max);
/* Window run of set, as sel asks, into v (command: the report's). 0 or
 * -ENOMEM (said). */
int mg_view_build(const struct mg_set *set, const struct mg_sel *sel, unsigned run,
		  const char *command, struct mg_view *v);
void mg_view_free(struct mg_view *v);

#endif
