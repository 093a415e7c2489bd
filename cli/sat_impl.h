/* Inside saturate: the figures kept per device and step, shared by the
 * files that run the steps and gather the machine's facts (sat_run.c),
 * reason about them (sat_analyse.c), print the table (sat_report.c) and
 * write the JSON (sat_json.c). Calls go one way: sat_run.c calls the other
 * three, and they call nothing back in it. Not for other commands: they use
 * cli/saturate.h; the MPI layer (mpi/) runs the pieces below itself. */
#ifndef CLI_SAT_IMPL_H
#define CLI_SAT_IMPL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/ceil_out.h"
#include "cli/plan.h"
#include "model/ceiling.h"
#include "model/gap.h"
#include "cli/report.h"
#include "cli/runner.h"
#include "cli/saturate.h"
#include "topo/topo.h"

#define SAT_CEIL_MAX_NODES 64

/* The steps whose figures a device keeps. */
enum sat_fig {
	SAT_QD1_SOLO,
	SAT_QDN_SOLO,
	SAT_QD1_ALL,
	SAT_QDN_ALL,
	SAT_QDN_REMOTE,
	SAT_NFIG,
};

struct satdev {
	const struct eng_target *t;
	struct cli_dev fig[SAT_NFIG];	/* hist NULL; cpus owned here */
	bool done[SAT_NFIG];
	const struct topo_dev *td;	/* NULL: no topology */
	bool off_node;			/* set by cli_sat_analyse */
	bool failed;			/* IO errors, a stall or gone in a step:
					 * left out of the later steps */
	char why[96];			/* "stalled in step alone QD1" */
};

struct sat {
	const struct cli_opts *o;	/* the shared options, as given */
	const struct cli_sat_opts *so;	/* saturate's own */
	struct cli_targets ts;
	struct satdev *dev;
	unsigned n;
	struct topo *topo;		/* NULL: no topology */
	unsigned host_cpus;		/* CPUs this process may use; 0: unknown */
	const char *engine;
	enum eng_mode mode;
	bool interrupted;
	bool unfixed;			/* a step read into unregistered buffers */
	bool io_errors;		/* an IO failed in some step: exit 1 */
	bool stalled;			/* workers of some step are still in the
					 * kernel: end with cli_runner_abandon */
	/* What a core's second PU adds: one worker on one PU of a core, then
	 * one on each PU, on the first healthy device (sat_smt.c). */
	struct {
		bool tried;		/* the machine has a core with two PUs */
		int pu[2];
		const char *dev;
		double one, both;	/* IOPS; < 0: not measured */
		double one_busy_pct;	/* the one-PU worker's CPU use */
		double ratio;		/* both / one when one was CPU-bound;
					 * < 0: unknown */
	} smt;
	unsigned step, nsteps;
	uint64_t step_ns;
	FILE *out;			/* the table's stream */
	struct model_gap gap;
	struct topo_finding *tf;
	int ntf;
	/* The ceiling model on what was measured (sat_ceiling.c). */
	struct {
		bool done;		/* solved: a section to show */
		char why_not[96];	/* else why not */
		struct cli_plan_mem mem[SAT_CEIL_MAX_NODES];	/* measured */
		unsigned mem_threads[SAT_CEIL_MAX_NODES];
		unsigned nmem;
		struct cli_plan_cpu cpu[SAT_CEIL_MAX_NODES];
		unsigned ncpu;
		struct cli_plan plan;
		struct model_ceil m;
		bool m_init;
		struct cli_ceil_snap snap;
		double measured;	/* all at once QDn, healthy devices */
	} ceil;
};

/* sat_run.c: the run in pieces, as cli_saturate_run strings them (and
 * the MPI layer, with barriers between). All return a CLI_EXIT_* status. */
/* Fills s (zeroed first) from o: opens the targets, loads the topology.
 * Call cli_sat_close in every case. Says what went wrong in one line. */
int cli_sat_open(struct sat *s, const struct cli_opts *o,
		 const struct cli_sat_opts *so);
/* Each device alone at QD1 then QDn, then the SMT steps. */
int cli_sat_solo(struct sat *s);
/* One step into figure f: device `only` alone, or every device that has
 * not failed (only < 0). A step run twice keeps the last figures. */
int cli_sat_step(struct sat *s, enum sat_fig f, int only);
/* Some step kept figures: there is something to conclude on. */
bool cli_sat_any_done(const struct sat *s);
/* Closes the targets and frees what open and the steps kept. */
void cli_sat_close(struct sat *s);

/* sat_smt.c: the two SMT steps where the machine has SMT; s->smt. Said
 * on stderr like the other steps; CLI_EXIT_* of the runner. */
int cli_sat_smt(struct sat *s);
/* Steps cli_sat_smt will run: 2 on a machine with SMT, else 0. */
unsigned cli_sat_smt_steps(struct sat *s);

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
/* Fills s->gap (and each device's off_node) from the kept figures and the
 * gathered facts (td, host_cpus): no I/O, nothing printed. 0 or -ENOMEM. */
int cli_sat_analyse(struct sat *s);

/* sat_report.c: the table, the gap and its attribution, to s->out. */
void cli_sat_print_report(const struct sat *s);

/* sat_json.c: the report as JSON; NULL when out of memory. New reference. */
json_t *cli_sat_json(const struct sat *s);

#endif
