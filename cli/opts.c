/* Shared options of the commands that run the engine. Every value is parsed
 * with bounds and rejected with one line naming the option, the value and
 * the problem. */
#include "cli/opts.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"

#define NS_PER_S 1000000000ull
#define MAX_TIME_NS (30ull * 24 * 3600 * NS_PER_S)	/* 30 days */
#define MAX_OPTS 64

typedef int (*setter_fn)(struct cli_opts *o, const char *arg, char *err,
			 size_t errlen);

struct optdesc {
	const char *name;
	int has_arg;
	int val;
	unsigned group;		/* 0: every command */
	setter_fn set;
	const char *arg;
	const char *help;
};

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A plain decimal number at the start of s: digits only (no sign, no
 * space, no hex), checked for overflow. */
static int parse_digits(const char *s, uint64_t *v, const char **end)
{
	char *e;
	unsigned long long x;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &e, 10);
	if (errno == ERANGE)
		return -ERANGE;
	*v = x;
	*end = e;
	return 0;
}

/* "k", "K", "KiB", "kb", ...: the power of 1024 of a size suffix, or -1. */
static int size_shift(const char *s)
{
	static const char units[] = "kmgt";
	const char *u;
	int shift;

	if (!*s)
		return 0;
	u = strchr(units, s[0] | 0x20);
	if (!u || !s[0])
		return -1;
	shift = 10 * (int)(u - units + 1);
	s++;
	if (!*s || !strcmp(s, "b") || !strcmp(s, "B") || !strcmp(s, "iB") ||
	    !strcmp(s, "ib"))
		return shift;
	return -1;
}

int cli_parse_size(const char *what, const char *s, uint64_t min,
		   uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	const char *end;
	uint64_t v;
	int shift, rc;

	rc = parse_digits(s, &v, &end);
	if (rc == -EINVAL)
		return fail(err, errlen, "%s: '%s' is not a size (like 4096, 4k, 1m)", what, s);
	shift = rc ? 0 : size_shift(end);
	if (shift < 0)
		return fail(err, errlen, "%s: '%s' has an unknown suffix (use k, m, g or t)", what, s);
	if (rc || (shift && v > (UINT64_MAX >> shift)))
		return fail(err, errlen, "%s: '%s' is too large", what, s);
	v <<= shift;
	if (v < min)
		return fail(err, errlen, "%s: '%s' is below %llu", what, s, (unsigned long long)min);
	if (v > max)
		return fail(err, errlen, "%s: '%s' is above %llu", what, s, (unsigned long long)max);
	*out = v;
	return 0;
}

/* Counts use decimal suffixes: 1k = 1000. */
static uint64_t count_mult(const char *s)
{
	if (!*s)
		return 1;
	if (s[1])
		return 0;
	switch (s[0] | 0x20) {
	case 'k': return 1000ull;
	case 'm': return 1000000ull;
	case 'g': return 1000000000ull;
	}
	return 0;
}

int cli_parse_count(const char *what, const char *s, uint64_t min,
		    uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	const char *end;
	uint64_t v, mult;
	int rc;

	rc = parse_digits(s, &v, &end);
	if (rc == -EINVAL)
		return fail(err, errlen, "%s: '%s' is not a number", what, s);
	mult = rc ? 1 : count_mult(end);
	if (!mult)
		return fail(err, errlen, "%s: '%s' has an unknown suffix (use k, m or g)", what, s);
	if (rc || v > UINT64_MAX / mult)
		return fail(err, errlen, "%s: '%s' is too large", what, s);
	v *= mult;
	if (v < min)
		return fail(err, errlen, "%s: '%s' is below %llu", what, s, (unsigned long long)min);
	if (v > max)
		return fail(err, errlen, "%s: '%s' is above %llu", what, s, (unsigned long long)max);
	*out = v;
	return 0;
}

/* Nanoseconds per unit of a duration suffix; a bare number is seconds. */
static uint64_t duration_mult(const char *s)
{
	static const struct { const char *u; uint64_t ns; } units[] = {
		{ "", NS_PER_S }, { "s", NS_PER_S }, { "ms", 1000000ull },
		{ "us", 1000ull }, { "ns", 1ull }, { "m", 60 * NS_PER_S },
		{ "h", 3600 * NS_PER_S },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(s, units[i].u))
			return units[i].ns;
	return 0;
}

