/* A search for the capacity at a latency target (sweep --slo, saturate
 * --slo) drawn: one panel per device, the bounded percentiles of the
 * latency from when each IO was due against the rate asked, the points
 * that held filled and those that broke open, each bound a dashed line
 * across and the capacity a line down, named; a device that misses the
 * bounds at any rate says so in its title. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/plot/plot_int.h"

#define MAX_PANELS 8
#define MAX_BOUNDS 5

static const char *const colour[MAX_BOUNDS] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b" };

struct row {
	double rate, us[MAX_BOUNDS];
	bool held;
};

static int by_rate(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return (x->rate > y->rate) - (x->rate < y->rate);
}

/* $sloK: rate, each bound's percentile (us), held; sorted by rate. The
 * rows written. */
static int block(FILE *gp, unsigned k, const json_t *pts, const json_t *bounds)
{
	size_t n = json_array_size(pts), i, b, nb = json_array_size(bounds);
	struct row *rows = calloc(n ? n : 1, sizeof(*rows));
	const json_t *p, *pc;
	int m = 0;

	if (!rows)
		return 0;
	json_array_foreach(pts, i, p) {
		pc = json_object_get(p, "percentiles_ns");
		rows[m].rate = cli_gp_num(p, "rate");
		rows[m].held = json_is_true(json_object_get(p, "held"));
		for (b = 0; b < nb && b < MAX_BOUNDS; b++)
			rows[m].us[b] = cli_gp_num(pc, cli_gp_name(json_array_get(bounds, b), "percentile")) / 1000.0;
		if (rows[m].rate > 0)
			m++;
	}
	qsort(rows, (size_t)m, sizeof(*rows), by_rate);
	fprintf(gp, "$slo%u << EOD\n", k);
	for (i = 0; i < (size_t)m; i++) {
		fprintf(gp, "%.9g", rows[i].rate);
		for (b = 0; b < nb && b < MAX_BOUNDS; b++)
			fprintf(gp, " %.9g", isfinite(rows[i].us[b]) && rows[i].us[b] > 0 ? rows[i].us[b] : NAN);
		fprintf(gp, " %d\n", rows[i].held);
	}
	fputs("EOD\n", gp);
	free(rows);
	return m;
}

static void panel(FILE *gp, unsigned k, const json_t *dev, const json_t *bounds)
{
	double cap = cli_gp_num(dev, "capacity_iops"), ns;
	size_t b, nb = json_array_size(bounds);
	const char *pct;
	char title[160];
	int held;

	snprintf(title, sizeof(title), "%s: latency from when due against the rate asked%s",
		 cli_gp_name(dev, "name") ? cli_gp_name(dev, "name") : "?",
		 json_is_true(json_object_get(dev, "missed")) ? " (misses the target at any rate)" : "");
	cli_gp_panel(gp, title);
	fputs("set logscale y 10\nset logscale x 10\nset xlabel 'IOs per second asked'\n"
	      "set ylabel 'latency (us)'\nset format x '%.1s%c'\n", gp);
	for (b = 0; b < nb && b < MAX_BOUNDS; b++) {
		ns = cli_gp_num(json_array_get(bounds, b), "ns");
		fprintf(gp, "set arrow from graph 0, first %.9g to graph 1, first %.9g nohead dashtype 2 "
			    "linewidth 1.5 linecolor rgb '%s'\n", ns / 1000.0, ns / 1000.0, colour[b]);
	}
	if (cap > 0) {
		fprintf(gp, "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead linewidth 2 "
			    "linecolor rgb '#222222'\n", cap, cap);
		fprintf(gp, "set label 'capacity %.0f IOPS' at %.9g, graph 0.95 right offset -0.5,0\n",
			cap, cap);
	}
	fputs("plot ", gp);
	for (b = 0; b < nb && b < MAX_BOUNDS; b++) {
		pct = cli_gp_name(json_array_get(bounds, b), "percentile");
		for (held = 1; held >= 0; held--) {
			fprintf(gp, "%s$slo%u using 1:($%zu == %d ? $%zu : NaN) with points pointtype %d "
				    "pointsize 1.3 linecolor rgb '%s' title ", b || !held ? ", \\\n  " : "",
				k, nb + 2, held, b + 2, held ? 7 : 6, colour[b]);
			fputc('\'', gp);
			fprintf(gp, "%s %s", pct ? pct : "?", held ? "held" : "broke");
			fputc('\'', gp);
		}
		fprintf(gp, ", \\\n  $slo%u using 1:%zu with lines linecolor rgb '%s' notitle", k, b + 2,
			colour[b]);
		fprintf(gp, ", \\\n  NaN with lines dashtype 2 linecolor rgb '%s' title '%s bound'", colour[b],
			pct ? pct : "?");
	}
	fputc('\n', gp);
}

int cli_plot_slo(FILE *gp, const json_t *slo, char *err, size_t errlen)
{
	const json_t *devs = json_object_get(slo, "devices"), *bounds = json_object_get(slo, "bounds");
	const json_t *d;
	unsigned k = 0;
	size_t i;

	if (!json_array_size(bounds)) {
		snprintf(err, errlen, "no --slo bounds in the report");
		return -ENODATA;
	}
	json_array_foreach(devs, i, d) {
		if (k == MAX_PANELS)
			break;
		if (block(gp, k, json_object_get(d, "points"), bounds))
			panel(gp, k++, d, bounds);
	}
	if (!k) {
		snprintf(err, errlen, "no --slo point measured");
		return -ENODATA;
	}
	return (int)k;
}
