/* Option parsing: suffixes, bounds, every bad value gives a message, CPU
 * lists, defaults that depend on other options, the getopt front end. */
#include "cli/opts/opts.h"
#include "cli/opts/opts_int.h"
#include "tests/helpers.h"

#include <errno.h>
#include <sched.h>
#include <string.h>

static char err[256];

static void size_ok(const char *s, uint64_t want)
{
	uint64_t v = 0;
	int rc = cli_parse_size("--x", s, 0, UINT64_MAX, &v, err, sizeof(err));

	CHECKF(rc == 0 && v == want, "'%s' -> rc %d v %llu, want %llu (%s)", s, rc,
	       (unsigned long long)v, (unsigned long long)want, err);
}

static void size_bad(const char *s, uint64_t min, uint64_t max)
{
	uint64_t v = 12345;
	int rc;

	err[0] = '\0';
	rc = cli_parse_size("--x", s, min, max, &v, err, sizeof(err));
	CHECKF(rc == -EINVAL && err[0] && strstr(err, "--x") && v == 12345,
	       "'%s' -> rc %d, message '%s'", s, rc, err);
}

static void test_sizes(void)
{
	size_ok("4096", 4096);
	size_ok("4k", 4096);
	size_ok("4K", 4096);
	size_ok("4KiB", 4096);
	size_ok("1m", 1 << 20);
	size_ok("1M", 1 << 20);
	size_ok("2g", 2ull << 30);
	size_ok("1t", 1ull << 40);
	size_ok("0", 0);
	size_ok("18446744073709551615", UINT64_MAX);
	size_bad("", 0, UINT64_MAX);
	size_bad("k", 0, UINT64_MAX);
	size_bad("-1", 0, UINT64_MAX);
	size_bad("+4", 0, UINT64_MAX);
	size_bad(" 4", 0, UINT64_MAX);
	size_bad("4x", 0, UINT64_MAX);
	size_bad("4kk", 0, UINT64_MAX);
	size_bad("4 k", 0, UINT64_MAX);
	size_bad("0x10", 0, UINT64_MAX);
	size_bad("1.5k", 0, UINT64_MAX);
	size_bad("18446744073709551616", 0, UINT64_MAX);
	size_bad("16777216t", 0, UINT64_MAX);
	size_bad("3", 4, 10);
	size_bad("11", 4, 10);
}

static void dur_ok(const char *s, uint64_t want)
{
	uint64_t v = 0;
	int rc = cli_parse_duration("--t", s, 1, UINT64_MAX, &v, err, sizeof(err));

	CHECKF(rc == 0 && v == want, "'%s' -> rc %d v %llu (%s)", s, rc,
	       (unsigned long long)v, err);
}

static void dur_bad(const char *s)
{
	uint64_t v = 7;
	int rc;

	err[0] = '\0';
	rc = cli_parse_duration("--t", s, 1, 3600ull * 1000000000ull, &v, err, sizeof(err));
	CHECKF(rc == -EINVAL && err[0] && v == 7, "'%s' -> rc %d '%s'", s, rc, err);
}

static void test_durations(void)
{
	dur_ok("10", 10000000000ull);
	dur_ok("10s", 10000000000ull);
	dur_ok("500ms", 500000000ull);
	dur_ok("2m", 120000000000ull);
	dur_ok("1h", 3600000000000ull);
	dur_ok("250us", 250000ull);
	dur_ok("7ns", 7);
	dur_ok("0.5s", 500000000ull);
	dur_ok("1.25", 1250000000ull);
	dur_ok("1.5ms", 1500000ull);
	dur_ok("0.1m", 6000000000ull);
	dur_bad("0");
	dur_bad("0s");
	dur_bad("0ms");
	dur_bad("");
	dur_bad("abc");
	dur_bad("10x");
	dur_bad("-5s");
	dur_bad("1.s");
	dur_bad(".5s");
	dur_bad("0.0s");
	dur_bad("1.0000001s");
	dur_bad("2h");		/* above the bound given */
	dur_bad("1.5h");	/* so is its fraction */
	dur_bad("3600.5");
	dur_bad("60.001m");
	dur_ok("1.000001h", 3600003600000ull);
	dur_bad("1.5ns");	/* finer than a nanosecond, not rounded */
	dur_bad("2.0001us");
	dur_ok("2.001us", 2001);
	dur_bad("99999999999999999999");
}

