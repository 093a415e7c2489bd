/* placeholder until the 'sweep' command lands: fails loudly, never fakes a result */
#include <stdio.h>
#include "cli/commands.h"

int cli_cmd_sweep(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "iostorm: sweep: not built in this tree yet\n");
	return CLI_EXIT_RUNTIME;
}
