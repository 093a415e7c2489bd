/* iostorm merge [options] STREAM...: the report of one or many streams
 * (--stream, JSON lines) as if they had been one run: any time window
 * (--from, --to), any devices (--device) or hosts (--host), a row per
 * host and the cluster's. Each line stands alone, so a cut or corrupt one
 * is named and skipped and the rest still add up exactly. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/merge/merge_out.h"
#include "cli/merge/stream.h"
#include "cli/merge/view.h"
#include "cli/opts/opts.h"
#include "cli/report/out.h"
#include "cli/report/report.h"

#define MG_MAX_SEL 256		/* names in --device or --host */
#define MG_MAX_RUNS 100000u	/* windows of one command */
#define MG_MAX_S (100ull * 24 * 3600 * CLI_NS_PER_S)	/* --from, --to */

enum { O_FROM = 0x500, O_TO, O_DEVICE, O_HOST, O_RUN };

static int set_from(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_duration("--from", arg, 0, MG_MAX_S, &o->merge_from_ns, err, errlen);
}

static int set_to(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	o->merge_to_set = true;
	return cli_parse_duration("--to", arg, 1, MG_MAX_S, &o->merge_to_ns, err, errlen);
}

/* NAME[,NAME...]: no empty name, at most MG_MAX_SEL. */
static int check_list(const char *what, const char *arg, char *err, size_t errlen)
{
	const char *p = arg;
	unsigned n = 1;

	if (!*arg || arg[strlen(arg) - 1] == ',' || *arg == ',' || strstr(arg, ",,")) {
		snprintf(err, errlen, "%s: '%s' has an empty name", what, arg);
		return -EINVAL;
	}
	while ((p = strchr(p, ',')))
		n++, p++;
	if (n > MG_MAX_SEL) {
		snprintf(err, errlen, "%s: more than %u names", what, MG_MAX_SEL);
		return -EINVAL;
	}
	return 0;
}

static int set_device(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	int rc = check_list("--device", arg, err, errlen);

	if (!rc)
		o->merge_devices = arg;
	return rc;
}

static int set_host(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	int rc = check_list("--host", arg, err, errlen);

	if (!rc)
		o->merge_hosts = arg;
	return rc;
}

static int set_run(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	uint64_t v;
	int rc = cli_parse_count("--run", arg, 0, MG_MAX_RUNS - 1, &v, err, errlen);

	if (!rc)
		o->merge_run = (long)v;
	return rc;
}

static const struct cli_optdesc own[] = {
	CLI_OPT_OWN("device", O_DEVICE, "LIST", 0, CLI_OF_LIST, set_device, NULL, NULL,
	  "only these devices: a stream's name (nvme0n1: on\n"
	  "every host) or HOST:DEVICE"),
	CLI_OPT_OWN("from", O_FROM, "S", 0, 0, set_from, NULL, NULL,
	  "only intervals that start S or later into their\n"
	  "window; without it, from the window's start"),
	CLI_OPT_OWN("host", O_HOST, "LIST", 0, CLI_OF_LIST, set_host, NULL, NULL,
	  "only the streams of these hosts (their header's\n"
	  "name, or HOST#K as the report names them)"),
	CLI_OPT_OWN("run", O_RUN, "N", 0, 0, set_run, NULL, NULL,
	  "only window N (a sweep's step, a repeat; from 0);\n"
	  "without it, a report per window"),
	CLI_OPT_OWN("to", O_TO, "S", 0, 0, set_to, NULL, NULL,
	  "only intervals that end S or earlier into their\n"
	  "window; without it, to the window's end"),
	CLI_OPT_END,
};

static int cmd_merge(int argc, char **argv);

