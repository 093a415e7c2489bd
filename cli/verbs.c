/* The table of verbs: what 'iostorm --help' lists, main.c dispatches on
 * and a job file's `command` may name. Each entry lives with its command. */
#include <string.h>

#include "cli/commands.h"
#include "cli/opts/opts.h"

const struct cli_verb *const cli_verbs[] = {
	&cli_verb_saturate, &cli_verb_run, &cli_verb_latency, &cli_verb_sweep,
	&cli_verb_check, &cli_verb_compare, &cli_verb_topo, &cli_verb_plan, &cli_verb_nop,
	&cli_verb_plot, &cli_verb_fill, &cli_verb_merge, &cli_verb_tune,
};

const size_t cli_nverbs = sizeof(cli_verbs) / sizeof(cli_verbs[0]);

const struct cli_verb *cli_verb_find(const char *name)
{
	size_t i;

	for (i = 0; i < cli_nverbs; i++)
		if (!strcmp(name, cli_verbs[i]->name))
			return cli_verbs[i];
	return NULL;
}
