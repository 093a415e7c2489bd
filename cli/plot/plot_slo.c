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

/* The ranges a panel shows: its points, its bounds and its capacity. */
struct span {
	double x0, x1, y0, y1;
};

static void widen(double *lo, double *hi, double v)
{
	if (!isfinite(v) || !(v > 0))
		return;
	*lo = !(*lo > 0) || v < *lo ? v : *lo;
	*hi = v > *hi ? v : *hi;
}

/* A log axis from lo to hi with room around, two decades at least: a
 * log axis is labelled at its decades only. */
static void decades(double *lo, double *hi)
{
	double g;

	*lo /= 1.5;
	*hi *= 1.5;
	if (*hi / *lo < 100) {
		g = sqrt(100 / (*hi / *lo));
		*lo /= g;
		*hi *= g;
	}
}

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
static int block(FILE *gp, unsigned k, const json_t *pts, const json_t *bounds, struct span *sp)
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
		widen(&sp->x0, &sp->x1, rows[i].rate);
		for (b = 0; b < nb && b < MAX_BOUNDS; b++) {
			fprintf(gp, " %.9g", isfinite(rows[i].us[b]) && rows[i].us[b] > 0 ? rows[i].us[b] : NAN);
			widen(&sp->y0, &sp->y1, rows[i].us[b]);
		}
		fprintf(gp, " %d\n", rows[i].held);
	}
	fputs("EOD\n", gp);
	free(rows);
	return m;
}

static void panel(FILE *gp, unsigned k, const json_t *dev, const json_t *bounds, struct span sp)
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
	/* the bounds and the capacity inside the frame, not on its edge */
	for (b = 0; b < nb && b < MAX_BOUNDS; b++)
		widen(&sp.y0, &sp.y1, cli_gp_num(json_array_get(bounds, b), "ns") / 1000.0);
	widen(&sp.x0, &sp.x1, cap);
	decades(&sp.x0, &sp.x1);
	decades(&sp.y0, &sp.y1);
	fprintf(gp, "set xrange [%.9g:%.9g]\nset yrange [%.9g:%.9g]\n", sp.x0, sp.x1, sp.y0, sp.y1);
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
		struct span sp = { 0, 0, 0, 0 };

		if (k == MAX_PANELS)
			break;
		if (block(gp, k, json_object_get(d, "points"), bounds, &sp))
			panel(gp, k++, d, bounds, sp);
	}
	if (!k) {
		snprintf(err, errlen, "no --slo point measured");
		return -ENODATA;
	}
	return (int)k;
}

/* saturate --slo's search together: each device's first bounded
 * percentile against the share of its alone capacity, the points where
 * every device held filled, the bound across and the share found down. */
int cli_plot_slo_together(FILE *gp, const json_t *slo)
{
	const json_t *tog = json_object_get(slo, "together"), *pts = json_object_get(tog, "points");
	const json_t *b0 = json_array_get(json_object_get(slo, "bounds"), 0), *p, *names;
	const char *pct = cli_gp_name(b0, "percentile");
	double frac = cli_gp_num(tog, "fraction"), bound = cli_gp_num(b0, "ns") / 1000.0;
	struct row *rows;
	size_t i, j, n = json_array_size(pts), nd;
	int m = 0;

	names = json_object_get(json_array_get(pts, 0), "by_device");
	nd = json_array_size(names);
	if (!n || !nd || !pct || nd > MAX_BOUNDS)
		return 0;
	rows = calloc(n, sizeof(*rows));
	if (!rows)
		return 0;
	json_array_foreach(pts, i, p) {
		const json_t *bd = json_object_get(p, "by_device");

		rows[m].rate = 100.0 * cli_gp_num(p, "fraction");
		rows[m].held = json_is_true(json_object_get(p, "held"));
		for (j = 0; j < nd; j++)
			rows[m].us[j] = cli_gp_num(json_object_get(json_array_get(bd, j), "percentiles_ns"),
						   pct) / 1000.0;
		m += rows[m].rate > 0;
	}
	qsort(rows, (size_t)m, sizeof(*rows), by_rate);
	fputs("$together << EOD\n", gp);
	for (i = 0; i < (size_t)m; i++) {
		fprintf(gp, "%.9g", rows[i].rate);
		for (j = 0; j < nd; j++)
			fprintf(gp, " %.9g", rows[i].us[j] > 0 ? rows[i].us[j] : NAN);
		fprintf(gp, " %d\n", rows[i].held);
	}
	fputs("EOD\n", gp);
	free(rows);
	cli_gp_panel(gp, "all at once: each device's latency from when due against the share of its alone capacity");
	fprintf(gp, "set logscale y 10\nset logscale x 10\nset xlabel 'share of each alone capacity (%%)'\n"
		    "set ylabel '%s latency (us)'\nset xrange [0.5:150]\n", pct);
	fprintf(gp, "set arrow from graph 0, first %.9g to graph 1, first %.9g nohead dashtype 2 "
		    "linewidth 1.5 linecolor rgb '#444444'\n", bound, bound);
	if (frac > 0) {
		fprintf(gp, "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead linewidth 2 "
			    "linecolor rgb '#222222'\n", 100 * frac, 100 * frac);
		fprintf(gp, "set label 'together %.0f%%' at %.9g, graph 0.95 right offset -0.5,0\n",
			100 * frac, 100 * frac);
	}
	fputs("plot ", gp);
	for (j = 0; j < nd; j++) {
		fprintf(gp, "%s$together using 1:%zu with lines linecolor rgb '%s' title ", j ? ", \\\n  " : "",
			j + 2, colour[j]);
		cli_gp_str(gp, cli_gp_name(json_array_get(names, j), "name") ?
			   cli_gp_name(json_array_get(names, j), "name") : "?");
		fprintf(gp, ", \\\n  $together using 1:($%zu == 1 ? $%zu : NaN) with points pointtype 7 "
			    "linecolor rgb '%s' notitle", nd + 2, j + 2, colour[j]);
		fprintf(gp, ", \\\n  $together using 1:($%zu == 0 ? $%zu : NaN) with points pointtype 6 "
			    "linecolor rgb '%s' notitle", nd + 2, j + 2, colour[j]);
	}
	fprintf(gp, ", \\\n  NaN with lines dashtype 2 linecolor rgb '#444444' title '%s bound'\n", pct);
	return 1;
}