/* The digits after a decimal point, at most 6 of them ("0.25s"): *frac
 * over *scale. Finer than a microsecond is refused rather than rounded. */
static int parse_fraction(const char *s, uint64_t *frac, uint64_t *scale,
			  const char **end)
{
	uint64_t f = 0, sc = 1;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (sc == 1000000)
			return -EINVAL;
		f = f * 10 + (uint64_t)(*s - '0');
		sc *= 10;
	}
	*frac = f;
	*scale = sc;
	*end = s;
	return 0;
}

int cli_parse_duration(const char *what, const char *s, uint64_t min_ns,
		       uint64_t max_ns, uint64_t *out, char *err, size_t errlen)
{
	const char *end;
	uint64_t v, mult;
	int rc;

	uint64_t frac = 0, scale = 1;

	rc = parse_digits(s, &v, &end);
	if (!rc && *end == '.')
		rc = parse_fraction(end + 1, &frac, &scale, &end);
	if (rc == -EINVAL)
		return fail(err, errlen, "%s: '%s' is not a duration (like 10s, 500ms, 2m)", what, s);
	mult = rc ? 1 : duration_mult(end);
	if (!mult)
		return fail(err, errlen, "%s: '%s' has an unknown unit (use ms, s, m or h)", what, s);
	if (rc || v > max_ns / mult)
		return fail(err, errlen, "%s: '%s' is too long", what, s);
	v = v * mult + frac * (mult / scale);
	if (v < min_ns)
		return fail(err, errlen, "%s: '%s' must be above zero", what, s);
	*out = v;
	return 0;
}

/* One "a" or "a-b" element of a CPU list. */
static int cpu_range(const char *s, const char *stop, unsigned *lo,
		     unsigned *hi)
{
	const char *end;
	uint64_t a, b;

	if (parse_digits(s, &a, &end) || a >= CLI_MAX_CPUS)
		return -EINVAL;
	b = a;
	if (end < stop && *end == '-' &&
	    (parse_digits(end + 1, &b, &end) || b >= CLI_MAX_CPUS || b < a))
		return -EINVAL;
	if (end != stop)
		return -EINVAL;
	*lo = (unsigned)a;
	*hi = (unsigned)b;
	return 0;
}

int cli_parse_cpulist(const char *s, int *cpus, unsigned max, unsigned *n,
		      char *err, size_t errlen)
{
	unsigned char seen[CLI_MAX_CPUS] = { 0 };
	const char *p = s, *stop;
	unsigned lo, hi, c, k = 0;

	if (!*s)
		return fail(err, errlen, "--cpus: the list is empty");
	for (;;) {
		stop = strchr(p, ',');
		if (!stop)
			stop = p + strlen(p);
		if (cpu_range(p, stop, &lo, &hi))
			return fail(err, errlen, "--cpus: '%.*s' is not a CPU or range of CPUs 0-%u",
				    (int)(stop - p), p, CLI_MAX_CPUS - 1);
		for (c = lo; c <= hi; c++) {
			if (seen[c])
				return fail(err, errlen, "--cpus: CPU %u is listed twice", c);
			if (k == max)
				return fail(err, errlen, "--cpus: more than %u CPUs", max);
			seen[c] = 1;
			cpus[k++] = (int)c;
		}
		if (!*stop)
			break;
		p = stop + 1;
	}
	*n = k;
	return 0;
}

