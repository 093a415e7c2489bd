/* sweep's summary: the points that ran one healthy set of targets, the
 * knee and the p99 doubling over them (model/sweep.h), said and written
 * as JSON where asked. */
#include <errno.h>
#include <stdio.h>

#include "cli/live/stream.h"
#include "cli/report/json.h"
#include "cli/sweep/sweep_int.h"
#include "model/sweep.h"

/* The depths the knee and p99 doubling are read over: the points that
 * ran the same healthy targets and saw none fail, after the last failure
 * (or before the first, when the last depth saw one). */
static void curve(struct sweep *w)
{
	unsigned t, first = w->m, last = 0;
	bool any = false;

	w->lo = 0;
	w->hi = w->m;
	/* a point cut short is reported, not read for the curve */
	if (w->m && w->pt[w->m - 1].partial)
		w->hi = w->m - 1;
	for (t = 0; t < w->ts->n; t++) {
		/* one left out before the first point changes no point's set */
		if (!w->fl->why[t][0] || w->fl->at[t] == BEFORE_POINTS)
			continue;
		any = true;
		first = w->fl->at[t] < first ? w->fl->at[t] : first;
		last = w->fl->at[t] > last ? w->fl->at[t] : last;
	}
	if (!any)
		return;
	if (last + 1 < w->m)
		w->lo = last + 1;
	else
		w->hi = first;
}


/* The knee and the p99 doubling, then the JSON where asked: 0 or -EIO. */
int sweep_summary(struct sweep *w, FILE *f)
{
	const struct point *pt = w->pt;
	double iops[CLI_MAX_QDS], p99[CLI_MAX_QDS], best = 0;
	unsigned i, k;
	int knee = -1, dbl = -1;

	while (w->m < w->n && pt[w->m].done)
		w->m++;
	curve(w);
	for (k = 0, i = w->lo; i < w->hi; i++, k++) {
		iops[k] = pt[i].total.iops;
		p99[k] = pt[i].total.has_lat ? (double)pt[i].total.lat.p99 : -1;
		if (iops[k] > best)
			best = iops[k];
	}
	if (k) {
		knee = model_sweep_knee(iops, k);
		dbl = model_sweep_p99_double(p99, k);
		knee = knee >= 0 ? knee + (int)w->lo : -1;
		dbl = dbl >= 0 ? dbl + (int)w->lo : -1;
	}
	if (w->n && pt[0].rated)
		sweep_rate_summary(w, k, dbl, f);
	else
		sweep_depth_summary(w, k, knee, dbl, best, p99[0], f);
	fflush(f);
	if (!cli_out_report_wanted(w->o))
		return 0;
	/* cli_out_json says why it could not write the report */
	return cli_out_json(w->o->json, sweep_summary_json(w, knee, dbl), CLI_JSON_REPORT) ? -EIO : 0;
}
