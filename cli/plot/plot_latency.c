/* A latency report drawn: p50, p99 and max of each second (the device's
 * timeline), on a log scale, so a second of stalls stands out above the
 * steady p50. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/plot/plot_int.h"

/* One sample's figures in us; false when it has no latency. */
static bool sample(const json_t *x, double *t, double v[3])
{
	*t = cli_gp_num(x, "t_s");
	v[0] = cli_gp_num(x, "p50_ns") / 1000.0;
	v[1] = cli_gp_num(x, "p99_ns") / 1000.0;
	v[2] = cli_gp_num(x, "max_ns") / 1000.0;
	return isfinite(*t) && v[0] > 0 && v[1] > 0 && v[2] > 0;
}

/* The same from a line of the older "seconds" array. */
static bool second(const json_t *x, double *t, double v[3])
{
	const json_t *l = json_object_get(x, "lat_ns");

	*t = cli_gp_num(x, "second");
	v[0] = cli_gp_num(l, "p50") / 1000.0;
	v[1] = cli_gp_num(l, "p99") / 1000.0;
	v[2] = cli_gp_num(l, "max") / 1000.0;
	return isfinite(*t) && v[0] > 0 && v[1] > 0 && v[2] > 0;
}

int cli_plot_latency(FILE *gp, const json_t *r, char *err, size_t errlen)
{
	const json_t *dev = json_array_get(json_object_get(r, "devices"), 0);
	const json_t *tl = json_object_get(dev, "timeline"), *x;
	bool (*get)(const json_t *, double *, double[3]) = sample;
	const char *name = cli_gp_name(dev, "name");
	char title[160];
	double t, v[3];
	size_t i;
	int n = 0;

	if (!json_is_array(tl)) {
		tl = json_object_get(r, "seconds");
		get = second;
	}
	fputs("$lat << EOD\n", gp);
	json_array_foreach(tl, i, x) {
		if (get(x, &t, v) && ++n)
			fprintf(gp, "%.9g %.9g %.9g %.9g\n", t, v[0], v[1], v[2]);
	}
	fputs("EOD\n", gp);
	if (!n) {
		snprintf(err, errlen, "no second with latency figures");
		return -ENODATA;
	}
	/* the name goes through cli_gp_str with the rest of the title */
	snprintf(title, sizeof(title), "QD1 latency per second: %s", name ? name : "?");
	cli_gp_panel(gp, title);
	fputs("set logscale y 10\nset xlabel 'seconds into the measured window'\n"
	      "set ylabel 'latency (us)'\n"
	      "plot $lat using 1:2 with linespoints pointtype 7 pointsize 0.5 title 'p50', \\\n"
	      "  $lat using 1:3 with linespoints pointtype 7 pointsize 0.5 title 'p99', \\\n"
	      "  $lat using 1:4 with linespoints pointtype 7 pointsize 0.5 title 'max'\n", gp);
	return 1;
}
