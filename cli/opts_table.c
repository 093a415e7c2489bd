/* The shared options themselves: one setter per option, each bounded and
 * refusing a bad value with one line, and the table that names them for
 * getopt, job files and the usage text (cli/opts.c). */
#include "cli/opts_impl.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>

#define MAX_TIME_NS (30ull * 24 * 3600 * CLI_NS_PER_S)	/* 30 days */

const char *cli_placement_name(enum cli_placement p)
{
	switch (p) {
	case CLI_PLACE_LOCAL: return "local";
	case CLI_PLACE_REMOTE: return "remote";
	case CLI_PLACE_NONE: return "none";
	}
	return "?";
}

/* ---- setters: one per option ---- */

static int flag_value(const char *opt, const char *arg, bool *v, char *err,
		      size_t errlen)
{
	if (!arg || !strcmp(arg, "1") || !strcmp(arg, "true") ||
	    !strcmp(arg, "yes") || !strcmp(arg, "on"))
		*v = true;
	else if (!strcmp(arg, "0") || !strcmp(arg, "false") ||
		 !strcmp(arg, "no") || !strcmp(arg, "off"))
		*v = false;
	else
		return cli_opts_fail(err, errlen, "%s: '%s' is not true or false", opt, arg);
	return 0;
}

static int set_bs(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	uint64_t v;
	int rc;

	rc = cli_parse_size("--bs", arg, 0, UINT64_MAX, &v, err, errlen);
	if (rc)
		return rc;
	if (!v)
		return cli_opts_fail(err, errlen, "--bs: '%s' is zero", arg);
	if (v > CLI_MAX_BS)
		return cli_opts_fail(err, errlen, "--bs: '%s' is above 1 MiB", arg);
	if (v & (v - 1))
		return cli_opts_fail(err, errlen, "--bs: '%s' is not a power of two", arg);
	o->bs = (uint32_t)v;
	return 0;
}

static int set_u32(const char *opt, const char *arg, uint64_t min,
		   uint64_t max, uint32_t *out, char *err, size_t errlen)
{
	uint64_t v;
	int rc;

	rc = cli_parse_count(opt, arg, min, max, &v, err, errlen);
	if (!rc)
		*out = (uint32_t)v;
	return rc;
}

static int set_qd(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return set_u32("--qd", arg, 1, CLI_MAX_QD, &o->qd, err, errlen);
}

static int set_batch(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return set_u32("--batch", arg, 1, CLI_MAX_QD, &o->batch, err, errlen);
}

static int set_jpd(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return set_u32("--jobs-per-device", arg, 1, CLI_MAX_JOBS, &o->jobs_per_device, err, errlen);
}

static int set_jobs(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return set_u32("--jobs", arg, 1, CLI_MAX_JOBS, &o->jobs, err, errlen);
}

struct choice {
	const char *name;
	int val;
};

#define NCHOICES(a) (sizeof(a) / sizeof((a)[0]))

/* The value that arg names in c[], or one line that lists the names. */
static int choose(const char *opt, const char *kind, const char *names,
		  const struct choice *c, size_t n, const char *arg, int *val,
		  char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(arg, c[i].name)) {
			*val = c[i].val;
			return 0;
		}
	}
	return cli_opts_fail(err, errlen, "%s: unknown %s '%s' (%s)", opt, kind, arg, names);
}

static int set_engine(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	static const struct choice engines[] = {
		{ "auto", ENG_BACKEND_AUTO }, { "io_uring", ENG_BACKEND_IO_URING },
		{ "libaio", ENG_BACKEND_LIBAIO },
	};
	int v = 0, rc;

	rc = choose("--engine", "engine", "auto, io_uring or libaio", engines,
		    NCHOICES(engines), arg, &v, err, errlen);
	if (!rc)
		o->backend = (enum eng_backend)v;
	return rc;
}

static int set_completion(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	static const struct choice modes[] = {
		{ "irq", ENG_MODE_IRQ }, { "poll", ENG_MODE_POLL },
		{ "hybrid", ENG_MODE_HYBRID }, { "sqpoll", ENG_MODE_SQPOLL },
		{ "auto", ENG_MODE_IRQ },	/* irq until the run picks one */
	};
	int v = 0, rc;

	o->mode_auto = !strcmp(arg, "auto");
	rc = choose("--completion", "mode", "irq, poll, hybrid, sqpoll or auto", modes,
		    NCHOICES(modes), arg, &v, err, errlen);
	if (!rc)
		o->mode = (enum eng_mode)v;
	return rc;
}

/* A duration up to 30 days; *given records that the option was set. */
static int set_duration(const char *opt, const char *arg, uint64_t min_ns,
			uint64_t *ns, bool *given, char *err, size_t errlen)
{
	int rc = cli_parse_duration(opt, arg, min_ns, MAX_TIME_NS, ns, err, errlen);

	if (!rc)
		*given = true;
	return rc;
}

static int set_time(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return set_duration("--time", arg, 1, &o->time_ns, &o->time_set, err, errlen);
}

static int set_ramp(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return set_duration("--ramp", arg, 0, &o->ramp_ns, &o->ramp_set, err, errlen);
}

static int set_ios(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_count("--ios", arg, 1, 1ull << 62, &o->ios, err, errlen);
}

static int set_cpus(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	int rc;

	rc = cli_parse_cpulist(arg, o->cpus, CLI_MAX_CPUS, &o->ncpus, err, errlen);
	if (rc)
		return rc;
	return cli_cpus_check(o->cpus, o->ncpus, err, errlen);
}

