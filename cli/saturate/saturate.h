/* The saturate run: each device alone at QD1 and QDn, all of them at once
 * at QD1 and QDn (and with --compare-placement once more with remote
 * workers), then the report with the gap and its attribution. */
#ifndef CLI_SATURATE_H
#define CLI_SATURATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/check/check.h"
#include "cli/plan/ceil_out.h"
#include "cli/opts/opts.h"
#include "cli/plan/plan.h"
#include "cli/report/report.h"
#include "cli/runner/stop.h"
#include "cli/runner/targets.h"
#include "model/ceiling.h"
#include "model/gap.h"
#include "topo/topo.h"

#define CLI_SAT_QD 128			/* default --qd */
#define CLI_SAT_RAMP_NS 1000000000ull	/* default --ramp per step */
#define CLI_SAT_TIME_NS 3000000000ull	/* default --time per step */

struct cli_sat_opts {
	bool demo;
	bool compare_placement;
	uint64_t demo_size;
};

/* Runs every step on o->targets and prints the report (and JSON where
 * o->json asks). 0 or -errno, said: -EIO when any IO failed, once the
 * report is written. */
int cli_saturate_run(const struct cli_opts *o, const struct cli_sat_opts *so);

/* ---- The run in pieces ----
 * For a runner that strings the steps itself (iostorm-mpi runs them with
 * barriers between, mpi/msat.c): the figures kept per device and step,
 * and the steps that fill them. cli_saturate_run strings the same pieces. */

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
	char backing[64];		/* the disk a file target or a loop
					 * device's file lives on (topo_disk_of);
					 * "": unknown */
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
					 * kernel: end with cli_command_abandon */
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
	/* placement's notes of the all-at-once step at QDn, where every
	 * device's workers ran together (its report's; owned); NULL where
	 * that step did not run or nothing placed its workers */
	struct topo_notes *place_notes;
	/* the settings that cost IOPS on the targets (cli/check), read
	 * before the first step; check_ok false: they could not be read */
	struct cli_check check;
	bool check_ok;
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
	/* --slo (sat_slo.c): each device's search alone, then all of them
	 * at once at a common share of those capacities; NULL without */
	struct cli_slo *slo;
	struct sat_together *together;
};

/* sat_run.c; all return 0 or -errno, said (-EINVAL: a usage error; see
 * cli_exit_status). */
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
/* Steps the SMT part of cli_sat_solo runs: 2 on a machine with SMT, else 0
 * (sat_smt.c). */
unsigned cli_sat_smt_steps(struct sat *s);
/* Fills s->gap (and each device's off_node) from the kept figures and the
 * gathered facts (td, host_cpus): no I/O, nothing printed. 0 or -ENOMEM
 * (sat_analyse.c). */
int cli_sat_analyse(struct sat *s);
/* The report as JSON; NULL when out of memory. New reference (sat_json.c). */
json_t *cli_sat_json(const struct sat *s);

#endif
