/* A compare report drawn: per row (the first CMP_ROWS), IOPS in one panel
 * and p99 latency (or the metric --metric chose) in the next, each side a bar at its center with its
 * confidence interval as an error bar (none where the side has one
 * repeat), the base first, then each compared report; a '*' above a
 * compared side whose change is significant. Every figure is the
 * report's: nothing is recomputed here. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report/spread.h"
#include "cli/plot/plot_int.h"

#define CMP_ROWS 12	/* more bars than this are too narrow to read */
#define CMP_SIDES 16	/* compare takes 16 reports at most */

static const char *const colors[] = {
	"#2e86c1", "#e67e22", "#27ae60", "#8e44ad", "#c0392b", "#16a085", "#d4ac0d",
	"#5d6d7e",
};

/* What the picture holds: the sides (the base, then a comparison each)
 * and the rows drawn, with how many there were. */
struct cmp {
	const char *file[CMP_SIDES];
	const json_t *cmp[CMP_SIDES];	/* the comparison of side s (s >= 1) */
	size_t nsides, all_sides;
	const char *key[CMP_ROWS];
	size_t nrows, all_rows;
	double confidence, alpha;
};

/* The metric of comparison c for the row key; NULL when it has none. */
static const json_t *metric(const json_t *c, const char *key, const char *name)
{
	const json_t *row, *m;
	const char *k, *n;
	size_t i, j;

	json_array_foreach(json_object_get(c, "rows"), i, row) {
		k = cli_gp_name(row, "key");
		if (!k || strcmp(k, key))
			continue;
		json_array_foreach(json_object_get(row, "metrics"), j, m) {
			n = cli_gp_name(m, "metric");
			if (n && !strcmp(n, name))
				return m;
		}
		return NULL;
	}
	return NULL;
}

/* The metric's side (base or new) of side s for row key: the base's from
 * the first comparison that holds the row, a compared report's from its
 * own; NULL when there is none. */
static const json_t *side_of(const struct cmp *c, size_t s, const char *key, const char *name,
			     const json_t **m)
{
	size_t i;

	*m = NULL;
	for (i = s ? s : 1; i < c->nsides && !*m; i++) {
		*m = metric(c->cmp[i], key, name);
		if (s)
			break;
	}
	return *m ? json_object_get(*m, s ? "new" : "base") : NULL;
}

/* The sides and the rows with IOPS, in the order the comparisons hold
 * them; all_rows counts every distinct one, drawn or not. 0 or -ENOMEM. */
static int collect(const json_t *r, struct cmp *c)
{
	const json_t *cmps = json_object_get(r, "comparisons"), *x, *row;
	const char **all, *k;
	size_t i, j, n = 0, cap = 0, a;

	c->file[0] = cli_gp_name(r, "base");
	c->nsides = 1;
	c->all_sides = 1 + json_array_size(cmps);
	c->confidence = cli_gp_num(r, "confidence");
	c->alpha = cli_gp_num(r, "alpha");
	json_array_foreach(cmps, i, x) {
		cap += json_array_size(json_object_get(x, "rows"));
		if (c->nsides < CMP_SIDES) {
			c->cmp[c->nsides] = x;
			c->file[c->nsides++] = cli_gp_name(x, "file");
		}
	}
	all = calloc(cap ? cap : 1, sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (i = 1; i < c->nsides; i++) {
		json_array_foreach(json_object_get(c->cmp[i], "rows"), j, row) {
			k = cli_gp_name(row, "key");
			if (!k || !metric(c->cmp[i], k, "iops"))
				continue;
			for (a = 0; a < n && strcmp(all[a], k); a++)
				;
			if (a < n)
				continue;
			all[n++] = k;
			if (c->nrows < CMP_ROWS)
				c->key[c->nrows++] = k;
		}
	}
	c->all_rows = n;
	free(all);
	return 0;
}

/* Side s's bar of row i: its x, between i - 0.4 and i + 0.4. */
static double bar_x(const struct cmp *c, size_t s, size_t i)
{
	double w = 0.8 / (double)c->nsides;

	return (double)i - 0.4 + w * ((double)s + 0.5);
}

/* One end of a side's ci (0 low, 1 high), scaled; NAN where it is null
 * (one repeat) or missing. */
static double ci_end(const json_t *side, size_t end, double scale)
{
	const json_t *v = json_array_get(json_object_get(side, "center_ci"), end);

	return json_is_number(v) ? json_number_value(v) * scale : NAN;
}

/* $<name>S: x, center, ci low, ci high (nan: none) of side s for each
 * row that has the metric. Whether any row has an interval in *ci; the
 * highest figure in *top. The rows written. */
static int side_block(FILE *gp, const struct cmp *c, size_t s, const char *name, double scale,
		      bool *ci, double *top)
{
	const json_t *side, *m;
	double y, lo, hi;
	size_t i;
	int n = 0;

	fprintf(gp, "$%s%zu << EOD\n", name, s);
	for (i = 0; i < c->nrows; i++) {
		side = side_of(c, s, c->key[i], name, &m);
		y = cli_gp_num(side, "center") * scale;
		if (!isfinite(y))
			continue;
		lo = ci_end(side, 0, scale);
		hi = ci_end(side, 1, scale);
		*ci |= isfinite(lo) && isfinite(hi);
		*top = fmax(*top, fmax(y, isfinite(hi) ? hi : y));
		fprintf(gp, "%.9g %.9g %.9g %.9g\n", bar_x(c, s, i), y, lo, hi);
		n++;
	}
	fputs("EOD\n", gp);
	return n;
}

/* A '*' above each compared side whose change in the metric is
 * significant (test.significant: p < alpha). */
static void marks(FILE *gp, const struct cmp *c, const char *name, double scale, double top)
{
	const json_t *side, *m, *sig;
	double y, hi;
	size_t s, i;

	for (s = 1; s < c->nsides; s++) {
		for (i = 0; i < c->nrows; i++) {
			side = side_of(c, s, c->key[i], name, &m);
			sig = json_object_get(json_object_get(m, "test"), "significant");
			y = cli_gp_num(side, "center") * scale;
			if (!json_is_true(sig) || !isfinite(y))
				continue;
			hi = ci_end(side, 1, scale);
			fprintf(gp, "set label '*' at %.9g, %.9g center front font ',16'\n",
				bar_x(c, s, i), fmax(y, isfinite(hi) ? hi : y) + 0.02 * top);
		}
	}
}

/* The panel's title: what it shows, and what was left out. */
static void title(const struct cmp *c, const char *what, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s per row: center and %.0f%% CI, * significant "
			 "(p < %.3g)", what, 100 * c->confidence, c->alpha);

	if (c->all_rows > c->nrows && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "; first %zu of %zu rows", c->nrows,
			      c->all_rows);
	if (c->all_sides > c->nsides && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; first %zu of %zu reports", c->nsides,
			 c->all_sides);
}

