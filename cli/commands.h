/* The verbs: each command file describes its command once (a struct
 * cli_verb: options, defaults, usage text and the function that runs it);
 * cli/verbs.c lists them for main.c, job files and the help. A command
 * returns the process exit status. */
#ifndef CLI_COMMANDS_H
#define CLI_COMMANDS_H

#include <errno.h>

/* the verbs are struct cli_verb, cli/opts/opts.h's; only named here, so
 * that opts.c, which finds a verb by name, and this header form no circle */
struct cli_verb;

/* Exit statuses: what a command returns, never an errno. */
#define CLI_EXIT_OK 0
#define CLI_EXIT_RUNTIME 1
#define CLI_EXIT_USAGE 2
/* iostorm check: it ran, and some setting costs IOPS (docs/check.md) */
#define CLI_EXIT_FINDINGS 3
/* iostorm compare --fail-worse: a metric is significantly worse by more
 * than asked (docs/compare.md) */
#define CLI_EXIT_WORSE 4

/* The one convention in cli/: every helper returns 0 (or a count, where a
 * count is the answer) or -errno, having said why in one line (cli_say);
 * nothing below a command returns an exit status. A command's last line
 * is `return cli_exit_status(rc);`, which maps:
 *   0, and -ECANCELED (--help or --version answered, nothing to run): 0;
 *   -EINVAL: a usage error (2): the command line, or a file's contents, are
 *     not what the command takes: a bad option or value, a bad key or
 *     value in a job file, an XML file hwloc refuses, a JSON that is not
 *     the report the command reads;
 *   anything else: a runtime error (1): a file named on the command line
 *     that cannot be opened or read, a device that refuses, an IO that
 *     failed (-EIO), out of memory.
 * So -EINVAL means usage and nothing else: a helper that gets EINVAL from
 * the system at run time (a file system refusing O_DIRECT, the kernel
 * refusing a ring's flags) passes on another errno (-EOPNOTSUPP, -EIO). */
static inline int cli_exit_status(int rc)
{
	if (!rc || rc == -ECANCELED)
		return CLI_EXIT_OK;
	return rc == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_RUNTIME;
}

#ifndef IOSTORM_VERSION
#define IOSTORM_VERSION "0.1.0"
#endif

extern const struct cli_verb cli_verb_saturate;
extern const struct cli_verb cli_verb_run;
extern const struct cli_verb cli_verb_tune;
extern const struct cli_verb cli_verb_latency;
extern const struct cli_verb cli_verb_sweep;
extern const struct cli_verb cli_verb_topo;
extern const struct cli_verb cli_verb_plan;
extern const struct cli_verb cli_verb_nop;
extern const struct cli_verb cli_verb_plot;
extern const struct cli_verb cli_verb_check;
extern const struct cli_verb cli_verb_compare;
extern const struct cli_verb cli_verb_fill;
extern const struct cli_verb cli_verb_merge;

#endif
