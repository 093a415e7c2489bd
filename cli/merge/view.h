/* One window of merged streams as a report: the devices (and hosts)
 * asked, each device's intervals added up, as cli_report rows, so the
 * table, the JSON, compare and plot read it as they read a run. A row
 * holds no histogram of its own (37 KiB each): its latency figures are
 * worked out from its accumulators' sparse ones, which mg_view_hist
 * expands again where a figure needs the whole (the JSON's cdf); the
 * total keeps its histogram. Names from the streams are shown with their
 * control characters escaped (cli_put_escaped). */
#ifndef CLI_MERGE_VIEW_H
#define CLI_MERGE_VIEW_H

#include <stdbool.h>

#include "cli/merge/stream.h"
#include "cli/report/report.h"

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
	struct cli_dev d;		/* name, counters, rates, lat; no hist */
};

struct mg_view {
	unsigned run;
	const char *label;		/* its window line's, "run" without one */
	struct cli_report r;		/* r.dev[i].hist NULL, tl borrowed from
					 * the set; r.total.hist the merged */
	const struct mg_acc **acc;	/* r.dev[i]'s accumulator */
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
/* The latency histogram of v's device i (host false) or host row i
 * (host true) into h (reset first). */
void mg_view_hist(const struct mg_view *v, bool host, unsigned i, struct eng_hist *h);
void mg_view_free(struct mg_view *v);

#endif
