/* The dispatcher of a command's live figures: every measured window's
 * start, every interval set (cli/live/interval.h) and every event (a
 * stall, a device gone) go to each sink in one small table, from the
 * runner's reporting thread only, in order. A sink never reads the engine:
 * what it shows or writes comes from what it is handed here.
 *
 * The sinks: the live line (the runner adds it for each run it shows),
 * --stream (cli/live/stream.h, added once per command by main.c), and
 * --listen's Prometheus endpoint, which is added the same way (its start
 * hook, if it wants one, gets the setup record when the first run starts):
 *
 *	static void prom_interval(void *ctx, const struct cli_interval_set *s)
 *	{
 *		cli_prom_interval(ctx, s);
 *	}
 *	static const struct cli_live_sink prom_sink = { .interval = prom_interval };
 *	...
 *	cli_live_add(&prom_sink, p);	(after cli_prom_open)
 *	...
 *	cli_live_remove(&prom_sink, p);	(before cli_prom_close)
 */
#ifndef CLI_LIVE_H
#define CLI_LIVE_H

#include <jansson.h>
#include <stdint.h>

#include "cli/live/interval.h"
#include "cli/opts/opts.h"

/* The command's first run is about to start: every refusal is behind it,
 * no IO has been done. Once per command. */
struct cli_live_start {
	const struct cli_opts *o;	/* the command's options */
	const json_t *setup;		/* the setup record (cli/report/setup_json.h),
					 * as the report carries it; NULL: no memory */
};

/* A measured window starts. */
struct cli_live_window {
	unsigned run;			/* its index in the command */
	const char *label;		/* "run", "qd 32", ... */
	uint64_t wall_start_ns;		/* CLOCK_REALTIME */
	uint64_t interval_ns;		/* --interval */
	uint64_t time_ns;		/* its planned length; 0: --ios only */
	unsigned ndev;
	const char *const *devices;	/* their names, in the sets' order */
};

/* Something a reader should know at the moment it happened. */
struct cli_live_event {
	unsigned run;
	const char *device;		/* NULL: the whole window */
	double t_s;			/* seconds into the window */
	const char *what;		/* "stall", "error", "gone" */
	const char *text;		/* the line said on stderr */
};

struct cli_live_sink {
	void (*start)(void *ctx, const struct cli_live_start *s);
	void (*window)(void *ctx, const struct cli_live_window *w);
	void (*interval)(void *ctx, const struct cli_interval_set *s);
	void (*event)(void *ctx, const struct cli_live_event *e);
};

#define CLI_LIVE_MAX 8	/* sinks at once */

/* Adds (sink, ctx) to the table: 0, or -ENOSPC when it is full. */
int cli_live_add(const struct cli_live_sink *sink, void *ctx);
/* Removes (sink, ctx), if there. */
void cli_live_remove(const struct cli_live_sink *sink, void *ctx);

/* The command's start to every sink with a start, once per command (later
 * calls do nothing): the runner calls it after its last refusal, before
 * its first IO. The setup record is read here, once, if a sink wants it. */
void cli_live_start(const struct cli_opts *o);
/* Hand one window start, set or event to every sink, in the table's order. */
void cli_live_window(const struct cli_live_window *w);
void cli_live_interval(const struct cli_interval_set *s);
void cli_live_event(const struct cli_live_event *e);
/* The index the command's next window gets (0, 1, ...): one count per
 * command, so a sweep's steps and a saturate's measurements are told
 * apart. */
unsigned cli_live_next_run(void);

#endif
