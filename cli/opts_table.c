/* The shared options themselves: one setter per option, each bounded and
 * refusing a bad value with one line, and the table that names them for
 * getopt, job files and the usage text (cli/opts.c). */
#include "cli/opts_impl.h"

#include <errno.h>
#include <string.h>

#define MAX_TIME_NS (30ull * 24 * 3600 * CLI_NS_PER_S)	/* 30 days */

/* ---- setters: one per option ---- */

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

static int set_reap(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return set_u32("--reap", arg, 1, CLI_MAX_QD, &o->reap, err, errlen);
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

static int set_stall(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	bool given;

	return set_duration("--stall-timeout", arg, 0, &o->stall_ns, &given, err, errlen);
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
	if (topo_policy_parse(arg, &o->placement))
		return cli_opts_fail(err, errlen, "--placement: unknown placement '%s' (%s)", arg,
				     "local, remote or none");
	o->placement_set = true;
	return 0;
}

static int set_buffered(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_flag("--buffered", arg, &o->buffered, err, errlen);
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
	int rc = cli_parse_flag("--no-latency", arg, &v, err, errlen);

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
	return cli_parse_flag("--quiet", arg, &o->quiet, err, errlen);
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
	O_PLACEMENT, O_BUFFERED, O_RANGE, O_NOLAT, O_JSON, O_SEED, O_STALL, O_REAP,
};

/* Each shared option once: the groups say which verbs offer it. */
const struct cli_optdesc cli_opts_table[] = {
	{ "bs", 'b', "SIZE", CLI_OG_TARGET, 0, set_bs,
	  "bytes per IO: a power of two up to 1m, a multiple\n"
	  "of each target's logical block size (default 4k)" },
	{ "qd", 'd', "N", CLI_OG_ENGINE, 0, set_qd,
	  "IOs in flight per worker, 1..65536 (default 32)" },
	{ "batch", O_BATCH, "N", CLI_OG_ENGINE, 0, set_batch,
	  "IOs per submission call, at most --qd (default 32)" },
	{ "reap", O_REAP, "N", CLI_OG_ENGINE, 0, set_reap,
	  "completions a full queue waits for per call, at most\n"
	  "--qd (default 1: refill as soon as one is done;\n"
	  "t/io_uring's -c)" },
	{ "engine", O_ENGINE, "NAME", CLI_OG_TARGET, 0, set_engine,
	  "auto, io_uring or libaio (default auto: io_uring,\n"
	  "libaio where the kernel refuses io_uring)" },
	{ "completion", O_COMPLETION, "MODE", CLI_OG_ENGINE, 0, set_completion,
	  "irq, poll, hybrid, sqpoll or auto (default irq)" },
	{ "time", 't', "DURATION", CLI_OG_ENGINE, 0, set_time,
	  "measured time: 10s, 500ms, 2m, 1h; a bare number\n"
	  "is seconds (default 10s; no limit with --ios)" },
	{ "ramp", O_RAMP, "DURATION", CLI_OG_ENGINE, 0, set_ramp,
	  "time before measuring, not counted (default 2s,\n"
	  "0 with --ios)" },
	{ "stall-timeout", O_STALL, "DURATION", CLI_OG_ENGINE, 0, set_stall,
	  "name a device that completes no IO for this long;\n"
	  "at the end, wait at most min(2s, this) for its\n"
	  "IOs, then report it stalled (default 10s, 0: off)" },
	{ "ios", O_IOS, "N", CLI_OG_ENGINE, 0, set_ios,
	  "stop after N measured IOs per device (per job for\n"
	  "nop); 1k = 1000" },
	{ "jobs-per-device", O_JPD, "N", CLI_OG_TARGET, 0, set_jpd,
	  "worker threads per device, 1..1024 (default 1)" },
	{ "jobs", 'j', "N", CLI_OG_NOP, 0, set_jobs,
	  "worker threads, 1..1024 (default 1)" },
	{ "cpus", O_CPUS, "LIST", CLI_OG_ENGINE, CLI_OF_LIST, set_cpus,
	  "pin worker i to the i-th CPU of LIST (0-3,8,10-11)" },
	{ "placement", O_PLACEMENT, "WHERE", CLI_OG_TARGET, 0, set_placement,
	  "local, remote or none: where workers run relative\n"
	  "to their device" },
	{ "buffered", O_BUFFERED, NULL, CLI_OG_TARGET, 0, set_buffered,
	  "read through the page cache (no O_DIRECT)" },
	{ "range", O_RANGE, "[OFF:]LEN", CLI_OG_TARGET, 0, set_range,
	  "read only LEN bytes from OFF (default: all)" },
	{ "no-latency", O_NOLAT, NULL, CLI_OG_ENGINE, 0, set_nolat,
	  "do not time each IO" },
	{ "json", O_JSON, "FILE", CLI_OG_JSON, 0, set_json,
	  "write the report as JSON to FILE; with -, JSON goes\n"
	  "to stdout and the table to stderr" },
	{ "quiet", 'q', NULL, CLI_OG_ENGINE, 0, set_quiet,
	  "no live progress line" },
	{ "seed", O_SEED, "N", CLI_OG_ENGINE, 0, set_seed,
	  "seed of the offset generators (default: clock)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};
