/* The front end of every command line: defaults, the options a verb takes
 * (its own, then the shared groups it names), the getopt loop over them,
 * job-file lookups by name, and the usage text. */
#include "cli/opts/opts_int.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"

#define MAX_OPTS 64

void cli_opts_init(struct cli_opts *o, const char *cmd, unsigned groups)
{
	const struct cli_verb *v = cmd ? cli_verb_find(cmd) : NULL;

	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->groups = groups;
	o->bs = v && v->bs ? v->bs : 4096;
	o->qd = v && v->qd ? v->qd : 32;
	o->batch = 32;
	o->reap = 1;
	o->backend = ENG_BACKEND_AUTO;
	o->mode = ENG_MODE_IRQ;
	o->time_ns = v && v->time_ns ? v->time_ns : 10 * CLI_NS_PER_S;
	o->ramp_ns = v && v->ramp_ns ? v->ramp_ns : 2 * CLI_NS_PER_S;
	o->stall_ns = 10 * CLI_NS_PER_S;
	o->interval_ns = CLI_NS_PER_S;
	o->linger_ns = CLI_LINGER_NS;
	o->jobs_per_device = 1;
	o->jobs = 1;
	o->repeat = 1;
	o->fail_worse_pct = -1.0;
	o->alpha = 0.05;
	o->merge_run = -1;
	o->placement = TOPO_PLACE_LOCAL;
	o->latency = true;
	o->zero_sample = true;
	o->demo_size = CLI_DEMO_SIZE;
}

/* opts.h. The engine's own clamp is where each job is filled, at the
 * depth it runs (cli/runner/jobs.c); this one is what the command's
 * report and --help say. A verb whose --qd is a list of depths (sweep)
 * says the value asked, each depth clamping it. */
uint32_t cli_opts_at_qd(const struct cli_opts *o, uint32_t v)
{
	const struct cli_optdesc *d = cli_opt_find(o, "qd");

	return (d && (d->flags & CLI_OF_LIST)) || v < o->qd ? v : o->qd;
}

static void opts_finish(struct cli_opts *o)
{
	if (o->ios && !o->ramp_set)
		o->ramp_ns = 0;
	if (o->ios && !o->time_set)
		o->time_ns = 0;
	o->batch = cli_opts_at_qd(o, o->batch);
	o->reap = cli_opts_at_qd(o, o->reap);
	if (!o->seed_set)
		o->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
}

/* ---- the options of o's verb ---- */

static const struct cli_optdesc *own_named(const struct cli_optdesc *own,
					   const char *name)
{
	for (; own && own->name; own++)
		if (!strcmp(own->name, name))
			return own;
	return NULL;
}

/* A verb's own row replaces the shared one of its name where it reads
 * the value; one that does not takes the shared one whatever its group. */
static bool reads_value(const struct cli_optdesc *d)
{
	return d->kind != CLI_OPT_FN || d->set;
}

static size_t nshared(void)
{
	size_t n = 0;

	while (cli_opts_table[n].name)
		n++;
	return n;
}

/* opts.h: the next option o's verb takes */
const struct cli_optdesc *cli_opt_next(const struct cli_opts *o, size_t *i)
{
	const struct cli_verb *v = o->cmd ? cli_verb_find(o->cmd) : NULL;
	const struct cli_optdesc *own = v ? v->own : NULL, *d;
	size_t n = nshared();

	while (*i < n) {
		d = &cli_opts_table[(*i)++];
		if (own_named(own, d->name))
			return reads_value(own_named(own, d->name)) ? own_named(own, d->name) : d;
		if (d->group & o->groups)
			return d;
	}
	while (own && own[*i - n].name) {
		d = &own[(*i)++ - n];
		if (!own_named(cli_opts_table, d->name))
			return d;
	}
	return NULL;
}

