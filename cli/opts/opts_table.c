/* The shared options themselves: one setter per option, each bounded and
 * refusing a bad value with one line, and the table that names them for
 * getopt, job files and the usage text (cli/opts/opts.c). */
#include "cli/opts/opts_int.h"

#include <errno.h>
#include <string.h>

#include "cli/live/prom.h"

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

static int set_repeat(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return set_u32("--repeat", arg, 1, CLI_MAX_REPEAT, &o->repeat, err, errlen);
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

static int set_jobs(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return set_u32("--jobs", arg, 1, CLI_MAX_JOBS, &o->jobs, err, errlen);
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

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const char *const engine_names[] = { "auto", "io_uring", "libaio", "io_uring_cmd", NULL };
static const int engine_vals[] = {
	ENG_BACKEND_AUTO, ENG_BACKEND_IO_URING, ENG_BACKEND_LIBAIO, ENG_BACKEND_URING_CMD,
};
_Static_assert(NELEM(engine_vals) + 1 == NELEM(engine_names), "one value per engine name");

static int set_engine(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	int i = cli_opt_choose("--engine", "engine", engine_names, arg, err, errlen);

	if (i < 0)
		return i;
	o->backend = (enum eng_backend)engine_vals[i];
	return 0;
}

static const char *const mode_names[] = { "irq", "poll", "hybrid", "sqpoll", "auto", NULL };
static const int mode_vals[] = {
	ENG_MODE_IRQ, ENG_MODE_POLL, ENG_MODE_HYBRID, ENG_MODE_SQPOLL,
	ENG_MODE_IRQ,	/* auto: irq until the run picks one */
};
_Static_assert(NELEM(mode_vals) + 1 == NELEM(mode_names), "one value per mode name");

static int set_completion(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	int i = cli_opt_choose("--completion", "mode", mode_names, arg, err, errlen);

	if (i < 0)
		return i;
	o->mode = (enum eng_mode)mode_vals[i];
	o->mode_auto = !strcmp(arg, "auto");
	return 0;
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

/* At least 100 ms: each interval costs every worker a snapshot. */
static int set_interval(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	bool given;

	return set_duration("--interval", arg, CLI_NS_PER_S / 10, &o->interval_ns, &given,
			    err, errlen);
}

static int set_stream(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	if (!*arg)
		return cli_opts_fail(err, errlen, "--stream: the file name is empty (use - for stdout)");
	o->stream = arg;
	return 0;
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

static const char *const placement_names[] = { "local", "remote", "none", NULL };
static const int placement_vals[] = {
	TOPO_PLACE_LOCAL, TOPO_PLACE_REMOTE, TOPO_PLACE_NONE,
};
_Static_assert(NELEM(placement_vals) + 1 == NELEM(placement_names),
	       "one value per placement name");

static int set_placement(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	int i = cli_opt_choose("--placement", "placement", placement_names, arg, err, errlen);

	if (i < 0)
		return i;
	o->placement = (enum topo_policy)placement_vals[i];
	o->placement_set = true;
	return 0;
}

static const char *const group_names[] = { "auto", "on", "off", NULL };
static const int group_vals[] = { CLI_GROUP_AUTO, CLI_GROUP_ON, CLI_GROUP_OFF };
_Static_assert(NELEM(group_vals) + 1 == NELEM(group_names), "one value per group name");

static int set_group(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	int i = cli_opt_choose("--group", "group", group_names, arg, err, errlen);

	if (i < 0)
		return i;
	o->group = (enum cli_group)group_vals[i];
	return 0;
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

const char *cli_group_name(enum cli_group g)
{
	const char *n = name_of(group_names, group_vals, (int)g);

	return n ? n : "?";
}

static int set_rate(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_count("--rate", arg, 1, CLI_MAX_RATE, &o->rate, err, errlen);
}

static const char *const arrival_names[] = { "uniform", "poisson", NULL };
static const int arrival_vals[] = { ENG_ARRIVAL_UNIFORM, ENG_ARRIVAL_POISSON };
_Static_assert(NELEM(arrival_vals) + 1 == NELEM(arrival_names), "one value per arrival name");

static int set_arrival(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	int i = cli_opt_choose("--arrival", "arrival", arrival_names, arg, err, errlen);

	if (i < 0)
		return i;
	o->arrival = (enum eng_arrival_kind)arrival_vals[i];
	return 0;
}

const char *cli_arrival_name(enum eng_arrival_kind a)
{
	const char *n = name_of(arrival_names, arrival_vals, (int)a);

	return n ? n : "?";
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

static int set_nozero(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	bool v;
	int rc = cli_parse_flag("--no-zero-sample", arg, &v, err, errlen);

	if (!rc)
		o->zero_sample = !v;
	return rc;
}

static int set_json(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	if (!*arg)
		return cli_opts_fail(err, errlen, "--json: the file name is empty (use - for stdout)");
	o->json = arg;
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

static int set_linger(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_duration("--linger", arg, 0, CLI_MAX_LINGER_NS, &o->linger_ns,
				  err, errlen);
}

static int set_topology(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	if (!*arg)
		return cli_opts_fail(err, errlen, "--topology: the file name is empty");
	o->topology = arg;
	return 0;
}

static int set_dot(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_flag("--dot", arg, &o->dot, err, errlen);
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

/* ---- defaults as --help shows them: what o, the verb's initialised
 * options, runs ---- */

static int show_bs(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_size(o->bs, buf, len);
}

static int show_qd(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_count(o->qd, buf, len);
}

static int show_batch(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_count(cli_opts_at_qd(o, o->batch), buf, len);
}

static int show_reap(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_count(cli_opts_at_qd(o, o->reap), buf, len);
}

/* name_of's name for val, as --help shows a default; 0 when none has it. */
static int show_name(const char *const *names, const int *vals, int val, char *buf,
		     size_t len)
{
	const char *n = name_of(names, vals, val);

	return n ? snprintf(buf, len, "%s", n) : 0;
}

static int show_engine(const struct cli_opts *o, char *buf, size_t len)
{
	return show_name(engine_names, engine_vals, (int)o->backend, buf, len);
}

static int show_completion(const struct cli_opts *o, char *buf, size_t len)
{
	if (o->mode_auto)
		return snprintf(buf, len, "auto");
	return show_name(mode_names, mode_vals, (int)o->mode, buf, len);
}

static int show_placement(const struct cli_opts *o, char *buf, size_t len)
{
	return show_name(placement_names, placement_vals, (int)o->placement, buf, len);
}

static int show_group(const struct cli_opts *o, char *buf, size_t len)
{
	return show_name(group_names, group_vals, (int)o->group, buf, len);
}

static int show_arrival(const struct cli_opts *o, char *buf, size_t len)
{
	return show_name(arrival_names, arrival_vals, (int)o->arrival, buf, len);
}

static int show_time(const struct cli_opts *o, char *buf, size_t len)
{
	return o->time_ns ? cli_fmt_duration(o->time_ns, buf, len) : 0;
}

static int show_ramp(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_duration(o->ramp_ns, buf, len);
}

static int show_stall(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_duration(o->stall_ns, buf, len);
}

static int show_interval(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_duration(o->interval_ns, buf, len);
}

static int show_linger(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_duration(o->linger_ns, buf, len);
}

static int show_jpd(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_count(o->jobs_per_device, buf, len);
}

static int show_repeat(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_count(o->repeat, buf, len);
}

static int show_jobs(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_count(o->jobs, buf, len);
}

enum {
	O_BATCH = 0x100, O_ENGINE, O_COMPLETION, O_RAMP, O_IOS, O_JPD, O_CPUS,
	O_PLACEMENT, O_BUFFERED, O_RANGE, O_NOLAT, O_JSON, O_SEED, O_STALL, O_REAP,
	O_TOPOLOGY, O_DOT, O_REPEAT, O_GROUP, O_RATE, O_ARRIVAL, O_NOZERO, O_STEADY,
	O_TEMP, O_INTERVAL, O_STREAM, O_LISTEN, O_LINGER,
};

/* Each shared option once: the groups say which verbs offer it. A help
 * text says what the option does; its default and its choices come from
 * show and choices (cli/opts/opts.c's usage). */
const struct cli_optdesc cli_opts_table[] = {
	{ "bs", 'b', "SIZE", CLI_OG_TARGET, 0, set_bs, show_bs, NULL,
	  "bytes per IO: a power of two up to 1m, a multiple\n"
	  "of each target's logical block size" },
	{ "qd", 'd', "N", CLI_OG_ENGINE, 0, set_qd, show_qd, NULL,
	  "IOs in flight per worker, 1..65536" },
	{ "batch", O_BATCH, "N", CLI_OG_ENGINE, 0, set_batch, show_batch, NULL,
	  "IOs per submission call, at most --qd" },
	{ "reap", O_REAP, "N", CLI_OG_ENGINE, 0, set_reap, show_reap, NULL,
	  "completions a full queue waits for per call, at most\n"
	  "--qd (1: refill as soon as one is done;\n"
	  "t/io_uring's -c)" },
	{ "engine", O_ENGINE, "NAME", CLI_OG_TARGET, 0, set_engine, show_engine, engine_names,
	  "the IO interface (auto: io_uring, libaio where the\n"
	  "kernel refuses io_uring; io_uring_cmd: NVMe\n"
	  "passthrough on /dev/ngXnY, root only)" },
	{ "completion", O_COMPLETION, "MODE", CLI_OG_ENGINE, 0, set_completion, show_completion,
	  mode_names,
	  "how completions are found" },
	{ "time", 't', "DURATION", CLI_OG_ENGINE, 0, set_time, show_time, NULL,
	  "measured time: 10s, 500ms, 2m, 1h; a bare number\n"
	  "is seconds; no limit with --ios" },
	{ "ramp", O_RAMP, "DURATION", CLI_OG_ENGINE, 0, set_ramp, show_ramp, NULL,
	  "time before measuring, not counted; 0 with --ios" },
	{ "stall-timeout", O_STALL, "DURATION", CLI_OG_ENGINE, 0, set_stall, show_stall, NULL,
	  "name a device that completes no IO for this long;\n"
	  "at the end, wait at most min(2s, this) for its\n"
	  "IOs, then report it stalled (0: off)" },
	{ "ios", O_IOS, "N", CLI_OG_ENGINE, 0, set_ios, NULL, NULL,
	  "stop after N measured IOs per device (per job for\n"
	  "nop); 1k = 1000" },
	{ "jobs-per-device", O_JPD, "N", CLI_OG_TARGET, 0, set_jpd, show_jpd, NULL,
	  "worker threads per device, 1..1024" },
	{ "jobs", 'j', "N", CLI_OG_NOP, 0, set_jobs, show_jobs, NULL,
	  "worker threads, 1..1024" },
	{ "cpus", O_CPUS, "LIST", CLI_OG_ENGINE, CLI_OF_LIST, set_cpus, NULL, NULL,
	  "pin worker i to the i-th CPU of LIST (0-3,8,10-11)" },
	{ "placement", O_PLACEMENT, "WHERE", CLI_OG_TARGET, 0, set_placement, show_placement,
	  placement_names,
	  "where workers run relative to their device" },
	{ "group", O_GROUP, "WHEN", CLI_OG_TARGET, 0, set_group, show_group, group_names,
	  "devices whose workers are placed on one CPU share\n"
	  "one worker thread and ring; auto: when polled" },
	{ "buffered", O_BUFFERED, NULL, CLI_OG_TARGET, 0, set_buffered, NULL, NULL,
	  "read through the page cache (no O_DIRECT)" },
	{ "range", O_RANGE, "[OFF:]LEN", CLI_OG_TARGET, 0, set_range, NULL, NULL,
	  "only the LEN bytes from OFF of each target (without\n"
	  "it: all of it)" },
	{ "no-zero-sample", O_NOZERO, NULL, CLI_OG_TARGET, 0, set_nozero, NULL, NULL,
	  "do not read a few hundred blocks of each target\n"
	  "before the run to find never-written ones" },
	{ "no-latency", O_NOLAT, NULL, CLI_OG_ENGINE, 0, set_nolat, NULL, NULL,
	  "do not time each IO" },
	{ "json", O_JSON, "FILE", CLI_OG_JSON, 0, set_json, NULL, NULL,
	  "write the report as JSON to FILE; with -, JSON goes\n"
	  "to stdout and the table to stderr" },
	{ "topology", O_TOPOLOGY, "FILE.xml", CLI_OG_TOPO, 0, set_topology, NULL, NULL,
	  "an lstopo XML export instead of this machine\n"
	  "(facts only sysfs has are then unknown)" },
	{ "dot", O_DOT, NULL, CLI_OG_TOPO, 0, set_dot, NULL, NULL,
	  "a Graphviz drawing on stdout instead of the text\n"
	  "(topo: the PCIe tree; plan: with its moves;\n"
	  "render: dot -Tsvg)" },
	{ "repeat", O_REPEAT, "N", CLI_OG_REPEAT, 0, set_repeat, show_repeat, NULL,
	  "measure N times, each with its own ramp, and\n"
	  "report every repeat and their spread (1..1000;\n"
	  "'iostorm compare' tests two reports' repeats)" },
	{ "rate", O_RATE, "N", CLI_OG_RATE, 0, set_rate, NULL, NULL,
	  "open loop: N IOs per second per device (1k = 1000),\n"
	  "split over its workers, issued when due even while\n"
	  "--qd are in flight (that wait counts in latency);\n"
	  "without it: closed loop, a new IO as one completes" },
	{ "arrival", O_ARRIVAL, "KIND", CLI_OG_RATE, 0, set_arrival, show_arrival, arrival_names,
	  "--rate's schedule: evenly spaced, or a Poisson\n"
	  "process of that mean rate" },
	{ "steady", O_STEADY, "PCT[,DURATION[,lat]]", CLI_OG_STEADY, 0, set_steady, NULL, NULL,
	  "measure until the last DURATION (30s; whole seconds,\n"
	  "2s..10m) of per-second IOPS stays within PCT of its\n"
	  "mean with a flat slope (and mean latency too, with\n"
	  "lat), up to --time; then report only that window" },
	{ "temperature-every", O_TEMP, "DURATION", CLI_OG_STEADY, 0, set_temp_every, NULL, NULL,
	  "read each NVMe drive's composite temperature (its\n"
	  "hwmon: an admin command each) every DURATION (whole\n"
	  "seconds) into the timeline, and say what it cost" },
	{ "interval", O_INTERVAL, "DURATION", CLI_OG_ENGINE, 0, set_interval, show_interval, NULL,
	  "the live line's, the timeline's and --stream's\n"
	  "interval (at least 100ms)" },
	{ "stream", O_STREAM, "FILE", CLI_OG_ENGINE, 0, set_stream, NULL, NULL,
	  "write every interval of every device as JSON lines\n"
	  "to FILE (- for stdout), each with its latency\n"
	  "histogram, ending with the report (docs/json.md)" },
	{ "listen", O_LISTEN, "[ADDR:]PORT", CLI_OG_ENGINE, 0, set_listen, NULL, NULL,
	  "serve Prometheus metrics at http://ADDR:PORT/metrics\n"
	  "while the command runs (ADDR: 127.0.0.1 unless\n"
	  "given; [::1]:PORT for IPv6; PORT 0: a free one)" },
	{ "linger", O_LINGER, "DURATION", CLI_OG_ENGINE, 0, set_linger, show_linger, NULL,
	  "with --listen: serve the final figures this long\n"
	  "after the command (one scrape interval; Ctrl-C\n"
	  "ends it)" },
	{ "quiet", 'q', NULL, CLI_OG_ENGINE, 0, set_quiet, NULL, NULL,
	  "no live progress line" },
	{ "seed", O_SEED, "N", CLI_OG_ENGINE, 0, set_seed, NULL, NULL,
	  "seed of the offset generators (without it: the clock)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL, NULL },
};
