/* iostorm run [options] TARGET...: random reads on every target at once,
 * one row per device and a total row. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/check/check.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/opts/opts.h"
#include "cli/report/out.h"
#include "cli/report/report.h"
#include "cli/runner/repeat.h"
#include "cli/runner/runner.h"
#include "cli/runner/targets.h"

static int cmd_run(int argc, char **argv);

const struct cli_verb cli_verb_run = {
	.name = "run",
	.what = "4K random reads on the targets at once",
	.synopsis = "iostorm run [options] TARGET...\n\n"
		"Reads random blocks from every TARGET (a block device or a file) at\n"
		"once and reports IOPS, bandwidth, latency and CPU per device and in total.",
	.operands = CLI_OPERANDS_TARGETS,
	.groups = CLI_OG_ENGINE | CLI_OG_TARGET | CLI_OG_JSON | CLI_OG_REPEAT | CLI_OG_RATE |
		  CLI_OG_STEADY,
	.jobfile = true,
	.run = cmd_run,
};

static int cmd_run(int argc, char **argv)
{
	struct cli_opts o;
	struct cli_targets ts = { NULL, 0 };
	struct cli_report rep;
	struct cli_run_spec spec;
	const struct eng_target *tp[CLI_MAX_TARGETS];
	unsigned i;
	int rc = cli_opts_cmdline(&o, &cli_verb_run, argc, argv);

	if (rc)
		return cli_exit_status(rc);
	rc = cli_targets_open(&ts, &o);
	if (rc)
		return cli_exit_status(rc);
	for (i = 0; i < ts.n; i++)
		tp[i] = &ts.t[i];
	spec = cli_run_spec_of(&o, ENG_OP_READ);
	spec.targets = tp;
	spec.ntargets = ts.n;
	cli_check_summary(&o, (const char *const *)o.targets, o.ntargets);
	rc = cli_runner_repeat(&o, &spec, &rep, NULL, NULL);
	if (!rc)
		rc = cli_report_output(&rep, &o, NULL);
	if (rep.stalled)	/* its workers hold the targets */
		cli_command_abandon(cli_exit_status(rc ? rc : -EIO));
	cli_report_free(&rep);
	cli_targets_close(&ts);
	return cli_exit_status(rc);
}
