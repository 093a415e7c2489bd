/* A window of merged streams as a cli_report (view.h). Every rate is a
 * device's IOs over the time its taken intervals cover, and the totals
 * add the devices' rates, as a run's report does (cli_report_total). */
#include "cli/merge/view.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report/out.h"

/* l is "NAME:DEV". */
static bool is_full(const char *l, const char *name, const char *dev)
{
	size_t n = strlen(name);

	return !strncmp(l, name, n) && l[n] == ':' && !strcmp(l + n + 1, dev);
}

bool mg_sel_takes(const struct mg_sel *sel, const struct mg_stream *s, const char *dev)
{
	bool host = !sel->nhost, take = !sel->ndev;
	unsigned i;

	for (i = 0; i < sel->nhost && !host; i++)
		host = !strcmp(sel->host[i], s->host) || !strcmp(sel->host[i], s->name);
	for (i = 0; i < sel->ndev && !take; i++)
		take = !strcmp(sel->dev[i], dev) || is_full(sel->dev[i], s->name, dev);
	return host && take;
}

static bool taken(const struct mg_set *set, const struct mg_sel *sel, const struct mg_acc *a)
{
	return a->nint && mg_sel_takes(sel, &set->s[a->stream], a->dev);
}

unsigned mg_runs(const struct mg_set *set, const struct mg_sel *sel, unsigned *runs,
		 unsigned max)
{
	unsigned i, k, n = 0, r;

	for (i = 0; i < set->nacc; i++) {
		if (!taken(set, sel, &set->acc[i]))
			continue;
		r = set->acc[i].run;
		for (k = 0; k < n && runs[k] < r; k++)
			;
		if ((k < n && runs[k] == r) || n == max)
			continue;
		memmove(&runs[k + 1], &runs[k], (n - k) * sizeof(*runs));
		runs[k] = r;
		n++;
	}
	return n;
}

static const char *label_of(const struct mg_set *set, unsigned run)
{
	unsigned i, k;

	for (i = 0; i < set->n; i++)
		for (k = 0; k < set->s[i].nwin; k++)
			if (set->s[i].win[k].run == run)
				return set->s[i].win[k].label;
	return "run";
}

static uint64_t wall_start(const struct mg_stream *s, unsigned run)
{
	unsigned k;

	for (k = 0; k < s->nwin; k++)
		if (s->win[k].run == run)
			return s->win[k].wall_start_ns;
	return 0;
}

/* The engine the stream's options say was used, as this build names it;
 * NULL: none said, or a name no engine has (it is printed). */
static const char *engine_of(const struct mg_stream *s)
{
	const json_t *o = json_object_get(s->header, "options");
	const char *e = json_string_value(json_object_get(o, "engine_used"));
	enum eng_backend b;

	e = e ? e : json_string_value(json_object_get(o, "engine"));
	for (b = ENG_BACKEND_AUTO; e && b <= ENG_BACKEND_URING_CMD; b++)
		if (!strcmp(e, eng_backend_name(b)))
			return eng_backend_name(b);
	return NULL;
}

/* An error slot from the end report's {"errno", "nvme_status"}; the
 * slot of an errno not known where there is none (streams carry counts
 * of errors, not their kinds). */
static int err_slot(const json_t *e)
{
	const json_t *no = json_object_get(e, "errno"), *st = json_object_get(e, "nvme_status");

	if (json_is_integer(no) && json_integer_value(no) >= 0 &&
	    json_integer_value(no) <= ENG_ERRNO_MAX)
		return (int)json_integer_value(no);
	if (json_is_integer(st) && json_integer_value(st) >= 0 &&
	    json_integer_value(st) < ENG_ERR_SLOTS - ENG_ERR_NVME)
		return ENG_ERR_NVME + (int)json_integer_value(st);
	return ENG_ERR_OTHER;
}

/* How d's errors failed: as the end report of the stream says of its
 * device (the whole run's), else not known; from the earliest interval
 * that had some. */
static void errs_of(struct cli_dev *d, const struct mg_acc *a, const struct mg_stream *s)
{
	const json_t *r = json_object_get(s->end, "report"), *x, *fe = NULL, *ce = NULL;
	size_t i;

	json_array_foreach(json_object_get(r, "devices"), i, x)
		if (json_is_string(json_object_get(x, "name")) &&
		    !strcmp(json_string_value(json_object_get(x, "name")), a->dev)) {
			fe = json_object_get(x, "first_error");
			ce = json_object_get(x, "most_common_error");
		}
	d->errs.first = err_slot(fe);
	d->errs.first_s = a->err_t0;
	d->errs.common = err_slot(ce);
	d->errs.common_count = json_is_integer(json_object_get(ce, "count")) && fe ?
			       (uint64_t)json_integer_value(json_object_get(ce, "count")) : a->errors;
}

