/* A saturate report drawn: per device a pair of bars, its IOPS alone and
 * all devices at once at QDn, with the loss above them; then, where the
 * report has the ceiling's resources, how much of each the run used. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/plot/plot_int.h"

static double step_iops(const json_t *d, const char *step)
{
	double v = cli_gp_num(json_object_get(json_object_get(d, "qdn"), step), "iops");

	return v > 0 ? v : 0;
}

/* $sat: index, alone, all at once; the highest bar in *top. */
static int bars_block(FILE *gp, const json_t *devs, double *top)
{
	const json_t *d;
	double a, b;
	size_t i;

	fputs("$sat << EOD\n", gp);
	json_array_foreach(devs, i, d) {
		a = step_iops(d, "solo");
		b = step_iops(d, "all");
		fprintf(gp, "%zu %.9g %.9g\n", i, a, b);
		*top = fmax(*top, fmax(a, b));
	}
	fputs("EOD\n", gp);
	return (int)json_array_size(devs);
}

/* The devices' names under their bars and the loss above them. */
static void bar_labels(FILE *gp, const json_t *devs, double top)
{
	const json_t *d;
	const char *sep = "";
	double loss, y;
	size_t i;

	fputs("set xtics (", gp);
	json_array_foreach(devs, i, d) {
		fputs(sep, gp);
		cli_gp_str(gp, cli_gp_name(d, "name"));
		fprintf(gp, " %zu", i);
		sep = ", ";
	}
	fputs(")\n", gp);
	json_array_foreach(devs, i, d) {
		loss = cli_gp_num(d, "loss_pct");
		y = fmax(step_iops(d, "solo"), step_iops(d, "all")) + 0.03 * top;
		if (json_is_string(json_object_get(d, "failed")))
			fprintf(gp, "set label 'failed' at %zu, %.9g center textcolor rgb '#c0392b'\n",
				i, y);
		else if (isfinite(loss))
			fprintf(gp, "set label 'loss %.1f%%' at %zu, %.9g center\n", loss, i, y);
	}
}

static void bars_panel(FILE *gp, const json_t *r, const json_t *devs, double top)
{
	double qd = cli_gp_num(json_object_get(r, "system"), "qd");
	char title[96];

	if (qd > 0)
		snprintf(title, sizeof(title), "IOPS per device at QD%.0f: alone and all at once "
			 "(the loss above)", qd);
	else
		snprintf(title, sizeof(title), "IOPS per device: alone and all at once (the loss above)");
	cli_gp_panel(gp, title);
	fprintf(gp, "set style data histograms\nset style histogram clustered gap 1\n"
		    "set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
		    "set ylabel 'IOPS'\nset format y '%%.1s%%c'\nset yrange [0:%.9g]\n"
		    "set xtics nomirror rotate by -30\nset grid noxtics ytics\n",
		    top > 0 ? top * 1.15 : 1);
	bar_labels(gp, devs, top);
	fputs("plot $sat using 2 linecolor rgb '#2e86c1' title 'alone', \\\n"
	      "  $sat using 3 linecolor rgb '#e67e22' title 'all at once'\n", gp);
}

/* The ceiling's resources, when the report has them: $use, utilization
 * in percent. The resources written. */
static int use_block(FILE *gp, const json_t *res)
{
	const json_t *x;
	double u;
	size_t i;

	fputs("$use << EOD\n", gp);
	json_array_foreach(res, i, x) {
		u = cli_gp_num(x, "utilization");
		fprintf(gp, "%zu %.9g\n", i, isfinite(u) && u > 0 ? 100 * u : 0);
	}
	fputs("EOD\n", gp);
	return (int)json_array_size(res);
}

static void use_panel(FILE *gp, const json_t *res)
{
	const json_t *x;
	const char *sep = "", *kind, *name;
	char label[160];
	size_t i;

	cli_gp_panel(gp, "the ceiling model: each resource's predicted share of its capacity");
	fputs("set style data histograms\nset style histogram clustered gap 1\n"
	      "set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
	      "set ylabel 'utilization (%)'\nset yrange [0:*]\n"
	      "set xtics nomirror rotate by -30\nset grid noxtics ytics\n"
	      "set arrow from graph 0, first 100 to graph 1, first 100 nohead dashtype 2 "
	      "linecolor rgb '#c0392b'\nset xtics (", gp);
	json_array_foreach(res, i, x) {
		kind = cli_gp_name(x, "kind");
		name = cli_gp_name(x, "name");
		snprintf(label, sizeof(label), "%s %s", kind ? kind : "?", name ? name : "?");
		fputs(sep, gp);
		cli_gp_str(gp, label);
		fprintf(gp, " %zu", i);
		sep = ", ";
	}
	fputs(")\nplot $use using 2 linecolor rgb '#16a085' title 'utilization'\n", gp);
}

int cli_plot_saturate(FILE *gp, const json_t *r, char *err, size_t errlen)
{
	const json_t *devs = json_object_get(r, "devices");
	const json_t *res = json_object_get(json_object_get(r, "ceiling"), "resources");
	double top = 0;
	int panels = 1;

	if (!json_array_size(devs) || !bars_block(gp, devs, &top) || !(top > 0)) {
		snprintf(err, errlen, "no device has a QDn figure");
		return -ENODATA;
	}
	bars_panel(gp, r, devs, top);
	if (json_array_size(res) && use_block(gp, res)) {
		use_panel(gp, res);
		panels++;
	}
	if (json_is_object(json_object_get(r, "slo"))) {
		int k = cli_plot_slo(gp, json_object_get(r, "slo"), err, errlen);

		panels += k > 0 ? k : 0;
		panels += cli_plot_slo_together(gp, json_object_get(r, "slo"));
	}
	return panels;
}
