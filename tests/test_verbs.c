/* The table of verbs is the one description of the command line: every
 * option of every verb is taken on the command line (long and short) and,
 * where the verb may be a job file's command, as a job-file key that comes
 * back as the same argument; every verb's --help and the man page list
 * every option; the front end answers 0, -ECANCELED or -EINVAL, which
 * cli_exit_status maps to the exit statuses. An option added without a sample value
 * below fails here, so it cannot quietly miss job files. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/opts/jobfile.h"
#include "cli/report/json.h"
#include "cli/opts/opts_int.h"
#include "cli/report/report.h"
#include "cli/words/findings_words.h"
#include "model/check.h"
#include "engine/engine.h"
#include "tests/helpers.h"

static char ini[64], out[64], cpu[16];
static const char *verb_now;	/* check_option's verb: merge's --from is a time */

/* A good value for each option that takes one. */
static const char *sample(const char *name)
{
	static const char *const v[][2] = {
		{ "bs", "4k" }, { "qd", "4" }, { "batch", "4" }, { "engine", "auto" },
		{ "completion", "irq" }, { "time", "1s" }, { "ramp", "0" }, { "ios", "1k" },
		{ "stall-timeout", "5s" },
		{ "jobs-per-device", "2" }, { "jobs", "2" }, { "placement", "remote" }, { "group", "off" },
		{ "range", "4k" }, { "json", "-" }, { "seed", "7" }, { "demo-size", "1m" },
		{ "topology", "server.xml" }, { "drive-iops", "1m" }, { "memory-bw", "150g" },
		{ "host-bridge-bw", "20g" }, { "from", "saturate.json" }, { "free-slots", "0000:40=2" }, { "output", "x.svg" },
		{ "reap", "8" }, { "rounds", "2" }, { "repeat", "3" }, { "alpha", "0.01" },
		{ "fail-worse", "5" }, { "rate", "1k" }, { "arrival", "poisson" }, { "ab", "4" },
		{ "metric", "ios_per_cpu_s" }, { "steady", "20%,2s,lat" },
		{ "temperature-every", "2s" }, { "to", "8s" }, { "device", "nvme0n1,h2:nvme1n1" },
		{ "host", "h1,h2" }, { "run", "1" }, { "interval", "1s" }, { "stream", "s.jsonl" },
		{ "listen", "127.0.0.1:9100" }, { "linger", "2s" },
		{ "slo", "p99=500us,p99.9=2ms" }, { "slo-points", "8" },
		{ "reap-wait", "20us" }, { "goal", "latency" }, { "budget", "2m" },
		{ "write-config", "best.ini" }, { "stages", "depth,placement" },
	};
	size_t i;

	if (!strcmp(name, "cpus"))
		return cpu;
	if (!strcmp(name, "from") && verb_now && !strcmp(verb_now, "merge"))
		return "2.5s";
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
	int fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0600), saved = dup(1);
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0 || saved < 0)
		return;
	fflush(stdout);
	dup2(fd, 1);
	CHECK(cli_opts_cmdline(&o, v, 2, a) == -ECANCELED);
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

static bool min_wait_here(void)
{
	struct eng_uring_waits w;

	return !eng_uring_waits_probe(&w) && !w.min_wait;
}

static void check_option(const struct cli_verb *v, const struct cli_optdesc *d,
			 const char *help, const char *man)
{
	char want[96];

	verb_now = v->name;
	CHECKF(!d->arg || sample(d->name), "--%s has no sample value in this test", d->name);
	if (d->arg && !sample(d->name))
		return;
	/* --reap-wait is refused where the kernel has no min-wait timeout
	 * (t_uring_waits checks that refusal): there only its words */
	if (!strcmp(d->name, "reap-wait") && !min_wait_here()) {
		in_man(man, d);
		return;
	}
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
	const struct cli_optdesc *d;
	struct cli_opts o;
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
		/* what the parser takes: an own option without a setter is the shared one */
		cli_opts_init(&o, v->name, v->groups);
		for (k = 0; (d = cli_opt_next(&o, &k));)
			check_option(v, d, help, man);
	}
}

/* The config part of the JSON report of v run with argv (a fixed seed
 * added, so two parses compare); NULL when the line does not parse. */
static json_t *config_of(const struct cli_verb *v, const char *opt)
{
	char *a[4] = { (char *)v->name, NULL, NULL, NULL };
	struct cli_report r = { .command = v->name };
	struct cli_opts o;
	int n = 1;

	if (v->groups & CLI_OG_ENGINE)
		a[n++] = "--seed=7";
	if (opt)
		a[n++] = (char *)opt;
	if (parse(v, n, a, &o))
		return NULL;
	return cli_json_config(&o, &r);
}

