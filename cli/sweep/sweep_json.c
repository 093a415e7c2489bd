/* sweep's JSON report (docs/json.md, "sweep"): its points, the targets
 * that failed, the closed-loop maximum of a sweep by load, and the
 * summary's knee and p99 doubling. */
#include <jansson.h>
#include <string.h>

#include "cli/report/drive_json.h"
#include "cli/report/json.h"
#include "cli/report/openloop.h"
#include "cli/report/setup_json.h"
#include "cli/report/spread.h"
#include "cli/runner/drive.h"
#include "cli/runner/targets.h"
#include "cli/slo/slo.h"
#include "cli/sweep/sweep_int.h"

/* The targets point i ran: those that had not failed before it. */
static json_t *point_devices(const struct cli_targets *ts, const struct failed *fl,
			     unsigned i)
{
	json_t *a = json_array();
	unsigned t;

	for (t = 0; a && t < ts->n; t++)
		if (!fl->why[t][0] || (fl->at[t] != BEFORE_POINTS && fl->at[t] >= i))
			json_array_append_new(a, json_string(ts->t[t].name));
	return a;
}

/* [{name, iops, p50_ns, p99_ns}] of the targets point p ran; latency null
 * without it. */
static json_t *by_device(const struct point *p)
{
	json_t *a = json_array();
	unsigned t;

	const struct cli_dev *d;

	for (t = 0; a && p->dev && t < p->ndev; t++) {
		d = &p->dev[t].d;
		json_array_append_new(a, json_pack("{s:s, s:f, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			"name", d->name, "iops", d->iops,
			"p50_ns", d->has_lat ? json_integer((json_int_t)d->lat.p50) : json_null(),
			"p99_ns", d->has_lat ? json_integer((json_int_t)d->lat.p99) : json_null(),
			"p50_ns_ci", d->has_lat ? cli_json_ci(&d->lat.ci[0]) : json_null(),
			"p99_ns_ci", d->has_lat ? cli_json_ci(&d->lat.ci[2]) : json_null(),
			"repeats", cli_json_repeats(d),
			"asked_iops", d->open.on ? json_real(d->open.asked) : json_null(),
			"cpu", cli_json_cpu(d)));
	}
	return a;
}

static json_t *points_json(const struct point *pt, unsigned n,
			   const struct cli_targets *ts, const struct failed *fl)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < n && pt[i].done; i++) {
		json_t *x = json_pack("{s:I, s:b, s:f, s:f, s:o, s:I, s:I, s:I, s:f, s:o, s:o, s:o, s:o}",
						   "qd", (json_int_t)pt[i].qd,
						   "interrupted", pt[i].partial,
						   "iops", pt[i].total.iops, "bw_bytes", pt[i].total.bw_bytes,
						   "lat_ns", cli_json_lat(&pt[i].total),
						   "ios", (json_int_t)pt[i].total.ios,
						   "errors", (json_int_t)pt[i].total.errors,
						   "calls", (json_int_t)pt[i].total.calls,
						   "ios_per_call", pt[i].total.ios_per_call,
						   "devices", point_devices(ts, fl, i),
						   "by_device", by_device(&pt[i]),
						   "timeline", cli_json_timeline(&pt[i].total.tl),
						   "repeats", cli_json_repeats(&pt[i].total));

		if (x) {
			json_object_set_new(x, "load_pct", pt[i].rated && pt[i].load_pct >= 0 ?
					    json_real(pt[i].load_pct) : json_null());
			json_object_set_new(x, "asked_iops", pt[i].rated ?
					    json_real(pt[i].total.open.asked) : json_null());
			json_object_set_new(x, "open_loop", cli_open_json(&pt[i].total));
			json_object_set_new(x, "cpu", cli_json_cpu(&pt[i].total));
		}
		json_array_append_new(a, x);
	}
	return a;
}

/* [{name, why}] of the targets that failed, in target order. */
static json_t *failed_json(const struct cli_targets *ts, const struct failed *fl)
{
	json_t *a = json_array();
	unsigned t;

	for (t = 0; a && t < ts->n; t++)
		if (fl->why[t][0])
			json_array_append_new(a, json_pack("{s:s, s:s}", "name", ts->t[t].name,
							   "why", fl->why[t]));
	return a;
}