static void test_counts(void)
{
	uint64_t v = 0;

	CHECK(cli_parse_count("--n", "1k", 1, UINT64_MAX, &v, err, sizeof(err)) == 0 && v == 1000);
	CHECK(cli_parse_count("--n", "3M", 1, UINT64_MAX, &v, err, sizeof(err)) == 0 && v == 3000000);
	CHECK(cli_parse_count("--n", "65536", 1, 65536, &v, err, sizeof(err)) == 0 && v == 65536);
	CHECK(cli_parse_count("--n", "65537", 1, 65536, &v, err, sizeof(err)) == -EINVAL);
	CHECK(cli_parse_count("--n", "0", 1, 10, &v, err, sizeof(err)) == -EINVAL);
	CHECK(cli_parse_count("--n", "1kb", 1, UINT64_MAX, &v, err, sizeof(err)) == -EINVAL);
	CHECK(cli_parse_count("--n", "20000000000g", 1, UINT64_MAX, &v, err, sizeof(err)) == -EINVAL);
}

static void cpus_ok(const char *s, const int *want, unsigned nwant)
{
	int cpus[CLI_MAX_CPUS];
	unsigned n = 0, i;
	int rc = cli_parse_cpulist(s, cpus, CLI_MAX_CPUS, &n, err, sizeof(err));

	CHECKF(rc == 0 && n == nwant, "'%s' -> rc %d n %u (%s)", s, rc, n, err);
	for (i = 0; !rc && i < n && i < nwant; i++)
		CHECKF(cpus[i] == want[i], "'%s'[%u] = %d, want %d", s, i, cpus[i], want[i]);
}

static void cpus_bad(const char *s, unsigned max)
{
	int cpus[CLI_MAX_CPUS];
	unsigned n = 99;
	int rc;

	err[0] = '\0';
	rc = cli_parse_cpulist(s, cpus, max, &n, err, sizeof(err));
	CHECKF(rc == -EINVAL && err[0] && strstr(err, "--cpus") && n == 99,
	       "'%s' -> rc %d '%s'", s, rc, err);
}

static void test_cpulist(void)
{
	static const int a[] = { 0, 1, 2, 3, 8, 10, 11 };
	static const int b[] = { 5 };
	static const int c[] = { 7, 2, 3 };

	cpus_ok("0-3,8,10-11", a, 7);
	cpus_ok("5", b, 1);
	cpus_ok("7,2-3", c, 3);
	cpus_bad("", CLI_MAX_CPUS);
	cpus_bad(",", CLI_MAX_CPUS);
	cpus_bad("1,", CLI_MAX_CPUS);
	cpus_bad("3-1", CLI_MAX_CPUS);
	cpus_bad("1-", CLI_MAX_CPUS);
	cpus_bad("-1", CLI_MAX_CPUS);
	cpus_bad("a", CLI_MAX_CPUS);
	cpus_bad("1,1", CLI_MAX_CPUS);
	cpus_bad("0-3,2", CLI_MAX_CPUS);
	cpus_bad("1024", CLI_MAX_CPUS);
	cpus_bad("0-9999999999999999999999", CLI_MAX_CPUS);
	cpus_bad("0-3", 2);
}

static void test_cpus_check(void)
{
	cpu_set_t set;
	int first = -1, i;

	CHECK(sched_getaffinity(0, sizeof(set), &set) == 0);
	for (i = 0; i < CPU_SETSIZE && first < 0; i++)
		if (CPU_ISSET(i, &set))
			first = i;
	CHECK(first >= 0 && cli_cpus_check(&first, 1, err, sizeof(err)) == 0);
	i = CLI_MAX_CPUS - 1;	/* no machine running the tests has 1024 CPUs */
	if (!CPU_ISSET(i, &set))
		CHECK(cli_cpus_check(&i, 1, err, sizeof(err)) == -EINVAL && err[0]);
}

static enum cli_parse_outcome outcome;

/* groups beyond the engine's and --json, which every command here takes */
static int parse(struct cli_opts *o, const char *cmd, unsigned groups, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	cli_opts_init(o, cmd, groups | CLI_OG_ENGINE | CLI_OG_JSON);
	err[0] = '\0';
	outcome = CLI_PARSE_GO;
	return cli_opts_parse(o, argc, argv, &outcome, err, sizeof(err));
}

