/* Inside saturate: what only its own files share, the files that run the
 * steps (sat_run.c), reason about them (sat_analyse.c), print the table
 * (sat_report.c) and write the JSON (sat_json.c). Calls go one way:
 * sat_run.c calls the other three, and they call nothing back in it. Not
 * for other commands: the figures and the steps they may run are in
 * cli/saturate.h. */
#ifndef CLI_SAT_IMPL_H
#define CLI_SAT_IMPL_H

#include <jansson.h>

#include "cli/saturate/saturate.h"
#include "cli/slo/slo.h"

/* sat_smt.c: the two SMT steps where the machine has SMT; s->smt. Said
 * on stderr like the other steps; 0 or -errno of the runner. */
int cli_sat_smt(struct sat *s);

/* sat_ceiling.c: after cli_sat_analyse, measures each node's memory
 * bandwidth and solves the ceiling model into s->ceil (or says in
 * why_not why there is none). 0, -ENOMEM or -EINVAL (the model refused
 * the tree: a bug). */
int cli_sat_ceiling(struct sat *s);
void cli_sat_ceiling_free(struct sat *s);
/* The section, to s->out; its JSON (null without one). */
void cli_sat_print_ceiling(const struct sat *s);
json_t *cli_sat_ceiling_json(const struct sat *s);

/* sat_analyse.c */
/* A step's IOPS, or MODEL_GAP_UNKNOWN where the step did not run. */
double cli_sat_iops(const struct satdev *sd, enum sat_fig f);
/* Step f's CPU seconds and the IOs they were spent on, summed over the
 * devices the system sums cover (those that failed no step) into *sum
 * (zeroed first, named "system"): its cost (cli_dev_cost) is the system's.
 * Whether any of them ran the step. */
bool cli_sat_cpu_sum(const struct sat *s, enum sat_fig f, struct cli_dev *sum);

/* sat_report.c: the table, the gap and its attribution, to s->out. */
void cli_sat_print_report(const struct sat *s);

/* sat_slo.c: saturate --slo. Each device alone at QDn (its closed-loop
 * maximum), all at once at QDn (for the attribution), each device's
 * search alone, then all of them at once at a common share of their
 * alone capacities: 0 or -errno, said. */
struct sat_together_pt {
	double frac;		/* of each device's alone capacity */
	int verdict;		/* MODEL_SLO_HELD: every device held */
	int dev;		/* the device whose verdict it is; -1: none */
	struct cli_slo_pt *pt;	/* one per device; owned */
};

struct sat_together {
	bool ran;
	unsigned ndev;		/* devices with an alone capacity */
	double sum_alone;	/* their alone capacities, summed */
	struct model_slo_search s;
	struct sat_together_pt pt[MODEL_SLO_MAX_POINTS];
	unsigned npt;
};

void cli_sat_plan_slo(struct sat *s);
int cli_sat_slo_run(struct sat *s);
void cli_sat_slo_free(struct sat *s);
/* sat_slo_out.c: the section, and its JSON ("slo"; null without). */
void cli_sat_print_slo(const struct sat *s);
json_t *cli_sat_slo_json(const struct sat *s);
/* sat_run.c: the settings and placement notes before the first step. */
void cli_sat_notes(struct sat *s);

#endif
