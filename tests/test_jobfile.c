/* Job files: good content becomes the right arguments, in the right order
 * (file first, command line last, file targets only without command-line
 * ones); bad content gets FILE:LINE and the problem. Also reads every file
 * in configs/. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/opts/jobfile.h"
#include "tests/helpers.h"

static char path[64];

static void write_ini(const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(T_EXIT_FAIL);
	}
}

/* Reads and checks text for cmd; returns the rc, with err filled. */
static int load(struct cli_jobfile *j, const char *text, const char *cmd, char *err,
		size_t len)
{
	int rc;

	write_ini(text);
	err[0] = '\0';
	rc = cli_jobfile_read(j, path, err, len);
	if (!rc)
		rc = cli_jobfile_check(j, cmd ? cmd : (j->command[0] ? j->command : "saturate"),
				       err, len);
	return rc;
}

static bool has_arg(const struct cli_jobfile *j, const char *a)
{
	unsigned i;

	for (i = 0; i < j->nargs; i++)
		if (!strcmp(j->args[i], a))
			return true;
	return false;
}

static void test_good(void)
{
	struct cli_jobfile j;
	char err[512], **av = NULL;
	char *cl[] = { "--time", "2s", "/dev/loop9" }, *cl2[] = { "--time", "2s", "-q" };
	int n, rc;

	rc = load(&j, "; a comment\n[job]\ncommand = sweep\nqd = 1,2,4\nramp = 500ms\n"
		  "buffered = yes\nquiet = false\ntarget = /dev/a /dev/b\ntarget = /dev/c\n",
		  NULL, err, sizeof(err));
	CHECKF(rc == 0, "%s", err);
	CHECK(!strcmp(j.command, "sweep"));
	CHECK(j.ntargets == 3 && !strcmp(j.targets[2], "/dev/c"));
	CHECK(j.nargs == 3);
	CHECK(has_arg(&j, "--qd=1,2,4") && has_arg(&j, "--ramp=500ms") && has_arg(&j, "--buffered"));
	CHECK(!has_arg(&j, "--quiet"));

	/* command-line targets replace the file's; options come after */
	n = cli_jobfile_argv(&j, "sweep", 3, cl, &av);
	CHECK(n == 7);
	CHECK(n == 7 && !strcmp(av[0], "sweep") && !strcmp(av[4], "--time") &&
	      !strcmp(av[6], "/dev/loop9") && av[7] == NULL);
	free(av);
	/* none on the command line ("2s" is --time's value): the file's */
	n = cli_jobfile_argv(&j, "sweep", 3, cl2, &av);
	CHECK(n == 10);
	CHECK(n == 10 && !strcmp(av[7], "/dev/a") && !strcmp(av[9], "/dev/c"));
	free(av);
	cli_jobfile_free(&j);

	/* saturate's own keys; the verb on the command line decides */
	rc = load(&j, "[job]\ndemo = 1\ncompare-placement = on\ndemo-size = 64m\nqd = 64\n",
		  "saturate", err, sizeof(err));
	CHECKF(rc == 0, "%s", err);
	CHECK(has_arg(&j, "--demo") && has_arg(&j, "--compare-placement") &&
	      has_arg(&j, "--demo-size=64m") && has_arg(&j, "--qd=64"));
	cli_jobfile_free(&j);
}

/* Each bad file: the line and the words the message must carry. */
static void test_bad(void)
{
	static const struct { const char *text, *cmd, *want; } bad[] = {
		{ "[job]\nbogus = 1\n", "run", ":2: unknown key 'bogus'" },
		{ "[job]\n\n\ntime = 10x\n", "run", ":4: bad value for time" },
		{ "[job]\nqd = 0\n", "run", ":2: bad value for qd" },
		{ "[job]\nqd = 4,2\n", "sweep", ":2: bad value for qd" },
		{ "[job]\nqd = 1,2\n", "run", ":2: bad value for qd" },
		{ "[job]\nbuffered = maybe\n", "run", ":2: bad value for buffered" },
		{ "[job]\ndemo = true\n", "run", ":2: unknown key 'demo'" },
		{ "[job]\ncommand = topo\n", NULL, ":2: bad value for command" },
		{ "[job]\nthis line is junk\n", "run", ":2: not a 'key = value' line" },
		{ "[other]\nqd = 1\n", "run", ":2: unknown section '[other]'" },
		{ "qd = 1\n[job]\n", "run", ":1: key 'qd' outside a section" },
		{ "[job]\ntarget =\n", "run", ":2: bad value for target" },
		{ "[job]\nengine = fast\n", "run", ":2: bad value for engine" },
		{ "[job]\njobs = 2\n", "saturate", ":2: unknown key 'jobs'" },
		{ "[job]\ndemo-size = 1k\n", "saturate", ":2: bad value for demo-size" },
		{ "[job]\nqd = 1,x\n", "sweep", ":2: bad value for qd" },
		/* the rest of a long line is not a line of its own (nor a key) */
		{ "[job]\ntarget = /dev/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaa qd=4\nqd = 0\n", "run", ":2: longer than 199 characters" },
		/* on the command's argv it would be the option -q */
		{ "[job]\ntarget = /dev/a -q\n", "run", ":2: bad value for target: '-q' starts with '-'" },
	};
	struct cli_jobfile j;
	char err[512];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rc = load(&j, bad[i].text, bad[i].cmd, err, sizeof(err));
		CHECKF(rc == -EINVAL, "case %zu: rc %d", i, rc);
		CHECKF(strstr(err, bad[i].want) && !strncmp(err, path, strlen(path)),
		       "case %zu: '%s' lacks '%s'", i, err, bad[i].want);
		cli_jobfile_free(&j);
	}
	rc = cli_jobfile_read(&j, "/nonexistent/job.ini", err, sizeof(err));
	CHECK(rc == -ENOENT && strstr(err, "/nonexistent/job.ini"));
	cli_jobfile_free(&j);
}

