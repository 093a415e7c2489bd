/* iostorm-mpi: MPI_Init, the verb (saturate, the default, run or tune), and
 * MPI_Finalize. Each rank is one host: run it with one rank per node
 * (mpirun --map-by ppr:1:node --bind-to none, or srun --ntasks-per-node=1).
 * See docs/mpi.md. */
#include <errno.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/report/out.h"
#include "mpi/mpi_int.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: mpirun [mpirun options] iostorm-mpi [saturate|run|tune] [options]\n"
		   "         [--targets-file FILE] [TARGET...]\n\n"
		   "commands:\n"
		   "  saturate  each host alone (its devices alone, then all at once), one host\n"
		   "            after the other, then all hosts at once at QD1 and QDn, and\n"
		   "            the cluster gap (the default)\n"
		   "  run       4K random reads on every host at once: cluster IOPS and\n"
		   "            merged latency percentiles\n"
		   "  tune      every host tunes its own targets, all at once, and writes\n"
		   "            its own job file (--write-config with %%h or %%r); where the\n"
		   "            hosts' winners disagree, knob by knob\n\n"
		   "--targets-file FILE: a line per host, its name or rank number first,\n"
		   "then its targets; switch=NAME and nqn=NQN name what hosts share; '#'\n"
		   "starts a comment. 'iostorm-mpi COMMAND --help' lists the options;\n"
		   "see iostorm(1) and docs/mpi.md.\n");
}

/* --help, -h or --version anywhere before "--": printed by rank 0 alone. */
static bool asks_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") ||
		    !strcmp(argv[i], "--version") || !strcmp(argv[i], "-V"))
			return true;
	return false;
}

int mpi_take_targets_file(struct mpi_ctx *m, int argc, char **argv)
{
	int i, k = 1;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < argc)
				argv[k++] = argv[i++];
			break;
		}
		if (!strcmp(argv[i], "--targets-file")) {
			if (i + 1 >= argc) {
				if (!m->rank)
					mpi_say(m, "--targets-file needs a file (try 'iostorm-mpi --help')");
				return -1;
			}
			m->targets_file = argv[++i];
		} else if (!strncmp(argv[i], "--targets-file=", 15)) {
			m->targets_file = argv[i] + 15;
		} else {
			argv[k++] = argv[i];
		}
	}
	argv[k] = NULL;
	return k;
}

static int dispatch(struct mpi_ctx *m, int argc, char **argv)
{
	const char *verb = argc >= 2 && argv[1][0] != '-' ? argv[1] : NULL;
	int rc;

	if (verb && (!strcmp(verb, "help"))) {
		if (!m->rank)
			usage(stdout);
		return CLI_EXIT_OK;
	}
	if (!verb && argc >= 2 && asks_help(2, argv)) {
		if (!m->rank && strcmp(argv[1], "--version") && strcmp(argv[1], "-V"))
			usage(stdout);
		else if (!m->rank)
			printf("iostorm-mpi %s\n", IOSTORM_VERSION);
		return CLI_EXIT_OK;
	}
	if (verb && strcmp(verb, "saturate") && strcmp(verb, "run") && strcmp(verb, "tune")) {
		m->verb = "mpi";
		if (!m->rank)
			mpi_say(m, "unknown command '%s': saturate, run or tune (try 'iostorm-mpi --help')",
				verb);
		return CLI_EXIT_USAGE;
	}
	/* argv[0] stays the command's name, as the verbs expect */
	if (verb) {
		argc--;
		argv++;
	} else {
		argv[0] = "saturate";
	}
	m->verb = argv[0];
	if (asks_help(argc, argv) && m->rank)
		return CLI_EXIT_OK;	/* rank 0 prints it */
	argc = mpi_take_targets_file(m, argc, argv);
	if (argc < 0)
		return CLI_EXIT_USAGE;
	rc = !strcmp(m->verb, "run") ? mpi_run(m, argc, argv) :
	     !strcmp(m->verb, "tune") ? mpi_tune(m, argc, argv) : mpi_saturate(m, argc, argv);
	if (asks_help(argc, argv) && !rc)
		printf("\niostorm-mpi also takes:\n"
		       "      --targets-file FILE  a line per host: its name or rank number, then its\n"
		       "                           targets, switch=NAME and nqn=NQN; '#' comments\n");
	return rc;
}

int main(int argc, char **argv)
{
	struct mpi_ctx m;
	int rc;

	memset(&m, 0, sizeof(m));
	if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
		fprintf(stderr, "iostorm-mpi: MPI_Init failed\n");
		return CLI_EXIT_RUNTIME;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &m.size);
	m.local = mpi_local_rank();
	if (gethostname(m.host, sizeof(m.host) - 1))
		snprintf(m.host, sizeof(m.host), "rank%d", m.rank);
	m.verb = "saturate";
	signal(SIGPIPE, SIG_IGN);
	mpi_log_init(&m);
	rc = dispatch(&m, argc, argv);
	/* this rank's command ends (with stalled workers, in abandon) */
	if (!m.abandon)
		rc = cli_command_end(rc);
	if (fflush(stdout) || ferror(stdout)) {
		cli_say("cannot write the report to standard output: %s",
			errno == EPIPE || !errno ? "the reader has gone (broken pipe)" : strerror(errno));
		rc = rc ? rc : CLI_EXIT_RUNTIME;
	}
	MPI_Finalize();
	if (m.abandon)
		cli_command_abandon(rc ? rc : CLI_EXIT_RUNTIME);	/* stalled workers */
	return rc;
}