static void test_defaults(void)
{
	char *a1[] = { "run", "/dev/x", NULL };
	char *a2[] = { "run", "--ios", "1k", "-d", "4", "/dev/x", "/dev/y", NULL };
	char *a3[] = { "run", "--ios", "10", "--ramp", "1s", "-t", "5", "/dev/x", NULL };
	struct cli_opts o;

	CHECK(parse(&o, "run", CLI_OG_TARGET, a1) == 0);
	CHECK(o.bs == 4096 && o.qd == 32 && o.batch == 32 && o.latency);
	CHECK(o.time_ns == 10000000000ull && o.ramp_ns == 2000000000ull);
	CHECK(o.ntargets == 1 && !strcmp(o.targets[0], "/dev/x"));
	CHECK(o.backend == ENG_BACKEND_AUTO && o.mode == ENG_MODE_IRQ && !o.mode_auto);
	CHECK(parse(&o, "run", CLI_OG_TARGET, a2) == 0);
	CHECK(o.ios == 1000 && o.ramp_ns == 0 && o.time_ns == 0);
	CHECK(o.qd == 4 && o.batch == 4 && o.ntargets == 2 && o.reap == 1);
	CHECK(parse(&o, "run", CLI_OG_TARGET, a3) == 0);
	CHECK(o.ramp_ns == 1000000000ull && o.time_ns == 5000000000ull);
}

static void test_values(void)
{
	char *a[] = { "run", "--bs", "64k", "--engine", "libaio", "--completion",
		      "auto", "--range", "1m:2m", "--buffered", "--no-latency",
		      "--json", "-", "-q", "--seed", "42", "--jobs-per-device", "3",
		      "--placement", "remote", "f", NULL };
	char *b[] = { "run", "--range", "8k", "--completion", "hybrid", "f", NULL };
	char *c[] = { "nop", "-j", "4", "--batch", "8", NULL };
	struct cli_opts o;

	CHECK(parse(&o, "run", CLI_OG_TARGET, a) == 0);
	CHECK(o.bs == 65536 && o.backend == ENG_BACKEND_LIBAIO && o.mode_auto);
	CHECK(o.range_off == 1 << 20 && o.range_len == 2 << 20);
	CHECK(o.buffered && !o.latency && o.quiet && !strcmp(o.json, "-"));
	CHECK(o.seed == 42 && o.seed_set && o.jobs_per_device == 3);
	CHECK(o.placement == TOPO_PLACE_REMOTE);
	CHECK(parse(&o, "run", CLI_OG_TARGET, b) == 0);
	CHECK(o.range_off == 0 && o.range_len == 8192 && o.mode == ENG_MODE_HYBRID);
	CHECK(parse(&o, "nop", CLI_OG_NOP, c) == 0);
	CHECK(o.jobs == 4 && o.batch == 8 && o.ntargets == 0);
}

static void bad(const char *opt, const char *val, unsigned groups)
{
	char *argv[] = { "run", (char *)opt, (char *)val, "f", NULL };
	struct cli_opts o;
	int rc;

	if (!val) {
		argv[2] = "f";
		argv[3] = NULL;
	}
	rc = parse(&o, "run", groups, argv);
	CHECKF(rc == -EINVAL && err[0] && !strchr(err, '\n'),
	       "%s %s -> rc %d '%s'", opt, val ? val : "", rc, err);
}