static int set_placement(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	static const struct choice places[] = {
		{ "local", CLI_PLACE_LOCAL }, { "remote", CLI_PLACE_REMOTE },
		{ "none", CLI_PLACE_NONE },
	};
	int v = 0, rc;

	rc = choose("--placement", "placement", "local, remote or none", places,
		    NCHOICES(places), arg, &v, err, errlen);
	if (!rc) {
		o->placement = (enum cli_placement)v;
		o->placement_set = true;
	}
	return rc;
}

static int set_buffered(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return flag_value("--buffered", arg, &o->buffered, err, errlen);
}

static int set_range(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	const char *colon = strchr(arg, ':');
	char off[64];
	uint64_t a = 0, len;
	int rc;

	if (colon) {
		if ((size_t)(colon - arg) >= sizeof(off))
			return cli_opts_fail(err, errlen, "--range: '%s' is not OFFSET:LENGTH", arg);
		memcpy(off, arg, (size_t)(colon - arg));
		off[colon - arg] = '\0';
		rc = cli_parse_size("--range offset", off, 0, UINT64_MAX, &a, err, errlen);
		if (rc)
			return rc;
	}
	rc = cli_parse_size("--range length", colon ? colon + 1 : arg, 1,
			    UINT64_MAX - a, &len, err, errlen);
	if (rc)
		return rc;
	o->range_off = a;
	o->range_len = len;
	return 0;
}

static int set_nolat(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	bool v;
	int rc = flag_value("--no-latency", arg, &v, err, errlen);

	if (!rc)
		o->latency = !v;
	return rc;
}

static int set_json(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	if (!*arg)
		return cli_opts_fail(err, errlen, "--json: the file name is empty (use - for stdout)");
	o->json = arg;
	return 0;
}

static int set_quiet(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return flag_value("--quiet", arg, &o->quiet, err, errlen);
}

static int set_seed(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	const char *end;

	if (cli_parse_digits(arg, &o->seed, &end) || *end)
		return cli_opts_fail(err, errlen, "--seed: '%s' is not a number below 2^64", arg);
	o->seed_set = true;
	return 0;
}

enum {
	O_BATCH = 0x100, O_ENGINE, O_COMPLETION, O_RAMP, O_IOS, O_JPD, O_CPUS,
	O_PLACEMENT, O_BUFFERED, O_RANGE, O_NOLAT, O_JSON, O_SEED,
};

const struct cli_optdesc cli_opts_table[] = {
	{ "bs", required_argument, 'b', CLI_OG_TARGET, set_bs, "SIZE",
	  "bytes per IO: a power of two up to 1m, a multiple\n"
	  "of each target's logical block size (default 4k)" },
	{ "qd", required_argument, 'd', 0, set_qd, "N",
	  "IOs in flight per worker, 1..65536 (default 32)" },
	{ "batch", required_argument, O_BATCH, 0, set_batch, "N",
	  "IOs per submission call, at most --qd (default 32)" },
	{ "engine", required_argument, O_ENGINE, CLI_OG_TARGET, set_engine, "NAME",
	  "auto, io_uring or libaio (default auto: io_uring,\n"
	  "libaio where the kernel refuses io_uring)" },
	{ "completion", required_argument, O_COMPLETION, 0, set_completion, "MODE",
	  "irq, poll, hybrid, sqpoll or auto (default irq)" },
	{ "time", required_argument, 't', 0, set_time, "DURATION",
	  "measured time: 10s, 500ms, 2m, 1h; a bare number\n"
	  "is seconds (default 10s; no limit with --ios)" },
	{ "ramp", required_argument, O_RAMP, 0, set_ramp, "DURATION",
	  "time before measuring, not counted (default 2s,\n"
	  "0 with --ios)" },
	{ "ios", required_argument, O_IOS, 0, set_ios, "N",
	  "stop after N measured IOs per device (per job for\n"
	  "nop); 1k = 1000" },
	{ "jobs-per-device", required_argument, O_JPD, CLI_OG_TARGET, set_jpd, "N",
	  "worker threads per device, 1..1024 (default 1)" },
	{ "jobs", required_argument, 'j', CLI_OG_NOP, set_jobs, "N",
	  "worker threads, 1..1024 (default 1)" },
	{ "cpus", required_argument, O_CPUS, 0, set_cpus, "LIST",
	  "pin worker i to the i-th CPU of LIST (0-3,8,10-11)" },
	{ "placement", required_argument, O_PLACEMENT, CLI_OG_TARGET, set_placement, "WHERE",
	  "local, remote or none: where workers run relative\n"
	  "to their device" },
	{ "buffered", no_argument, O_BUFFERED, CLI_OG_TARGET, set_buffered, NULL,
	  "read through the page cache (no O_DIRECT)" },
	{ "range", required_argument, O_RANGE, CLI_OG_TARGET, set_range, "[OFF:]LEN",
	  "read only LEN bytes from OFF (default: all)" },
	{ "no-latency", no_argument, O_NOLAT, 0, set_nolat, NULL,
	  "do not time each IO" },
	{ "json", required_argument, O_JSON, 0, set_json, "FILE",
	  "write the report as JSON to FILE; with -, JSON goes\n"
	  "to stdout and the table to stderr" },
	{ "quiet", no_argument, 'q', 0, set_quiet, NULL,
	  "no live progress line" },
	{ "seed", required_argument, O_SEED, 0, set_seed, "N",
	  "seed of the offset generators (default: clock)" },
};

const size_t cli_opts_ntable = sizeof(cli_opts_table) / sizeof(cli_opts_table[0]);
