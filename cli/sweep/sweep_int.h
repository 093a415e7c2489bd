/* Inside sweep: what only its own files share. cmd_sweep.c parses and
 * dispatches, sweep_run.c runs the points, sweep_text.c says them,
 * sweep_summary.c reads the curve, sweep_json.c writes the report and
 * sweep_slo.c runs sweep --slo (on cli/slo). Calls go one way: cmd_sweep.c
 * calls the others, sweep_run.c, sweep_summary.c and sweep_slo.c call
 * sweep_text.c and sweep_json.c (sweep_slo.c also sweep_run.c's maximum),
 * which call nothing back. */
#ifndef CLI_SWEEP_INT_H
#define CLI_SWEEP_INT_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/opts/opts.h"
#include "cli/opts/qd_list.h"
#include "cli/report/report.h"
#include "cli/runner/targets.h"
#include "cli/sweep/rate_list.h"

/* sweep --rate: the depth limit of every rate (and the closed loop that
 * finds the maximum) unless --qd names one */
#define RATE_QD 32
#define BEFORE_POINTS UINT_MAX
_Static_assert(CLI_MAX_RATES <= CLI_MAX_QDS, "a point per rate");


/* One target's figures at one depth, for the JSON's by_device: its row
 * of the point's report, without histogram, CPUs or samples; its repeats
 * owned. */
struct pdev {
	struct cli_dev d;
};

struct point {
	uint32_t qd;
	/* sweep --rate: the load (% of each target's maximum; < 0: rates
	 * given as such) and the value of the list's entry */
	bool rated;
	double load_pct, rate;
	bool done;
	bool partial;		/* cut short by a stop request: its figures
				 * cover the part of its window measured */
	bool unfixed;		/* read into unregistered buffers */
	unsigned ndev;		/* the targets it ran: those no earlier
				 * depth saw fail */
	struct cli_dev total;	/* hist NULL */
	struct pdev *dev;	/* ndev entries once done; owned */
};

/* Per target: why it failed at some depth ("" while healthy); from then on
 * it is left out of the deeper points. */
struct failed {
	char why[CLI_MAX_TARGETS][96];
	unsigned at[CLI_MAX_TARGETS];	/* index of the point it failed at;
					 * BEFORE_POINTS: in sweep --rate's
					 * closed-loop maximum, before any */
	bool any;
	bool stalled;		/* a stalled device's workers are still in
				 * the kernel: end with cli_command_abandon */
};


struct sweep {
	const struct cli_opts *o;
	const struct cli_targets *ts;
	const struct point *pt;
	unsigned n;		/* depths asked for */
	unsigned m;		/* depths measured, a prefix */
	unsigned lo, hi;	/* the curve: [lo, hi) ran one healthy set */
	const struct failed *fl;
	bool interrupted;	/* a stop request ended it */
	/* sweep --rate with loads: each target's closed-loop IOPS at qd */
	const double *max;
	bool has_max;
	/* placement's notes of the first run (the maximum's, where there
	 * is one); NULL where nothing placed the workers */
	const struct topo_notes *place_notes;
};

/* sweep_run.c: the points in turn, a row each to f (0 or -errno, said);
 * sweep --rate with loads: the closed-loop maximum first, into max. Each
 * leaves in *notes, where it is still NULL, placement's notes of its first
 * run (the caller's to free; NULL where nothing placed the workers). */
int sweep_run_points(const struct cli_opts *o, struct cli_targets *ts, struct point *pt,
		     unsigned n, struct failed *fl, FILE *f, const double *max,
		     struct topo_notes **notes);
int sweep_measure_max(const struct cli_opts *o, struct cli_targets *ts, struct failed *fl,
		      double *max, FILE *f, struct topo_notes **notes);

/* sweep_text.c */
/* A rate point's first column: its load, or its rate per device. */
void sweep_rate_col(const struct point *p, char *buf, size_t len);
/* A point's row, its percentiles marked as every table marks them, the
 * marks or'ed into *marks (cli_fmt_pct). */
void sweep_print_point(FILE *f, const struct point *p, unsigned *marks);
/* With --repeat, the spread of every point's total over its repeats. */
void sweep_print_spread(const struct point *pt, unsigned n, unsigned repeat, FILE *f);
void sweep_depth_summary(const struct sweep *w, unsigned k, int knee, int dbl, double best,
			 double p99_first, FILE *f);
void sweep_rate_summary(const struct sweep *w, unsigned k, int dbl, FILE *f);

/* sweep_json.c: the report; knee and dbl index w->pt, -1: none. */
json_t *sweep_summary_json(const struct sweep *w, int knee, int dbl);

/* sweep_slo.c: sweep --slo, from the closed-loop maximum to each
 * target's capacity, said and written as JSON where asked. 0 or -errno
 * (said); -EIO when IO failed, once the report is written. */
struct cli_slo;
int sweep_slo(const struct cli_opts *o, struct cli_targets *ts, struct failed *fl, FILE *f);
/* sweep_json.c: the report of sweep --slo. */
json_t *sweep_slo_json(const struct sweep *w, const struct cli_slo *sl);

/* sweep_summary.c: the knee and the p99 doubling, then the JSON where
 * asked: 0 or -EIO. */
int sweep_summary(struct sweep *w, FILE *f);

#endif
