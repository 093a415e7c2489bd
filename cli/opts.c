/* The front end of the shared options: defaults, the getopt loop over the
 * option table (cli/opts_table.c) and a command's extras, job-file lookups
 * by name, and the usage text. */
#include "cli/opts_impl.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"

#define MAX_OPTS 64

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
	o->time_ns = 10 * CLI_NS_PER_S;
	o->ramp_ns = 2 * CLI_NS_PER_S;
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

static bool accepted(const struct cli_opts *o, const struct cli_optdesc *d)
{
	return !d->group || (d->group & o->groups);
}

static const struct cli_optdesc *find_opt(const struct cli_opts *o, int val,
				      const char *name)
{
	size_t i;

	for (i = 0; i < cli_opts_ntable; i++) {
		if (!accepted(o, &cli_opts_table[i]))
			continue;
		if (name ? !strcmp(name, cli_opts_table[i].name) : val == cli_opts_table[i].val)
			return &cli_opts_table[i];
	}
	return NULL;
}

int cli_opts_set(struct cli_opts *o, const char *name, const char *val,
		 char *err, size_t errlen)
{
	const struct cli_optdesc *d = find_opt(o, 0, name);

	if (!d) {
		snprintf(err, errlen, "unknown option '%s' for %s", name, o->cmd);
		return -ENOENT;
	}
	if (d->has_arg == required_argument && !val)
		return cli_opts_fail(err, errlen, "--%s needs a value", name);
	return d->set(o, val, err, errlen);
}

/* The shared options this command accepts, its extras, then -h and -V,
 * as getopt_long tables. */
static void build_tables(const struct cli_opts *o, const struct cli_opt_extra *extra,
			 struct option *lo, char *so, size_t solen)
{
	size_t i, n = 0, k = 0;

	so[k++] = ':';
	for (i = 0; i < cli_opts_ntable && n < MAX_OPTS - 3; i++) {
		if (!accepted(o, &cli_opts_table[i]))
			continue;
		lo[n++] = (struct option){ cli_opts_table[i].name, cli_opts_table[i].has_arg,
					   NULL, cli_opts_table[i].val };
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
		return cli_opts_fail(err, errlen, "%s needs a value", arg);
	if (optopt && optopt < 0x100 && strncmp(arg, "--", 2))
		return cli_opts_fail(err, errlen, "unknown option '-%c'", optopt);
	return cli_opts_fail(err, errlen, "unknown option '%s'", arg);
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
	const struct cli_optdesc *d;
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
			rc = cli_opts_fail(err, errlen, "option parsing: unhandled option %d", c);
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
	for (i = 0; i < cli_opts_ntable; i++)
		if (accepted(o, &cli_opts_table[i]))
			usage_line(f, cli_opts_table[i].val, cli_opts_table[i].name,
				   cli_opts_table[i].arg, cli_opts_table[i].help);
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
