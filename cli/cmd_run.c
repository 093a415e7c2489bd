/* placeholder until the 'run' command lands: fails loudly, never fakes a result */
#include <stdio.h>
#include "cli/commands.h"

int cli_cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "iostorm: run: not built in this tree yet\n");
	return CLI_EXIT_RUNTIME;
}