const struct cli_optdesc *cli_opt_find(const struct cli_opts *o, const char *name)
{
	const struct cli_optdesc *d;
	size_t i = 0;

	while ((d = cli_opt_next(o, &i)))
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

const struct cli_optdesc *cli_opt_find_short(const struct cli_opts *o, int val)
{
	const struct cli_optdesc *d;
	size_t i = 0;

	while ((d = cli_opt_next(o, &i)))
		if (d->val == val)
			return d;
	return NULL;
}

const struct cli_optdesc *cli_opt_find_abbrev(const struct cli_opts *o, const char *name)
{
	const struct cli_optdesc *d, *found = NULL;
	size_t i = 0, len = strlen(name);

	while ((d = cli_opt_next(o, &i))) {
		if (!strcmp(d->name, name))
			return d;
		if (len && !strncmp(d->name, name, len)) {
			if (found)
				return NULL;	/* ambiguous: getopt_long refuses it */
			found = d;
		}
	}
	return found;
}

int cli_opts_set(struct cli_opts *o, const char *name, const char *val,
		 char *err, size_t errlen)
{
	const struct cli_optdesc *d = cli_opt_find(o, name);

	if (!d) {
		snprintf(err, errlen, "unknown option '%s' for %s", name, o->cmd);
		return -ENOENT;
	}
	if (d->arg && !val)
		return cli_opts_fail(err, errlen, "--%s needs a value", name);
	return cli_opt_apply(d, o, val, err, errlen);
}

/* ---- the getopt loop ---- */

/* o's options, then -h and -V, as getopt_long tables. */
static void build_tables(const struct cli_opts *o, struct option *lo, char *so,
			 size_t solen)
{
	const struct cli_optdesc *d;
	size_t i = 0, n = 0, k = 0;

	so[k++] = ':';
	while ((d = cli_opt_next(o, &i)) && n < MAX_OPTS - 3)
		lo[n++] = (struct option){ d->name, d->arg ? required_argument : no_argument,
					   NULL, d->val };
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
		return cli_opts_fail(err, errlen, "%s needs a value", arg);
	if (optopt && optopt < 0x100 && strncmp(arg, "--", 2))
		return cli_opts_fail(err, errlen, "unknown option '-%c'", optopt);
	return cli_opts_fail(err, errlen, "unknown option '%s'", arg);
}

int cli_opts_parse(struct cli_opts *o, int argc, char **argv,
		   enum cli_parse_outcome *outcome, char *err, size_t errlen)
{
	struct option lo[MAX_OPTS];
	char so[2 * MAX_OPTS + 2];
	const struct cli_optdesc *d;
	int c, rc;

	build_tables(o, lo, so, sizeof(so));
	optind = 0;	/* GNU: restart scanning, so commands can parse twice */
	opterr = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == 'h' || c == 'V') {
			*outcome = c == 'h' ? CLI_PARSE_HELP : CLI_PARSE_VERSION;
			return 0;
		}
		if (c == '?' || c == ':')
			return bad_option(c, argv, err, errlen);
		d = cli_opt_find_short(o, c);
		rc = d ? cli_opt_apply(d, o, optarg, err, errlen) :
			 cli_opts_fail(err, errlen, "option parsing: unhandled option %d", c);
		if (rc)
			return rc;
	}
	o->targets = argv + optind;
	o->ntargets = (unsigned)(argc - optind);
	opts_finish(o);
	/* the steady and temperature windows, and latency's lines, count the
	 * timeline's samples as seconds */
	if (o->interval_ns != CLI_NS_PER_S && (o->steady_pct || o->temp_every_ns))
		return cli_opts_fail(err, errlen,
				     "--%s counts whole seconds of the timeline: --interval must be 1s with it",
				     o->steady_pct ? "steady" : "temperature-every");
	if (o->interval_ns != CLI_NS_PER_S && o->cmd && !strcmp(o->cmd, "latency"))
		return cli_opts_fail(err, errlen,
				     "latency prints a line per second: --interval must be 1s with it");
	/* the bound is on an interrupt-driven io_uring wait (engine.h) */
	if (o->reap_wait_ns && (o->backend == ENG_BACKEND_LIBAIO ||
				(!o->mode_auto && (o->mode == ENG_MODE_POLL || o->mode == ENG_MODE_HYBRID))))
		return cli_opts_fail(err, errlen,
				     "--reap-wait bounds an io_uring wait for interrupts: not with %s",
				     o->backend == ENG_BACKEND_LIBAIO ? "--engine libaio" :
				     o->mode == ENG_MODE_POLL ? "--completion poll" :
				     "--completion hybrid");
	*outcome = CLI_PARSE_GO;
	return 0;
}

/* ---- usage ---- */

#define USAGE_INDENT 27	/* "  " and the 24 columns of the option and 1 space */
#define USAGE_WIDTH 79

int cli_choices_text(const char *const *names, char *buf, size_t len)
{
	size_t i, o = 0;
	int n;

	buf[0] = '\0';
	for (i = 0; names[i]; i++) {
		n = snprintf(buf + o, len - o, "%s%s", !i ? "" : names[i + 1] ? ", " : " or ",
			     names[i]);
		if (n < 0 || (size_t)n >= len - o)
			return (int)(o + (n > 0 ? (size_t)n : 0));
		o += (size_t)n;
	}
	return (int)o;
}

/* One option: its help lines, then its choices and its default ("(default
 * 4k)" on the last line where it fits, else on a line of its own). */
