/* iostorm nop: IORING_OP_NOP at the chosen depth and batch, the engine's
 * own cost per operation, reported like run. */
#include <errno.h>
#include <stdio.h>

#include "cli/commands.h"
#include "cli/opts/opts.h"
#include "cli/report/out.h"
#include "cli/report/report.h"
#include "cli/runner/runner.h"

static int cmd_nop(int argc, char **argv);

const struct cli_verb cli_verb_nop = {
	.name = "nop",
	.what = "IORING_OP_NOP: the engine's own cost per operation",
	.synopsis = "iostorm nop [options]\n\n"
		"Submits IORING_OP_NOP requests (no device is touched) to measure the\n"
		"engine's own cost per operation, reported like 'iostorm run'.",
	.operands = CLI_OPERANDS_NONE,
	.groups = CLI_OG_ENGINE | CLI_OG_NOP | CLI_OG_JSON,
	.jobfile = true,
	.run = cmd_nop,
};

static int cmd_nop(int argc, char **argv)
{
	struct cli_opts o;
	struct cli_report rep;
	struct cli_run_spec spec;
	int rc = cli_opts_cmdline(&o, &cli_verb_nop, argc, argv);

	if (!rc && o.ntargets) {
		cli_say("takes no TARGET ('%s' given)", o.targets[0]);
		rc = -EINVAL;
	}
	if (rc)
		return cli_exit_status(rc);
	spec = cli_run_spec_of(&o, ENG_OP_NOP);
	rc = cli_runner_run(&o, &spec, &rep);
	if (!rc)
		rc = cli_report_output(&rep, &o, NULL);
	cli_report_free(&rep);
	return cli_exit_status(rc);
}
