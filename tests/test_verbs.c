/* The table of verbs is the one description of the command line: every
 * option of every verb is taken on the command line (long and short) and,
 * where the verb may be a job file's command, as a job-file key that comes
 * back as the same argument; every verb's --help and the man page list
 * every option; the front end's outcomes are exit statuses, never the
 * parser's help/version outcome. An option added without a sample value
 * below fails here, so it cannot quietly miss job files. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/jobfile.h"
#include "cli/opts_impl.h"
#include "tests/helpers.h"

static char ini[64], out[64], cpu[16];

/* A good value for each option that takes one. */
static const char *sample(const char *name)
{
	static const char *const v[][2] = {
		{ "bs", "4k" }, { "qd", "4" }, { "batch", "4" }, { "engine", "auto" },
		{ "completion", "irq" }, { "time", "1s" }, { "ramp", "0" }, { "ios", "1k" },
		{ "stall-timeout", "5s" },
		{ "jobs-per-device", "2" }, { "jobs", "2" }, { "placement", "remote" },
		{ "range", "4k" }, { "json", "-" }, { "seed", "7" }, { "demo-size", "1m" },
		{ "topology", "server.xml" }, { "drive-iops", "1m" }, { "memory-bw", "150g" },
		{ "host-bridge-bw", "20g" }, { "from", "saturate.json" }, { "output", "x.svg" },
		{ "reap", "8" },
	};
	size_t i;

	if (!strcmp(name, "cpus"))
		return cpu;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(v[i][0], name))
			return v[i][1];
	return NULL;
}

static int parse(const struct cli_verb *v, int argc, char **argv, struct cli_opts *o)
{
	enum cli_parse_outcome outcome = CLI_PARSE_HELP;
	char err[256] = "";
	int rc;

	cli_opts_init(o, v->name, v->groups);
	rc = cli_opts_parse(o, argc, argv, &outcome, err, sizeof(err));
	CHECKF(rc == 0 && outcome == CLI_PARSE_GO, "%s %s%s%s: rc %d: %s", v->name, argv[1],
	       argc > 2 ? " " : "", argc > 2 ? argv[2] : "", rc, err);
	return rc;
}

/* On the command line: --name=value (or --name) and -x value (or -x). */
static void on_cmdline(const struct cli_verb *v, const struct cli_optdesc *d)
{
	char longopt[96], shortopt[3] = { '-', (char)d->val, 0 };
	char *a[] = { (char *)v->name, longopt, NULL, NULL };
	struct cli_opts o;

	snprintf(longopt, sizeof(longopt), "--%s%s%s", d->name, d->arg ? "=" : "",
		 d->arg ? sample(d->name) : "");
	parse(v, 2, a, &o);
	if (d->val > 0 && d->val < 0x100) {
		a[1] = shortopt;
		a[2] = d->arg ? (char *)sample(d->name) : NULL;
		parse(v, d->arg ? 3 : 2, a, &o);
	}
}

/* As a job-file key: checked, and the argument it becomes parses. */
static void in_jobfile(const struct cli_verb *v, const struct cli_optdesc *d)
{
	struct cli_jobfile j;
	struct cli_opts o;
	char err[512] = "", **av = NULL;
	FILE *f = fopen(ini, "w");
	int n, rc;

	if (!f)
		return;
	fprintf(f, "[job]\n%s = %s\n", d->name, d->arg ? sample(d->name) : "true");
	fclose(f);
	rc = cli_jobfile_read(&j, ini, err, sizeof(err));
	if (!rc)
		rc = cli_jobfile_check(&j, v->name, err, sizeof(err));
	CHECKF(rc == 0 && j.nargs == 1, "%s: job-file key %s: rc %d: %s", v->name, d->name, rc, err);
	n = rc ? -1 : cli_jobfile_argv(&j, v->name, 0, NULL, &av);
	if (n == 2)
		parse(v, n, av, &o);
	free(av);
	cli_jobfile_free(&j);
}

/* The verb's --help, as it prints it. */
static void help_text(const struct cli_verb *v, char *buf, size_t len)
{
	char *a[] = { (char *)v->name, "--help", NULL };
	struct cli_opts o;
	int fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0600), saved = dup(1), status = -1;
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0 || saved < 0)
		return;
	fflush(stdout);
	dup2(fd, 1);
	CHECK(!cli_opts_cmdline(&o, v, 2, a, &status) && status == CLI_EXIT_OK);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	n = pread(fd, buf, len - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
}