static void usage_line(FILE *f, int val, const char *name, const char *arg,
		       const char *help, const char *choices, const char *def)
{
	char head[64], tail[320];
	const char *p, *nl;
	size_t last;

	if (val > 0 && val < 0x100)
		snprintf(head, sizeof(head), "-%c, --%s%s%s", val, name, arg ? " " : "", arg ? arg : "");
	else
		snprintf(head, sizeof(head), "    --%s%s%s", name, arg ? " " : "", arg ? arg : "");
	fprintf(f, "  %-24s ", head);
	for (p = help; (nl = strchr(p, '\n')); p = nl + 1)
		fprintf(f, "%.*s\n  %-24s ", (int)(nl - p), p, "");
	fprintf(f, "%s", p);
	last = strlen(p);
	if (choices) {
		fprintf(f, "\n  %-24s %s%s", "", arg ? arg : "it", " is ");
		fprintf(f, "%s", choices);
		last = strlen(arg ? arg : "it") + 4 + strlen(choices);
	}
	if (def) {
		snprintf(tail, sizeof(tail), "(default %s)", def);
		if (USAGE_INDENT + last + 1 + strlen(tail) <= USAGE_WIDTH)
			fprintf(f, " %s", tail);
		else
			fprintf(f, "\n  %-24s %s", "", tail);
	}
	fprintf(f, "\n");
}

/* d's help with its bounds where it says {bounds} ("1..65536"), into buf. */
static const char *help_text(const struct cli_optdesc *d, char *buf, size_t len)
{
	static const char mark[] = "{bounds}";
	const char *at = strstr(d->help, mark);
	char lo[32], hi[32];

	if (!at)
		return d->help;
	if (d->kind == CLI_OPT_DURATION) {
		cli_fmt_duration(d->min, lo, sizeof(lo));
		cli_fmt_duration(d->max, hi, sizeof(hi));
	} else {
		snprintf(lo, sizeof(lo), "%llu", (unsigned long long)d->min);
		snprintf(hi, sizeof(hi), "%llu", (unsigned long long)d->max);
	}
	snprintf(buf, len, "%.*s%s..%s%s", (int)(at - d->help), d->help, lo, hi,
		 at + sizeof(mark) - 1);
	return buf;
}

/* The defaults come from a fresh copy of o's verb's options, so the text
 * says what runs whatever came before --help on the command line. */
static void usage(const struct cli_opts *o, const struct cli_verb *v, FILE *f)
{
	const struct cli_optdesc *d;
	struct cli_opts def;
	char choices[256], val[128], help[1024];
	size_t i = 0;

	cli_opts_init(&def, o->cmd, o->groups);
	fprintf(f, "usage: %s", v->synopsis);
	if (v->synopsis_more)
		v->synopsis_more(f);
	fprintf(f, "\n\noptions:\n");
	while ((d = cli_opt_next(o, &i))) {
		if (d->choices)
			cli_choices_text(d->choices, choices, sizeof(choices));
		usage_line(f, d->val, d->name, d->arg, help_text(d, help, sizeof(help)),
			   d->choices ? choices : NULL,
			   cli_opt_show(d, &def, val, sizeof(val)) > 0 ? val : NULL);
	}
	usage_line(f, 'h', "help", NULL, "this text", NULL, NULL);
	usage_line(f, 'V', "version", NULL, "print the version", NULL, NULL);
	if (o->groups & CLI_OG_ENGINE)
		fprintf(f, "\nSizes take k, m, g (powers of 1024); counts take k, m, g (powers\n"
			   "of 1000); durations take ms, s, m, h. See iostorm(1).\n");
}

/* ---- a command's front end ---- */

/* Parses into o as it is (defaults already there); see cli_opts_cmdline. */
static int parse_cmdline(struct cli_opts *o, const struct cli_verb *v, int argc,
			 char **argv)
{
	enum cli_parse_outcome outcome = CLI_PARSE_GO;
	char err[512];

	if (cli_opts_parse(o, argc, argv, &outcome, err, sizeof(err))) {
		cli_say("%s (try 'iostorm %s --help')", err, o->cmd);
		return -EINVAL;
	}
	if (outcome == CLI_PARSE_HELP)
		usage(o, v, stdout);
	else if (outcome == CLI_PARSE_VERSION)
		printf("iostorm %s\n", IOSTORM_VERSION);
	return outcome == CLI_PARSE_GO ? 0 : -ECANCELED;
}

int cli_opts_cmdline(struct cli_opts *o, const struct cli_verb *v, int argc,
		     char **argv)
{
	cli_opts_init(o, v->name, v->groups);
	cli_out_verb(v->name);
	return parse_cmdline(o, v, argc, argv);
}
