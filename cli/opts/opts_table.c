/* The shared options: the table that names them for getopt, job files,
 * completion and the usage text (cli/opts/opts.c), each row the data its
 * value is read by (a count, a duration, a flag, a choice, a file name:
 * its field, its bounds), and the setters of the few whose value is of a
 * kind of its own. Each refuses a bad value with one line. */
#include "cli/opts/opts_int.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "cli/live/prom.h"

#define MAX_TIME_NS (30ull * 24 * 3600 * CLI_NS_PER_S)	/* 30 days */
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define OFF(field) offsetof(struct cli_opts, field)

/* A choice is written into an enum field through an int. */
_Static_assert(sizeof(enum eng_backend) == sizeof(int) && sizeof(enum topo_policy) == sizeof(int) &&
	       sizeof(enum cli_group) == sizeof(int) && sizeof(enum eng_arrival_kind) == sizeof(int),
	       "an enum option is an int");

/* ---- the kinds every option of that kind shares ---- */

int cli_opt_apply(const struct cli_optdesc *d, struct cli_opts *o, const char *arg,
		  char *err, size_t errlen)
{
	void *p = (char *)o + d->off;
	char opt[64];
	uint64_t v = 0;
	bool b = false;
	int i, rc = 0;

	if (d->kind == CLI_OPT_FN)
		return d->set(o, arg, err, errlen);
	snprintf(opt, sizeof(opt), "--%s", d->name);
	switch (d->kind) {
	case CLI_OPT_U32:
	case CLI_OPT_U64:
		rc = cli_parse_count(opt, arg, d->min, d->max, &v, err, errlen);
		if (!rc && d->kind == CLI_OPT_U32)
			*(uint32_t *)p = (uint32_t)v;
		else if (!rc)
			*(uint64_t *)p = v;
		break;
	case CLI_OPT_DURATION:
		rc = cli_parse_duration(opt, arg, d->min, d->max, (uint64_t *)p, err, errlen);
		break;
	case CLI_OPT_FLAG:
	case CLI_OPT_NOFLAG:
		rc = cli_parse_flag(opt, arg, &b, err, errlen);
		if (!rc)
			*(bool *)p = d->kind == CLI_OPT_FLAG ? b : !b;
		break;
	case CLI_OPT_CHOICE:
		i = cli_opt_choose(opt, d->noun, d->choices, arg, err, errlen);
		rc = i < 0 ? i : 0;
		if (!rc)
			*(int *)p = d->vals[i];
		break;
	case CLI_OPT_PATH:
		if (!*arg)
			return cli_opts_fail(err, errlen, "%s: the file name is empty%s", opt,
					     d->flags & CLI_OF_STDOUT ? " (use - for stdout)" : "");
		*(const char **)p = arg;
		break;
	case CLI_OPT_FN:
		break;
	}
	if (!rc && d->given)
		*(bool *)((char *)o + d->given) = true;
	return rc;
}

/* The first name whose value is val (names, NULL-terminated, and vals
 * side by side), NULL when none has it: --help, the JSON and the report
 * name a choice from its option's own table. */
static const char *name_of(const char *const *names, const int *vals, int val)
{
	size_t i;

	for (i = 0; names[i]; i++)
		if (vals[i] == val)
			return names[i];
	return NULL;
}

int cli_opt_show(const struct cli_optdesc *d, const struct cli_opts *o, char *buf, size_t len)
{
	const void *p = (const char *)o + d->off;
	const char *n;
	uint64_t v;

	if (d->show)
		return d->show(o, buf, len);
	switch (d->kind) {
	case CLI_OPT_U32:
		v = *(const uint32_t *)p;
		v = d->flags & CLI_OF_ATMOST_QD ? cli_opts_at_qd(o, (uint32_t)v) : v;
		return v ? cli_fmt_count(v, buf, len) : 0;
	case CLI_OPT_U64:
		v = *(const uint64_t *)p;
		return v ? cli_fmt_count(v, buf, len) : 0;
	case CLI_OPT_DURATION:
		v = *(const uint64_t *)p;
		return v ? cli_fmt_duration(v, buf, len) : 0;
	case CLI_OPT_CHOICE:
		n = name_of(d->choices, d->vals, *(const int *)p);
		return n ? snprintf(buf, len, "%s", n) : 0;
	default:
		return 0;	/* a flag, a file name: nothing worth showing */
	}
}

/* ---- the setters of values of a kind of their own ---- */

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