/* Whether the stream says a's device stalled in a's window. */
static bool stalled(const struct mg_acc *a, const struct mg_stream *s)
{
	const json_t *e;
	size_t i;

	json_array_foreach(s->events, i, e) {
		const char *dev = json_string_value(json_object_get(e, "device"));
		const char *what = json_string_value(json_object_get(e, "what"));

		if (dev && what && !strcmp(dev, a->dev) && !strcmp(what, "stall") &&
		    json_integer_value(json_object_get(e, "run")) == (json_int_t)a->run)
			return true;
	}
	return false;
}

/* "A:B" (or B alone, a NULL) into buf for the table, each control
 * character as cli_put_escaped writes it; cut with a '~' where too long
 * (the JSON's hosts say the whole of it). 0 or -ENOMEM. */
static int shown(char *buf, size_t len, const char *a, const char *b)
{
	char *s = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&s, &n);

	if (!m)
		return -ENOMEM;
	if (a) {
		cli_put_escaped(a, m);
		fputc(':', m);
	}
	cli_put_escaped(b, m);
	if (fclose(m)) {
		free(s);
		return -ENOMEM;
	}
	if (snprintf(buf, len, "%s", s) >= (int)len)
		buf[len - 2] = '~';
	free(s);
	return 0;
}

/* The tick the stream's header states, seconds; 0 unknown. */
static double tick_of(const struct mg_stream *s)
{
	const json_t *t = json_object_get(s->header, "cpu_tick_ns");

	return json_is_integer(t) && json_integer_value(t) > 0 ?
	       (double)json_integer_value(t) / 1e9 : 0;
}

/* Device d from accumulator a of stream s; h: scratch. Its timeline is
 * a's, borrowed (mg_view_free gives it back). */
static int dev_of(struct cli_dev *d, const struct mg_acc *a, const struct mg_stream *s,
		  bool hosts, struct eng_hist *h)
{
	if (shown(d->name, sizeof(d->name), hosts ? s->name : NULL, a->dev))
		return -ENOMEM;
	d->engine = engine_of(s);
	d->ios = a->ios;
	d->bytes = a->bytes;
	d->errors = a->errors;
	d->elapsed_s = a->dur_s;
	d->user_s = (double)a->user_ns / 1e9;
	d->sys_s = (double)a->sys_ns / 1e9;
	d->cpu_s = (double)a->cpu_ns / 1e9;
	/* the split's resolution, as the stream's header states it: its
	 * intervals' parts add up (docs/json.md), so their sum is good to
	 * the same tick */
	d->tick_s = tick_of(s);
	d->cpu_ios = a->ios + a->errors;
	d->inflight_at_end = a->inflight;
	d->wall_start_ns = wall_start(s, a->run);
	if (d->wall_start_ns)
		d->wall_end_ns = d->wall_start_ns + (uint64_t)(a->t_hi * 1e9);
	cli_dev_rates(d);
	d->stalled = stalled(a, s);
	if (a->errors)
		errs_of(d, a, s);
	if (a->has_hist) {
		eng_hist_reset(h);
		mg_hist_into(h, &a->hist);
		cli_lat_from_hist(d, h);
	}
	d->tl.s = a->tl.s;
	d->tl.n = d->tl.cap = a->tl.n;
	return 0;
}

void mg_view_hist(const struct mg_view *v, bool host, unsigned i, struct eng_hist *h)
{
	unsigned k;

	eng_hist_reset(h);
	if (!host) {
		mg_hist_into(h, &v->acc[i]->hist);
		return;
	}
	for (k = 0; k < v->r.ndev; k++)
		if (v->acc[k]->stream == v->host[i].stream)
			mg_hist_into(h, &v->acc[k]->hist);
}

/* Host row i: its devices' rows added up; h: scratch. */
static int host_of(struct mg_view *v, unsigned i, const struct mg_stream *s, struct eng_hist *h)
{
	struct mg_host_row *row = &v->host[i];
	bool lat = false;
	unsigned k;

	if (shown(row->d.name, sizeof(row->d.name), NULL, s->name))
		return -ENOMEM;
	for (k = 0; k < v->r.ndev; k++) {
		const struct cli_dev *d = &v->r.dev[k];

		if (v->acc[k]->stream != row->stream)
			continue;
		row->ndev++;
		cli_dev_add_counters(&row->d, d);
		row->d.iops += d->iops;
		row->d.bw_bytes += d->bw_bytes;
		row->d.elapsed_s = d->elapsed_s > row->d.elapsed_s ? d->elapsed_s : row->d.elapsed_s;
		lat |= v->acc[k]->has_hist;
	}
	if (lat) {
		mg_view_hist(v, true, i, h);
		cli_lat_from_hist(&row->d, h);
	}
	return 0;
}