int cli_cpus_check(const int *cpus, unsigned n, char *err, size_t errlen)
{
	cpu_set_t allowed;
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	unsigned i;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return fail(err, errlen, "--cpus: cannot read this process's CPU affinity: %s",
			    strerror(errno));
	for (i = 0; i < n; i++) {
		if (conf > 0 && cpus[i] >= conf)
			return fail(err, errlen, "--cpus: CPU %d does not exist (this machine has %ld)",
				    cpus[i], conf);
		if (!CPU_ISSET((size_t)cpus[i], &allowed))
			return fail(err, errlen, "--cpus: CPU %d is offline or outside this process's affinity",
				    cpus[i]);
	}
	return 0;
}

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
		return fail(err, errlen, "%s: '%s' is not true or false", opt, arg);
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
		return fail(err, errlen, "--bs: '%s' is zero", arg);
	if (v > CLI_MAX_BS)
		return fail(err, errlen, "--bs: '%s' is above 1 MiB", arg);
	if (v & (v - 1))
		return fail(err, errlen, "--bs: '%s' is not a power of two", arg);
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
	uint32_t v;
	int rc = set_u32("--jobs-per-device", arg, 1, CLI_MAX_JOBS, &v, err, errlen);

	if (!rc)
		o->jobs_per_device = v;
	return rc;
}

static int set_jobs(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	uint32_t v;
	int rc = set_u32("--jobs", arg, 1, CLI_MAX_JOBS, &v, err, errlen);

	if (!rc)
		o->jobs = v;
	return rc;
}

static int set_engine(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	if (!strcmp(arg, "auto"))
		o->backend = ENG_BACKEND_AUTO;
	else if (!strcmp(arg, "io_uring"))
		o->backend = ENG_BACKEND_IO_URING;
	else if (!strcmp(arg, "libaio"))
		o->backend = ENG_BACKEND_LIBAIO;
	else
		return fail(err, errlen, "--engine: unknown engine '%s' (auto, io_uring or libaio)", arg);
	return 0;
}

static int set_completion(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	static const struct { const char *name; enum eng_mode mode; } modes[] = {
		{ "irq", ENG_MODE_IRQ }, { "poll", ENG_MODE_POLL },
		{ "hybrid", ENG_MODE_HYBRID }, { "sqpoll", ENG_MODE_SQPOLL },
	};
	size_t i;

	o->mode_auto = !strcmp(arg, "auto");
	if (o->mode_auto) {
		o->mode = ENG_MODE_IRQ;
		return 0;
	}
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(arg, modes[i].name)) {
			o->mode = modes[i].mode;
			return 0;
		}
	}
	return fail(err, errlen, "--completion: unknown mode '%s' (irq, poll, hybrid, sqpoll or auto)", arg);
}

static int set_time(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	int rc = cli_parse_duration("--time", arg, 1, MAX_TIME_NS, &o->time_ns, err, errlen);

	if (!rc)
		o->time_set = true;
	return rc;
}

static int set_ramp(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	int rc = cli_parse_duration("--ramp", arg, 0, MAX_TIME_NS, &o->ramp_ns, err, errlen);

	if (!rc)
		o->ramp_set = true;
	return rc;
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
	if (!strcmp(arg, "local"))
		o->placement = CLI_PLACE_LOCAL;
	else if (!strcmp(arg, "remote"))
		o->placement = CLI_PLACE_REMOTE;
	else if (!strcmp(arg, "none"))
		o->placement = CLI_PLACE_NONE;
	else
		return fail(err, errlen, "--placement: unknown placement '%s' (local, remote or none)", arg);
	o->placement_set = true;
	return 0;
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
			return fail(err, errlen, "--range: '%s' is not OFFSET:LENGTH", arg);
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
		return fail(err, errlen, "--json: the file name is empty (use - for stdout)");
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

	if (parse_digits(arg, &o->seed, &end) || *end)
		return fail(err, errlen, "--seed: '%s' is not a number below 2^64", arg);
	o->seed_set = true;
	return 0;
}

enum {
	O_BATCH = 0x100, O_ENGINE, O_COMPLETION, O_RAMP, O_IOS, O_JPD, O_CPUS,
	O_PLACEMENT, O_BUFFERED, O_RANGE, O_NOLAT, O_JSON, O_SEED,
};

static const struct optdesc shared_opts[] = {
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

#define NSHARED (sizeof(shared_opts) / sizeof(shared_opts[0]))

void cli_opts_init(struct cli_opts *o, const char *cmd, unsigned groups)
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->groups = groups;
	o->bs = 4096;
	o->qd = 32;
	o->batch = 32;
	o->backend = ENG_BACKEND_AUTO;
	o->mode = ENG_MODE_IRQ;
	o->time_ns = 10 * NS_PER_S;
	o->ramp_ns = 2 * NS_PER_S;
	o->jobs_per_device = 1;
	o->jobs = 1;
	o->placement = CLI_PLACE_LOCAL;
	o->latency = true;
}