/* The help text's block of --name: from its line ("\n  -x, --name" or
 * "\n      --name") to the next option's. */
static const char *help_block(const char *help, const struct cli_optdesc *d, char *buf,
			      size_t len)
{
	char want[96];
	const char *p, *end;

	if (d->val > 0 && d->val < 0x100)
		snprintf(want, sizeof(want), "\n  -%c, --%s", d->val, d->name);
	else
		snprintf(want, sizeof(want), "\n      --%s", d->name);
	if (!(p = strstr(help, want)))
		return NULL;
	p++;
	for (end = strchr(p, '\n'); end && !strncmp(end + 1, "                           ", 27);
	     end = strchr(end + 1, '\n'))
		;
	snprintf(buf, len, "%.*s", end ? (int)(end - p) : (int)strlen(p), p);
	return buf;
}

/* Each default --help shows is the one the verb runs: given back on the
 * command line, it parses (the text is one a user can type) and leaves
 * the JSON report's config as it is without it; --help prints it as
 * "(default X)" on the option; no help text or synopsis words a default
 * itself. Engine verbs' --time and --ramp are checked here rather than by
 * tests/t_help_defaults.sh, which must set them to stay short. */
static void check_default(const struct cli_verb *v, const struct cli_optdesc *d,
			  const char *help)
{
	char val[128], opt[192], blk[1024], want[160];
	json_t *plain, *given;
	struct cli_opts o;

	CHECKF(!strstr(d->help, "default"), "%s --%s: its help text words a default: '%s'",
	       v->name, d->name, d->help);
	cli_opts_init(&o, v->name, v->groups);
	if (cli_opt_show(d, &o, val, sizeof(val)) <= 0) {
		CHECKF(!help_block(help, d, blk, sizeof(blk)) || !strstr(blk, "(default"),
		       "%s --%s shows a default it has not: %s", v->name, d->name, blk);
		return;
	}
	snprintf(want, sizeof(want), "(default %s)", val);
	CHECKF(help_block(help, d, blk, sizeof(blk)) && strstr(blk, want),
	       "%s --help: --%s does not say %s", v->name, d->name, want);
	snprintf(opt, sizeof(opt), "--%s=%s", d->name, val);
	plain = config_of(v, NULL);
	given = config_of(v, opt);
	CHECKF(plain && given && json_equal(plain, given),
	       "%s: %s changes the JSON config: %s", v->name, opt,
	       given ? json_dumps(given, JSON_COMPACT | JSON_SORT_KEYS) : "(no parse)");
	json_decref(plain);
	json_decref(given);
}

/* An option's choices are the names its setter takes, and the names its
 * refusal lists. */
static void check_choices(const struct cli_verb *v, const struct cli_optdesc *d)
{
	char err[512] = "", list[256], opt[96];
	const char *const *c;
	struct cli_opts o;

	for (c = d->choices; c && *c; c++) {
		snprintf(opt, sizeof(opt), "--%s=%s", d->name, *c);
		cli_opts_init(&o, v->name, v->groups);
		CHECKF(!cli_opt_apply(d, &o, *c, err, sizeof(err)), "%s %s: %s", v->name, opt, err);
	}
	if (!d->choices)
		return;
	cli_opts_init(&o, v->name, v->groups);
	cli_choices_text(d->choices, list, sizeof(list));
	CHECKF(cli_opt_apply(d, &o, "nosuch", err, sizeof(err)) && strstr(err, list),
	       "%s --%s nosuch: '%s' does not list '%s'", v->name, d->name, err, list);
}

static void test_defaults(void)
{
	static char help[1 << 14];
	size_t i, k;

	for (i = 0; i < cli_nverbs; i++) {
		const struct cli_verb *v = cli_verbs[i];
		struct cli_opts o;
		const struct cli_optdesc *d;

		CHECKF(!strstr(v->synopsis, "default") && !strstr(v->synopsis, "Default"),
		       "the synopsis of %s words a default", v->name);
		help_text(v, help, sizeof(help));
		cli_opts_init(&o, v->name, v->groups);
		for (k = 0; (d = cli_opt_next(&o, &k));) {
			check_default(v, d, help);
			check_choices(v, d);
		}
	}
}

