/* iostorm plot REPORT.json [-o FILE.svg|FILE.png]: a report of run, nop,
 * latency, sweep, saturate or compare drawn by gnuplot (cli/plot/plot_int.h).
 * This file reads and checks the report, picks the kind and the picture's
 * name and format, and hands the script to gnuplot. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/commands.h"
#include "cli/opts/opts.h"
#include "cli/report/out.h"
#include "cli/report/report_load.h"
#include "cli/report/spread.h"
#include "cli/plot/plot_int.h"

static int set_output(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	const char *dot = strrchr(arg, '.');

	if (!dot || (strcasecmp(dot, ".svg") && strcasecmp(dot, ".png"))) {
		snprintf(err, errlen, "-o: '%s' does not end in .svg or .png", arg);
		return -EINVAL;
	}
	o->plot_out = arg;
	return 0;
}

enum { O_METRIC = 0x400 };

static int set_metric(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	int m = cli_opt_choose("--metric", "metric", cli_metric_keys, arg, err, errlen);

	if (m < 0)
		return m;
	o->plot_metric = cli_metric_keys[m];
	return 0;
}

static const struct cli_optdesc own[] = {
	CLI_OPT_OWN("output", 'o', "FILE", 0, 0, set_output, NULL, NULL,
	  "the picture: FILE.svg or FILE.png (without it: the\n"
	  "report's name with .svg)"),
	CLI_OPT_OWN("metric", O_METRIC, "NAME", 0, 0, set_metric, NULL, cli_metric_keys,
	  "the second panel of a sweep or compare picture:\n"
	  "that metric instead of p99 latency, such as the\n"
	  "workers' CPU cost per IO"),
	CLI_OPT_END,
};

static int cmd_plot(int argc, char **argv);

const struct cli_verb cli_verb_plot = {
	.name = "plot",
	.what = "draw a JSON report with gnuplot (SVG or PNG)",
	.synopsis = "iostorm plot [-o FILE.svg|FILE.png] [--metric NAME] REPORT.json\n\n"
		"Draws a report that 'iostorm run', 'latency', 'sweep', 'saturate' or\n"
		"'compare' wrote with --json, with gnuplot (Debian's gnuplot-nox): a run's\n"
		"latency distribution and IOPS per second per device; latency's p50, p99\n"
		"and max per second; a sweep's IOPS and p99 against queue depth with the\n"
		"knee and the p99 doubling; saturate's IOPS per device alone and all at\n"
		"once, with the loss, and the ceiling's resources where the report has\n"
		"them; compare's IOPS and p99 per row, each report's center with its\n"
		"confidence interval, and * over a significant change. --metric draws\n"
		"another metric than p99 in a sweep's or compare's second panel: the CPU\n"
		"cost per IO, a mean latency.",
	.operands = CLI_OPERANDS_FILES,
	.own = own,
	.run = cmd_plot,
};

/* What draws each command's report: fn, or mfn for a kind that takes
 * --metric. */
struct kind {
	const char *command;
	plot_kind_fn fn;
	plot_metric_fn mfn;
};

static const struct kind kinds[] = {
	{ "run", cli_plot_run, NULL }, { "nop", cli_plot_run, NULL },
	{ "latency", cli_plot_latency, NULL }, { "sweep", NULL, cli_plot_sweep },
	{ "saturate", cli_plot_saturate, NULL }, { "compare", NULL, cli_plot_compare },
	{ "tune", cli_plot_tune, NULL },
};

/* The report into *out, checked to be one of ours that plot draws, and
 * its kind. 0 or -errno, said: -EINVAL when it is not a report plot
 * takes, or --metric was given for one that draws no chosen metric;
 * another -errno when it cannot be opened or read. */
static int load(const char *path, const char *metric, json_t **out, const struct kind **fn)
{
	const char *cmd;
	json_t *r;
	size_t i;
	int err = cli_report_load(path, &r, &cmd);

	if (err)
		return err;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(cmd, kinds[i].command))
			continue;
		if (metric && !kinds[i].mfn) {
			cli_say("%s: --metric: a %s report draws no chosen metric (sweep and compare "
				"reports do)", path, cmd);
			break;
		}
		*fn = &kinds[i];
		*out = r;
		return 0;
	}
	if (i == sizeof(kinds) / sizeof(kinds[0])) {
		char names[128];
		size_t at = 0, n = sizeof(kinds) / sizeof(kinds[0]), k;

		/* the list from the table: "run, nop, ... and tune" */
		names[0] = '\0';
		for (k = 0; k < n && at < sizeof(names); k++)
			at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%s",
					       !k ? "" : k + 1 == n ? " and " : ", ", kinds[k].command);
		cli_say("%s: a report of '%s', which plot does not draw (it draws %s reports)", path,
			cmd, names);
	}
	json_decref(r);
	return -EINVAL;
}