void cli_opts_finish(struct cli_opts *o)
{
	if (o->ios && !o->ramp_set)
		o->ramp_ns = 0;
	if (o->ios && !o->time_set)
		o->time_ns = 0;
	if (o->batch > o->qd)
		o->batch = o->qd;
	if (!o->seed_set)
		o->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
}

static bool accepted(const struct cli_opts *o, const struct optdesc *d)
{
	return !d->group || (d->group & o->groups);
}

static const struct optdesc *find_opt(const struct cli_opts *o, int val,
				      const char *name)
{
	size_t i;

	for (i = 0; i < NSHARED; i++) {
		if (!accepted(o, &shared_opts[i]))
			continue;
		if (name ? !strcmp(name, shared_opts[i].name) : val == shared_opts[i].val)
			return &shared_opts[i];
	}
	return NULL;
}

int cli_opts_set(struct cli_opts *o, const char *name, const char *val,
		 char *err, size_t errlen)
{
	const struct optdesc *d = find_opt(o, 0, name);

	if (!d) {
		snprintf(err, errlen, "unknown option '%s' for %s", name, o->cmd);
		return -ENOENT;
	}
	if (d->has_arg == required_argument && !val)
		return fail(err, errlen, "--%s needs a value", name);
	return d->set(o, val, err, errlen);
}

/* The shared options this command accepts, its extras, then -h and -V,
 * as getopt_long tables. */
static void build_tables(const struct cli_opts *o, const struct cli_opt_extra *extra,
			 struct option *lo, char *so, size_t solen)
{
	size_t i, n = 0, k = 0;

	so[k++] = ':';
	for (i = 0; i < NSHARED && n < MAX_OPTS - 3; i++) {
		if (!accepted(o, &shared_opts[i]))
			continue;
		lo[n++] = (struct option){ shared_opts[i].name, shared_opts[i].has_arg,
					   NULL, shared_opts[i].val };
	}
	for (i = 0; extra && extra[i].name && n < MAX_OPTS - 3; i++)
		lo[n++] = (struct option){ extra[i].name, extra[i].has_arg, NULL, extra[i].val };
	lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[n++] = (struct option){ "version", no_argument, NULL, 'V' };
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	for (i = 0; i < n && k + 3 < solen; i++) {
		if (lo[i].val <= 0 || lo[i].val > 0xff)
			continue;
		so[k++] = (char)lo[i].val;
		if (lo[i].has_arg == required_argument)
			so[k++] = ':';
	}
	so[k] = '\0';
}

/* getopt's own complaints, as one line naming the option. */
static int bad_option(int c, char **argv, char *err, size_t errlen)
{
	const char *arg = argv[optind - 1];

	if (c == ':')
		return fail(err, errlen, "%s needs a value", arg);
	if (optopt && optopt < 0x100 && strncmp(arg, "--", 2))
		return fail(err, errlen, "unknown option '-%c'", optopt);
	return fail(err, errlen, "unknown option '%s'", arg);
}

static bool is_extra(const struct cli_opt_extra *extra, int c)
{
	size_t i;

	for (i = 0; extra && extra[i].name; i++)
		if (extra[i].val == c)
			return true;
	return false;
}

