/* merge's own lines and JSON keys (merge_out.h). */
#include "cli/merge/merge_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report/hosts.h"
#include "cli/report/json.h"
#include "cli/report/out.h"

static double secs_or(uint64_t ns, bool set)
{
	return set ? cli_secs(ns) : -1;
}

void mg_print_head(FILE *f, const struct mg_set *set, const struct mg_view *v,
		   const struct cli_opts *o)
{
	fprintf(f, "merge: run %u (\"", v->run);
	cli_put_escaped(v->label, f);
	fprintf(f, "\") of %u stream%s, %u host%s: %u intervals from %.3fs to %.3fs of the window",
		set->n, set->n == 1 ? "" : "s", v->nhost, v->nhost == 1 ? "" : "s",
		v->nint, v->t_lo, v->t_hi);
	if (o->merge_from_ns || o->merge_to_set) {
		fprintf(f, " (asked %.3fs to ", cli_secs(o->merge_from_ns));
		if (o->merge_to_set)
			fprintf(f, "%.3fs)", cli_secs(o->merge_to_ns));
		else
			fprintf(f, "the end)");
	}
	fputc('\n', f);
}

void mg_print_hosts(FILE *f, const struct mg_view *v, const struct mg_set *set)
{
	unsigned i, marks = 0;

	(void)set;
	cli_hosts_head(f);
	for (i = 0; i < v->nhost; i++)
		cli_hosts_row(f, v->host[i].d.name, v->host[i].ndev, &v->host[i].d, &marks);
	cli_hosts_row(f, "cluster", v->r.ndev, &v->r.total, &marks);
	cli_hosts_merged_line(f, v->r.total.ios, marks);
	fprintf(f, "IOPS: each device's IOs over the time its intervals cover, added\n");
	if (mg_start_spread(v) >= 0)
		fprintf(f, "windows: the hosts' started within %.2f ms of each other (by their clocks); each is reported from its own start\n",
			1e3 * mg_start_spread(v));
}

double mg_start_spread(const struct mg_view *v)
{
	uint64_t lo = 0, hi = 0, w;
	unsigned i, n = 0;

	for (i = 0; i < v->r.ndev; i++) {
		w = v->r.dev[i].wall_start_ns;
		if (!w)
			continue;
		lo = n && lo < w ? lo : w;
		hi = n && hi > w ? hi : w;
		n++;
	}
	return n < 2 ? -1 : (double)(hi - lo) / 1e9;
}

/* The stream's events (a device that stalled, failed or went away), a
 * line each, as the run said them. */
static void say_events(const struct mg_stream *s)
{
	const json_t *e;
	size_t i;

	json_array_foreach(s->events, i, e) {
		const char *dev = json_string_value(json_object_get(e, "device"));
		const char *what = json_string_value(json_object_get(e, "what"));
		const char *text = json_string_value(json_object_get(e, "text"));
		const json_t *t = json_object_get(e, "t");

		cli_say("%s: %s%s%s at %.2fs of run %lld: %s", s->name, dev ? dev : "", dev ? " " : "",
			what ? what : "event", json_is_number(t) ? json_number_value(t) : 0.0,
			(long long)json_integer_value(json_object_get(e, "run")), text ? text : "");
	}
}

void mg_say_ends(const struct mg_set *set)
{
	const struct mg_stream *s;
	const char *how;
	unsigned i;

	for (i = 0; i < set->n; i++) {
		s = &set->s[i];
		how = json_string_value(json_object_get(s->end, "how"));
		if (!s->end)
			cli_say("%s: stream ends at t=%.3fs of run %u, cut short (no end line)",
				s->name, s->last_t1, s->last_run);
		else if (strcmp(how, "completed"))
			cli_say("%s: the command ended %s (exit %lld)", s->name, how,
				(long long)json_integer_value(json_object_get(s->end, "exit")));
		if (s->nbad)
			cli_say("%s: %u bad line%s skipped: the report leaves their intervals out",
				s->path, s->nbad, s->nbad == 1 ? "" : "s");
		say_events(s);
	}
}

static json_t *bad_json(const struct mg_stream *s)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < s->nbad && i < MG_MAX_BAD; i++)
		json_array_append_new(a, json_pack("{s:I, s:s}", "line", (json_int_t)s->bad[i].line,
						   "why", s->bad[i].why));
	return a;
}

static json_t *stream_json(const struct mg_stream *s)
{
	const json_t *h = s->header;
	json_t *end = s->end ? json_pack("{s:O, s:O}", "how", json_object_get(s->end, "how"),
					  "exit", json_object_get(s->end, "exit") ?
					  json_object_get(s->end, "exit") : json_null()) : json_null();

	return json_pack("{s:s, s:s, s:s, s:O, s:s, s:O, s:O, s:O, s:o, s:s, s:f, s:I,"
			 " s:I, s:I, s:o, s:o, s:O}",
			 "file", s->path, "host", s->host, "name", s->name,
			 "rank", json_object_get(h, "rank") ? json_object_get(h, "rank") : json_null(),
			 "command", s->command,
			 "version", json_object_get(h, "version") ? json_object_get(h, "version") : json_null(),
			 "setup", json_object_get(h, "setup") ? json_object_get(h, "setup") : json_null(),
			 "options", json_object_get(h, "options") ? json_object_get(h, "options") : json_null(),
			 "end", end, "ended", s->end ? json_string_value(json_object_get(s->end, "how")) :
			 "cut short",
			 "last_t_s", s->last_t1, "last_run", (json_int_t)s->last_run,
			 "lines", (json_int_t)s->lines, "bad_lines", (json_int_t)s->nbad,
			 "bad", bad_json(s),
			 "cut_line", s->cut_line ? json_integer(s->cut_line) : json_null(),
			 "events", s->events);
}

