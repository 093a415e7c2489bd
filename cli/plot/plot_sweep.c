/* A sweep report drawn: IOPS against queue depth with the knee marked,
 * then p99 against queue depth with the depth where it doubled marked (or
 * the metric --metric chose, the CPU cost per IO); all targets together in
 * bold, and each target on its own where the report has by_device and
 * more than one target ran. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report/spread.h"
#include "cli/plot/plot_int.h"

#define MAX_NAMES 256

/* The targets by_device names, each once, in the order first seen. */
struct names {
	const char *n[MAX_NAMES];
	bool has[MAX_NAMES];	/* a point has its figure of the metric */
	size_t count;
};

/* Target d's figure of the metric at one point (by_device holds its p99
 * as p99_ns), scaled as drawn: times in us; NAN where it has none. */
static double dev_value(const json_t *d, int metric)
{
	const json_t *v = metric == CLI_M_P99 ? json_object_get(d, "p99_ns") :
		cli_metric_of_record(d, (enum cli_metric)metric);
	double x = json_is_number(v) ? json_number_value(v) : NAN;

	return cli_metrics[metric].rate ? x : x / 1000.0;
}

/* The same of a point, all its targets. */
static double point_value(const json_t *p, int metric)
{
	const json_t *v = cli_metric_of_record(p, (enum cli_metric)metric);
	double x = v ? json_number_value(v) : NAN;

	return cli_metrics[metric].rate ? x : x / 1000.0;
}

static void collect(const json_t *pts, struct names *nm, int metric)
{
	const json_t *p, *d;
	const char *name;
	size_t i, k, j;

	json_array_foreach(pts, i, p) {
		json_array_foreach(json_object_get(p, "by_device"), k, d) {
			name = cli_gp_name(d, "name");
			if (!name)
				continue;
			for (j = 0; j < nm->count && strcmp(nm->n[j], name); j++)
				;
			if (j == nm->count && nm->count < MAX_NAMES)
				nm->n[nm->count++] = name;
			if (j < nm->count && dev_value(d, metric) > 0)
				nm->has[j] = true;
		}
	}
}

/* $all: qd, IOPS, the metric (times in us; NaN: none) of every point;
 * the points written, *has whether any has the metric. */
static int all_block(FILE *gp, const json_t *pts, int metric, bool *has, double *deepest)
{
	const json_t *p;
	double qd, iops, v;
	size_t i;
	int n = 0;

	fputs("$all << EOD\n", gp);
	json_array_foreach(pts, i, p) {
		qd = cli_gp_num(p, "qd");
		iops = cli_gp_num(p, "iops");
		v = point_value(p, metric);
		if (!(qd > 0) || !isfinite(iops))
			continue;
		*has |= v > 0;
		*deepest = fmax(*deepest, qd);
		fprintf(gp, "%.9g %.9g %.9g\n", qd, iops, v > 0 ? v : NAN);
		n++;
	}
	fputs("EOD\n", gp);
	return n;
}

/* $devJ: the same for target J, from each point's by_device. */
static void dev_block(FILE *gp, const json_t *pts, const char *name, size_t j, int metric)
{
	const json_t *p, *d;
	double qd, iops, v;
	size_t i, k;

	fprintf(gp, "$dev%zu << EOD\n", j);
	json_array_foreach(pts, i, p) {
		qd = cli_gp_num(p, "qd");
		json_array_foreach(json_object_get(p, "by_device"), k, d) {
			const char *dn = cli_gp_name(d, "name");

			if (!dn || strcmp(dn, name))
				continue;
			iops = cli_gp_num(d, "iops");
			v = dev_value(d, metric);
			if (qd > 0 && isfinite(iops))
				fprintf(gp, "%.9g %.9g %.9g\n", qd, iops, v > 0 ? v : NAN);
			break;
		}
	}
	fputs("EOD\n", gp);
}

/* A dashed vertical line at depth qd with its label, when qd is known;
 * the label left of the line at the deepest depth, right of it elsewhere,
 * so it stays inside the panel. */
