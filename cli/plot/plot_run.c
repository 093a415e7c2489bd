/* A run (or nop) report drawn: the latency distribution of each device
 * (latency on a log scale against the percentile on a scale of nines, so
 * p99, p99.9 and p99.99 are equally far apart and marked on the axis),
 * then each device's IOPS per second, a drop (devices[].drop) marked at
 * the second it began, the steady window (--steady) shaded, and the drive's
 * temperature (--temperature-every) on the right-hand axis. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "cli/plot/plot_int.h"

/* The percentile axis: -log10(1 - pct/100), so 90 is 1, 99 is 2... */
static double nines(double pct)
{
	return -log10(1.0 - pct / 100.0);
}

/* A device's [pct, ns] pairs: lat_ns.cdf where the report has it, else
 * the percentiles every report has. The points written. */
static int lat_points(FILE *gp, const json_t *lat)
{
	static const struct { const char *key; double pct; } keys[] = {
		{ "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p99.9", 99.9 },
		{ "p99.99", 99.99 },
	};
	const json_t *cdf = json_object_get(lat, "cdf"), *pair;
	double pct, ns;
	size_t i;
	int n = 0;

	json_array_foreach(cdf, i, pair) {
		pct = json_number_value(json_array_get(pair, 0));
		ns = json_number_value(json_array_get(pair, 1));
		if (pct >= 0 && pct < 100 && ns > 0 && ++n)
			fprintf(gp, "%.9g %.9g\n", ns / 1000.0, nines(pct));
	}
	for (i = 0; !cdf && i < sizeof(keys) / sizeof(keys[0]); i++) {
		ns = cli_gp_num(lat, keys[i].key);
		if (ns > 0 && ++n)
			fprintf(gp, "%.9g %.9g\n", ns / 1000.0, nines(keys[i].pct));
	}
	return n;
}

/* Each device's distribution as $latI; the number of devices with one,
 * and which in has[]. */
static int lat_blocks(FILE *gp, const json_t *devs, bool *has)
{
	const json_t *d;
	size_t i;
	int n = 0;

	json_array_foreach(devs, i, d) {
		fprintf(gp, "$lat%zu << EOD\n", i);
		has[i] = lat_points(gp, json_object_get(d, "lat_ns")) > 0;
		n += has[i];
		fprintf(gp, "EOD\n");
	}
	return n;
}

static void lat_panel(FILE *gp, const json_t *devs, const bool *has)
{
	const json_t *d;
	const char *sep = "plot ";
	size_t i;

	cli_gp_panel(gp, "latency distribution per device");
	fputs("set logscale x 10\nset format x '%.0f'\nset xlabel 'latency (us)'\n"
	      "set ylabel 'percentile'\nset yrange [0:5.3]\n"
	      "set ytics ('50' 0.30103, '90' 1, '99' 2, '99.9' 3, '99.99' 4, '99.999' 5)\n",
	      gp);
	json_array_foreach(devs, i, d) {
		if (!has[i])
			continue;
		fprintf(gp, "%s$lat%zu using 1:2 with linespoints pointtype 7 pointsize 0.6 title ",
			sep, i);
		cli_gp_str(gp, cli_gp_name(d, "name"));
		sep = ", \\\n  ";
	}
	fputc('\n', gp);
}

/* Each device's samples as $iopsI: t_s and iops. The devices with any. */
static int iops_blocks(FILE *gp, const json_t *devs, bool *has)
{
	const json_t *d, *x;
	double t, v;
	size_t i, k;
	int n = 0;

	json_array_foreach(devs, i, d) {
		fprintf(gp, "$iops%zu << EOD\n", i);
		has[i] = false;
		json_array_foreach(json_object_get(d, "timeline"), k, x) {
			t = cli_gp_num(x, "t_s");
			v = cli_gp_num(x, "iops");
			if (isfinite(t) && isfinite(v)) {
				fprintf(gp, "%.9g %.9g\n", t, v);
				has[i] = true;
			}
		}
		n += has[i];
		fprintf(gp, "EOD\n");
	}
	return n;
}

/* Whether d's timeline has a temperature (--temperature-every). */
static bool has_temp(const json_t *d)
{
	const json_t *x;
	size_t k;

	json_array_foreach(json_object_get(d, "timeline"), k, x)
		if (json_is_integer(json_object_get(x, "temp_c")))
			return true;
	return false;
}

