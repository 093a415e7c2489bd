/* placeholder until the 'nop' command lands: fails loudly, never fakes a result */
#include <stdio.h>
#include "cli/commands.h"

int cli_cmd_nop(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "iostorm: nop: not built in this tree yet\n");
	return CLI_EXIT_RUNTIME;
}
