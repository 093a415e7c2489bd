/* One interval of a measured window: the single source that the live line,
 * the report's timeline, --stream (JSON lines) and --listen (Prometheus)
 * read. The runner's reporting thread builds one set per interval
 * (--interval, 1 s by default) from an engine snapshot and hands it to
 * every sink; no sink reads the engine itself, and nothing here is on the
 * hot path. The last set of a window is the final figures less the last
 * snapshot, so a window's intervals add up to its report exactly. */
#ifndef CLI_LIVE_INTERVAL_H
#define CLI_LIVE_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/hist.h"

/* One device's (or all devices') figures over [t0_s, t1_s). */
struct cli_interval {
	const char *device;		/* its name; NULL: the total */
	double t0_s, t1_s;		/* seconds into the measured window:
					 * on the --interval grid (k x interval),
					 * where the interval was taken; the
					 * window's last ends at its end */
	double t1_seen_s;		/* when the workers' counts were read,
					 * just after t1_s (the last: t1_s) */
	uint64_t ios, bytes, errors;	/* completed in the interval */
	uint64_t inflight;		/* IOs in flight at t1_s */
	uint64_t cpu_ns;		/* the workers' CPU time in it, exact */
	uint64_t user_ns, sys_ns;	/* its tick-sampled split (cli/live/
					 * cpu.h): good to about a tick */
	const struct eng_hist *hist;	/* its latencies; NULL without
					 * latency (the same clock as the
					 * report: from schedule with --rate) */
};

/* Every device's interval and the total's, for one interval of one
 * measured window of a command. */
struct cli_interval_set {
	unsigned run;			/* the window's index in the command:
					 * a sweep's step, a repeat, 0 for one */
	const char *label;		/* the window's label ("run", "qd 32") */
	uint64_t wall_start_ns;		/* CLOCK_REALTIME at the window's start */
	bool last;			/* the window's final interval */
	unsigned ndev;
	const struct cli_interval *dev;	/* ndev of them */
	const struct cli_interval *total;
};

#endif
