/* A sweep by load (sweep --rate) drawn: latency from when each IO was
 * due (p50, p99, p99.9) and the service time's p99 against the IOPS
 * asked, with the load where p99 doubled marked; then the IOPS achieved
 * against those asked, beside the line where they are equal, so the load
 * a device stops keeping up shows as the curve leaving it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "cli/plot/plot_int.h"

/* $rate: asked, achieved, p50, p99, p99.9, service p99 (us; NaN: none)
 * of every point; the points written. */
static int rate_block(FILE *gp, const json_t *pts)
{
	const json_t *p, *l, *svc;
	double asked, iops;
	size_t i;
	int n = 0;

	fputs("$rate << EOD\n", gp);
	json_array_foreach(pts, i, p) {
		asked = cli_gp_num(p, "asked_iops");
		iops = cli_gp_num(p, "iops");
		l = json_object_get(p, "lat_ns");
		svc = json_object_get(json_object_get(p, "open_loop"), "service_lat_ns");
		if (!(asked > 0) || !isfinite(iops))
			continue;
		fprintf(gp, "%.9g %.9g %.9g %.9g %.9g %.9g\n", asked, iops,
			cli_gp_num(l, "p50") / 1000.0, cli_gp_num(l, "p99") / 1000.0,
			cli_gp_num(l, "p99.9") / 1000.0, cli_gp_num(svc, "p99") / 1000.0);
		n++;
	}
	fputs("EOD\n", gp);
	return n;
}

/* The dashed line at the asked IOPS where p99 doubled, named by its load
 * where the sweep was by load. */
static void mark(FILE *gp, const json_t *r)
{
	double at = cli_gp_num(r, "p99_double_asked_iops"), pct = cli_gp_num(r, "p99_double_load_pct");

	if (!(at > 0))
		return;
	fprintf(gp, "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead dashtype 2 "
		    "linewidth 1.5 linecolor rgb '#c0392b'\n", at, at);
	if (pct > 0)
		fprintf(gp, "set label 'p99 doubled at %.4g%%' at %.9g, graph 0.93 right offset -0.5,0 "
			    "textcolor rgb '#c0392b'\n", pct, at);
	else
		fprintf(gp, "set label 'p99 doubled at %.0f IOPS' at %.9g, graph 0.93 right offset -0.5,0 "
			    "textcolor rgb '#c0392b'\n", at, at);
}

int cli_plot_sweep_rate(FILE *gp, const json_t *r, char *err, size_t errlen)
{
	if (!rate_block(gp, json_object_get(r, "points"))) {
		snprintf(err, errlen, "no point with a rate asked and IOPS");
		return -ENODATA;
	}
	cli_gp_panel(gp, "latency from when due against the load asked (all targets)");
	fputs("set logscale y 10\nset xlabel 'IOPS asked'\nset ylabel 'latency (us)'\n"
	      "set format x '%.1s%c'\n", gp);
	mark(gp, r);
	fputs("plot $rate using 1:3 with linespoints pointtype 7 title 'p50', \\\n"
	      "  $rate using 1:4 with linespoints linewidth 3 pointtype 7 title 'p99', \\\n"
	      "  $rate using 1:5 with linespoints pointtype 7 title 'p99.9', \\\n"
	      "  $rate using 1:6 with linespoints dashtype 3 pointtype 6 "
	      "title 'service time p99 (from submission)'\n", gp);
	cli_gp_panel(gp, "IOPS achieved against asked");
	fputs("set xlabel 'IOPS asked'\nset ylabel 'IOPS achieved'\nset format x '%.1s%c'\n"
	      "set format y '%.1s%c'\nset yrange [0:*]\n"
	      "plot $rate using 1:2 with linespoints linewidth 3 pointtype 7 "
	      "linecolor rgb '#222222' title 'achieved', \\\n"
	      "  $rate using 1:1 with lines dashtype 2 linecolor rgb '#888888' title 'asked'\n", gp);
	return 2;
}