/* {qd, by_device: [{name, iops}]}: the closed-loop maximum a sweep by
 * load is a share of; null otherwise. */
static json_t *max_json(const struct sweep *w)
{
	json_t *a;
	unsigned t;

	if (!w->has_max)
		return json_null();
	a = json_array();
	for (t = 0; a && t < w->ts->n; t++)
		json_array_append_new(a, json_pack("{s:s, s:f}", "name", w->ts->t[t].name,
						   "iops", w->max[t]));
	return json_pack("{s:I, s:o}", "qd", (json_int_t)w->o->qd, "by_device", a);
}

/* What each target's drive said of the sweep: [{"name", "drive"}]. */
static json_t *drives_json(const struct sweep *w)
{
	json_t *a = json_array();
	unsigned t;

	for (t = 0; a && t < w->ts->n; t++) {
		if (json_array_append_new(a, json_pack("{s:s, s:o}", "name", w->ts->t[t].name,
						       "drive", cli_json_drive(cli_drive_find(w->ts->t[t].path))))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

json_t *sweep_summary_json(const struct sweep *w, int knee, int dbl)
{
	const struct point *pt = w->pt;
	const char *paths[CLI_MAX_TARGETS];
	struct cli_report meta;

	memset(&meta, 0, sizeof(meta));
	meta.command = "sweep";
	meta.engine = pt[0].total.engine;
	meta.mode = w->o->mode;
	for (unsigned i = 0; i < w->m; i++)
		meta.unfixed_bufs |= pt[i].unfixed;
	for (unsigned i = 0; i < w->ts->n; i++)
		paths[i] = w->ts->t[i].path;
	bool rated = w->n && pt[0].rated;

	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:s, s:o, s:o, s:o, s:o, s:o,"
			 " s:o}",
			 "schema", CLI_JSON_SCHEMA, "command", "sweep",
			 "config", cli_json_config(w->o, &meta),
			 "points", points_json(pt, w->m, w->ts, w->fl),
			 "failed", failed_json(w->ts, w->fl),
			 "knee_qd", knee >= 0 && !rated ? json_integer(pt[knee].qd) : json_null(),
			 "p99_double_qd", dbl >= 0 && !rated ? json_integer(pt[dbl].qd) : json_null(),
			 "interrupted", w->interrupted,
			 "setup", cli_json_setup(paths, w->ts->n),
			 "by", rated ? "rate" : "qd",
			 "max", max_json(w),
			 "p99_double_load_pct", dbl >= 0 && rated && pt[dbl].load_pct >= 0 ?
				json_real(pt[dbl].load_pct) : json_null(),
			 "p99_double_asked_iops", dbl >= 0 && rated ?
				json_real(pt[dbl].total.open.asked) : json_null(),
			 "drives", drives_json(w), "slo", json_null(),
			 "placement_notes", cli_json_place_notes(w->place_notes));
}

/* sweep --slo's report: the sweep's own fields, its points empty, the
 * closed-loop maximum and the searches under "slo". */
json_t *sweep_slo_json(const struct sweep *w, const struct cli_slo *sl)
{
	const char *paths[CLI_MAX_TARGETS];
	struct cli_report meta;

	memset(&meta, 0, sizeof(meta));
	meta.command = "sweep";
	meta.engine = "io_uring";	/* an open loop runs on io_uring only */
	meta.mode = w->o->mode;
	for (unsigned i = 0; i < w->ts->n; i++)
		paths[i] = w->ts->t[i].path;
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:s, s:o, s:o, s:o, s:o, s:o,"
			 " s:o}",
			 "schema", CLI_JSON_SCHEMA, "command", "sweep",
			 "config", cli_json_config(w->o, &meta),
			 "points", json_array(),
			 "failed", failed_json(w->ts, w->fl),
			 "knee_qd", json_null(), "p99_double_qd", json_null(),
			 "interrupted", w->interrupted,
			 "setup", cli_json_setup(paths, w->ts->n),
			 "by", "slo",
			 "max", max_json(w),
			 "p99_double_load_pct", json_null(),
			 "p99_double_asked_iops", json_null(),
			 "drives", drives_json(w),
			 "slo", cli_slo_json(sl),
			 "placement_notes", cli_json_place_notes(w->place_notes));
}
