/* A sweep report drawn: IOPS against queue depth with the knee marked,
 * then p99 against queue depth with the depth where it doubled marked;
 * all targets together in bold, and each target on its own where the
 * report has by_device and more than one target ran. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/plot/plot_int.h"

#define MAX_NAMES 256

/* The targets by_device names, each once, in the order first seen. */
struct names {
	const char *n[MAX_NAMES];
	bool p99[MAX_NAMES];	/* a point has its p99 */
	size_t count;
};

static void collect(const json_t *pts, struct names *nm)
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
			if (j < nm->count && cli_gp_num(d, "p99_ns") > 0)
				nm->p99[j] = true;
		}
	}
}

/* $all: qd, IOPS, p99 in us (NaN: none) of every point; the points
 * written, *p99 whether any has a p99. */
static int all_block(FILE *gp, const json_t *pts, bool *p99, double *deepest)
{
	const json_t *p;
	double qd, iops, ns;
	size_t i;
	int n = 0;

	fputs("$all << EOD\n", gp);
	json_array_foreach(pts, i, p) {
		qd = cli_gp_num(p, "qd");
		iops = cli_gp_num(p, "iops");
		ns = cli_gp_num(json_object_get(p, "lat_ns"), "p99");
		if (!(qd > 0) || !isfinite(iops))
			continue;
		*p99 |= ns > 0;
		*deepest = fmax(*deepest, qd);
		fprintf(gp, "%.9g %.9g %.9g\n", qd, iops, ns > 0 ? ns / 1000.0 : NAN);
		n++;
	}
	fputs("EOD\n", gp);
	return n;
}

/* $devJ: the same for target J, from each point's by_device. */
static void dev_block(FILE *gp, const json_t *pts, const char *name, size_t j)
{
	const json_t *p, *d;
	double qd, iops, ns;
	size_t i, k;

	fprintf(gp, "$dev%zu << EOD\n", j);
	json_array_foreach(pts, i, p) {
		qd = cli_gp_num(p, "qd");
		json_array_foreach(json_object_get(p, "by_device"), k, d) {
			const char *dn = cli_gp_name(d, "name");

			if (!dn || strcmp(dn, name))
				continue;
			iops = cli_gp_num(d, "iops");
			ns = cli_gp_num(d, "p99_ns");
			if (qd > 0 && isfinite(iops))
				fprintf(gp, "%.9g %.9g %.9g\n", qd, iops, ns > 0 ? ns / 1000.0 : NAN);
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
		  bool only_p99)
{
	size_t j;

	fprintf(gp, "plot $all using 1:%d with linespoints linewidth 3 pointtype 7 "
		    "linecolor rgb '#222222' title 'all targets'", col);
	for (j = 0; per_dev && j < nm->count; j++) {
		if (only_p99 && !nm->p99[j])
			continue;
		fprintf(gp, ", \\\n  $dev%zu using 1:%d with linespoints pointtype 7 "
			    "pointsize 0.6 title ", j, col);
		cli_gp_str(gp, nm->n[j]);
	}
	fputc('\n', gp);
}

int cli_plot_sweep(FILE *gp, const json_t *r, char *err, size_t errlen)
{
	const json_t *pts = json_object_get(r, "points");
	struct names *nm = calloc(1, sizeof(*nm));
	bool p99 = false, per_dev;
	double deepest = 0;
	size_t j;
	int panels;

	if (!nm)
		return -ENOMEM;
	if (cli_gp_name(r, "by") && !strcmp(cli_gp_name(r, "by"), "rate")) {
		free(nm);
		return cli_plot_sweep_rate(gp, r, err, errlen);
	}
	collect(pts, nm);
	per_dev = nm->count > 1;
	if (!all_block(gp, pts, &p99, &deepest)) {
		snprintf(err, errlen, "no point with a queue depth and IOPS");
		free(nm);
		return -ENODATA;
	}
	for (j = 0; per_dev && j < nm->count; j++)
		dev_block(gp, pts, nm->n[j], j);
	cli_gp_panel(gp, "IOPS against queue depth");
	fputs("set logscale x 2\nset xlabel 'queue depth'\nset ylabel 'IOPS'\n"
	      "set yrange [0:*]\nset format y '%.1s%c'\n", gp);
	mark(gp, cli_gp_num(r, "knee_qd"), deepest, "knee");
	panel(gp, nm, per_dev, 2, false);
	panels = 1;
	if (p99) {
		cli_gp_panel(gp, "p99 latency against queue depth");
		fputs("set logscale x 2\nset logscale y 10\nset xlabel 'queue depth'\n"
		      "set ylabel 'p99 latency (us)'\n", gp);
		mark(gp, cli_gp_num(r, "p99_double_qd"), deepest, "p99 doubled at");
		panel(gp, nm, per_dev, 3, true);
		panels++;
	}
	free(nm);
	return panels;
}
