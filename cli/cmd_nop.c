/* iostorm nop: IORING_OP_NOP at the chosen depth and batch, the engine's
 * own cost per operation, reported like run. */
#include <stdio.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/report.h"
#include "cli/runner.h"

static const char synopsis[] = "iostorm nop [options]\n\n"
	"Submits IORING_OP_NOP requests (no device is touched) to measure the\n"
	"engine's own cost per operation, reported like 'iostorm run'.";

int cli_cmd_nop(int argc, char **argv)
{
	struct cli_opts o;
	struct cli_report rep;
	struct cli_run_spec spec = { .op = ENG_OP_NOP };
	int rc;

	rc = cli_opts_cmdline(&o, "nop", CLI_OG_NOP, argc, argv, synopsis);
	if (rc != CLI_OPTS_GO)
		return rc;
	if (o.ntargets) {
		fprintf(stderr, "iostorm nop: takes no TARGET ('%s' given)\n", o.targets[0]);
		return CLI_EXIT_USAGE;
	}
	rc = cli_runner_run(&o, &spec, &rep);
	if (!rc)
		rc = cli_report_output(&rep, &o);
	cli_report_free(&rep);
	return rc;
}
