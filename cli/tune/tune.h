/* iostorm tune: the configurations searched, their runs, and what is
 * said of them (docs/tune.md). Private to cli/tune. */
#ifndef CLI_TUNE_H
#define CLI_TUNE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/opts/opts.h"
#include "cli/report/out.h"
#include "cli/runner/spec.h"
#include "cli/runner/targets.h"
#include "cli/tune/tune_cmd.h"
#include "model/tune.h"

#define TUNE_MAX_CPUS 64		/* CPUs one candidate's list names */
#define TUNE_MAX_RUNS 8			/* runs kept per candidate */
#define TUNE_MAX_NOT 32			/* candidates listed as not tried */
#define TUNE_MAX_SETTINGS 24		/* kinds of setting check names */
#define TUNE_INTERVAL_NS (100 * 1000 * 1000ull)	/* the runs' --interval */
#define TUNE_BATCHES 10			/* batch means of a run's IOPS */
#define TUNE_REAP_WAIT_NS (20 * 1000ull)	/* the reap bound tried */
#define TUNE_SURVIVED 0xffu		/* tune_cand.round_out: never left out */
#define TUNE_OVERHEAD_S 0.25		/* a run's cost beside its ramp and
					 * window, until measured */

/* One configuration: every knob tune turns. */
struct tune_cfg {
	enum eng_backend backend;
	enum eng_mode mode;
	unsigned jobs;			/* per device */
	uint32_t qd, batch, reap;
	uint64_t reap_wait_ns;		/* --reap-wait; 0: none */
	bool no_iowait;			/* --no-iowait */
	enum topo_policy placement;
	int cpus[TUNE_MAX_CPUS];	/* ncpus 0: placed by placement */
	unsigned ncpus;
	bool smt;			/* cpus: SMT siblings of one core */
	enum cli_group group;
};

/* The knobs one at a time, for what each was worth. */
enum tune_knob {
	TUNE_K_ENGINE,		/* engine and completion, as one */
	TUNE_K_JOBS,
	TUNE_K_QD,
	TUNE_K_BATCH,
	TUNE_K_REAP,
	TUNE_K_REAP_WAIT,
	TUNE_K_IOWAIT,
	TUNE_K_PLACE,		/* placement and CPUs, as one */
	TUNE_K_GROUP,
	TUNE_NKNOBS
};

/* One run's figures. */
struct tune_run {
	unsigned stage, round;		/* where in the search (stage
					 * MODEL_TUNE_NSTAGES: paired runs) */
	double window_s;		/* measured */
	uint64_t ios;
	double iops, p99_ns, cpu_s, irq_s;
	double fig, lo, hi;		/* the goal's figure and its 95%
					 * interval in this run (NAN: none) */
	double cost_s;			/* what the run took, wall clock */
	double other_pct;		/* of the workers' CPUs' time, other
					 * processes' (cli_noise_pct) */
	bool noisy;			/* enough to move its figures */
};

struct tune_cand {
	struct tune_cfg c;
	unsigned stage;
	bool failed;			/* its run failed: listed as not tried */
	struct tune_run run[TUNE_MAX_RUNS];
	unsigned nrun;
	double fig;			/* its latest figure (NAN: none) */
	unsigned round_out;		/* the round it was left out after;
					 * TUNE_SURVIVED: it survived */
};

/* A candidate the machine cannot run, or one that failed. */
struct tune_not {
	char option[32];	/* "--completion" */
	char value[48];		/* "poll" */
	char why[320];		/* the reason, and the fix where there is one */
};

/* A paired comparison: a against b, rounds of one run each (a stage's
 * decision has up to MODEL_TUNE_FINALISTS b's in the same rounds). */
struct tune_pair {
	struct tune_cfg a, b;
	double fa[MODEL_TUNE_FINAL_ROUNDS], fb[MODEL_TUNE_FINAL_ROUNDS];
	unsigned rounds;
	bool tested;
	struct model_change ch;
	enum model_tune_verdict v;
};

struct tune_knob_row {
	enum tune_knob k;
	struct tune_pair p;	/* a: the winner with the knob at the default;
				 * b: the winner */
};

