/* Job files: INI files (libinih) with one [job] section whose keys are the
 * long options of a command, plus `command` and `target`. They become
 * "--key=value" arguments placed before the command line's own, so the
 * command line overrides the file and every value is checked by the same
 * parser as on the command line. */
#ifndef CLI_JOBFILE_H
#define CLI_JOBFILE_H

#include <stddef.h>

/* The longest job file read, bytes: a job file holds a few keys (the
 * configs/ ones under 2 KiB), and a longer one is refused before it can
 * cost more (/dev/zero). */
#define CLI_JOBFILE_MAX (1u << 20)

struct cli_job_entry {
	char *key, *value;
	int line;
};

struct cli_jobfile {
	const char *path;
	char command[16];		/* "" when the file names none */
	struct cli_job_entry *e;	/* option keys, in file order */
	unsigned n, cap;
	char **targets;			/* `target` keys, split on spaces */
	unsigned ntargets;
	char **args;			/* "--key=value" / "--flag", after check */
	unsigned nargs;
};

/* Reads and parses path. Returns 0; -EINVAL when what it holds is not a
 * job file (err: "FILE:LINE: what", or "FILE: longer than 1 MiB: not a
 * job file" past CLI_JOBFILE_MAX); another -errno when it cannot be
 * opened or read, or memory ran out (err: "FILE: cannot read the job
 * file: why", "out of memory"), never read as an empty file then. Free
 * with cli_jobfile_free in every case. */
int cli_jobfile_read(struct cli_jobfile *j, const char *path, char *err,
		     size_t errlen);
/* Checks every key and value against command cmd and builds j->args.
 * 0 or -EINVAL ("FILE:LINE: unknown key 'x'" or "FILE:LINE: bad value
 * ...") / -ENOMEM. */
int cli_jobfile_check(struct cli_jobfile *j, const char *cmd, char *err,
		      size_t errlen);
/* The argv a command gets: cmd, the file's arguments, then argv[0..argc)
 * of the command line (options and operands after the verb), then the
 * file's targets unless the command line names its own. Returns the new
 * argc and *out (free the array only, with free), or -ENOMEM. */
int cli_jobfile_argv(const struct cli_jobfile *j, const char *cmd, int argc,
		     char **argv, char ***out);
void cli_jobfile_free(struct cli_jobfile *j);

#endif