/* The values as a user types them, and back. */
static void test_fmt(void)
{
	static const struct { uint64_t v; const char *size, *count, *dur; } c[] = {
		{ 0, "0", "0", "0" }, { 1, "1", "1", "1ns" }, { 4096, "4k", "4096", "4096ns" },
		{ 1000, "1000", "1k", "1us" }, { 256ull << 20, "256m", "268435456", "268435456ns" },
		{ 3 * CLI_NS_PER_S, "3000000000", "3g", "3s" }, { 500000000, "500000000", "500m",
		  "500ms" }, { 7200 * CLI_NS_PER_S, "7031250000k", "7200g", "2h" },
		{ 1ull << 40, "1t", "1099511627776", "1099511627776ns" },
	};
	char buf[64], err[256];
	uint64_t back;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		cli_fmt_size(c[i].v, buf, sizeof(buf));
		CHECKF(!strcmp(buf, c[i].size), "size %llu: %s", (unsigned long long)c[i].v, buf);
		CHECK(!cli_parse_size("s", buf, 0, UINT64_MAX, &back, err, sizeof(err)) &&
		      back == c[i].v);
		cli_fmt_count(c[i].v, buf, sizeof(buf));
		CHECKF(!strcmp(buf, c[i].count), "count %llu: %s", (unsigned long long)c[i].v, buf);
		CHECK(!cli_parse_count("c", buf, 0, UINT64_MAX, &back, err, sizeof(err)) &&
		      back == c[i].v);
		cli_fmt_duration(c[i].v, buf, sizeof(buf));
		CHECKF(!strcmp(buf, c[i].dur), "duration %llu: %s", (unsigned long long)c[i].v, buf);
		CHECKF(!cli_parse_duration("d", buf, 0, UINT64_MAX, &back, err, sizeof(err)) &&
		       back == c[i].v, "duration %s: %s", buf, err);
	}
}

/* The front end answers 0 (go on), -ECANCELED (help or version printed:
 * exit 0) or -EINVAL (a usage error: exit 2); the parser's outcome for
 * --help is an enum of its own beside a 0 return. */
static void test_outcomes(void)
{
	char *help[] = { "run", "--help", NULL }, *ver[] = { "topo", "-V", NULL };
	char *bad[] = { "topo", "--qd", "4", NULL }, *good[] = { "topo", "--json=-", NULL };
	char errbuf[256];
	enum cli_parse_outcome outcome = CLI_PARSE_GO;
	struct cli_opts o;
	int saved = dup(1), fd = open("/dev/null", O_WRONLY);

	fflush(stdout);
	dup2(fd, 1);
	CHECK(cli_opts_cmdline(&o, &cli_verb_run, 2, help) == -ECANCELED);
	CHECK(cli_opts_cmdline(&o, &cli_verb_topo, 2, ver) == -ECANCELED);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	CHECK(cli_opts_cmdline(&o, &cli_verb_topo, 3, bad) == -EINVAL);
	CHECK(cli_opts_cmdline(&o, &cli_verb_topo, 2, good) == 0 && !strcmp(o.json, "-"));
	CHECK(cli_exit_status(0) == CLI_EXIT_OK && cli_exit_status(-ECANCELED) == CLI_EXIT_OK);
	CHECK(cli_exit_status(-EINVAL) == CLI_EXIT_USAGE);
	CHECK(cli_exit_status(-ENOENT) == CLI_EXIT_RUNTIME && cli_exit_status(-EIO) == CLI_EXIT_RUNTIME);
	cli_opts_init(&o, "run", cli_verb_run.groups);
	CHECK(cli_opts_parse(&o, 2, help, &outcome, errbuf, sizeof(errbuf)) == 0 &&
	      outcome == CLI_PARSE_HELP);
}

/* check's --help lists what check reads: every kind of the one table of
 * kinds (model/check_table.c), as the words table says what it is about,
 * in its scope's line, and no word of a setting the table does not hold */
static void test_check_synopsis(void)
{
	static char buf[1 << 15];
	const struct check_kind_info *ki;
	char about[CLI_CHECK_ABOUT_MAX];
	const char *dev, *mach, *at;
	unsigned k;

	help_text(&cli_verb_check, buf, sizeof(buf));
	dev = strstr(buf, "\non each device:");
	mach = strstr(buf, "\non the machine:");
	CHECKF(dev && mach && dev < mach, "check --help has no line per scope:\n%s", buf);
	if (!dev || !mach)
		return;
	for (k = 0; k < CHECK_NKINDS; k++) {
		ki = check_kind_info((enum check_kind)k);
		cli_check_about((enum check_kind)k, about, sizeof(about));
		at = strstr(ki->scope == CHECK_SCOPE_DEVICE ? dev : mach, about);
		CHECKF(about[0] && at && (ki->scope != CHECK_SCOPE_DEVICE || at < mach),
		       "check --help does not list %s (%s) where its scope is", ki->name, about);
	}
	CHECKF(!strstr(buf, "locked\nmemory") && !strstr(buf, "IOMMU mode"),
	       "check --help keeps the old list of settings");
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
	test_defaults();
	test_fmt();
	test_outcomes();
	test_check_synopsis();
	unlink(ini);
	unlink(out);
	return t_result();
}