static int hosts_of(const struct mg_set *set, struct mg_view *v, struct eng_hist *h)
{
	unsigned i, k;
	int rc = 0;

	v->host = calloc(set->n ? set->n : 1, sizeof(*v->host));
	if (!v->host)
		return -ENOMEM;
	for (i = 0; i < set->n && !rc; i++) {
		for (k = 0; k < v->r.ndev && v->acc[k]->stream != i; k++)
			;
		if (k == v->r.ndev)
			continue;
		v->host[v->nhost].stream = i;
		rc = host_of(v, v->nhost++, &set->s[i], h);
	}
	return rc;
}

/* The total's histogram: every device's merged, as cli_report_total
 * would from the rows' own. */
static int total_hist(struct mg_view *v)
{
	struct cli_dev *t = &v->r.total;
	bool lat = false;
	unsigned i;

	for (i = 0; i < v->r.ndev; i++)
		lat |= v->acc[i]->has_hist;
	if (!lat)
		return 0;
	t->hist = malloc(sizeof(*t->hist));
	if (!t->hist)
		return -ENOMEM;
	eng_hist_reset(t->hist);
	for (i = 0; i < v->r.ndev; i++)
		mg_hist_into(t->hist, &v->acc[i]->hist);
	cli_lat_from_hist(t, t->hist);
	return 0;
}

/* How many streams hold a device sel takes in window run. */
static unsigned streams_in(const struct mg_set *set, const struct mg_sel *sel, unsigned run,
			   unsigned *ndev)
{
	unsigned i, k, n = 0;

	*ndev = 0;
	for (i = 0; i < set->n; i++) {
		bool has = false;

		for (k = 0; k < set->nacc; k++) {
			const struct mg_acc *a = &set->acc[k];

			if (a->stream == i && a->run == run && taken(set, sel, a)) {
				has = true;
				(*ndev)++;
			}
		}
		n += has;
	}
	return n;
}

static void span_of(struct mg_view *v, const struct mg_acc *a)
{
	v->t_lo = v->nint && v->t_lo < a->t_lo ? v->t_lo : a->t_lo;
	v->t_hi = v->nint && v->t_hi > a->t_hi ? v->t_hi : a->t_hi;
	v->nint += a->nint;
}

int mg_view_build(const struct mg_set *set, const struct mg_sel *sel, unsigned run,
		  const char *command, struct mg_view *v)
{
	struct eng_hist *h = malloc(sizeof(*h));
	unsigned i, n, ndev;
	bool hosts;
	int rc = 0;

	memset(v, 0, sizeof(*v));
	v->run = run;
	v->label = label_of(set, run);
	v->r.command = command;
	hosts = streams_in(set, sel, run, &ndev) > 1;
	v->r.dev = calloc(ndev ? ndev : 1, sizeof(*v->r.dev));
	v->acc = calloc(ndev ? ndev : 1, sizeof(*v->acc));
	if (!v->r.dev || !v->acc || !h)
		rc = -ENOMEM;
	for (i = 0, n = 0; !rc && i < set->nacc; i++) {
		const struct mg_acc *a = &set->acc[i];

		if (a->run != run || !taken(set, sel, a))
			continue;
		v->acc[n] = a;
		rc = dev_of(&v->r.dev[n++], a, &set->s[a->stream], hosts, h);
		v->r.ndev = n;
		span_of(v, a);
		if (v->r.dev[n - 1].elapsed_s > v->r.elapsed_s)
			v->r.elapsed_s = v->r.dev[n - 1].elapsed_s;
	}
	if (!rc) {
		v->r.engine = v->r.ndev ? v->r.dev[0].engine : NULL;
		rc = cli_report_total(&v->r);
	}
	if (!rc)
		rc = total_hist(v);
	if (!rc)
		rc = hosts_of(set, v, h);
	free(h);
	if (rc)
		cli_say("out of memory");
	return rc;
}

void mg_view_free(struct mg_view *v)
{
	unsigned i;

	/* the timelines are the set's */
	for (i = 0; v->r.dev && i < v->r.ndev; i++)
		memset(&v->r.dev[i].tl, 0, sizeof(v->r.dev[i].tl));
	free(v->host);
	free(v->acc);
	cli_report_free(&v->r);
	memset(v, 0, sizeof(*v));
}
