/* iostorm: parse the verb, dispatch. Nothing else lives here. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"

struct verb {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *what;
};

static const struct verb verbs[] = {
	{ "saturate", cli_cmd_saturate, "each device alone and all at once, QD1 and QDn, and the gap" },
	{ "run", cli_cmd_run, "4K random reads on the targets at once" },
	{ "latency", cli_cmd_latency, "QD1 latency, one line per second" },
	{ "sweep", cli_cmd_sweep, "IOPS and latency per queue depth" },
	{ "topo", cli_cmd_topo, "where each NVMe drive sits: PCI path, NUMA node, cores" },
	{ "nop", cli_cmd_nop, "IORING_OP_NOP: the engine's own cost per operation" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: iostorm [-c JOBFILE] [COMMAND] [options] [TARGET...]\n\n");
	fprintf(f, "commands:\n");
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		fprintf(f, "  %-9s %s\n", verbs[i].name, verbs[i].what);
	fprintf(f, "\nWith no command, iostorm runs saturate (on every NVMe drive, or on\n"
		   "demo targets it creates where there is none).\n"
		   "'iostorm COMMAND --help' lists a command's options; see iostorm(1).\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
			usage(stdout);
			return CLI_EXIT_OK;
		}
		if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
			printf("iostorm %s\n", IOSTORM_VERSION);
			return CLI_EXIT_OK;
		}
		/* no verb: the main job, with whatever options were given */
		return cli_cmd_saturate(argc, argv);
	}
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (!strcmp(argv[1], verbs[i].name))
			return verbs[i].fn(argc - 1, argv + 1);
	if (!strcmp(argv[1], "help")) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	fprintf(stderr, "iostorm: unknown command '%s' (try 'iostorm --help')\n", argv[1]);
	return CLI_EXIT_USAGE;
}