/* A row per host; hist: scratch for each one's merged histogram. */
static json_t *hosts_json(const struct mg_set *set, const struct mg_view *v,
			  struct eng_hist *hist)
{
	json_t *a = hist ? json_array() : NULL;
	unsigned i;

	for (i = 0; a && i < v->nhost; i++) {
		const struct mg_host_row *h = &v->host[i];
		const struct mg_stream *s = &set->s[h->stream];

		mg_view_hist(v, true, i, hist);
		if (json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:I, s:f, s:f, s:I, s:I, s:o}",
			"name", s->name, "host", s->host, "file", s->path, "devices", (json_int_t)h->ndev,
			"iops", h->d.iops, "bw_bytes", h->d.bw_bytes, "ios", (json_int_t)h->d.ios,
			"errors", (json_int_t)h->d.errors,
			"lat_ns", cli_json_lat_of(&h->d.lat, h->d.has_lat, hist)))) {
			json_decref(a);
			a = NULL;
		}
	}
	return a;
}

static json_t *list_json(char *const *l, unsigned n)
{
	json_t *a = n ? json_array() : json_null();
	unsigned i;

	for (i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(l[i]));
	return a;
}

json_t *mg_json_extra(const struct mg_set *set, const struct mg_view *v, const struct cli_opts *o,
		      const struct mg_sel *s, const unsigned *runs, unsigned nruns)
{
	const json_t *h = v->nhost ? set->s[v->host[0].stream].header : set->s[0].header;
	const json_t *cfg = json_object_get(h, "options"), *setup = json_object_get(h, "setup");
	json_t *streams = json_array(), *ra = json_array(), *sel, *j;
	double to = secs_or(o->merge_to_ns, o->merge_to_set), spread = mg_start_spread(v);
	struct eng_hist *hist = malloc(sizeof(*hist));
	unsigned i;

	for (i = 0; streams && i < set->n; i++)
		json_array_append_new(streams, stream_json(&set->s[i]));
	for (i = 0; ra && i < nruns; i++)
		json_array_append_new(ra, json_integer(runs[i]));
	sel = json_pack("{s:o, s:o}", "devices", list_json(s->dev, s->ndev),
			"hosts", list_json(s->host, s->nhost));
	j = json_pack("{s:O, s:O, s:o, s:{s:o, s:I, s:s, s:o, s:{s:f, s:o, s:f, s:f, s:I, s:o}, s:o}}",
			 "config", cfg ? cfg : json_null(), "setup", setup ? setup : json_null(),
			 "hosts", hosts_json(set, v, hist),
			 "merge", "streams", streams, "run", (json_int_t)v->run, "label", v->label,
			 "runs", ra,
			 "window", "from_s", cli_secs(o->merge_from_ns),
			 "to_s", to < 0 ? json_null() : json_real(to),
			 "covered_from_s", v->t_lo, "covered_to_s", v->t_hi,
			 "intervals", (json_int_t)v->nint,
			 "start_spread_s", spread < 0 ? json_null() : json_real(spread),
			 "selected", sel);
	free(hist);
	return j;
}

/* Device i's JSON, made as the report is written (cli_out_json_rows), so
 * that 20,000 devices never stand as a tree together: its lat_ns with
 * the "cdf" and "above" run's JSON takes from a row's histogram, which a
 * view's rows do not hold (view.h): expanded into one scratch. */
struct dev_rows {
	const struct mg_view *v;
	struct eng_hist *h;
};

static json_t *dev_row(size_t i, void *ctx)
{
	const struct dev_rows *x = ctx;
	const struct cli_dev *d = &x->v->r.dev[i];
	json_t *j = cli_json_dev(d);

	if (j && d->has_lat) {
		mg_view_hist(x->v, false, (unsigned)i, x->h);
		if (json_object_set_new(j, "lat_ns", cli_json_lat_of(&d->lat, d->has_lat, x->h))) {
			json_decref(j);
			j = NULL;
		}
	}
	return j;
}

int mg_report_output(const struct mg_view *v, const struct cli_opts *o, json_t *extra)
{
	int errs = cli_report_print(&v->r, o);
	struct dev_rows x = { .v = v };
	struct cli_json_rows rows = { "devices", v->r.ndev, dev_row, &x };
	json_t *j;
	int rc;

	if (!o->json)
		return errs;
	x.h = malloc(sizeof(*x.h));
	j = x.h ? cli_json_report_head(&v->r, o) : NULL;
	if (j && json_object_update(j, extra)) {
		json_decref(j);
		j = NULL;
	}
	/* cli_out_json_rows says why it could not write the report */
	rc = cli_out_json_rows(o->json, j, CLI_JSON_REPORT, &rows);
	free(x.h);
	return rc ? -EIO : errs;
}
