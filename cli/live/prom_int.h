/* Inside --listen: the cumulative figures the endpoint serves and their
 * text (prom_metrics.c), and the HTTP server's limits (prom.c), which a
 * test may set. */
#ifndef CLI_LIVE_PROM_INT_H
#define CLI_LIVE_PROM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "cli/live/interval.h"
#include "cli/live/prom.h"

/* The latency histogram's bounds (le): CLI_PROM_PER_OCTAVE per power of
 * two, from 2^CLI_PROM_LE_LO ns (1.024 us) to 2^CLI_PROM_LE_HI ns (1.07 s),
 * each the lower edge of an engine bucket (engine/hist.h: 128 per power of
 * two), so that a bound never splits one and a bucket's count is exact. 16
 * a power of two: a bound at most 6.25% above the one below, which keeps
 * histogram_quantile within 5% of the report's percentiles
 * (docs/prometheus.md: "The latency histogram"). */
#define CLI_PROM_PER_OCTAVE 16
#define CLI_PROM_LE_LO 10
#define CLI_PROM_LE_HI 30
#define CLI_PROM_NLE ((CLI_PROM_LE_HI - CLI_PROM_LE_LO) * CLI_PROM_PER_OCTAVE + 1)
/* Bound k (0 .. CLI_PROM_NLE - 1) in ns. */
uint64_t cli_prom_le_ns(unsigned k);

/* One device's figures over the command so far. */
struct cli_prom_dev {
	char *name;
	uint64_t ios, bytes, errors, user_ns, sys_ns, measured_ns;
	uint64_t inflight;		/* at its last interval's end */
	bool has_lat;			/* some interval had latency */
	uint64_t lat_count, lat_sum_ns;
	uint64_t below[CLI_PROM_NLE];	/* samples below each le */
	uint64_t created_ns;		/* CLOCK_REALTIME when served at 0:
					 * OpenMetrics' _created */
};

/* A device of the setup record, for the info metric. */
struct cli_prom_info {
	char *device, *model, *firmware;
};

struct cli_prom_state {
	struct cli_prom_dev *dev;
	unsigned ndev, cap;
	bool latency;			/* the command times its IOs: every
					 * device's histogram served from 0 */
	char le[CLI_PROM_NLE][24];	/* the bounds as le values */
	bool have_window;		/* an interval set has come */
	unsigned run;			/* the last set's window */
	char *label;
	char *version, *hostname, *kernel;
	struct cli_prom_info *info;
	unsigned ninfo;
};

/* The info metric's labels from the setup record (NULL: none). 0 or
 * -ENOMEM. */
int cli_prom_state_init(struct cli_prom_state *st, const json_t *setup);
/* The same labels from another record, those before dropped (the devices'
 * figures kept), and whether the command times its IOs. 0 or -ENOMEM. */
int cli_prom_state_setup(struct cli_prom_state *st, const json_t *setup, bool latency);
/* A measured window starts: its devices served at 0 where they are not yet
 * (a file target is named by its disk in the setup record), and it is the
 * window the info metric names. 0 or -ENOMEM. */
int cli_prom_state_window(struct cli_prom_state *st, unsigned run, const char *label,
			  unsigned ndev, const char *const *devices);
/* Adds set to the figures. 0 or -ENOMEM (a new device not added: st as
 * it was). */
int cli_prom_state_add(struct cli_prom_state *st, const struct cli_interval_set *set);
/* The figures as text: OpenMetrics 1.0 (with # EOF) or the classic text
 * format 0.0.4. 0 or -ENOMEM; *out is malloc'd. */
int cli_prom_render(const struct cli_prom_state *st, bool openmetrics, char **out,
		    size_t *len);
void cli_prom_state_free(struct cli_prom_state *st);

/* What one client, and all of them, may hold of the server
 * (docs/prometheus.md says why each number). */
struct cli_prom_limits {
	unsigned conns;		/* connections at once, all clients */
	unsigned conns_per_ip;	/* of them from one client address; 0: any */
	unsigned idle_s;	/* a connection idle this long is closed */
	size_t mem;		/* each connection's memory for its request */
};

/* The limits cli_prom_open starts the server with. */
extern const struct cli_prom_limits cli_prom_limits;

/* cli_prom_open with limits lim. */
int cli_prom_open_limits(struct cli_prom **out, const char *listen, const json_t *setup,
			 const struct cli_prom_limits *lim, char *err, size_t errlen);

#endif
