/* The report as JSON through jansson: every figure of the table, and every
 * option, so a result file says how it was obtained. */
#include "cli/report/json.h"
#include "cli/report/drive_json.h"
#include "cli/report/drop.h"
#include "cli/runner/steady.h"
#include "cli/runner/temp.h"
#include "cli/report/openloop.h"
#include "cli/report/setup_json.h"
#include "cli/report/spread.h"
#include "cli/words/notes_words.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static json_int_t ji(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? (json_int_t)INT64_MAX : (json_int_t)v;
}

/* [[pct, ns], ...] at fixed percentiles, from the merged histogram, so a
 * plot can draw the distribution; NULL when out of memory. */
static json_t *lat_cdf(const struct eng_hist *h)
{
	static const double pct[] = { 0.1, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.5,
				      99.9, 99.95, 99.99, 99.999 };
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < sizeof(pct) / sizeof(pct[0]); i++) {
		if (json_array_append_new(a, json_pack("[f, I]", pct[i],
						       ji(eng_hist_percentile(h, pct[i]))))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* [[ns, count], ...]: how many IOs took longer than each of a few
 * thresholds, from the histogram's buckets (within its 1%), so a tail, a
 * stall's IOs, can be counted rather than read off a percentile. */
static json_t *lat_above(const struct eng_hist *h)
{
	static const uint64_t ns[] = { 100000, 1000000, 10000000, 100000000, 1000000000 };
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < sizeof(ns) / sizeof(ns[0]); i++) {
		if (json_array_append_new(a, json_pack("[I, I]", ji(ns[i]),
						       ji(eng_hist_count_from(h, ns[i]))))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

json_t *cli_json_lat(const struct cli_dev *d)
{
	return cli_json_lat_of(&d->lat, d->has_lat, d->hist);
}

json_t *cli_json_ci(const struct model_pct_ci *c)
{
	if (!c->ios)
		return json_null();
	return json_pack("[o, o]", c->has_lo ? json_integer((json_int_t)c->lo) : json_null(),
			 c->has_hi ? json_integer((json_int_t)c->hi) : json_null());
}

json_t *cli_json_lat_of(const struct cli_lat *l, bool has, const struct eng_hist *h)
{
	char key[32];
	json_t *j;
	unsigned k;

	if (!has)
		return json_null();
	j = json_pack("{s:f, s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
		      "mean", l->mean, "stddev", l->stddev, "min", ji(l->min),
		      "p50", ji(l->p50), "p90", ji(l->p90), "p99", ji(l->p99),
		      "p99.9", ji(l->p999), "p99.99", ji(l->p9999),
		      "max", ji(l->max));
	if (j) {
		json_object_set_new(j, "ios", json_integer(ji(l->ios)));
		json_object_set_new(j, "ci_batches", json_integer((json_int_t)l->ci_batches));
	}
	for (k = 0; j && k < MODEL_PCT_N; k++) {
		snprintf(key, sizeof(key), "%s_ci", model_pct_keys[k]);
		json_object_set_new(j, key, cli_json_ci(&l->ci[k]));
	}
	if (j && h) {
		json_object_set_new(j, "cdf", lat_cdf(h));
		json_object_set_new(j, "above", lat_above(h));
	}
	return j;
}

static json_t *cpus_array(const int *cpus, unsigned n)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < n; i++) {
		if (json_array_append_new(a, json_integer(cpus[i]))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *targets_array(const struct cli_opts *o)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < o->ntargets; i++) {
		if (json_array_append_new(a, json_string(o->targets[i]))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static const char *backend_str(enum eng_backend b)
{
	return b == ENG_BACKEND_AUTO ? "auto" : eng_backend_name(b);
}

/* io_uring reads into registered buffers unless RLIMIT_MEMLOCK refused
 * them; libaio has none; nop reads nothing. */
static json_t *fixed_buffers(const struct cli_report *r)
{
	if (!r->engine || (r->command && !strcmp(r->command, "nop")))
		return json_null();
	return json_boolean((!strcmp(r->engine, "io_uring") || !strcmp(r->engine, "io_uring_cmd")) &&
			    !r->unfixed_bufs);
}

json_t *cli_json_config(const struct cli_opts *o, const struct cli_report *r)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:s, s:s, s:s, s:s?, s:o, s:f, s:f, s:I,"
			 " s:I, s:I, s:o, s:s, s:s, s:b, s:I, s:I, s:b, s:I, s:o, s:I, s:b, s:I, s:s, s:o,"
			 " s:o, s:f, s:o, s:b}",
			 "bs", (json_int_t)o->bs, "qd", (json_int_t)o->qd,
			 "batch", (json_int_t)o->batch, "reap", (json_int_t)o->reap,
			 "engine", backend_str(o->backend),
			 "completion", o->mode_auto ? "auto" : eng_mode_name(o->mode),
			 "completion_used", eng_mode_name(r->mode),
			 "engine_used", r->engine,
			 "fixed_buffers", fixed_buffers(r),
			 "time_s", cli_secs(o->time_ns),
			 "ramp_s", cli_secs(o->ramp_ns),
			 "ios", ji(o->ios),
			 "jobs_per_device", (json_int_t)o->jobs_per_device,
			 "jobs", (json_int_t)o->jobs,
			 "cpus", o->ncpus ? cpus_array(o->cpus, o->ncpus) : json_null(),
			 "placement", topo_policy_name(o->placement),
			 "group", cli_group_name(o->group),
			 "buffered", o->buffered,
			 "range_off", ji(o->range_off), "range_len", ji(o->range_len),
			 "latency", o->latency, "seed", ji(o->seed),
			 "targets", targets_array(o),
			 "repeat", (json_int_t)(o->repeat ? o->repeat : 1),
			 "repeat_auto", o->repeat_auto,
			 "rate", ji(o->rate), "arrival", cli_arrival_name(o->arrival),
			 "steady", !o->steady_pct ? json_null() :
			 json_pack("{s:f, s:I, s:b}", "pct", o->steady_pct,
				   "window_s", (json_int_t)cli_steady_window(o), "lat", o->steady_lat),
			 "temperature_every_s", o->temp_every_ns ?
			 json_integer((json_int_t)(o->temp_every_ns / CLI_NS_PER_S)) : json_null(),
			 "interval_s", cli_secs(o->interval_ns),
			 "reap_wait_us", o->reap_wait_ns ?
			 json_integer((json_int_t)(o->reap_wait_ns / 1000)) : json_null(),
			 "no_iowait", o->no_iowait);
}

/* An error slot (engine.h) as an errno, null for an NVMe status... */
static json_t *err_errno(int slot)
{
	return slot >= ENG_ERR_NVME ? json_null() : json_integer(slot);
}

/* ...and as an NVMe status (SCT << 8 | SC), null for an errno. */
static json_t *err_nvme(int slot)
{
	return slot >= ENG_ERR_NVME ? json_integer(slot - ENG_ERR_NVME) : json_null();
}

/* {"errno", "nvme_status", "name", "text", "at_s"}, or null without
 * errors. */
/* (ios + errors) / calls; null where IOs were done but no call was
 * counted (a report merged from streams, which carry no calls) */
static json_t *ios_per_call(const struct cli_dev *d)
{
	if (!d->calls && d->ios + d->errors)
		return json_null();
	return json_real(d->ios_per_call);
}

static json_t *first_error(const struct cli_dev *d)
{
	const struct cli_errs *e = &d->errs;

	if (!d->errors)
		return json_null();
	return json_pack("{s:o, s:o, s:s, s:s, s:f}", "errno", err_errno(e->first),
			 "nvme_status", err_nvme(e->first), "name", cli_errno_name(e->first),
			 "text", cli_errno_text(e->first), "at_s", e->first_s);
}

/* {"errno", "nvme_status", "name", "count"}, or null without errors. */
static json_t *most_common_error(const struct cli_dev *d)
{
	const struct cli_errs *e = &d->errs;

	if (!d->errors)
		return json_null();
	return json_pack("{s:o, s:o, s:s, s:I}", "errno", err_errno(e->common),
			 "nvme_status", err_nvme(e->common), "name", cli_errno_name(e->common),
			 "count", ji(e->common_count));
}

json_t *cli_json_timeline(const struct cli_tl_series *tl)
{
	json_t *a = json_array(), *x;
	const struct cli_tl_sample *p;
	unsigned i;

	for (i = 0; a && i < tl->n; i++) {
		p = &tl->s[i];
		x = json_pack("{s:f, s:f, s:I, s:I, s:f}", "t_s", p->t_s, "dt_s", p->dt_s,
			      "ios", ji(p->ios), "errors", ji(p->errors), "iops", p->iops);
		if (x && p->has_lat) {
			json_object_set_new(x, "mean_ns", json_real(p->mean_ns));
			json_object_set_new(x, "p50_ns", json_integer((json_int_t)p->p50_ns));
			json_object_set_new(x, "p99_ns", json_integer((json_int_t)p->p99_ns));
			json_object_set_new(x, "p50_ns_ci", cli_json_ci(&p->p50_ci));
			json_object_set_new(x, "p99_ns_ci", cli_json_ci(&p->p99_ci));
			json_object_set_new(x, "max_ns", json_integer((json_int_t)p->max_ns));
		} else if (x) {
			json_object_set_new(x, "mean_ns", json_null());
			json_object_set_new(x, "p50_ns", json_null());
			json_object_set_new(x, "p99_ns", json_null());
			json_object_set_new(x, "p50_ns_ci", json_null());
			json_object_set_new(x, "p99_ns_ci", json_null());
			json_object_set_new(x, "max_ns", json_null());
		}
		if (x)
			json_object_set_new(x, "temp_c", p->has_temp ? json_integer(p->temp_c) :
					    json_null());
		if (json_array_append_new(a, x)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* A cost figure: null where it cannot be worked out (no IO, no CPU). */
static json_t *cost_num(double v)
{
	return model_cost_known(v) ? json_real(v) : json_null();
}

static json_t *pct_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* What else the workers' CPUs did (record.h, struct cli_noise); null
 * where nothing of it was measured. */
static json_t *noise_json(const struct cli_noise *n)
{
	struct cli_noise_pct p;

	if (!n->known && !n->delay_known)
		return json_null();
	cli_noise_pct(n, &p);
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:o}", "steal_pct", pct_num(p.steal),
			 "other_cpu_pct", pct_num(p.other), "irq_pct", pct_num(p.irq),
			 "resolution_pct", pct_num(p.res),
			 "run_delay_pct", pct_num(p.run_delay),
			 "run_delay_s", n->delay_known ? json_real(n->delay_s) : json_null(),
			 "involuntary_switches", ji(n->nivcsw),
			 "cpu", n->known && n->cpu >= 0 ? json_integer(n->cpu) : json_null());
}

/* A part of the split: null below its tick (record.h, cli_cpu_below). */
static json_t *split_num(double v, double tick_s)
{
	return cli_cpu_below(v, tick_s) ? json_null() : json_real(v);
}

json_t *cli_json_cpu(const struct cli_dev *d)
{
	struct model_cost c;

	cli_dev_cost(d, &c);
	return json_pack("{s:f, s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "time_s", d->cpu_s, "user_s", split_num(d->user_s, d->tick_s),
			 "sys_s", split_num(d->sys_s, d->tick_s),
			 "tick_s", d->tick_s > 0 ? json_real(d->tick_s) : json_null(),
			 "ios", ji(d->cpu_ios),
			 "ns_per_io", d->cpu_ios ? json_real(1e9 * d->cpu_s / (double)d->cpu_ios) :
				      json_null(),
			 "user_ns_per_io", cost_num(c.user_ns_per_io),
			 "sys_ns_per_io", cost_num(c.sys_ns_per_io),
			 "ios_per_cpu_s", cost_num(c.ios_per_cpu_s),
			 "user_share", cost_num(c.user_share),
			 "noise", noise_json(&d->noise));
}

json_t *cli_json_dev(const struct cli_dev *d)
{
	return json_pack("{s:s, s:s, s:f, s:f, s:I, s:I, s:o, s:o, s:I, s:o,"
			 " s:o, s:o, s:s?, s:o, s:I, s:f, s:b, s:I, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "name", d->name, "path", d->path, "iops", d->iops,
			 "bw_bytes", d->bw_bytes, "ios", ji(d->ios),
			 "errors", ji(d->errors), "first_error", first_error(d),
			 "most_common_error", most_common_error(d), "calls", ji(d->calls),
			 "lat_ns", cli_json_lat(d),
			 "cpu", cli_json_cpu(d),
			 "ios_per_call", ios_per_call(d), "engine", d->engine,
			 "cpus", cpus_array(d->cpus, d->cpus ? d->nworkers : 0),
			 "devices_per_worker", (json_int_t)(d->devices_per_worker ? d->devices_per_worker : 1),
			 "elapsed_s", d->elapsed_s, "stalled", d->stalled,
			 "inflight_at_end", ji(d->inflight_at_end),
			 "stopped_by", d->fatal ? json_string(cli_errno_name(d->fatal)) : json_null(),
			 "timeline", cli_json_timeline(&d->tl),
			 "drop", cli_drop_json(d),
			 "repeats", cli_json_repeats(d),
			 "open_loop", cli_open_json(d),
			 "drive", cli_json_drive(d->path[0] ? cli_drive_find(d->path) : NULL));
}

static json_t *devices_array(const struct cli_report *r)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < r->ndev; i++) {
		if (json_array_append_new(a, cli_json_dev(&r->dev[i]))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

json_t *cli_json_place_notes(const struct topo_notes *n)
{
	json_t *a;
	char text[TOPO_NOTE_LEN];
	unsigned i;

	if (!n || !(a = json_array()))
		return json_null();
	for (i = 0; i < n->n; i++) {
		cli_note_text(&n->note[i], text, sizeof(text));
		json_array_append_new(a, json_pack("{s:s, s:s, s:s}",
			"kind", cli_note_kind_name(n->note[i].kind), "device", n->note[i].name,
			"text", text));
	}
	return json_pack("{s:o, s:I}", "notes", a, "dropped", (json_int_t)n->ndropped);
}

/* The report, its devices in place or (head) an empty array standing
 * for them. */
static json_t *report(const struct cli_report *r, const struct cli_opts *o, bool head)
{
	const struct cli_dev *t = &r->total;
	json_t *j;

	j = json_pack("{s:s, s:s, s:o, s:o, s:{s:f, s:f, s:I, s:I, s:I, s:o,"
			 " s:o, s:o, s:o, s:f, s:o, s:o}, s:f, s:b, s:o}",
			 "schema", CLI_JSON_SCHEMA, "command", r->command,
			 "config", cli_json_config(o, r),
			 "devices", head ? json_array() : devices_array(r),
			 "total", "iops", t->iops, "bw_bytes", t->bw_bytes,
			 "ios", ji(t->ios), "errors", ji(t->errors),
			 "calls", ji(t->calls), "lat_ns", cli_json_lat(t),
			 "cpu", cli_json_cpu(t),
			 "ios_per_call", ios_per_call(t), "timeline", cli_json_timeline(&t->tl),
			 "elapsed_s", t->elapsed_s, "repeats", cli_json_repeats(t),
			 "open_loop", cli_open_json(t),
			 "elapsed_s", r->elapsed_s, "interrupted", r->interrupted,
			 "setup", cli_json_setup((const char *const *)o->targets, o->ntargets));
	if (j && (json_object_set_new(j, "steady", cli_steady_json(&r->steady)) ||
		  json_object_set_new(j, "temperature", cli_temp_json(r)) ||
		  json_object_set_new(j, "placement_notes", cli_json_place_notes(r->place_notes)))) {
		json_decref(j);
		j = NULL;
	}
	return j;
}

json_t *cli_json_report(const struct cli_report *r, const struct cli_opts *o)
{
	return report(r, o, false);
}

json_t *cli_json_report_head(const struct cli_report *r, const struct cli_opts *o)
{
	return report(r, o, true);
}

json_t *cli_open_json(const struct cli_dev *d)
{
	const struct cli_open *op = &d->open;

	if (!op->on)
		return json_null();
	return json_pack("{s:f, s:f, s:b, s:I, s:f, s:I, s:I, s:I, s:f, s:o}",
			 "asked_iops", op->asked, "achieved_iops", d->iops,
			 "overloaded", cli_open_overloaded(d),
			 "late", (json_int_t)op->late, "late_share", cli_open_late_share(d),
			 "late_after_ns", (json_int_t)ENG_RATE_LATE_NS,
			 "backlog", (json_int_t)op->backlog,
			 "dropped", (json_int_t)op->dropped,
			 "mean_inflight", cli_open_depth(d),
			 "service_lat_ns", cli_json_lat_of(&op->svc, op->has_svc, op->svc_hist));
}
