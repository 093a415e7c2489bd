/* --listen's place among the live sinks: see listen.h. */
#include "cli/live/listen.h"

#include <errno.h>
#include <stdbool.h>

#include "cli/live/live.h"
#include "cli/live/prom.h"
#include "cli/opts/opts.h"
#include "cli/report/out.h"

static struct cli_prom *prom;
static uint64_t linger_ns;
static _Atomic bool fed;	/* an interval came: a refused command does not linger */

static void on_start(void *ctx, const struct cli_live_start *s)
{
	if (s->setup)
		cli_prom_setup(ctx, s->setup, s->o->latency);
}

/* the window's devices by the names its sets give them: a file target's
 * differs from its disk's in the setup record */
static void on_window(void *ctx, const struct cli_live_window *w)
{
	cli_prom_window(ctx, w->run, w->label, w->ndev, w->devices);
}

static void on_interval(void *ctx, const struct cli_interval_set *s)
{
	fed = true;
	cli_prom_interval(ctx, s);
}

static const struct cli_live_sink sink = {
	.start = on_start, .window = on_window, .interval = on_interval,
};

/* The endpoint has no authentication and no TLS: said where another host
 * can reach it (the command goes on) */
static void say_reach(const char *where, enum cli_prom_reach r)
{
	if (r == CLI_PROM_ANY)
		cli_say("--listen %s: the metrics are served unauthenticated to every network "
			"this host is on", where);
	else if (r == CLI_PROM_ADDR)
		cli_say("--listen %s: the metrics are served unauthenticated to the network of "
			"that address", where);
}

int cli_listen_open(const char *where, uint64_t linger)
{
	char err[256];
	int rc;

	if (!where || prom)
		return 0;
	rc = cli_prom_open(&prom, where, NULL, err, sizeof(err));
	if (rc) {
		cli_say("%s", err);
		return rc;
	}
	if (cli_live_add(&sink, prom)) {
		cli_say("--listen %s: too many live sinks", where);
		cli_prom_close(prom, 0);
		prom = NULL;
		return -ENOSPC;
	}
	linger_ns = linger;
	/* the port the kernel chose for PORT 0 is known only here */
	cli_say("metrics on %s", cli_prom_url(prom));
	say_reach(where, cli_prom_reach(prom));
	return 0;
}

/* The wait after the report, said, so that the command does not look hung:
 * how long, and how to end it (what cli_prom_close waits for) */
static void say_linger(uint64_t ns)
{
	char d[32];

	cli_fmt_duration(ns, d, sizeof(d));
	cli_say("serving the final figures at %s for %s more (--linger 0 skips this; "
		"Ctrl-C %s it)", cli_prom_url(prom), d,
		cli_prom_stopped(prom) ? "again ends" : "ends");
}

void cli_listen_close(void)
{
	if (!prom)
		return;
	cli_live_remove(&sink, prom);
	if (fed && linger_ns)
		say_linger(linger_ns);
	cli_prom_close(prom, fed ? linger_ns : 0);
	prom = NULL;
}