static int show_bs(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_size(o->bs, buf, len);
}

/* --steady PCT[,DURATION[,lat]] */
static const char *const steady_names[] = { "lat", NULL };

static int set_steady(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	char buf[64], *dur, *what;
	int rc;

	if (strlen(arg) >= sizeof(buf))
		return cli_opts_fail(err, errlen, "--steady: '%s' is too long", arg);
	strcpy(buf, arg);
	dur = strchr(buf, ',');
	what = dur ? strchr(dur + 1, ',') : NULL;
	if (dur)
		*dur++ = '\0';
	if (what)
		*what++ = '\0';
	rc = cli_parse_real("--steady", buf, 0.0, 100.0, true, &o->steady_pct, err, errlen);
	if (!rc && o->steady_pct <= 0.0)
		rc = cli_opts_fail(err, errlen, "--steady: '%s' is not above 0%%", buf);
	o->steady_ns = CLI_STEADY_WINDOW_NS;
	if (!rc && dur)
		rc = cli_parse_duration("--steady", dur, 2 * CLI_NS_PER_S, CLI_MAX_STEADY_NS,
					&o->steady_ns, err, errlen);
	if (!rc && o->steady_ns % CLI_NS_PER_S)
		rc = cli_opts_fail(err, errlen, "--steady: '%s' is not whole seconds", dur);
	o->steady_lat = false;
	if (!rc && what) {
		rc = cli_opt_choose("--steady", "figure", steady_names, what, err, errlen);
		o->steady_lat = rc == 0;
		rc = rc < 0 ? rc : 0;
	}
	if (rc)
		o->steady_pct = 0;
	return rc;
}

static int set_temp_every(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	int rc = cli_parse_duration("--temperature-every", arg, CLI_NS_PER_S, 3600 * CLI_NS_PER_S,
				    &o->temp_every_ns, err, errlen);

	if (!rc && o->temp_every_ns % CLI_NS_PER_S)
		rc = cli_opts_fail(err, errlen, "--temperature-every: '%s' is not whole seconds", arg);
	if (rc)
		o->temp_every_ns = 0;
	return rc;
}

/* Each option's table entry points at the same names as its setter, so
 * --help, completion and the refusal read one list. */
int cli_opt_choose(const char *opt, const char *kind, const char *const *names,
		   const char *arg, char *err, size_t errlen)
{
	char list[256];
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(arg, names[i]))
			return i;
	cli_choices_text(names, list, sizeof(list));
	return cli_opts_fail(err, errlen, "%s: unknown %s '%s' (%s)", opt, kind, arg, list);
}

static const char *const engine_names[] = { "auto", "io_uring", "libaio", "io_uring_cmd", NULL };
static const int engine_vals[] = {
	ENG_BACKEND_AUTO, ENG_BACKEND_IO_URING, ENG_BACKEND_LIBAIO, ENG_BACKEND_URING_CMD,
};
_Static_assert(NELEM(engine_vals) + 1 == NELEM(engine_names), "one value per engine name");

static const char *const mode_names[] = { "irq", "poll", "hybrid", "sqpoll", "auto", NULL };
static const int mode_vals[] = {
	ENG_MODE_IRQ, ENG_MODE_POLL, ENG_MODE_HYBRID, ENG_MODE_SQPOLL,
	ENG_MODE_IRQ,	/* auto: irq until the run picks one */
};
_Static_assert(NELEM(mode_vals) + 1 == NELEM(mode_names), "one value per mode name");

/* A choice, and whether it was auto: two fields. */
static int set_completion(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	int i = cli_opt_choose("--completion", "mode", mode_names, arg, err, errlen);

	if (i < 0)
		return i;
	o->mode = (enum eng_mode)mode_vals[i];
	o->mode_auto = !strcmp(arg, "auto");
	return 0;
}

static int show_completion(const struct cli_opts *o, char *buf, size_t len)
{
	const char *n = o->mode_auto ? "auto" : name_of(mode_names, mode_vals, (int)o->mode);

	return n ? snprintf(buf, len, "%s", n) : 0;
}

static int set_cpus(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	int rc;

	rc = cli_parse_cpulist(arg, o->cpus, CLI_MAX_CPUS, &o->ncpus, err, errlen);
	if (rc)
		return rc;
	return cli_cpus_check(o->cpus, o->ncpus, err, errlen);
}

