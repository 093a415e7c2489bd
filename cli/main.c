/* iostorm: parse the verb (and -c JOBFILE), reserve its report's file,
 * dispatch. Nothing else lives here. A verb returns the exit status;
 * main's own helpers return 0 or -errno like the rest of cli/, and
 * dispatch maps them (cli_exit_status). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/opts/complete.h"
#include "cli/opts/jobfile.h"
#include "cli/report/out.h"
#include "cli/report/outpath.h"

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: iostorm [-c JOBFILE] [COMMAND] [options] [TARGET...]\n\n");
	fprintf(f, "commands:\n");
	for (i = 0; i < cli_nverbs; i++)
		fprintf(f, "  %-9s %s\n", cli_verbs[i]->name, cli_verbs[i]->what);
	fprintf(f, "\n-c JOBFILE reads options from an INI job file ([job] section, keys\n"
		   "named like the long options, 'command' and 'target'; see configs/);\n"
		   "options on the command line override it.\n");
	fprintf(f, "\nWith no command, iostorm runs saturate (on every NVMe drive, or on\n"
		   "demo targets it creates where there is none).\n"
		   "'iostorm COMMAND --help' lists a command's options; see iostorm(1).\n");
}

/* -c FILE, -cFILE, --config FILE, --config=FILE at argv[1]: the file's
 * name and how many arguments it took; 0 when argv[1] is none of them. */
static int config_arg(int argc, char **argv, const char **file)
{
	const char *a = argv[1];

	if (!strcmp(a, "-c") || !strcmp(a, "--config")) {
		*file = argc > 2 ? argv[2] : NULL;
		return 2;
	}
	if (!strncmp(a, "--config=", 9)) {
		*file = a + 9;
		return 1;
	}
	if (!strncmp(a, "-c", 2)) {
		*file = a + 2;
		return 1;
	}
	return 0;
}

/* The verb's options read once more, quietly, for the one thing main does
 * with them: its outputs made ready before the verb runs, so a report or
 * a stream that could never be written, or must not be (a device, a
 * target, each other: cli/report/outpath.h), stops the command before its
 * first IO, and every verb gets this from one place (cli/command.h).
 * A command line the verb refuses, or one that asks for --help, is left
 * to the verb to say. 0, or -errno having said why (-EINVAL: a usage
 * error). */
static int reserve_files(const struct cli_verb *v, int argc, char **argv)
{
	enum cli_parse_outcome outcome = CLI_PARSE_GO;
	struct cli_opts o;
	char err[512], **copy;
	int rc;

	if (!(v->groups & (CLI_OG_JSON | CLI_OG_ENGINE)))
		return 0;
	/* on a copy: getopt permutes what it parses, and the verb reads argv
	 * as given (compare: where each '--' stands between the operands) */
	copy = calloc((size_t)argc + 1, sizeof(*copy));
	if (!copy)
		return 0;
	memcpy(copy, argv, (size_t)argc * sizeof(*copy));
	cli_opts_init(&o, v->name, v->groups);
	rc = cli_opts_parse(&o, argc, copy, &outcome, err, sizeof(err));
	if (rc || outcome != CLI_PARSE_GO) {
		free(copy);
		return 0;
	}
	cli_out_verb(v->name);
	rc = cli_command_begin(&o, v->groups & (CLI_OG_ENGINE | CLI_OG_TARGET) ?
			       "the target" : "the input",
			       &(struct cli_command_out){ .report = o.json, .stream = o.stream,
							  .stream_cmd = v->name,
							  .listen = o.listen });
	free(copy);
	return rc;
}

/* v on argv between the command's begin and its end (cli/command.h).
 * Returns the exit status, the verb's own once it ran. */
static int run_verb(const struct cli_verb *v, int argc, char **argv)
{
	int rc = cli_exit_status(reserve_files(v, argc, argv));

	if (!rc)
		rc = v->run(argc, argv);
	return cli_command_end(rc);
}

/* iostorm -c FILE [COMMAND] [options] [TARGET...]: the file's keys become
 * options placed before the command line's, which win. The exit status:
 * a job file that cannot be read is a runtime error (1), one whose keys
 * or values are wrong a usage error (2), as on the command line. */
static int run_jobfile(const char *file, int argc, char **argv)
{
	struct cli_jobfile j;
	const struct cli_verb *v = NULL;
	const char *cmd;
	char err[640], **args = NULL;
	int n, rc;

	if (!file || !*file) {
		cli_say("-c needs a job file (try 'iostorm --help')");
		return cli_exit_status(-EINVAL);
	}
	/* a verb right after the file wins over the file's command; anything
	 * else is left to the command (a target, an option) */
	if (argc > 0 && (v = cli_verb_find(argv[0]))) {
		argc--;
		argv++;
	}
	rc = cli_jobfile_read(&j, file, err, sizeof(err));
	cmd = v ? v->name : j.command[0] ? j.command : "saturate";
	if (!rc)
		rc = cli_jobfile_check(&j, cmd, err, sizeof(err));
	if (rc) {
		cli_say("%s", err);
		cli_jobfile_free(&j);
		return cli_exit_status(rc);
	}
	v = cli_verb_find(cmd);
	/* a report written over the job file would lose it */
	if (cli_outpath_claim(file, "the job file")) {
		cli_say("out of memory");
		cli_jobfile_free(&j);
		return CLI_EXIT_RUNTIME;
	}
	n = cli_jobfile_argv(&j, cmd, argc, argv, &args);
	if (n < 0) {
		cli_say("out of memory");
		rc = cli_exit_status(n);
	} else {
		rc = run_verb(v, n, args);
	}
	free(args);
	cli_jobfile_free(&j);
	return rc;
}

static int dispatch(int argc, char **argv)
{
	const char *file = NULL;
	int used;

	if (argc >= 2 && !strcmp(argv[1], "--complete"))
		return cli_complete(argc - 2, argv + 2);
	if (argc >= 2 && (used = config_arg(argc, argv, &file)))
		return run_jobfile(file, argc - 1 - used, argv + 1 + used);
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
		return run_verb(&cli_verb_saturate, argc, argv);
	}
	if (cli_verb_find(argv[1]))
		return run_verb(cli_verb_find(argv[1]), argc - 1, argv + 1);
	if (!strcmp(argv[1], "help")) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	cli_say("unknown command '%s' (try 'iostorm --help')", argv[1]);
	return cli_exit_status(-EINVAL);
}

/* A closed stdout (`iostorm run ... | head -1`) must not kill the run with
 * SIGPIPE before its JSON file is written and its demo targets removed:
 * writes fail with EPIPE instead, and a report that did not reach its
 * reader is one line and exit 1. */
int main(int argc, char **argv)
{
	int rc;

	signal(SIGPIPE, SIG_IGN);
	/* No command but check writes to sysfs, not even to put back what a
	 * 'check --measure' that died left changed (cli/check/restore.h):
	 * tab completion as root, or a run on a stalled queue, must not. */
	rc = dispatch(argc, argv);
	if (fflush(stdout) || ferror(stdout)) {
		cli_say("cannot write the report to standard output: %s",
			errno == EPIPE || !errno ? "the reader has gone (broken pipe)" : strerror(errno));
		return rc ? rc : CLI_EXIT_RUNTIME;
	}
	return rc;
}