/* Side s's series: its bar, named by its file, and its error bars where
 * it has intervals; sep before them unless first. */
static void series(FILE *gp, const struct cmp *c, const char *name, size_t s, bool ci,
		   bool first)
{
	char t[160];

	fprintf(gp, "%s$%s%zu using 1:2 with boxes linecolor rgb '%s' title ",
		first ? "" : ", \\\n  ", name, s,
		s ? colors[(s - 1) % (sizeof(colors) / sizeof(colors[0]))] : "#aab7b8");
	if (s) {
		cli_gp_str(gp, c->file[s]);
	} else {
		snprintf(t, sizeof(t), "base: %s", c->file[0] ? c->file[0] : "?");
		cli_gp_str(gp, t);
	}
	if (ci)
		fprintf(gp, ", \\\n  $%s%zu using 1:2:3:4 with yerrorbars pointtype 7 pointsize 0.4 "
			    "linewidth 1.5 linecolor rgb '#222222' notitle", name, s);
}

/* One panel of the metric: its datablocks, then the series of each side
 * that has the metric in a row drawn (gnuplot refuses an empty one).
 * false (nothing written) when no row has the metric. */
static bool panel(FILE *gp, const struct cmp *c, const char *name, double scale,
		  const char *what, const char *ylabel, const char *yformat)
{
	bool ci[CMP_SIDES] = { false }, first = true;
	double top = 0;
	int rows[CMP_SIDES], n = 0;
	char t[160];
	size_t s, i;

	for (s = 0; s < c->nsides; s++)
		n += rows[s] = side_block(gp, c, s, name, scale, &ci[s], &top);
	if (!n)
		return false;
	title(c, what, t, sizeof(t));
	cli_gp_panel(gp, t);
	fprintf(gp, "set style fill solid 0.85 border -1\nset boxwidth %.9g absolute\n"
		    "set ylabel '%s'\nset format y '%s'\nset yrange [0:%.9g]\n"
		    "set xrange [-0.6:%.9g]\nset xtics nomirror rotate by -30\n"
		    "set grid noxtics ytics\nset xtics (", 0.72 / (double)c->nsides, ylabel,
		yformat, top > 0 ? top * 1.12 : 1, (double)c->nrows - 0.4);
	for (i = 0; i < c->nrows; i++) {
		fputs(i ? ", " : "", gp);
		cli_gp_str(gp, c->key[i]);
		fprintf(gp, " %zu", i);
	}
	fputs(")\n", gp);
	marks(gp, c, name, scale, top);
	fputs("plot ", gp);
	for (s = 0; s < c->nsides; s++) {
		if (rows[s]) {
			series(gp, c, name, s, ci[s], first);
			first = false;
		}
	}
	fputc('\n', gp);
	return true;
}

int cli_plot_compare(FILE *gp, const json_t *r, int metric, char *err, size_t errlen)
{
	const struct cli_metric_desc *m = &cli_metrics[metric];
	struct cmp *c = calloc(1, sizeof(*c));
	char ylabel[64];
	int panels = 0;

	if (!c || collect(r, c)) {
		free(c);
		return -ENOMEM;
	}
	if (c->nrows && panel(gp, c, "iops", 1, "IOPS", "IOPS", "%.1s%c"))
		panels++;
	/* a time in us, as the compare table shows it */
	snprintf(ylabel, sizeof(ylabel), "%s%s", m->what, m->rate ? "" : " (us)");
	if (panels && metric != CLI_M_IOPS &&
	    panel(gp, c, m->key, m->rate ? 1 : 1e-3, m->what, ylabel, m->rate ? "%.1s%c" : "%g"))
		panels++;
	free(c);
	if (!panels) {
		snprintf(err, errlen, "no row with IOPS on its sides");
		return -ENODATA;
	}
	return panels;
}
