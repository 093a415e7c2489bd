/* sweep's text: a row per point as it is measured, the spread over
 * repeats, and the summary's lines (the knee and where p99 doubled, or
 * the load where it did and the first overloaded one). */
#include <stdio.h>

#include "cli/report/openloop.h"
#include "cli/report/out.h"
#include "cli/report/spread.h"
#include "cli/sweep/sweep_int.h"
#include "model/sweep.h"

/* A rate point's first column: its load, or its rate per device. */
void sweep_rate_col(const struct point *p, char *buf, size_t len)
{
	if (p->load_pct >= 0)
		snprintf(buf, len, "%.4g%%", p->load_pct);
	else
		cli_fmt_count((uint64_t)p->rate, buf, len);
}

static void print_rate_point(FILE *f, const struct point *p, unsigned *marks)
{
	const struct cli_dev *d = &p->total;
	char col[24], p50[16], p99[16], p9999[16], mean[16], svc[16], cost[32];

	sweep_rate_col(p, col, sizeof(col));
	fprintf(f, "%7s %10.0f %10.0f %8s %8s %8s %8s %8s %7s%s%s\n", col, d->open.asked, d->iops,
		cli_fmt_us(mean, sizeof(mean), (double)(uint64_t)d->lat.mean, d->has_lat),
		cli_fmt_pct(p50, sizeof(p50), &d->lat, d->has_lat, 0, marks),
		cli_fmt_pct(p99, sizeof(p99), &d->lat, d->has_lat, 2, marks),
		cli_fmt_pct(p9999, sizeof(p9999), &d->lat, d->has_lat, 4, marks),
		cli_fmt_pct(svc, sizeof(svc), &d->open.svc, d->open.has_svc, 2, marks),
		cli_fmt_cost(cost, sizeof(cost), d),
		cli_open_overloaded(d) ? "   overloaded" : "",
		p->partial ? "   (interrupted: part of its window)" : "");
	fflush(f);
}

void sweep_print_point(FILE *f, const struct point *p, unsigned *marks)
{
	const struct cli_dev *d = &p->total;
	char p50[16], p99[16], p9999[16], mean[16], cost[32];

	if (p->rated) {
		print_rate_point(f, p, marks);
		return;
	}
	/* the mean cut to whole ns, like the percentiles */
	fprintf(f, "%6u %10.0f %9.1f %8s %8s %8s %8s %7s%s\n", p->qd, d->iops, d->bw_bytes / CLI_MIB,
		cli_fmt_us(mean, sizeof(mean), (double)(uint64_t)d->lat.mean, d->has_lat),
		cli_fmt_pct(p50, sizeof(p50), &d->lat, d->has_lat, 0, marks),
		cli_fmt_pct(p99, sizeof(p99), &d->lat, d->has_lat, 2, marks),
		cli_fmt_pct(p9999, sizeof(p9999), &d->lat, d->has_lat, 4, marks),
		cli_fmt_cost(cost, sizeof(cost), d),
		p->partial ? "   (interrupted: part of its window)" : "");
	fflush(f);
}

/* With --repeat, the spread of every depth's total over its repeats. */
void sweep_print_spread(const struct point *pt, unsigned n, unsigned repeat, FILE *f)
{
	struct cli_dev row;
	unsigned i;

	if (repeat < 2)
		return;
	cli_spread_head(f, repeat, "qd", 6);
	for (i = 0; i < n && pt[i].done; i++) {
		row = pt[i].total;
		snprintf(row.name, sizeof(row.name), "QD%u", pt[i].qd);
		cli_spread_row(f, &row, 6);
	}
}

/* The depth sweep's lines: the knee and where p99 doubled. */
void sweep_depth_summary(const struct sweep *w, unsigned k, int knee, int dbl, double best,
			  double p99_first, FILE *f)
{
	const struct point *pt = w->pt;

	if (w->m && pt[w->m - 1].partial)
		fprintf(f, "INTERRUPTED in depth %u of %u (QD%u, part of its window)\n", w->m, w->n,
			pt[w->m - 1].qd);
	else if (w->m < w->n)
		fprintf(f, "%s after %u of %u depths\n", w->interrupted ? "INTERRUPTED" : "STOPPED",
			w->m, w->n);
	if (k && (w->lo || w->hi < w->m))
		fprintf(f, "knee and p99 over QD%u..QD%u, the depths that ran one healthy set of targets\n",
			pt[w->lo].qd, pt[w->hi - 1].qd);
	if (knee >= 0)
		fprintf(f, "knee: QD%u, the smallest depth reaching %.0f%% of the best (%.0f of %.0f IOPS)\n",
			pt[knee].qd, 100.0 * MODEL_SWEEP_KNEE_FRAC, pt[knee].total.iops, best);
	if (dbl >= 0)
		fprintf(f, "p99 doubled: at QD%u (%.1f us against %.1f us at QD%u)\n", pt[dbl].qd,
			(double)pt[dbl].total.lat.p99 / CLI_NS_PER_US,
			(double)pt[w->lo].total.lat.p99 / CLI_NS_PER_US, pt[w->lo].qd);
	else if (k && p99_first > 0)
		fprintf(f, "p99 doubled: not within QD%u..QD%u\n", pt[w->lo].qd, pt[w->hi - 1].qd);
}

/* The sweep by load's lines: where p99 from schedule doubled, and the
 * first load a target could not keep up with. */
void sweep_rate_summary(const struct sweep *w, unsigned k, int dbl, FILE *f)
{
	const struct point *pt = w->pt;
	char at[24], first[24], last[24];
	unsigned i;

	if (w->m && pt[w->m - 1].partial)
		fprintf(f, "INTERRUPTED in rate %u of %u (part of its window)\n", w->m, w->n);
	else if (w->m < w->n)
		fprintf(f, "%s after %u of %u rates\n", w->interrupted ? "INTERRUPTED" : "STOPPED",
			w->m, w->n);
	if (!k)
		return;
	sweep_rate_col(&pt[w->lo], first, sizeof(first));
	sweep_rate_col(&pt[w->hi - 1], last, sizeof(last));
	if (w->lo || w->hi < w->m)
		fprintf(f, "p99 over %s..%s, the rates that ran one healthy set of targets\n", first,
			last);
	if (dbl >= 0) {
		sweep_rate_col(&pt[dbl], at, sizeof(at));
		fprintf(f, "p99 doubled: at %s, %.0f IOPS asked (%.1f us from when due against %.1f us at %s)\n",
			at, pt[dbl].total.open.asked, (double)pt[dbl].total.lat.p99 / CLI_NS_PER_US,
			(double)pt[w->lo].total.lat.p99 / CLI_NS_PER_US, first);
	} else if (pt[w->lo].total.has_lat) {
		fprintf(f, "p99 doubled: not within %s..%s\n", first, last);
	}
	for (i = w->lo; i < w->hi; i++) {
		if (!cli_open_overloaded(&pt[i].total))
			continue;
		sweep_rate_col(&pt[i], at, sizeof(at));
		fprintf(f, "overloaded from %s: %.0f of %.0f IOPS asked\n", at, pt[i].total.iops,
			pt[i].total.open.asked);
		break;
	}
}
