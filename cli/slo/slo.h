/* Capacity at a latency target (--slo), shared by sweep and saturate: the
 * options, a point of the search (every target searched at once, each at
 * its own rate, in an open loop), the searches themselves (model/slo.h),
 * and their words and JSON. cli/slo/slo_opt.c parses, slo_run.c runs,
 * slo_out.c says and writes. */
#ifndef CLI_SLO_H
#define CLI_SLO_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/opts/opts.h"
#include "cli/runner/targets.h"
#include "engine/engine.h"
#include "model/slo.h"

/* ---- slo_opt.c ---- */

int cli_slo_set(struct cli_opts *o, const char *arg, char *err, size_t errlen);
int cli_slo_show_points(const struct cli_opts *o, char *buf, size_t len);

/* The two options, for a verb's own table. */
#define CLI_SLO_OPTDESCS							\
	CLI_OPT_OWN("slo", 0x900, "PCT=DURATION[,...]", 0, CLI_OF_LIST, cli_slo_set, NULL, NULL, \
		    "capacity at a latency target: the highest open-loop\n"	\
		    "rate at which each percentile of the latency from\n"	\
		    "schedule stays within its bound, like p99=500us or\n"	\
		    "p99=500us,p99.9=2ms (p50, p90, p99, p99.9, p99.99)"),	\
	{ .name = "slo-points", .val = 0x901, .arg = "N", .kind = CLI_OPT_U32,	\
	  .off = offsetof(struct cli_opts, slo_points), .min = MODEL_SLO_MIN_POINTS, \
	  .max = MODEL_SLO_MAX_POINTS, .show = cli_slo_show_points,		\
	  .help = "the most points one --slo search measures" }

/* The search's cap: --slo-points, or MODEL_SLO_POINTS. */
unsigned cli_slo_cap(const struct cli_opts *o);
/* "p99 500 us, p99.9 2 ms" into buf. */
void cli_slo_words(const struct model_slo *slo, char *buf, size_t len);
/* The refusals of --slo that depend on the other options (and of
 * --slo-points without --slo), said in one line: -EINVAL, or 0. */
int cli_slo_check(const struct cli_opts *o);

/* ---- slo_run.c ---- */

/* One measured point of one target's search: one window, or up to
 * MODEL_SLO_WINDOWS merged where the first left it undecided. */
struct cli_slo_pt {
	unsigned search;	/* 1-based: --repeat runs the search again */
	double rate;		/* IOs per second asked */
	double iops;		/* achieved */
	bool again;		/* a repeat of a rate that held */
	bool has_lat;
	uint64_t ns[MODEL_SLO_NPCT];	/* latency from schedule, model_slo_pcts' order */
	struct model_pct_ci ci[MODEL_SLO_NPCT];	/* their 95% intervals */
	bool has_svc;
	struct model_pct_ci svc[MODEL_SLO_NPCT];	/* the service time's */
	uint64_t ios;		/* IOs they rest on */
	unsigned windows;	/* windows merged */
	uint64_t late;		/* IOs issued over ENG_RATE_LATE_NS late */
	uint64_t late_oct[ENG_LATE_N];	/* IOs issued by how late, a slot
						 * free; [ENG_LATE_SLOT] not */
	double depth;		/* mean IOs in flight */
	double delay_pct;	/* the workers' wait for a CPU (schedstat run
				 * delay), % of their window; NAN unknown */
	double delay_ns_per_io;	/* the same per IO; NAN unknown */
	double depth_share;	/* of the depth allowed */
	int verdict;		/* model_slo_judge's */
};

/* The share of p's IOs issued late. */
double cli_slo_late_share(const struct cli_slo_pt *p);

/* One target's searches. */
struct cli_slo_dev {
	const struct eng_target *t;
	double max;		/* closed-loop IOPS at --qd, the first rate */
	struct model_slo_search s;	/* the search now, or the last */
	struct cli_slo_pt *pt;	/* every point of every search; owned */
	unsigned npt, cappt;
	double *caps;		/* each search's capacity, 0: none; owned */
	unsigned nsearch;
	double start;		/* the first rate (model_slo_start) */
	bool failed;		/* IO errors or a stall: left out */
	bool stalled;
	char why[96];
};

struct cli_slo {
	const struct cli_opts *o;
	struct cli_slo_dev *dev;
	unsigned n;
	const char *label;	/* the live line's phase: "sweep", "saturate" */
	int only;		/* cli_slo_run searches this target alone;
				 * -1 (cli_slo_init's): every target at once */
	bool interrupted;
	bool io_errors;
	unsigned points;	/* measured, all targets together */
};

/* Searches with the bounds of o for targets t[0..n), whose closed-loop
 * maxima are max[] (a target with max <= 0 is left out, named by the
 * caller). 0 or -ENOMEM, said. Free with cli_slo_free. */
int cli_slo_init(struct cli_slo *sl, const struct cli_opts *o, const struct eng_target *const *t,
		 const double *max, unsigned n, const char *label);
void cli_slo_free(struct cli_slo *sl);
/* Runs every target's search --repeat times, every target that has a
 * point to measure at once, a row per target and point to f. 0 or -errno
 * of the runner (said). */
int cli_slo_run(struct cli_slo *sl, FILE *f);
/* Runs the targets marked in on[] (all when NULL) once, each at rates[i],
 * into pts[i]; a target that fails is marked. 0 or -errno (said). */
int cli_slo_point(struct cli_slo *sl, const bool *on, const double *rates,
		  struct cli_slo_pt *pts);

/* A target's capacity is model_slo_capacity_mean over d->caps[0..nsearch). */
/* The point of d's last search at its lowest rate that broke (the first
 * failing rate), and the last point measured at the lowest rate; NULL:
 * none. */
const struct cli_slo_pt *cli_slo_first_fail(const struct cli_slo_dev *d);
const struct cli_slo_pt *cli_slo_lowest(const struct cli_slo_dev *d);

/* ---- slo_out.c ---- */

/* The plan before the search: the bounds, the cap and the time at most. */
void cli_slo_print_plan(FILE *f, const struct cli_opts *o, unsigned ntargets);
void cli_slo_print_head(FILE *f, const struct model_slo *slo);
void cli_slo_print_point(FILE *f, const struct cli_slo *sl, const struct cli_slo_dev *d,
			 const struct cli_slo_pt *p);
/* Each target's capacity, or that it misses the bounds at any rate. */
void cli_slo_print_summary(FILE *f, const struct cli_slo *sl);
/* {bounds, max_points, devices: [...]} (docs/json.md, "sweep --slo"). */
json_t *cli_slo_json(const struct cli_slo *sl);
json_t *cli_slo_bounds_json(const struct model_slo *slo);
json_t *cli_slo_pt_json(const struct cli_slo_pt *p, const struct model_slo *slo);
/* What broke at a verdict: a percentile's name, "behind", "generator",
 * or NULL (held, undecided). */
const char *cli_slo_broke_name(const struct model_slo *slo, int verdict);
/* A verdict's `held`: true (held, at the bound), false (broke by the
 * device), null (undecided, the generator's). */
json_t *cli_slo_held_json(int verdict);
/* Whether d found no capacity because the device broke at the lowest
 * rate decided (not where it stayed undecided, or the generator broke). */
bool cli_slo_missed(const struct cli_slo_dev *d);
/* The point of d's last search at its lowest rate the generator broke. */
const struct cli_slo_pt *cli_slo_first_generator(const struct cli_slo_dev *d);

#endif