/* The report's name with .svg for .json (or added). NULL: out of memory. */
static char *default_out(const char *report)
{
	size_t n = strlen(report);
	char *s;

	if (n > 5 && !strcasecmp(report + n - 5, ".json"))
		n -= 5;
	s = malloc(n + 5);
	if (s) {
		memcpy(s, report, n);
		memcpy(s + n, ".svg", 5);
	}
	return s;
}

static bool is_png(const char *out)
{
	size_t n = strlen(out);

	return n >= 4 && !strcasecmp(out + n - 4, ".png");
}

/* The terminal, then the kind's panels in a multiplot, as one script in
 * *buf. 0, -ENODATA or -EINVAL (err said), or -ENOMEM. */
static int script(const struct kind *k, int metric, const json_t *r, bool png, char **buf,
		  size_t *len, char *err, size_t errlen)
{
	char *body = NULL;
	size_t blen = 0;
	FILE *b = open_memstream(&body, &blen), *s;
	int panels;

	if (!b)
		return -ENOMEM;
	panels = k->mfn ? k->mfn(b, r, metric, err, errlen) : k->fn(b, r, err, errlen);
	if (fclose(b) || panels < 0) {
		free(body);
		return panels < 0 ? panels : -ENOMEM;
	}
	s = open_memstream(buf, len);
	if (!s) {
		free(body);
		return -ENOMEM;
	}
	fprintf(s, "set encoding utf8\n");
	if (png)
		/* pngcairo draws better; the plain png terminal where it is missing */
		fprintf(s, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
			   "  set terminal pngcairo size %d,%d noenhanced font 'sans,10' background '#ffffff'\n"
			   "} else {\n"
			   "  set terminal png size %d,%d noenhanced background '#ffffff'\n"
			   "}\n", PLOT_WIDTH, PLOT_PANEL_HEIGHT * panels, PLOT_WIDTH,
			PLOT_PANEL_HEIGHT * panels);
	else
		fprintf(s, "set terminal svg size %d,%d noenhanced font 'sans,11' background '#ffffff'\n",
			PLOT_WIDTH, PLOT_PANEL_HEIGHT * panels);
	fprintf(s, "set multiplot layout %d,1\n%sunset multiplot\n", panels, body);
	free(body);
	if (fclose(s)) {
		free(*buf);
		*buf = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* The report drawn into the picture's file, whose name is printed: 0 or
 * -errno, said. */
static int plot(const struct cli_opts *o)
{
	struct cli_outfile pic = { .fd = -1 };
	const struct kind *fn = NULL;
	json_t *r = NULL;
	char *out = NULL, *buf = NULL, err[1024];
	size_t len = 0;
	int rc;

	if (o->ntargets != 1) {
		cli_say("%s (try 'iostorm plot --help')",
			o->ntargets ? "one REPORT.json at a time" : "no REPORT.json given");
		return -EINVAL;
	}
	rc = -ENOMEM;
	out = o->plot_out ? strdup(o->plot_out) : default_out(o->targets[0]);
	if (!out) {
		cli_say("out of memory");
		goto done;
	}
	/* the picture's file first, as every command's report (cli/report/out.h),
	 * never over the report it draws */
	rc = cli_outpath_claim(o->targets[0], "the input");
	if (rc) {
		cli_say("out of memory");
		goto done;
	}
	rc = cli_outfile_reserve(&pic, out);
	if (rc) {
		/* -EINVAL: not something a picture may be written over */
		cli_say("%s: %s", out, pic.at.why);
		goto done;
	}
	rc = load(o->targets[0], o->plot_metric, &r, &fn);
	if (rc)
		goto done;
	rc = script(fn, o->plot_metric ? cli_metric_by_key(o->plot_metric) : CLI_M_P99, r,
		    is_png(out), &buf, &len, err, sizeof(err));
	if (rc == -ENOMEM) {
		cli_say("out of memory");
		goto done;
	}
	if (rc == -EINVAL) {
		cli_say("%s: %s", o->targets[0], err);
		goto done;
	}
	if (!buf) {
		cli_say("%s: nothing to plot: %s", o->targets[0], err);
		rc = -ENODATA;
		goto done;
	}
	rc = cli_gp_render(buf, len, &pic, err, sizeof(err));
	if (rc) {
		cli_say("%s", err);
		rc = rc == -EINVAL ? -EIO : rc;		/* gnuplot failing is runtime */
		goto done;
	}
	printf("%s\n", out);
done:
	cli_outfile_discard(&pic);
	free(buf);
	free(out);
	json_decref(r);
	return rc;
}

static int cmd_plot(int argc, char **argv)
{
	struct cli_opts o;
	int rc = cli_opts_cmdline(&o, &cli_verb_plot, argc, argv);

	if (!rc)
		rc = plot(&o);
	return cli_exit_status(rc);
}