/* A NUL byte would hide the rest of its line from inih. */
static void test_nul(void)
{
	static const char text[] = "[job]\nqd = 4\0 and more\nqd = 0\n";
	struct cli_jobfile j;
	char err[512];
	FILE *f = fopen(path, "w");

	if (!f || fwrite(text, sizeof(text) - 1, 1, f) != 1 || fclose(f)) {
		perror(path);
		exit(T_EXIT_FAIL);
	}
	CHECK(cli_jobfile_read(&j, path, err, sizeof(err)) == -EINVAL);
	CHECKF(strstr(err, ":2: a NUL byte in the line"), "%s", err);
	cli_jobfile_free(&j);
}

/* The file's targets come after a command line without its own, and
 * never after one whose last option lacks its value: `-c FILE --json` must
 * say so, not write the report over the file's first target. */
static void test_targets(void)
{
	static const struct { const char *cl[3]; int argc; bool file; } cases[] = {
		{ { "--json" }, 1, false },		/* dangling */
		{ { "-qd" }, 1, false },		/* -q, then -d lacks its value */
		{ { "--js" }, 1, false },		/* --json, abbreviated */
		{ { "-qd", "8" }, 2, true },		/* 8 is -d's */
		{ { "--ti", "5" }, 2, true },		/* 5 is --time's */
		{ { "-d8" }, 1, true },
		{ { "--json=-" }, 1, true },
		{ { "--", "/dev/b" }, 2, false },
		{ { "-q", "/dev/b" }, 2, false },
		{ { "--" }, 1, true },
	};
	struct cli_jobfile j;
	char err[512], **av = NULL;
	size_t i;
	int n, rc;

	rc = load(&j, "[job]\ncommand = run\ntarget = /dev/a\n", NULL, err, sizeof(err));
	CHECKF(rc == 0, "%s", err);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = cli_jobfile_argv(&j, "run", cases[i].argc, (char **)cases[i].cl, &av);
		CHECKF(n == 1 + cases[i].argc + cases[i].file, "case %zu: %d words", i, n);
		CHECKF(n > 0 && !strcmp(av[n - 1], cases[i].file ? "/dev/a" :
					cases[i].cl[cases[i].argc - 1]), "case %zu: ends with %s",
		       i, n > 0 ? av[n - 1] : "-");
		free(av);
	}
	cli_jobfile_free(&j);
}

/* A job file of CLI_JOBFILE_MAX bytes is read; one byte more is refused,
 * and so is an endless one (/dev/zero), after that many bytes, never
 * taken for an empty file; a directory cannot be read. */
static void test_size(void)
{
	static const char head[] = "[job]\nqd = 4\n", cmt[] = "; a comment\n";
	char *text = malloc(CLI_JOBFILE_MAX + sizeof(cmt)), err[512];
	struct cli_jobfile j;
	size_t at;
	int rc;

	CHECK(text);
	if (!text)
		return;
	memcpy(text, head, sizeof(head) - 1);
	for (at = sizeof(head) - 1; at < CLI_JOBFILE_MAX; at += sizeof(cmt) - 1)
		memcpy(text + at, cmt, sizeof(cmt) - 1);
	text[CLI_JOBFILE_MAX] = '\0';
	text[CLI_JOBFILE_MAX - 1] = '\n';
	rc = load(&j, text, "run", err, sizeof(err));
	CHECKF(rc == 0 && has_arg(&j, "--qd=4"), "%d: %s", rc, err);
	cli_jobfile_free(&j);
	strcpy(text + CLI_JOBFILE_MAX, ";");
	rc = load(&j, text, "run", err, sizeof(err));
	CHECKF(rc == -EINVAL && strstr(err, ": longer than 1 MiB: not a job file") &&
	       !strncmp(err, path, strlen(path)), "%d: %s", rc, err);
	cli_jobfile_free(&j);
	rc = cli_jobfile_read(&j, "/dev/zero", err, sizeof(err));
	CHECKF(rc == -EINVAL && !strcmp(err, "/dev/zero: longer than 1 MiB: not a job file"),
	       "%d: %s", rc, err);
	cli_jobfile_free(&j);
	rc = cli_jobfile_read(&j, "/", err, sizeof(err));
	CHECKF(rc == -EISDIR && strstr(err, "/: cannot read the job file: Is a directory"),
	       "%d: %s", rc, err);
	cli_jobfile_free(&j);
	free(text);
}

/* The shipped job files parse and check for their own command. */
static void test_configs(void)
{
	static const char *const files[] = { "qd1-latency.ini", "saturate-all.ini",
					     "qd-sweep.ini", "placement-compare.ini" };
	const char *src = getenv("IOSTORM_SRC");
	struct cli_jobfile j;
	char p[512], err[512];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/configs/%s", src ? src : ".", files[i]);
		rc = cli_jobfile_read(&j, p, err, sizeof(err));
		CHECKF(rc == 0, "%s", err);
		CHECKF(j.command[0], "%s names no command", p);
		if (!rc)
			rc = cli_jobfile_check(&j, j.command, err, sizeof(err));
		CHECKF(rc == 0, "%s", err);
		cli_jobfile_free(&j);
	}
}

int main(void)
{
	snprintf(path, sizeof(path), "/tmp/iostorm-test-jobfile-%d.ini", (int)getpid());
	test_good();
	test_bad();
	test_targets();
	test_nul();
	test_size();
	test_configs();
	unlink(path);
	return t_result();
}