static void test_bad(void)
{
	static const char *const cases[][2] = {
		{ "--bs", "0" }, { "--bs", "3000" }, { "--bs", "2m" }, { "--bs", "x" },
		{ "--bs", "-4k" }, { "--qd", "0" }, { "--qd", "65537" }, { "--qd", "x" },
		{ "--qd", "-1" }, { "-d", "1.5" }, { "--batch", "0" }, { "--time", "0" },
		{ "--time", "abc" }, { "-t", "10q" }, { "--time", "" }, { "--ramp", "x" },
		{ "--engine", "spdk" }, { "--completion", "interrupt" }, { "--ios", "0" },
		{ "--jobs-per-device", "0" }, { "--jobs-per-device", "1025" },
		{ "--cpus", "0-" }, { "--cpus", "1023" }, { "--placement", "far" },
		{ "--range", "0" }, { "--range", "1k:" }, { "--range", ":4k" },
		{ "--range", "x:4k" }, { "--range", "18446744073709551615:1" },
		{ "--seed", "x" }, { "--json", "" }, { "--topology", "" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		bad(cases[i][0], cases[i][1], CLI_OG_TARGET);
	bad("--nope", NULL, CLI_OG_TARGET);
	bad("-Z", NULL, CLI_OG_TARGET);
	bad("-j", "2", CLI_OG_TARGET);		/* nop only */
	bad("--bs", "4k", CLI_OG_NOP);		/* run only */
	{
		char *argv[] = { "run", "f", "--qd", NULL };
		struct cli_opts o;

		CHECK(parse(&o, "run", CLI_OG_TARGET, argv) == -EINVAL && strstr(err, "--qd"));
	}
}

static void test_help_set(void)
{
	char *h[] = { "run", "--help", NULL };
	char *v[] = { "run", "-V", NULL };
	struct cli_opts o;

	CHECK(parse(&o, "run", CLI_OG_TARGET, h) == 0 && outcome == CLI_PARSE_HELP);
	CHECK(parse(&o, "run", CLI_OG_TARGET, v) == 0 && outcome == CLI_PARSE_VERSION);
	CHECK(cli_opts_set(&o, "qd", "7", err, sizeof(err)) == 0 && o.qd == 7);
	CHECK(cli_opts_set(&o, "buffered", "true", err, sizeof(err)) == 0 && o.buffered);
	CHECK(cli_opts_set(&o, "buffered", "no", err, sizeof(err)) == 0 && !o.buffered);
	CHECK(cli_opts_set(&o, "buffered", "maybe", err, sizeof(err)) == -EINVAL);
	CHECK(cli_opts_set(&o, "nosuch", "1", err, sizeof(err)) == -ENOENT && err[0]);
	CHECK(cli_opts_set(&o, "qd", NULL, err, sizeof(err)) == -EINVAL);
	CHECK(cli_opts_set(&o, "time", "0", err, sizeof(err)) == -EINVAL);
}

/* "--ti" as getopt_long reads it: the one option it abbreviates. */
static void test_abbrev(void)
{
	const struct cli_optdesc *d;
	struct cli_opts o;

	cli_opts_init(&o, "run", CLI_OG_TARGET | CLI_OG_ENGINE | CLI_OG_JSON);
	d = cli_opt_find_abbrev(&o, "ti");
	CHECK(d && !strcmp(d->name, "time"));
	d = cli_opt_find_abbrev(&o, "js");
	CHECK(d && !strcmp(d->name, "json"));
	d = cli_opt_find_abbrev(&o, "jobs");	/* run has no --jobs of its own */
	CHECK(d && !strcmp(d->name, "jobs-per-device"));
	CHECK(!cli_opt_find_abbrev(&o, "b"));	/* bs, batch, buffered */
	CHECK(!cli_opt_find_abbrev(&o, ""));
	CHECK(!cli_opt_find_abbrev(&o, "nosuch"));
	cli_opts_init(&o, "nop", CLI_OG_ENGINE | CLI_OG_NOP | CLI_OG_JSON);
	d = cli_opt_find_abbrev(&o, "jobs");	/* exact wins */
	CHECK(d && !strcmp(d->name, "jobs"));
}

/* The shared table is data: each row of a shared kind names a field
 * inside struct cli_opts, its bounds where --help prints them, and a
 * choice its values and what a choice is; a row of its own has a setter. */
static void test_rows(void)
{
	const struct cli_optdesc *d;
	struct cli_opts o;

	for (d = cli_opts_table; d->name; d++) {
		CHECKF(d->kind != CLI_OPT_FN || d->set, "--%s: neither a kind nor a setter", d->name);
		CHECKF(d->kind == CLI_OPT_FN || (d->off && d->off < sizeof(struct cli_opts)),
		       "--%s: no field", d->name);
		/* a setter of its own may read its bounds from its row (--repeat:
		 * a count, or auto) */
		CHECKF(!strstr(d->help, "{bounds}") ||
		       ((d->kind == CLI_OPT_U32 || d->kind == CLI_OPT_U64 ||
			 d->kind == CLI_OPT_DURATION || d->kind == CLI_OPT_FN) &&
			d->min <= d->max && d->max),
		       "--%s: {bounds} without bounds", d->name);
		CHECKF(d->kind != CLI_OPT_CHOICE || (d->choices && d->vals && d->noun),
		       "--%s: a choice without its values", d->name);
	}
	/* a count lands in its field, within its bounds, and nowhere else */
	cli_opts_init(&o, "run", CLI_OG_ENGINE | CLI_OG_TARGET);
	CHECK(cli_opts_set(&o, "qd", "65536", err, sizeof(err)) == 0 && o.qd == 65536 &&
	      o.batch == 32);
	CHECK(cli_opts_set(&o, "qd", "65537", err, sizeof(err)) == -EINVAL &&
	      !strcmp(err, "--qd: '65537' is above 65536") && o.qd == 65536);
	CHECK(cli_opts_set(&o, "placement", "remote", err, sizeof(err)) == 0 &&
	      o.placement == TOPO_PLACE_REMOTE && o.placement_set);
	CHECK(cli_opts_set(&o, "no-latency", "true", err, sizeof(err)) == 0 && !o.latency);
	CHECK(cli_opts_set(&o, "ramp", "0", err, sizeof(err)) == 0 && !o.ramp_ns && o.ramp_set);
}

int main(void)
{
	test_sizes();
	test_durations();
	test_counts();
	test_cpulist();
	test_cpus_check();
	test_defaults();
	test_values();
	test_bad();
	test_help_set();
	test_abbrev();
	test_rows();
	return t_result();
}