/* The whole search. */
struct tune {
	const struct cli_opts *o;
	struct cli_targets ts;		/* the targets, opened by tune_open */
	const struct eng_target *tpv[CLI_MAX_TARGETS];	/* tp's entries */
	struct eng_target *nv;		/* the targets as /dev/ngXnY; NULL none */
	const struct eng_target *tnv[CLI_MAX_TARGETS];	/* tp_nvme's entries */
	struct cli_outfile wc;		/* --write-config's file, reserved */
	enum model_tune_goal goal;
	uint64_t budget_ns, t0_ns, seed0, seed;
	const struct eng_target *const *tp;	/* the targets, block path */
	const struct eng_target *const *tp_nvme;	/* /dev/ngXnY; NULL none */
	unsigned ntargets;
	char nvme_why[320];		/* why tp_nvme is NULL */
	struct eng_uring_waits waits;	/* what the kernel's waits offer */
	bool counting;			/* tune_space counts for the plan: no
					 * not-tried entries */
	struct tune_cfg dflt;		/* the options as given */
	struct tune_cfg best;		/* carried from stage to stage */
	struct tune_cand *cand;		/* every candidate of every stage */
	unsigned ncand, capcand;
	unsigned stage_first[MODEL_TUNE_NSTAGES + 1];	/* cand index ranges */
	/* each stage's finalists set against what it carried in */
	struct tune_pair stage_pair[MODEL_TUNE_NSTAGES][MODEL_TUNE_FINALISTS];
	unsigned stage_npairs[MODEL_TUNE_NSTAGES];
	struct tune_not not[TUNE_MAX_NOT];
	unsigned nnot;
	struct tune_pair final;
	struct tune_knob_row knob[TUNE_NKNOBS];
	unsigned nknob;
	struct model_tune_plan plan0;	/* the plan printed first */
	double w_s;			/* the current unit */
	double over_s;			/* a run's measured overhead */
	unsigned runs;
	unsigned noisy_runs;		/* runs the machine disturbed */
	double noisy_max_pct;		/* the most of them, other_pct */
	struct tune_run check;		/* the written job file's run */
	bool checked;
	/* the check against the winner's paired runs in the final (one value
	 * against their spread, model_change_of): tested false where there
	 * were fewer than 2 */
	bool check_tested, reproduced;
	struct model_change check_ch;
	char check_from[64];		/* "the job file FILE" or "the winner again" */
	bool skipped[MODEL_TUNE_NSTAGES];	/* the budget held no more of it */
	bool final_skipped;
	bool stalled;			/* a device stalled: the rest is lost */
	/* what check finds on the winner's targets (settings.c) */
	bool settings_read;
	const char *settings[TUNE_MAX_SETTINGS];	/* check's kind names */
	unsigned nsettings;
	char measure_cmd[1024];		/* "" where none can be A/B'd */
	bool interrupted;
	int err;			/* the first failure that stopped it */
	FILE *f;			/* the text */
};

/* ---- configurations (cfg.c) ---- */
/* The options as given, as a configuration. */
void tune_cfg_of(struct tune_cfg *c, const struct cli_opts *o);
bool tune_cfg_same(const struct tune_cfg *a, const struct tune_cfg *b);
/* The spec of a run of c over the targets. */
void tune_cfg_spec(const struct tune *t, const struct tune_cfg *c, struct cli_run_spec *s);
/* "io_uring poll, 2 jobs, QD64, batch 16, reap 4, local": what a table
 * names a configuration by. */
const char *tune_cfg_name(const struct tune_cfg *c, char *buf, size_t len);
/* The configuration in the shape of a report's config object. */
json_t *tune_cfg_json(const struct tune_cfg *c);
/* c with knob k as d has it. */
void tune_cfg_knob_from(struct tune_cfg *c, const struct tune_cfg *d, enum tune_knob k);
bool tune_knob_differs(const struct tune_cfg *a, const struct tune_cfg *b, enum tune_knob k);
const char *tune_knob_name(enum tune_knob k);
/* The knob's value in c, as the option takes it ("poll", "64"). */
const char *tune_knob_value(const struct tune_cfg *c, enum tune_knob k, char *buf, size_t len);

/* ---- the candidates (space.c) ---- */
/* Stage s's candidates from t->best into t->cand, what the machine
 * cannot run into t->not. The count added, or -ENOMEM. */
int tune_space(struct tune *t, enum model_tune_stage s);
/* Lists a candidate as not tried, once, with why. */
void tune_not_tried(struct tune *t, const char *option, const char *value, const char *why);

/* ---- the runs (search.c) ---- */
/* One run of c for window_s: its figures. 0, or -errno (a run that
 * failed: said). */
int tune_measure(struct tune *t, const struct tune_cfg *c, double window_s, unsigned stage,
		 unsigned round, struct tune_run *r);
/* One run's figures from its report: what it measured, the noise beside
 * it, and the goal's figure with its interval within the run. */
struct cli_report;
void tune_run_of(const struct tune *t, const struct cli_report *rep, struct tune_run *r);
/* The plan before anything runs, into t->plan0 (and the engine stage's
 * refusals into t->not). 0, -ENOSPC (plan0.least_budget_s set). */
int tune_plan_first(struct tune *t);
/* Whether the check's figure is one the winner's final runs could give:
 * t->check_tested, t->reproduced. */
void tune_check_verdict(struct tune *t);
/* The search's stages, the final and the knobs. 0 or -errno. */
int tune_search(struct tune *t);
/* Seconds since the command began. */
double tune_elapsed(const struct tune *t);

/* ---- the settings check names on the winner's targets (settings.c) ---- */
/* 0 or -errno (said by check where the facts cannot be read). */
int tune_settings(struct tune *t);

/* ---- what is said (tune_out.c) ---- */
void tune_say_plan(const struct tune *t);
void tune_say_stage(const struct tune *t, enum model_tune_stage s);
void tune_say_end(const struct tune *t);
/* The job file of the winner: its text into buf. The length, or -ENOSPC. */
int tune_jobfile(const struct tune *t, char *buf, size_t len);
const char *tune_goal_unit(enum model_tune_goal g);
/* A figure of the goal as the table shows it. */
const char *tune_fmt_fig(enum model_tune_goal g, double v, char *buf, size_t len);

#endif
