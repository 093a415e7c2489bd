/* compare --ab (ab.h): both sides run by fork and exec, one report each
 * in a temporary folder, read back with the reports' own loader. */
#include "cli/compare/ab.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/compare/files.h"
#include "cli/opts/opts.h"
#include "cli/report/out.h"
#include "cli/report/report_load.h"
#include "cli/runner/stop.h"

/* A side's command line as its own command parses it: a bad option is
 * refused now, not after the other side has run. A side given its own
 * binary is that binary's to check. */
static int side_check(struct cmp_ab_side *s, char which)
{
	const char *verb = s->argv[0];
	enum cli_parse_outcome outcome = CLI_PARSE_GO;
	const struct cli_verb *v;
	struct cli_opts o;
	char err[512], **copy;
	unsigned i;
	int rc;

	for (i = 0; i < s->argc; i++)
		if (!strcmp(s->argv[i], "--json") || !strncmp(s->argv[i], "--json=", 7)) {
			cli_say("--ab: %c gives --json: compare writes each run's report itself", which);
			return -EINVAL;
		}
	if (s->exe)
		return 0;
	v = cli_verb_find(verb);
	if (!v || !cmp_is_comparable(verb)) {
		cli_say("--ab: %c is '%s', not a command that measures (run, nop, latency, sweep "
			"or saturate)", which, verb);
		return -EINVAL;
	}
	copy = calloc(s->argc + 1, sizeof(*copy));
	if (!copy) {
		cli_say("out of memory");
		return -ENOMEM;
	}
	memcpy(copy, s->argv, s->argc * sizeof(*copy));
	cli_opts_init(&o, v->name, v->groups);
	rc = cli_opts_parse(&o, (int)s->argc, copy, &outcome, err, sizeof(err));
	free(copy);
	if (!rc && outcome != CLI_PARSE_GO) {
		snprintf(err, sizeof(err), "--help or --version is no run");
		rc = -EINVAL;
	}
	if (!rc && !o.ntargets && strcmp(verb, "nop")) {
		snprintf(err, sizeof(err), "no target");
		rc = -EINVAL;
	}
	if (rc) {
		cli_say("--ab: %c (%s): %s", which, verb, err);
		return -EINVAL;
	}
	s->by_ios = o.ios > 0;
	s->open_loop = o.rate > 0 || o.rate_list;
	return 0;
}

static void side_label(struct cmp_ab_side *s)
{
	size_t o = 0;
	unsigned i;

	s->label[0] = '\0';
	if (s->exe)
		o += (size_t)snprintf(s->label, sizeof(s->label), "%s", s->exe);
	for (i = 0; i < s->argc && o < sizeof(s->label); i++)
		o += (size_t)snprintf(s->label + o, sizeof(s->label) - o, "%s%s", o ? " " : "",
				      s->argv[i]);
}

/* One side from ops[0..n): an iostorm command, or a binary (a path: it
 * holds a '/') and its command. */
static int side_of(struct cmp_ab_side *s, char **ops, unsigned n, char which)
{
	memset(s, 0, sizeof(*s));
	if (n && strchr(ops[0], '/')) {
		s->exe = ops[0];
		ops++;
		n--;
	}
	if (!n) {
		cli_say("--ab: %c has no command (compare --ab N -- A_COMMAND... -- B_COMMAND...)",
			which);
		return -EINVAL;
	}
	s->argv = ops;
	s->argc = n;
	s->verb = ops[0];
	side_label(s);
	return side_check(s, which);
}

/* Sides that measure different things, or pool differently, are refused
 * as compare refuses such reports, unless --force. */
static int check_alike(const struct cmp_ab *ab)
{
	const struct cmp_ab_side *a = &ab->side[0], *b = &ab->side[1];

	if (strcmp(a->verb, b->verb)) {
		cli_say("--ab: A is %s, B %s: they measure different things (--force compares the "
			"rows they share)", a->verb, b->verb);
		return -EINVAL;
	}
	if (!a->exe && !b->exe && (a->by_ios != b->by_ios || a->open_loop != b->open_loop)) {
		cli_say("--ab: A and B bound their repeats differently (--ios, --rate): their "
			"figures pool differently (--force compares them with A's estimators)");
		return -EINVAL;
	}
	return 0;
}