const struct cli_verb cli_verb_merge = {
	.name = "merge",
	.what = "one report from streams of intervals (--stream), of one or many hosts",
	.synopsis = "iostorm merge [options] STREAM...\n\n"
		"Reads the JSON-lines streams that --stream wrote (files, or - for stdin),\n"
		"of one or many hosts, whole or cut short, and reports them as one run:\n"
		"IOPS, bandwidth, errors and percentiles from the intervals' histograms\n"
		"added bucket by bucket (exact, as one measurement of the same IOs), a row\n"
		"per device, and with several hosts a row per host and the cluster's. An\n"
		"interval is taken when it lies wholly within --from and --to. A stream\n"
		"cut short (a killed run) is said and its intervals kept; a corrupt line\n"
		"is named by line and skipped, and merge then exits 1. The text and JSON\n"
		"are run's: compare and plot take them.",
	.operands = CLI_OPERANDS_FILES,
	.groups = CLI_OG_JSON,
	.own = own,
	.run = cmd_merge,
};

/* NAME,NAME,... split in place into a vector (checked by check_list). */
static int split(char *s, char ***v, unsigned *n)
{
	char *p;

	*n = 0;
	*v = NULL;
	if (!s)
		return 0;
	*v = calloc(MG_MAX_SEL, sizeof(**v));
	if (!*v)
		return -ENOMEM;
	for (p = strtok(s, ","); p && *n < MG_MAX_SEL; p = strtok(NULL, ","))
		(*v)[(*n)++] = p;
	return 0;
}

struct merge {
	struct cli_opts o;
	struct mg_set set;
	struct mg_sel sel;
	char *devs, *hosts;		/* the lists' copies, split */
	char **devv, **hostv;
	unsigned *runs;
	unsigned nruns;
};

