/* --listen [ADDR:]PORT: a Prometheus endpoint for a command's length.
 * The runner's reporting thread hands every interval set to
 * cli_prom_interval, which adds it to the command's cumulative figures
 * and renders them, once; the server's one thread (libmicrohttpd)
 * answers each GET /metrics with that text. Nothing here touches the
 * engine or the workers. docs/prometheus.md lists the metrics and the
 * server's limits. */
#ifndef CLI_LIVE_PROM_H
#define CLI_LIVE_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <jansson.h>

#include "cli/live/interval.h"

struct cli_prom;

/* --listen's value: PORT, ADDR:PORT or [ADDR6]:PORT, ADDR numeric; no ADDR:
 * 127.0.0.1. PORT 0 takes a free one. 0, or -EINVAL with one line in err
 * (the option's parser calls it too, so a bad value is a usage error). */
int cli_prom_parse_listen(const char *listen, struct sockaddr_storage *ss,
			  socklen_t *len, char *err, size_t errlen);
/* Binds listen and starts serving (no metric yet but the setup's info
 * metric, from setup: cli_json_setup's record, or NULL). Called before any
 * IO. 0, or -errno with one line in err: -EINVAL for a bad value,
 * -EADDRINUSE, -EADDRNOTAVAIL, -EACCES, ... from bind. */
int cli_prom_open(struct cli_prom **out, const char *listen, const json_t *setup,
		  char *err, size_t errlen);
/* The setup record read once the command's targets are known (the info
 * metric's labels, each device served at 0), replacing open's; latency:
 * the command times its IOs, so each device's histogram is served at 0
 * too. */
void cli_prom_setup(struct cli_prom *p, const json_t *setup, bool latency);
/* The port it listens on (the one the kernel chose for PORT 0). */
unsigned cli_prom_port(const struct cli_prom *p);
/* Where a scraper finds it: "http://ADDR:PORT/metrics", the address and
 * port bound ([ADDR6] for IPv6). */
const char *cli_prom_url(const struct cli_prom *p);
/* Who can reach the address it listens on. */
enum cli_prom_reach {
	CLI_PROM_LOOPBACK,	/* this host only: 127.0.0.0/8, ::1 */
	CLI_PROM_ANY,		/* every interface: 0.0.0.0, :: */
	CLI_PROM_ADDR,		/* the network of one address of this host */
};
enum cli_prom_reach cli_prom_reach(const struct cli_prom *p);
/* A measured window starts (cli/live/live.h's window): index run in the
 * command, its label, the names its interval sets will give its ndev
 * devices, each served at 0 from now where it was not yet. From the
 * reporting thread only. */
void cli_prom_window(struct cli_prom *p, unsigned run, const char *label, unsigned ndev,
		     const char *const *devices);
/* Adds one interval set to the figures served: counters add up over the
 * command, across a sweep's windows; gauges take the set's values. From
 * the reporting thread only. */
void cli_prom_interval(struct cli_prom *p, const struct cli_interval_set *s);
/* Whether a stop request had come by the last interval: then only a
 * second one ends the linger (cli_prom_close). */
bool cli_prom_stopped(struct cli_prom *p);
/* Serves the final figures for linger_ns more, then stops the server
 * (at once, whatever connections clients hold) and frees p. A stop request (SIGINT, SIGTERM: cli/runner/stop.h) that comes
 * after the last interval ends the wait; where one had already stopped the
 * command before it, the second one does. NULL: nothing. */
void cli_prom_close(struct cli_prom *p, uint64_t linger_ns);

#endif
