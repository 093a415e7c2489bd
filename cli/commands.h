/* The verbs: each command file describes its command once (a struct
 * cli_verb: options, defaults, usage text and the function that runs it);
 * cli/verbs.c lists them for main.c, job files and the help. A command
 * returns the process exit status. */
#ifndef CLI_COMMANDS_H
#define CLI_COMMANDS_H

#include "cli/opts.h"

/* Exit statuses: what a command returns, never an errno. */
#define CLI_EXIT_OK 0
#define CLI_EXIT_RUNTIME 1
#define CLI_EXIT_USAGE 2

#ifndef IOSTORM_VERSION
#define IOSTORM_VERSION "0.1.0"
#endif

extern const struct cli_verb cli_verb_saturate;
extern const struct cli_verb cli_verb_run;
extern const struct cli_verb cli_verb_latency;
extern const struct cli_verb cli_verb_sweep;
extern const struct cli_verb cli_verb_topo;
extern const struct cli_verb cli_verb_plan;
extern const struct cli_verb cli_verb_nop;
extern const struct cli_verb cli_verb_plot;

#endif
