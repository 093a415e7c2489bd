/* libFuzzer: job files, as `iostorm -c FILE [VERB] [ARGS...]` reads them.
 * The input is the file, then optionally a NUL byte and the command line
 * after the file's name, one word per line. The file is read, checked
 * against the verb (the command line's, else the file's, else saturate),
 * turned into the command's argv and parsed as the command would. A file
 * the checks accept must parse on its own; its targets, when the command
 * line names none, must come out as the targets, never as an option or an
 * option's value; a refused file gets one "FILE:LINE: ..." message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/opts/jobfile.h"
#include "cli/opts/opts.h"
#include "tests/fuzz/fuzz.h"

#define MAX_WORDS 32

/* The argv the command gets, parsed. */
static void parse_argv(const struct cli_jobfile *j, const char *cmd, int argc, char **cl)
{
	const struct cli_verb *v = cli_verb_find(cmd);
	enum cli_parse_outcome outcome = CLI_PARSE_GO;
	struct cli_opts o;
	char err[512], **args = NULL;
	bool file_targets;
	unsigned k;
	int n, rc;

	n = cli_jobfile_argv(j, cmd, argc, cl, &args);
	if (n < 0)
		fuzz_fail("cli_jobfile_argv: %d", n);
	if (!v || n < 1 + argc || strcmp(args[0], cmd) || args[n])
		fuzz_fail("argv of %d words for '%s' is malformed", n, cmd);
	file_targets = j->ntargets && n == 1 + (int)j->nargs + argc + (int)j->ntargets;
	cli_opts_init(&o, cmd, v->groups);
	rc = cli_opts_parse(&o, n, args, &outcome, err, sizeof(err));
	if (!argc && (rc || outcome != CLI_PARSE_GO))
		fuzz_fail("a checked job file does not parse: %d '%s'", rc, rc ? err : "");
	if (!rc && outcome == CLI_PARSE_GO && j->ntargets && !o.ntargets)
		fuzz_fail("the file's %u targets were dropped", j->ntargets);
	if (!rc && outcome == CLI_PARSE_GO && file_targets) {
		if (o.ntargets != j->ntargets)
			fuzz_fail("%u targets in the file, %u parsed", j->ntargets, o.ntargets);
		for (k = 0; k < o.ntargets; k++)
			if (strcmp(o.targets[k], j->targets[k]))
				fuzz_fail("target %u is '%s', not the file's '%s'", k,
					  o.targets[k], j->targets[k]);
	}
	free(args);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t len = nul ? (size_t)(nul - data) : size;
	char path[64], err[640], *words[MAX_WORDS + 1], **cl = words;
	const struct cli_verb *v = NULL;
	struct cli_jobfile j;
	const char *cmd;
	int fd, rc, n = 0;

	if (nul && (n = fuzz_split(nul + 1, size - len - 1, words, MAX_WORDS)) < 0)
		return 0;
	fd = fuzz_file(data, len, path, sizeof(path));
	if (fd < 0) {
		fuzz_free_words(words, n);
		return 0;
	}
	/* main.c: a verb right after the file wins over the file's command */
	if (n > 0 && (v = cli_verb_find(words[0])))
		cl++;
	err[0] = '\0';
	rc = cli_jobfile_read(&j, path, err, sizeof(err));
	cmd = v ? v->name : j.command[0] ? j.command : "saturate";
	if (!rc) {
		err[0] = '\0';
		rc = cli_jobfile_check(&j, cmd, err, sizeof(err));
	}
	if (rc && (rc != -EINVAL || strncmp(err, path, strlen(path))))
		fuzz_fail("job file refused with %d and '%s'", rc, err);
	if (!rc) {
		parse_argv(&j, cmd, 0, cl);
		if (n - (v != NULL) > 0)
			parse_argv(&j, cmd, n - (v != NULL), cl);
	}
	cli_jobfile_free(&j);
	close(fd);
	fuzz_free_words(words, n);
	return 0;
}