static char *read_all(const char *path)
{
	static char buf[1 << 17];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

/* In the man page as \-\-name. */
static void in_man(const char *man, const struct cli_optdesc *d)
{
	char want[96];
	size_t k = 0;
	const char *p;

	for (p = "--"; *p; p++)
		k += (size_t)snprintf(want + k, sizeof(want) - k, "\\-");
	for (p = d->name; *p && k + 3 < sizeof(want); p++)
		k += (size_t)snprintf(want + k, sizeof(want) - k, *p == '-' ? "\\-" : "%c", *p);
	CHECKF(strstr(man, want), "docs/iostorm.1 does not mention --%s", d->name);
}

static void check_option(const struct cli_verb *v, const struct cli_optdesc *d,
			 const char *help, const char *man)
{
	char want[96];

	CHECKF(!d->arg || sample(d->name), "--%s has no sample value in this test", d->name);
	if (d->arg && !sample(d->name))
		return;
	on_cmdline(v, d);
	if (v->jobfile)
		in_jobfile(v, d);
	snprintf(want, sizeof(want), "--%s", d->name);
	CHECKF(strstr(help, want), "'iostorm %s --help' does not list %s", v->name, want);
	in_man(man, d);
}

static void test_table(void)
{
	static char help[1 << 14];
	const char *src = getenv("IOSTORM_SRC");
	char man_path[512];
	const char *man;
	size_t i, k;

	snprintf(man_path, sizeof(man_path), "%s/docs/iostorm.1", src ? src : ".");
	man = read_all(man_path);
	CHECKF(man[0], "cannot read %s", man_path);
	for (i = 0; i < cli_nverbs; i++) {
		const struct cli_verb *v = cli_verbs[i];

		CHECK(cli_verb_find(v->name) == v && v->run && v->synopsis && v->what);
		help_text(v, help, sizeof(help));
		CHECKF(!strncmp(help, "usage: iostorm ", 15), "%s --help: '%.40s'", v->name, help);
		for (k = 0; cli_opts_table[k].name; k++)
			if (cli_opts_table[k].group & v->groups)
				check_option(v, &cli_opts_table[k], help, man);
		for (k = 0; v->own && v->own[k].name; k++)
			check_option(v, &v->own[k], help, man);
	}
}

/* The front end answers with exit statuses; the parser's outcome for
 * --help is an enum of its own beside a 0 return. */
static void test_outcomes(void)
{
	char *help[] = { "run", "--help", NULL }, *ver[] = { "topo", "-V", NULL };
	char *bad[] = { "topo", "--qd", "4", NULL }, *good[] = { "topo", "--json=-", NULL };
	char errbuf[256];
	enum cli_parse_outcome outcome = CLI_PARSE_GO;
	struct cli_opts o;
	int status = -1, saved = dup(1), fd = open("/dev/null", O_WRONLY);

	fflush(stdout);
	dup2(fd, 1);
	CHECK(!cli_opts_cmdline(&o, &cli_verb_run, 2, help, &status) && status == CLI_EXIT_OK);
	status = -1;
	CHECK(!cli_opts_cmdline(&o, &cli_verb_topo, 2, ver, &status) && status == CLI_EXIT_OK);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	CHECK(!cli_opts_cmdline(&o, &cli_verb_topo, 3, bad, &status) && status == CLI_EXIT_USAGE);
	CHECK(cli_opts_cmdline(&o, &cli_verb_topo, 2, good, &status) && !strcmp(o.json, "-"));
	cli_opts_init(&o, "run", cli_verb_run.groups);
	CHECK(cli_opts_parse(&o, 2, help, &outcome, errbuf, sizeof(errbuf)) == 0 &&
	      outcome == CLI_PARSE_HELP);
}

int main(void)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return T_EXIT_FAIL;
	for (i = 0; i < CPU_SETSIZE && !CPU_ISSET(i, &set); i++)
		;
	snprintf(cpu, sizeof(cpu), "%d", i);
	snprintf(ini, sizeof(ini), "/tmp/iostorm-test-verbs-%d.ini", (int)getpid());
	snprintf(out, sizeof(out), "/tmp/iostorm-test-verbs-%d.out", (int)getpid());
	test_table();
	test_outcomes();
	unlink(ini);
	unlink(out);
	return t_result();
}