/* d's temperatures as $tempI: t_s and temp_c, the seconds with one. */
static void temp_block(FILE *gp, const json_t *d, size_t i)
{
	const json_t *x;
	double t, v;
	size_t k;

	fprintf(gp, "$temp%zu << EOD\n", i);
	json_array_foreach(json_object_get(d, "timeline"), k, x) {
		t = cli_gp_num(x, "t_s");
		v = cli_gp_num(x, "temp_c");
		if (isfinite(t) && isfinite(v))
			fprintf(gp, "%.9g %.9g\n", t, v);
	}
	fprintf(gp, "EOD\n");
}

/* A dashed line at the second d's drop began, named with its fall. */
static void drop_mark(FILE *gp, const json_t *d)
{
	const json_t *x = json_object_get(d, "drop");
	double at = cli_gp_num(x, "at_s"), pct = cli_gp_num(x, "fall_pct");
	char what[160];

	if (!isfinite(at) || !isfinite(pct))
		return;
	fprintf(gp, "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead dashtype 2\n", at, at);
	snprintf(what, sizeof(what), "%s: drop -%.0f%% at %.0f s", cli_gp_name(d, "name"), pct, at);
	fputs("set label ", gp);
	cli_gp_str(gp, what);
	fprintf(gp, " at %.9g, graph 0.95 left offset 0.5, 0 front\n", at);
}

/* --steady: the window it settled in shaded and named, or a word that it
 * never did. */
static void steady_mark(FILE *gp, const json_t *r)
{
	const json_t *s = json_object_get(r, "steady");
	double at = cli_gp_num(s, "at_s"), w = cli_gp_num(s, "window_s");

	if (!json_is_object(s))
		return;
	if (!json_is_true(json_object_get(s, "reached")) || !isfinite(at) || !isfinite(w)) {
		fputs("set label 'steady state never reached' at graph 0.02, graph 0.05 left front\n", gp);
		return;
	}
	fprintf(gp, "set object rect from %.9g, graph 0 to %.9g, graph 1 behind "
		"fillstyle transparent solid 0.15 noborder fillcolor 'dark-green'\n", at - w, at);
	fprintf(gp, "set label 'steady window %.0f-%.0f s' at %.9g, graph 0.05 left front\n",
		at - w, at, at - w);
}

static void iops_panel(FILE *gp, const json_t *r, const json_t *devs, const bool *has)
{
	const json_t *d;
	const char *sep = "plot ";
	char what[160];
	bool temps = false;
	size_t i;

	cli_gp_panel(gp, "IOPS per second per device");
	fputs("set xlabel 'seconds into the measured window'\nset ylabel 'IOPS'\n"
	      "set yrange [0:*]\nset format y '%.1s%c'\n", gp);
	json_array_foreach(devs, i, d)
		if (has[i])
			drop_mark(gp, d);
	steady_mark(gp, r);
	json_array_foreach(devs, i, d) {
		if (!has[i] || !has_temp(d))
			continue;
		temp_block(gp, d, i);
		temps = true;
	}
	if (temps)
		fputs("set y2label 'drive temperature (C)'\nset y2tics\nset y2range [*:*]\n", gp);
	json_array_foreach(devs, i, d) {
		if (!has[i])
			continue;
		fprintf(gp, "%s$iops%zu using 1:2 with linespoints pointtype 7 pointsize 0.5 title ",
			sep, i);
		cli_gp_str(gp, cli_gp_name(d, "name"));
		sep = ", \\\n  ";
		if (!has_temp(d))
			continue;
		snprintf(what, sizeof(what), "%s temperature (C)", cli_gp_name(d, "name"));
		fprintf(gp, "%s$temp%zu using 1:2 axes x1y2 with lines dashtype 3 title ", sep, i);
		cli_gp_str(gp, what);
	}
	fputc('\n', gp);
}

int cli_plot_run(FILE *gp, const json_t *r, char *err, size_t errlen)
{
	const json_t *devs = json_object_get(r, "devices");
	size_t n = json_array_size(devs);
	bool *lat = calloc(n ? n : 1, sizeof(*lat)), *tl = calloc(n ? n : 1, sizeof(*tl));
	int panels = -ENOMEM;

	if (!lat || !tl)
		goto out;
	panels = 0;
	if (lat_blocks(gp, devs, lat)) {
		lat_panel(gp, devs, lat);
		panels++;
	}
	if (iops_blocks(gp, devs, tl)) {
		iops_panel(gp, r, devs, tl);
		panels++;
	}
	if (!panels) {
		snprintf(err, errlen, "no device has latency figures or a timeline");
		panels = -ENODATA;
	}
out:
	free(lat);
	free(tl);
	return panels;
}
