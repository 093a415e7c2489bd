/* The saturate run: each device alone at QD1 and QDn, all of them at once
 * at QD1 and QDn (and with --compare-placement once more with remote
 * workers), then the report with the gap and its attribution. */
#ifndef CLI_SATURATE_H
#define CLI_SATURATE_H

#include <stdbool.h>

#include "cli/opts.h"

#define CLI_SAT_QD 128			/* default --qd */
#define CLI_SAT_RAMP_NS 1000000000ull	/* default --ramp per step */
#define CLI_SAT_TIME_NS 3000000000ull	/* default --time per step */

struct cli_sat_opts {
	bool demo;
	bool compare_placement;
	uint64_t demo_size;
};

/* Runs every step on o->targets and prints the report (and JSON where
 * o->json asks). Returns the exit status. */
int cli_saturate_run(const struct cli_opts *o, const struct cli_sat_opts *so);

#endif