/* Every name asked names something read, before any report. */
static int check_names(const struct merge *m)
{
	const struct mg_set *set = &m->set;
	struct mg_sel one = { 0 };
	unsigned i, k;
	bool found;

	for (i = 0; i < m->sel.nhost; i++) {
		one.host = &m->sel.host[i];
		one.nhost = 1;
		for (found = false, k = 0; k < set->n && !found; k++)
			found = !strcmp(set->s[k].host, m->sel.host[i]) ||
				!strcmp(set->s[k].name, m->sel.host[i]);
		if (!found) {
			cli_say("--host %s: no stream is from it", m->sel.host[i]);
			return -EINVAL;
		}
	}
	one.nhost = 0;
	for (i = 0; i < m->sel.ndev; i++) {
		one.dev = &m->sel.dev[i];
		one.ndev = 1;
		for (found = false, k = 0; k < set->nacc && !found; k++)
			found = mg_sel_takes(&one, &set->s[set->acc[k].stream], set->acc[k].dev);
		if (!found) {
			cli_say("--device %s: no stream holds an interval of it in the window asked",
				m->sel.dev[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* The streams' command for the report: run's shape serves every window
 * (a sweep's step, a repeat), latency's where every stream is latency's. */
static const char *command_of(const struct mg_set *set)
{
	unsigned i;

	for (i = 0; i < set->n; i++)
		if (strcmp(set->s[i].command, "latency"))
			return "run";
	return "latency";
}

/* The header of the first stream v takes. */
static const json_t *first_header(const struct mg_set *set, const struct mg_view *v)
{
	return set->s[v->nhost ? v->host[0].stream : 0].header;
}

/* op's key into v where it is an integer that fits 32 bits. */
static void u32_of(const json_t *op, const char *key, uint32_t *v)
{
	const json_t *x = json_object_get(op, key);

	if (json_is_integer(x) && json_integer_value(x) >= 0 && json_integer_value(x) <= UINT32_MAX)
		*v = (uint32_t)json_integer_value(x);
}

/* op's key, seconds, into ns where it is a time an interval can have. */
static void ns_of(const json_t *op, const char *key, uint64_t *ns)
{
	const json_t *x = json_object_get(op, key);

	if (json_is_number(x) && json_number_value(x) >= 0 && json_number_value(x) <= MG_MAX_T_S)
		*ns = (uint64_t)(json_number_value(x) * 1e9);
}

/* o's figures that the table's first line shows, from the first stream's
 * options where they are figures a run can have; no targets (the
 * report's setup is the streams'). */
static void opts_of(const struct merge *m, const struct mg_view *v, struct cli_opts *o)
{
	const json_t *op = json_object_get(first_header(&m->set, v), "options"), *x;

	*o = m->o;
	o->groups |= CLI_OG_TARGET;
	o->targets = NULL;
	o->ntargets = 0;
	u32_of(op, "bs", &o->bs);
	u32_of(op, "qd", &o->qd);
	u32_of(op, "batch", &o->batch);
	ns_of(op, "time_s", &o->time_ns);
	ns_of(op, "ramp_s", &o->ramp_ns);
	if (json_is_integer(x = json_object_get(op, "ios")) && json_integer_value(x) >= 0)
		o->ios = (uint64_t)json_integer_value(x);
	o->buffered = json_is_true(json_object_get(op, "buffered"));
}

static enum eng_mode mode_of(const struct mg_set *set, const struct mg_view *v)
{
	const char *want = json_string_value(json_object_get(json_object_get(first_header(set, v),
							      "options"), "completion_used"));
	enum eng_mode m;

	for (m = ENG_MODE_IRQ; want && m <= ENG_MODE_SQPOLL; m++)
		if (!strcmp(want, eng_mode_name(m)))
			return m;
	return ENG_MODE_IRQ;
}

/* Whether a stream v takes did not complete by itself. */
static bool interrupted(const struct mg_set *set, const struct mg_view *v)
{
	const char *how;
	unsigned i;

	for (i = 0; i < v->nhost; i++) {
		how = json_string_value(json_object_get(set->s[v->host[i].stream].end, "how"));
		if (!how || strcmp(how, "completed"))
			return true;
	}
	return false;
}

/* Windows of one index are merged across streams: said where their
 * labels differ (a sweep's step beside a run). */
static void say_labels(const struct mg_set *set, unsigned run)
{
	const char *first = NULL;
	unsigned i, k;

	for (i = 0; i < set->n; i++)
		for (k = 0; k < set->s[i].nwin; k++) {
			if (set->s[i].win[k].run != run)
				continue;
			if (!first) {
				first = set->s[i].win[k].label;
			} else if (strcmp(first, set->s[i].win[k].label)) {
				cli_say("run %u: the streams' windows differ (\"%s\", \"%s\" on %s): merged by their index",
					run, first, set->s[i].win[k].label, set->s[i].name);
				return;
			}
		}
}

/* The report of window run. 0 or -errno (-EIO: some device had errors). */
static int report(struct merge *m, unsigned run)
{
	struct cli_opts o;
	struct mg_view v;
	json_t *extra;
	FILE *f;
	int rc;

	f = cli_out_text(&m->o);
	say_labels(&m->set, run);
	rc = mg_view_build(&m->set, &m->sel, run, command_of(&m->set), &v);
	if (!rc) {
		opts_of(m, &v, &o);
		v.r.mode = mode_of(&m->set, &v);
		v.r.interrupted = interrupted(&m->set, &v);
		mg_print_head(f, &m->set, &v, &o);
		fflush(f);
		extra = o.json ? mg_json_extra(&m->set, &v, &o, &m->sel, m->runs, m->nruns) : NULL;
		/* without its keys the report would pass for a run's */
		rc = o.json && !extra ? -ENOMEM : mg_report_output(&v, &o, extra);
		if (rc == -ENOMEM && !extra)
			cli_say("out of memory");
		json_decref(extra);
		if (v.nhost > 1)
			mg_print_hosts(f, &v, &m->set);
		fflush(f);
	}
	mg_view_free(&v);
	return rc;
}

/* The windows to report: --run's, or every one; refusals said. */
static int pick_runs(struct merge *m)
{
	unsigned i;

	m->runs = calloc(MG_MAX_RUNS, sizeof(*m->runs));
	if (!m->runs) {
		cli_say("out of memory");
		return -ENOMEM;
	}
	m->nruns = mg_runs(&m->set, &m->sel, m->runs, MG_MAX_RUNS);
	if (!m->nruns) {
		cli_say("nothing to report: no interval lies wholly within the window asked");
		return -ENODATA;
	}
	if (m->o.merge_run >= 0) {
		for (i = 0; i < m->nruns && m->runs[i] != (unsigned)m->o.merge_run; i++)
			;
		if (i == m->nruns) {
			cli_say("--run %ld: the streams hold no interval of it in the window asked (windows %u to %u)",
				m->o.merge_run, m->runs[0], m->runs[m->nruns - 1]);
			return -EINVAL;
		}
		return 0;
	}
	if (m->nruns > 1 && m->o.json) {
		cli_say("--json: the streams hold %u windows (%u to %u) and a report is one window: pick one with --run N",
			m->nruns, m->runs[0], m->runs[m->nruns - 1]);
		return -EINVAL;
	}
	return 0;
}

/* a and b name one file (or both stdin); false where either cannot be
 * looked at (reading it will say why). */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, "-") || !strcmp(b, "-"))
		return !strcmp(a, b);
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int check_args(const struct cli_opts *o)
{
	unsigned i, k;

	if (!o->ntargets) {
		cli_say("no stream: name one or more files that --stream wrote, or - for stdin");
		return -EINVAL;
	}
	if (o->merge_to_set && o->merge_to_ns <= o->merge_from_ns) {
		cli_say("--to must be after --from");
		return -EINVAL;
	}
	for (i = 0; i < o->ntargets; i++) {
		for (k = i + 1; k < o->ntargets; k++)
			if (same_file(o->targets[i], o->targets[k])) {
				/* its IOs would count twice */
				cli_say("%s: named twice", o->targets[k]);
				return -EINVAL;
			}
	}
	return 0;
}

static int merge_all(struct merge *m)
{
	struct mg_span span = { cli_secs(m->o.merge_from_ns),
				m->o.merge_to_set ? cli_secs(m->o.merge_to_ns) : -1 };
	unsigned i, nbad = 0;
	int rc = check_args(&m->o), r;

	if (!rc && ((m->o.merge_devices && !(m->devs = strdup(m->o.merge_devices))) ||
		    (m->o.merge_hosts && !(m->hosts = strdup(m->o.merge_hosts))) ||
		    split(m->devs, &m->devv, &m->sel.ndev) || split(m->hosts, &m->hostv, &m->sel.nhost))) {
		cli_say("out of memory");
		rc = -ENOMEM;
	}
	m->sel.dev = m->devv;
	m->sel.host = m->hostv;
	for (i = 0; !rc && i < m->o.ntargets; i++)
		rc = mg_stream_read(&m->set, m->o.targets[i], &span);
	if (rc)
		return rc;
	mg_set_name(&m->set);
	rc = check_names(m);
	if (!rc)
		rc = pick_runs(m);
	mg_say_ends(&m->set);
	for (i = 0; !rc && i < m->nruns; i++) {
		if (m->o.merge_run >= 0 && m->runs[i] != (unsigned)m->o.merge_run)
			continue;
		r = report(m, m->runs[i]);
		rc = r && r != -EIO ? r : rc;
		rc = rc ? rc : r;
	}
	for (i = 0; i < m->set.n; i++)
		nbad += m->set.s[i].nbad;
	/* the report is out, but IOs are missing from it */
	return !rc && nbad ? -EBADMSG : rc;
}

static int cmd_merge(int argc, char **argv)
{
	struct merge m;
	int rc;

	memset(&m, 0, sizeof(m));
	rc = cli_opts_cmdline(&m.o, &cli_verb_merge, argc, argv);
	if (!rc)
		rc = merge_all(&m);
	mg_set_free(&m.set);
	free(m.devs);
	free(m.hosts);
	free(m.devv);
	free(m.hostv);
	free(m.runs);
	return cli_exit_status(rc);
}