int cli_opts_parse_ext(struct cli_opts *o, int argc, char **argv,
		       const struct cli_opt_extra *extra, cli_opt_cb cb,
		       void *ctx, char *err, size_t errlen)
{
	struct option lo[MAX_OPTS];
	char so[2 * MAX_OPTS + 2];
	const struct optdesc *d;
	int c, rc;

	build_tables(o, extra, lo, so, sizeof(so));
	optind = 0;	/* GNU: restart scanning, so commands can parse twice */
	opterr = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == 'h' || c == 'V')
			return c == 'h' ? CLI_OPTS_HELP : CLI_OPTS_VERSION;
		if (c == '?' || c == ':')
			return bad_option(c, argv, err, errlen);
		if (is_extra(extra, c))
			rc = cb ? cb(ctx, c, optarg, err, errlen) : -EINVAL;
		else if ((d = find_opt(o, c, NULL)))
			rc = d->set(o, optarg, err, errlen);
		else
			rc = fail(err, errlen, "option parsing: unhandled option %d", c);
		if (rc)
			return rc;
	}
	o->targets = argv + optind;
	o->ntargets = (unsigned)(argc - optind);
	cli_opts_finish(o);
	return 0;
}

int cli_opts_parse(struct cli_opts *o, int argc, char **argv, char *err,
		   size_t errlen)
{
	return cli_opts_parse_ext(o, argc, argv, NULL, NULL, NULL, err, errlen);
}

static void usage_line(FILE *f, int val, const char *name, const char *arg,
		       const char *help)
{
	char head[64];
	const char *p, *nl;

	if (val > 0 && val < 0x100)
		snprintf(head, sizeof(head), "-%c, --%s%s%s", val, name, arg ? " " : "", arg ? arg : "");
	else
		snprintf(head, sizeof(head), "    --%s%s%s", name, arg ? " " : "", arg ? arg : "");
	fprintf(f, "  %-24s ", head);
	for (p = help; (nl = strchr(p, '\n')); p = nl + 1)
		fprintf(f, "%.*s\n  %-24s ", (int)(nl - p), p, "");
	fprintf(f, "%s\n", p);
}

void cli_opts_usage(const struct cli_opts *o, const char *synopsis,
		    const struct cli_opt_extra *extra, FILE *f)
{
	size_t i;

	fprintf(f, "usage: %s\n\noptions:\n", synopsis);
	for (i = 0; i < NSHARED; i++)
		if (accepted(o, &shared_opts[i]))
			usage_line(f, shared_opts[i].val, shared_opts[i].name,
				   shared_opts[i].arg, shared_opts[i].help);
	for (i = 0; extra && extra[i].name; i++)
		usage_line(f, extra[i].val, extra[i].name, extra[i].arg, extra[i].help);
	usage_line(f, 'h', "help", NULL, "this text");
	usage_line(f, 'V', "version", NULL, "print the version");
	fprintf(f, "\nSizes take k, m, g (powers of 1024); counts take k, m, g (powers\n"
		   "of 1000); durations take ms, s, m, h. See iostorm(1).\n");
}

int cli_opts_cmdline_parse(struct cli_opts *o, int argc, char **argv,
			   const char *synopsis,
			   const struct cli_opt_extra *extra, cli_opt_cb cb,
			   void *ctx)
{
	const char *cmd = o->cmd;
	char err[512];
	int rc;

	rc = cli_opts_parse_ext(o, argc, argv, extra, cb, ctx, err, sizeof(err));
	if (rc == CLI_OPTS_HELP) {
		cli_opts_usage(o, synopsis, extra, stdout);
		return CLI_EXIT_OK;
	}
	if (rc == CLI_OPTS_VERSION) {
		printf("iostorm %s\n", IOSTORM_VERSION);
		return CLI_EXIT_OK;
	}
	if (rc) {
		fprintf(stderr, "iostorm %s: %s (try 'iostorm %s --help')\n", cmd, err, cmd);
		return CLI_EXIT_USAGE;
	}
	return CLI_OPTS_GO;
}

int cli_opts_cmdline_ext(struct cli_opts *o, const char *cmd, unsigned groups,
			 int argc, char **argv, const char *synopsis,
			 const struct cli_opt_extra *extra, cli_opt_cb cb,
			 void *ctx)
{
	cli_opts_init(o, cmd, groups);
	return cli_opts_cmdline_parse(o, argc, argv, synopsis, extra, cb, ctx);
}

int cli_opts_cmdline(struct cli_opts *o, const char *cmd, unsigned groups,
		     int argc, char **argv, const char *synopsis)
{
	return cli_opts_cmdline_ext(o, cmd, groups, argc, argv, synopsis, NULL,
				    NULL, NULL);
}
