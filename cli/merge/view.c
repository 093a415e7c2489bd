/* A window of merged streams as a cli_report (view.h). Every rate is a
 * device's IOs over the time its taken intervals cover, and the totals
 * add the devices' rates, as a run's report does (cli_report_total). */
#include "cli/merge/view.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/out/out.h"

static bool in_list(char *const *l, unsigned n, const char *a, const char *b)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (!strcmp(l[i], a) || (b && !strcmp(l[i], b)))
			return true;
	return false;
}

bool mg_sel_takes(const struct mg_sel *sel, const struct mg_stream *s, const char *dev)
{
	char full[MG_HOST_LEN + MG_NAME_LEN + 2];

	snprintf(full, sizeof(full), "%s:%s", s->name, dev);
	return (!sel->nhost || in_list(sel->host, sel->nhost, s->host, s->name)) &&
	       (!sel->ndev || in_list(sel->dev, sel->ndev, dev, full));
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

/* The engine the stream's options say was used; NULL: none said. */
static const char *engine_of(const struct mg_stream *s)
{
	const json_t *o = json_object_get(s->header, "options");
	const char *e = json_string_value(json_object_get(o, "engine_used"));

	return e ? e : json_string_value(json_object_get(o, "engine"));
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

/* Device d from accumulator a of stream s. */
static int dev_of(struct cli_dev *d, const struct mg_acc *a, const struct mg_stream *s,
		  bool hosts)
{
	/* a name too long is cut: the JSON's hosts say the whole of it */
	if (snprintf(d->name, sizeof(d->name), "%s%s%s", hosts ? s->name : "", hosts ? ":" : "",
		     a->dev) >= (int)sizeof(d->name))
		d->name[sizeof(d->name) - 2] = '~';
	d->engine = engine_of(s);
	d->ios = a->ios;
	d->bytes = a->bytes;
	d->errors = a->errors;
	d->elapsed_s = a->dur_s;
	d->user_s = (double)a->user_ns / 1e9;
	d->sys_s = (double)a->sys_ns / 1e9;
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
		d->hist = malloc(sizeof(*d->hist));
		if (!d->hist)
			return -ENOMEM;
		*d->hist = *a->hist;
		cli_lat_from_hist(d, d->hist);
	}
	if (a->tl.n) {
		d->tl.s = malloc(a->tl.n * sizeof(*d->tl.s));
		if (!d->tl.s)
			return -ENOMEM;
		memcpy(d->tl.s, a->tl.s, a->tl.n * sizeof(*d->tl.s));
		d->tl.n = d->tl.cap = a->tl.n;
	}
	return 0;
}

/* Host row h: its devices' rows added up. */
static int host_of(struct mg_host_row *h, const struct cli_report *r, const unsigned *owner,
		   const struct mg_stream *s)
{
	unsigned i;

	if (snprintf(h->d.name, sizeof(h->d.name), "%s", s->name) >= (int)sizeof(h->d.name))
		h->d.name[sizeof(h->d.name) - 2] = '~';
	for (i = 0; i < r->ndev; i++) {
		const struct cli_dev *d = &r->dev[i];

		if (owner[i] != h->stream)
			continue;
		h->ndev++;
		cli_dev_add_counters(&h->d, d);
		h->d.iops += d->iops;
		h->d.bw_bytes += d->bw_bytes;
		h->d.elapsed_s = d->elapsed_s > h->d.elapsed_s ? d->elapsed_s : h->d.elapsed_s;
		if (!d->hist)
			continue;
		if (!h->d.hist) {
			h->d.hist = malloc(sizeof(*h->d.hist));
			if (!h->d.hist)
				return -ENOMEM;
			eng_hist_reset(h->d.hist);
		}
		eng_hist_merge(h->d.hist, d->hist);
	}
	cli_lat_from_hist(&h->d, h->d.hist);
	return 0;
}

static int hosts_of(const struct mg_set *set, struct mg_view *v, const unsigned *owner)
{
	unsigned i, k;
	int rc = 0;

	v->host = calloc(set->n ? set->n : 1, sizeof(*v->host));
	if (!v->host)
		return -ENOMEM;
	for (i = 0; i < set->n && !rc; i++) {
		for (k = 0; k < v->r.ndev && owner[k] != i; k++)
			;
		if (k == v->r.ndev)
			continue;
		v->host[v->nhost].stream = i;
		rc = host_of(&v->host[v->nhost++], &v->r, owner, &set->s[i]);
	}
	return rc;
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
	unsigned i, n, ndev, *owner = NULL;
	bool hosts;
	int rc = 0;

	memset(v, 0, sizeof(*v));
	v->run = run;
	v->label = label_of(set, run);
	v->r.command = command;
	hosts = streams_in(set, sel, run, &ndev) > 1;
	v->r.dev = calloc(ndev ? ndev : 1, sizeof(*v->r.dev));
	owner = calloc(ndev ? ndev : 1, sizeof(*owner));
	if (!v->r.dev || !owner)
		rc = -ENOMEM;
	for (i = 0, n = 0; !rc && i < set->nacc; i++) {
		const struct mg_acc *a = &set->acc[i];

		if (a->run != run || !taken(set, sel, a))
			continue;
		owner[n] = a->stream;
		rc = dev_of(&v->r.dev[n++], a, &set->s[a->stream], hosts);
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
		rc = hosts_of(set, v, owner);
	free(owner);
	if (rc)
		cli_say("out of memory");
	return rc;
}

void mg_view_free(struct mg_view *v)
{
	unsigned i;

	for (i = 0; i < v->nhost; i++)
		free(v->host[i].d.hist);
	free(v->host);
	cli_report_free(&v->r);
	memset(v, 0, sizeof(*v));
}