int cmp_ab_parse(struct cmp_ab *ab, char **ops, unsigned nops, unsigned rounds, bool force)
{
	unsigned i, sep = nops;
	int rc;

	memset(ab, 0, sizeof(*ab));
	ab->rounds = rounds;
	for (i = 0; i < nops && sep == nops; i++)
		if (!strcmp(ops[i], "--"))
			sep = i;
	if (sep == nops) {
		cli_say("--ab needs two command lines: compare --ab N [options] -- A_COMMAND... "
			"-- B_COMMAND...");
		return -EINVAL;
	}
	rc = side_of(&ab->side[0], ops, sep, 'A');
	if (!rc)
		rc = side_of(&ab->side[1], ops + sep + 1, nops - sep - 1, 'B');
	if (!rc && !force)
		rc = check_alike(ab);
	return rc;
}

/* Runs side s once, its report to path, its table to /dev/null (its
 * warnings still show). 0 or -errno, said. */
static int run_once(const struct cmp_ab_side *s, const char *path, unsigned round, char which)
{
	const char *exe = s->exe ? s->exe : "/proc/self/exe";
	char **argv = calloc(s->argc + 4, sizeof(*argv));
	unsigned i, k = 0;
	int status, fd;
	pid_t pid;

	if (!argv) {
		cli_say("out of memory");
		return -ENOMEM;
	}
	argv[k++] = (char *)(s->exe ? s->exe : "iostorm");
	for (i = 0; i < s->argc; i++)
		argv[k++] = s->argv[i];
	argv[k++] = (char *)"--json";
	argv[k++] = (char *)path;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (fd >= 0)
			dup2(fd, STDOUT_FILENO);
		execv(exe, argv);
		_exit(127);
	}
	free(argv);
	if (pid < 0) {
		cli_say("--ab: cannot start %c: %s", which, strerror(errno));
		return -errno;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			cli_say("--ab: waiting for %c: %s", which, strerror(errno));
			return -errno;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		cli_say("--ab: round %u, %c (%s) exited %d", round, which, s->label,
			WEXITSTATUS(status));
	else
		cli_say("--ab: round %u, %c (%s) was killed by signal %d", round, which, s->label,
			WTERMSIG(status));
	return -EIO;
}

int cmp_ab_run(struct cmp_ab *ab, json_t **r, const char **cmd, char (*name)[24])
{
	const char *tmp = getenv("TMPDIR");
	char path[128];
	unsigned k, j;
	int rc = 0;

	snprintf(ab->dir, sizeof(ab->dir), "%s/iostorm-ab.XXXXXX",
		 tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
	if (!mkdtemp(ab->dir)) {
		cli_say("--ab: cannot make a folder for the reports in %s: %s",
			tmp && *tmp ? tmp : "/tmp", strerror(errno));
		ab->dir[0] = '\0';
		return -errno;
	}
	/* SIGINT or SIGTERM: the run under way ends as it would alone (a
	 * terminal's ^C reaches it too; exec gives it its own handlers), and
	 * no other starts, so the folder is removed and nothing half-run is
	 * compared */
	cli_runner_signals();
	for (k = 0; k < ab->rounds && !rc; k++)
		for (j = 0; j < 2 && !rc; j++) {
			/* ABBA: A first in even rounds, B first in odd ones */
			unsigned s = k % 2 ? 1 - j : j, idx = s ? ab->rounds + k : k;

			fprintf(stderr, "iostorm compare: round %u/%u: %c: %s\n", k + 1, ab->rounds,
				"AB"[s], ab->side[s].label);
			snprintf(path, sizeof(path), "%s/%c%u.json", ab->dir, "ab"[s], k + 1);
			snprintf(name[idx], sizeof(name[idx]), "%c round %u", "AB"[s], k + 1);
			rc = run_once(&ab->side[s], path, k + 1, "AB"[s]);
			if (!rc && cli_runner_interrupted()) {
				cli_say("--ab: interrupted in round %u of %u: nothing compared", k + 1,
					ab->rounds);
				rc = -EINTR;
			}
			if (!rc)
				rc = cli_report_load(path, &r[idx], &cmd[idx]);
		}
	return rc;
}

void cmp_ab_clean(struct cmp_ab *ab)
{
	char path[128];
	unsigned k, s;

	if (!ab->dir[0])
		return;
	for (k = 0; k < ab->rounds; k++)
		for (s = 0; s < 2; s++) {
			snprintf(path, sizeof(path), "%s/%c%u.json", ab->dir, "ab"[s], k + 1);
			unlink(path);
		}
	rmdir(ab->dir);
	ab->dir[0] = '\0';
}