static void mark(FILE *gp, double qd, double deepest, const char *what)
{
	if (!(qd > 0))
		return;
	fprintf(gp, "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead dashtype 2 "
		    "linewidth 1.5 linecolor rgb '#c0392b'\n", qd, qd);
	fprintf(gp, "set label '%s QD%.0f' at %.9g, graph 0.93 %s textcolor rgb '#c0392b'\n",
		what, qd, qd, qd < deepest ? "left offset 0.5,0" : "right offset -0.5,0");
}

/* One panel: column col of $all and of each $devJ against depth. */
static void panel(FILE *gp, const struct names *nm, bool per_dev, int col,
		  bool only_has)
{
	size_t j;

	fprintf(gp, "plot $all using 1:%d with linespoints linewidth 3 pointtype 7 "
		    "linecolor rgb '#222222' title 'all targets'", col);
	for (j = 0; per_dev && j < nm->count; j++) {
		if (only_has && !nm->has[j])
			continue;
		fprintf(gp, ", \\\n  $dev%zu using 1:%d with linespoints pointtype 7 "
			    "pointsize 0.6 title ", j, col);
		cli_gp_str(gp, nm->n[j]);
	}
	fputc('\n', gp);
}

int cli_plot_sweep(FILE *gp, const json_t *r, int metric, char *err, size_t errlen)
{
	const struct cli_metric_desc *m = &cli_metrics[metric];
	const json_t *pts = json_object_get(r, "points");
	struct names *nm;
	bool has = false, per_dev;
	double deepest = 0;
	size_t j;
	int panels;

	if (cli_gp_name(r, "by") && !strcmp(cli_gp_name(r, "by"), "slo")) {
		if (metric == CLI_M_P99)
			return cli_plot_slo(gp, json_object_get(r, "slo"), err, errlen);
		snprintf(err, errlen, "--metric: a sweep --slo draws its bounded percentiles against "
			 "the rate, no chosen metric (a sweep of depths does)");
		return -EINVAL;
	}
	if (cli_gp_name(r, "by") && !strcmp(cli_gp_name(r, "by"), "rate")) {
		if (metric == CLI_M_P99)
			return cli_plot_sweep_rate(gp, r, err, errlen);
		snprintf(err, errlen, "--metric: a sweep by load draws its latencies against the "
			 "load, no chosen metric (a sweep of depths does)");
		return -EINVAL;
	}
	nm = calloc(1, sizeof(*nm));
	if (!nm)
		return -ENOMEM;
	collect(pts, nm, metric);
	per_dev = nm->count > 1;
	if (!all_block(gp, pts, metric, &has, &deepest)) {
		snprintf(err, errlen, "no point with a queue depth and IOPS");
		free(nm);
		return -ENODATA;
	}
	for (j = 0; per_dev && j < nm->count; j++)
		dev_block(gp, pts, nm->n[j], j, metric);
	cli_gp_panel(gp, "IOPS against queue depth");
	fputs("set logscale x 2\nset xlabel 'queue depth'\nset ylabel 'IOPS'\n"
	      "set yrange [0:*]\nset format y '%.1s%c'\n", gp);
	mark(gp, cli_gp_num(r, "knee_qd"), deepest, "knee");
	panel(gp, nm, per_dev, 2, false);
	panels = 1;
	if (has && metric != CLI_M_IOPS) {
		char t[96];

		snprintf(t, sizeof(t), "%s against queue depth", m->what);
		cli_gp_panel(gp, t);
		/* latency spans decades; a cost per IO or a rate is read from 0 */
		fprintf(gp, "set logscale x 2\n%sset xlabel 'queue depth'\nset ylabel '%s%s'\n",
			m->obj && !strcmp(m->obj, "lat_ns") ? "set logscale y 10\n" :
			"set yrange [0:*]\n", m->what, m->rate ? "" : " (us)");
		if (metric == CLI_M_P99)
			mark(gp, cli_gp_num(r, "p99_double_qd"), deepest, "p99 doubled at");
		panel(gp, nm, per_dev, 3, true);
		panels++;
	}
	free(nm);
	return panels;
}