static const char *const placement_names[] = { "local", "remote", "none", NULL };
static const int placement_vals[] = {
	TOPO_PLACE_LOCAL, TOPO_PLACE_REMOTE, TOPO_PLACE_NONE,
};
_Static_assert(NELEM(placement_vals) + 1 == NELEM(placement_names),
	       "one value per placement name");

static const char *const group_names[] = { "auto", "on", "off", NULL };
static const int group_vals[] = { CLI_GROUP_AUTO, CLI_GROUP_ON, CLI_GROUP_OFF };
_Static_assert(NELEM(group_vals) + 1 == NELEM(group_names), "one value per group name");

const char *cli_group_name(enum cli_group g)
{
	const char *n = name_of(group_names, group_vals, (int)g);

	return n ? n : "?";
}

static const char *const arrival_names[] = { "uniform", "poisson", NULL };
static const int arrival_vals[] = { ENG_ARRIVAL_UNIFORM, ENG_ARRIVAL_POISSON };
_Static_assert(NELEM(arrival_vals) + 1 == NELEM(arrival_names), "one value per arrival name");

const char *cli_arrival_name(enum eng_arrival_kind a)
{
	const char *n = name_of(arrival_names, arrival_vals, (int)a);

	return n ? n : "?";
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

static int set_listen(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int rc = cli_prom_parse_listen(arg, &ss, &len, err, errlen);

	if (!rc)
		o->listen = arg;
	return rc;
}

static int set_repeat(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	uint64_t v;
	int rc;

	const struct cli_optdesc *d = cli_opt_find(o, "repeat");

	if (!strcmp(arg, "auto")) {
		o->repeat = CLI_REPEAT_AUTO_MAX;
		o->repeat_auto = true;
		return 0;
	}
	/* a count within the row's own bounds, which --help prints */
	rc = cli_parse_count("--repeat", arg, d ? d->min : 1, d ? d->max : 1, &v, err, errlen);
	if (!rc) {
		o->repeat = (uint32_t)v;
		o->repeat_auto = false;
	}
	return rc;
}

static int show_repeat(const struct cli_opts *o, char *buf, size_t len)
{
	if (o->repeat_auto)
		return snprintf(buf, len, "auto");
	return o->repeat ? cli_fmt_count(o->repeat, buf, len) : 0;
}

static int set_seed(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	const char *end;

	if (cli_parse_digits(arg, &o->seed, &end) || *end)
		return cli_opts_fail(err, errlen, "--seed: '%s' is not a number below 2^64", arg);
	o->seed_set = true;
	return 0;
}

/* --reap-wait: a duration in whole microseconds (the kernel's unit), at
 * most the wait's own timeout (engine/uring_loop_int.h), refused where
 * this kernel's io_uring has no minimum wait (exit 2, before any IO)
 * rather than run without the bound asked for. */
static int set_reap_wait(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	struct eng_uring_waits k;
	int rc = cli_parse_duration("--reap-wait", arg, 1000, CLI_NS_PER_S, &o->reap_wait_ns,
				    err, errlen);

	if (!rc && o->reap_wait_ns % 1000)
		rc = cli_opts_fail(err, errlen, "--reap-wait: '%s' is not whole microseconds", arg);
	if (!rc && eng_uring_waits_probe(&k))
		rc = cli_opts_fail(err, errlen, "--reap-wait: io_uring refused here (%s)",
				   strerror(-k.min_wait));
	else if (!rc && k.min_wait)
		rc = cli_opts_fail(err, errlen,
				   "--reap-wait: this kernel's io_uring has no minimum wait "
				   "(IORING_FEAT_MIN_TIMEOUT, Linux 6.12)");
	if (rc)
		o->reap_wait_ns = 0;
	return rc;
}

static int show_reap_wait(const struct cli_opts *o, char *buf, size_t len)
{
	return o->reap_wait_ns ? cli_fmt_duration(o->reap_wait_ns, buf, len) : 0;
}

enum {
	O_BATCH = 0x100, O_ENGINE, O_COMPLETION, O_RAMP, O_IOS, O_JPD, O_CPUS,
	O_PLACEMENT, O_BUFFERED, O_RANGE, O_NOLAT, O_JSON, O_SEED, O_STALL, O_REAP,
	O_TOPOLOGY, O_DOT, O_REPEAT, O_GROUP, O_RATE, O_ARRIVAL, O_NOZERO, O_STEADY,
	O_TEMP, O_INTERVAL, O_STREAM, O_LISTEN, O_LINGER, O_QUIET_ADVICE, O_PIACT,
	O_REAP_WAIT, O_NO_IOWAIT,
};

/* Each shared option once: the groups say which verbs offer it. A help
 * text says what the option does; its default and its choices come from
 * the row (cli/opts/opts.c's usage), and so do its bounds, where the
 * text says {bounds}. */
const struct cli_optdesc cli_opts_table[] = {
	{ .name = "bs", .val = 'b', .arg = "SIZE", .group = CLI_OG_TARGET,
	  .set = set_bs, .show = show_bs,
	  .help = "bytes per IO: a power of two up to 1m, a multiple\n"
		  "of each target's logical block size" },
	{ .name = "qd", .val = 'd', .arg = "N", .group = CLI_OG_ENGINE,
	  .kind = CLI_OPT_U32, .off = OFF(qd), .min = 1, .max = CLI_MAX_QD,
	  .help = "IOs in flight per worker, {bounds}" },
	{ .name = "batch", .val = O_BATCH, .arg = "N", .group = CLI_OG_ENGINE,
	  .flags = CLI_OF_ATMOST_QD, .kind = CLI_OPT_U32, .off = OFF(batch), .min = 1,
	  .max = CLI_MAX_QD,
	  .help = "IOs per submission call, at most --qd" },
	{ .name = "reap", .val = O_REAP, .arg = "N", .group = CLI_OG_ENGINE,
	  .flags = CLI_OF_ATMOST_QD, .kind = CLI_OPT_U32, .off = OFF(reap), .min = 1,
	  .max = CLI_MAX_QD,
	  .help = "completions a full queue waits for per call, at most\n"
		  "--qd (1: refill as soon as one is done;\n"
		  "t/io_uring's -c)" },
	{ .name = "reap-wait", .val = O_REAP_WAIT, .arg = "DURATION", .group = CLI_OG_ENGINE,
	  .set = set_reap_wait, .show = show_reap_wait,
	  .help = "a --reap wait ends this long after it began if a\n"
		  "completion has come by then, else at the first\n"
		  "(io_uring irq or sqpoll, Linux 6.12: 20us)" },
	{ .name = "no-iowait", .val = O_NO_IOWAIT, .group = CLI_OG_ENGINE,
	  .kind = CLI_OPT_FLAG, .off = OFF(no_iowait),
	  .help = "io_uring's waits are not iowait (Linux 6.15; fio\n"
		  "3.42 does it wherever it can): none in /proc/stat,\n"
		  "and no cpufreq iowait boost (docs/cpu.md)" },
	{ .name = "engine", .val = O_ENGINE, .arg = "NAME", .group = CLI_OG_TARGET,
	  .kind = CLI_OPT_CHOICE, .off = OFF(backend), .choices = engine_names,
	  .vals = engine_vals, .noun = "engine",
	  .help = "the IO interface (auto: io_uring, libaio where the\n"
		  "kernel refuses io_uring; io_uring_cmd: NVMe\n"
		  "passthrough on /dev/ngXnY, root only)" },
	{ .name = "completion", .val = O_COMPLETION, .arg = "MODE", .group = CLI_OG_ENGINE,
	  .set = set_completion, .show = show_completion, .choices = mode_names,
	  .help = "how completions are found" },
	{ .name = "time", .val = 't', .arg = "DURATION", .group = CLI_OG_ENGINE,
	  .kind = CLI_OPT_DURATION, .off = OFF(time_ns), .given = OFF(time_set), .min = 1,
	  .max = MAX_TIME_NS,
	  .help = "measured time: 10s, 500ms, 2m, 1h; a bare number\n"
		  "is seconds; no limit with --ios" },
	{ .name = "ramp", .val = O_RAMP, .arg = "DURATION", .group = CLI_OG_ENGINE,
	  .kind = CLI_OPT_DURATION, .off = OFF(ramp_ns), .given = OFF(ramp_set),
	  .max = MAX_TIME_NS,
	  .help = "time before measuring, not counted; 0 with --ios" },
	{ .name = "stall-timeout", .val = O_STALL, .arg = "DURATION", .group = CLI_OG_ENGINE,
	  .kind = CLI_OPT_DURATION, .off = OFF(stall_ns), .max = MAX_TIME_NS,
	  .help = "name a device that completes no IO for this long;\n"
		  "at the end, wait at most min(2s, this) for its\n"
		  "IOs, then report it stalled (0: off)" },
	{ .name = "ios", .val = O_IOS, .arg = "N", .group = CLI_OG_ENGINE,
	  .kind = CLI_OPT_U64, .off = OFF(ios), .min = 1, .max = 1ull << 62,
	  .help = "stop after N measured IOs per device (per job for\n"
		  "nop); 1k = 1000" },
	{ .name = "jobs-per-device", .val = O_JPD, .arg = "N", .group = CLI_OG_TARGET,
	  .kind = CLI_OPT_U32, .off = OFF(jobs_per_device), .min = 1, .max = CLI_MAX_JOBS,
	  .help = "worker threads per device, {bounds}" },
	{ .name = "jobs", .val = 'j', .arg = "N", .group = CLI_OG_NOP,
	  .kind = CLI_OPT_U32, .off = OFF(jobs), .min = 1, .max = CLI_MAX_JOBS,
	  .help = "worker threads, {bounds}" },
	{ .name = "cpus", .val = O_CPUS, .arg = "LIST", .group = CLI_OG_ENGINE,
	  .flags = CLI_OF_LIST, .set = set_cpus,
	  .help = "pin worker i to the i-th CPU of LIST (0-3,8,10-11)" },
	{ .name = "placement", .val = O_PLACEMENT, .arg = "WHERE", .group = CLI_OG_TARGET,
	  .kind = CLI_OPT_CHOICE, .off = OFF(placement), .given = OFF(placement_set),
	  .choices = placement_names, .vals = placement_vals, .noun = "placement",
	  .help = "where workers run relative to their device" },
	{ .name = "group", .val = O_GROUP, .arg = "WHEN", .group = CLI_OG_TARGET,
	  .kind = CLI_OPT_CHOICE, .off = OFF(group), .choices = group_names,
	  .vals = group_vals, .noun = "group",
	  .help = "devices whose workers are placed on one CPU share\n"
		  "one worker thread and ring; auto: when polled" },
	{ .name = "buffered", .val = O_BUFFERED, .group = CLI_OG_TARGET,
	  .kind = CLI_OPT_FLAG, .off = OFF(buffered),
	  .help = "read through the page cache (no O_DIRECT)" },
	{ .name = "pi-act", .val = O_PIACT, .group = CLI_OG_TARGET,
	  .kind = CLI_OPT_FLAG, .off = OFF(pi_act),
	  .help = "--engine io_uring_cmd on a namespace with protection\n"
		  "information: reads with PRACT set, the controller\n"
		  "checks the PI and strips it" },
	{ .name = "range", .val = O_RANGE, .arg = "[OFF:]LEN", .group = CLI_OG_TARGET,
	  .set = set_range,
	  .help = "only the LEN bytes from OFF of each target (without\n"
		  "it: all of it)" },
	{ .name = "no-zero-sample", .val = O_NOZERO, .group = CLI_OG_TARGET,
	  .kind = CLI_OPT_NOFLAG, .off = OFF(zero_sample),
	  .help = "do not read a few hundred blocks of each target\n"
		  "before the run to find never-written ones" },
	{ .name = "no-latency", .val = O_NOLAT, .group = CLI_OG_ENGINE,
	  .kind = CLI_OPT_NOFLAG, .off = OFF(latency),
	  .help = "do not time each IO" },
	{ .name = "json", .val = O_JSON, .arg = "FILE", .group = CLI_OG_JSON,
	  .flags = CLI_OF_STDOUT, .kind = CLI_OPT_PATH, .off = OFF(json),
	  .help = "write the report as JSON to FILE; with -, JSON goes\n"
		  "to stdout and the table to stderr" },
	{ .name = "topology", .val = O_TOPOLOGY, .arg = "FILE.xml", .group = CLI_OG_TOPO,
	  .kind = CLI_OPT_PATH, .off = OFF(topology),
	  .help = "an lstopo XML export instead of this machine\n"
		  "(facts only sysfs has are then unknown)" },
	{ .name = "dot", .val = O_DOT, .group = CLI_OG_TOPO,
	  .kind = CLI_OPT_FLAG, .off = OFF(dot),
	  .help = "a Graphviz drawing on stdout instead of the text\n"
		  "(topo: the PCIe tree; plan: with its moves;\n"
		  "render: dot -Tsvg)" },
	{ .name = "repeat", .val = O_REPEAT, .arg = "N|auto", .group = CLI_OG_REPEAT,
	  .kind = CLI_OPT_FN, .set = set_repeat, .show = show_repeat, .min = 1,
	  .max = CLI_MAX_REPEAT,
	  .help = "measure N times, each with its own ramp, and\n"
		  "report every repeat and their spread ({bounds};\n"
		  "auto: until every device's repeats agree within\n"
		  "10%, 3 to 8 times; 'iostorm compare' tests two\n"
		  "reports' repeats)" },
	{ .name = "rate", .val = O_RATE, .arg = "N", .group = CLI_OG_RATE,
	  .kind = CLI_OPT_U64, .off = OFF(rate), .min = 1, .max = CLI_MAX_RATE,
	  .help = "open loop: N IOs per second per device (1k = 1000),\n"
		  "split over its workers, issued when due even while\n"
		  "--qd are in flight (that wait counts in latency);\n"
		  "without it: closed loop, a new IO as one completes" },
	{ .name = "arrival", .val = O_ARRIVAL, .arg = "KIND", .group = CLI_OG_RATE,
	  .kind = CLI_OPT_CHOICE, .off = OFF(arrival), .choices = arrival_names,
	  .vals = arrival_vals, .noun = "arrival",
	  .help = "--rate's schedule: evenly spaced, or a Poisson\n"
		  "process of that mean rate" },
	{ .name = "steady", .val = O_STEADY, .arg = "PCT[,DURATION[,lat]]", .group = CLI_OG_STEADY,
	  .set = set_steady,
	  .help = "measure until the last DURATION (30s; whole seconds,\n"
		  "2s..10m) of per-second IOPS stays within PCT of its\n"
		  "mean with a flat slope (and mean latency too, with\n"
		  "lat), up to --time; then report only that window" },
	{ .name = "temperature-every", .val = O_TEMP, .arg = "DURATION", .group = CLI_OG_STEADY,
	  .set = set_temp_every,
	  .help = "read each NVMe drive's composite temperature (its\n"
		  "hwmon: an admin command each) every DURATION (whole\n"
		  "seconds) into the timeline, and say what it cost" },
	/* at least 100 ms: each interval costs every worker a snapshot */
	{ .name = "interval", .val = O_INTERVAL, .arg = "DURATION", .group = CLI_OG_ENGINE,
	  .kind = CLI_OPT_DURATION, .off = OFF(interval_ns), .min = CLI_NS_PER_S / 10,
	  .max = MAX_TIME_NS,
	  .help = "the live line's, the timeline's and --stream's\n"
		  "interval (at least 100ms)" },
	{ .name = "stream", .val = O_STREAM, .arg = "FILE", .group = CLI_OG_ENGINE,
	  .flags = CLI_OF_STDOUT, .kind = CLI_OPT_PATH, .off = OFF(stream),
	  .help = "write every interval of every device as JSON lines\n"
		  "to FILE (- for stdout), each with its latency\n"
		  "histogram, ending with the report (docs/json.md)" },
	{ .name = "listen", .val = O_LISTEN, .arg = "[ADDR:]PORT", .group = CLI_OG_ENGINE,
	  .set = set_listen,
	  .help = "serve Prometheus metrics at http://ADDR:PORT/metrics\n"
		  "while the command runs (ADDR: 127.0.0.1 unless\n"
		  "given; [::1]:PORT for IPv6; PORT 0: a free one)" },
	{ .name = "linger", .val = O_LINGER, .arg = "DURATION", .group = CLI_OG_ENGINE,
	  .kind = CLI_OPT_DURATION, .off = OFF(linger_ns), .max = CLI_MAX_LINGER_NS,
	  .help = "with --listen: serve the final figures this long\n"
		  "after the command (one scrape interval; Ctrl-C\n"
		  "ends it)" },
	{ .name = "quiet", .val = 'q', .group = CLI_OG_ENGINE,
	  .kind = CLI_OPT_FLAG, .off = OFF(quiet),
	  .help = "no live progress line" },
	{ .name = "quiet-advice", .val = O_QUIET_ADVICE, .group = CLI_OG_ENGINE,
	  .kind = CLI_OPT_FLAG, .off = OFF(quiet_advice),
	  .help = "leave the advice lines out of the text (the settings\n"
		  "that cost IOPS, placement notes); check's findings\n"
		  "and the JSON keep them" },
	{ .name = "seed", .val = O_SEED, .arg = "N", .group = CLI_OG_ENGINE,
	  .set = set_seed,
	  .help = "seed of the offset generators (without it: the clock)" },
	CLI_OPT_END,
};
