/* Reading a stream line by line (stream.h). Each line stands alone, so a
 * bad one is skipped and the rest still add up; only the header decides
 * whether the file is a stream at all. */
#include "cli/merge/stream.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/out/out.h"

/* A window edge compared with an interval's: t0/t1 are doubles written
 * with enough digits to round-trip, so only rounding in the user's value
 * is forgiven. */
#define MG_EPS 1e-9

static bool get_u64(const json_t *o, const char *key, uint64_t *v)
{
	const json_t *j = json_object_get(o, key);

	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return false;
	*v = (uint64_t)json_integer_value(j);
	return true;
}

static bool get_num(const json_t *o, const char *key, double *v)
{
	const json_t *j = json_object_get(o, key);

	if (!json_is_number(j))
		return false;
	*v = json_number_value(j);
	return isfinite(*v);
}

int mg_hist_parse(const json_t *j, struct eng_hist *h, char *why, size_t len)
{
	const json_t *b = json_object_get(j, "buckets"), *e;
	uint64_t lo, blo, bhi, c, total = 0;
	unsigned idx, prev = 0;
	size_t i;

	eng_hist_reset(h);
	if (!get_u64(j, "count", &h->count) || !get_u64(j, "sum_ns", &h->sum_ns) ||
	    !get_num(j, "sumsq", &h->sumsq) || !json_is_array(b)) {
		snprintf(why, len, "histogram without count, sum_ns, sumsq or buckets");
		return -EINVAL;
	}
	json_array_foreach(b, i, e) {
		if (!json_is_array(e) || json_array_size(e) != 2 ||
		    !json_is_integer(json_array_get(e, 0)) || !json_is_integer(json_array_get(e, 1)) ||
		    json_integer_value(json_array_get(e, 0)) < 0 ||
		    json_integer_value(json_array_get(e, 1)) < 0) {
			snprintf(why, len, "histogram bucket %zu is not [lo_ns, count]", i);
			return -EINVAL;
		}
		lo = (uint64_t)json_integer_value(json_array_get(e, 0));
		c = (uint64_t)json_integer_value(json_array_get(e, 1));
		idx = eng_hist_index(lo);
		eng_hist_bounds(idx, &blo, &bhi);
		if (blo != lo || (i && idx <= prev)) {
			snprintf(why, len, "histogram bucket %zu: %llu ns is %s", i,
				 (unsigned long long)lo, blo != lo ? "no bucket's lower bound" :
				 "out of order");
			return -EINVAL;
		}
		h->b[idx] = c;
		total += c;
		prev = idx;
	}
	if (total != h->count) {
		snprintf(why, len, "histogram buckets hold %llu IOs, its count says %llu",
			 (unsigned long long)total, (unsigned long long)h->count);
		return -EINVAL;
	}
	if (h->count && (!get_u64(j, "min_ns", &h->min_ns) || !get_u64(j, "max_ns", &h->max_ns))) {
		snprintf(why, len, "histogram without min_ns or max_ns");
		return -EINVAL;
	}
	return 0;
}

static int bad(struct mg_stream *s, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Says "FILE:LINE: why, skipped" and keeps it for the JSON. */
static int bad(struct mg_stream *s, unsigned line, const char *fmt, ...)
{
	char why[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	cli_say("%s:%u: %s, skipped", s->path, line, why);
	if (s->nbad < MG_MAX_BAD) {
		s->bad[s->nbad].line = line;
		snprintf(s->bad[s->nbad].why, sizeof(s->bad[0].why), "%s", why);
	}
	s->nbad++;
	return 0;
}

/* The accumulator of (stream, run, dev), made on first use; NULL: no
 * memory. */
static struct mg_acc *acc_of(struct mg_set *set, unsigned stream, unsigned run, const char *dev)
{
	struct mg_acc *a;
	unsigned i;

	for (i = set->nacc; i-- > 0;) {
		a = &set->acc[i];
		if (a->stream == stream && a->run == run && !strcmp(a->dev, dev))
			return a;
	}
	if (set->nacc == set->capacc) {
		unsigned cap = set->capacc ? 2 * set->capacc : 16;

		a = realloc(set->acc, cap * sizeof(*a));
		if (!a)
			return NULL;
		set->acc = a;
		set->capacc = cap;
	}
	a = &set->acc[set->nacc];
	memset(a, 0, sizeof(*a));
	a->hist = malloc(sizeof(*a->hist));
	if (!a->hist)
		return NULL;
	eng_hist_reset(a->hist);
	a->stream = stream;
	a->run = run;
	snprintf(a->dev, sizeof(a->dev), "%s", dev);
	set->nacc++;
	return a;
}

static int tl_add(struct cli_tl_series *tl, const struct cli_tl_sample *p)
{
	struct cli_tl_sample *s;

	if (tl->n == tl->cap) {
		unsigned cap = tl->cap ? 2 * tl->cap : 16;

		s = realloc(tl->s, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		tl->s = s;
		tl->cap = cap;
	}
	tl->s[tl->n++] = *p;
	return 0;
}

/* The interval's figures into its device's accumulator. */
static int take(struct mg_acc *a, const struct cli_tl_sample *p, uint64_t bytes,
		const uint64_t *cpu, uint64_t inflight, const struct eng_hist *h, double t0)
{
	a->t_lo = a->nint && a->t_lo < t0 ? a->t_lo : t0;
	a->t_hi = a->nint && a->t_hi > p->t_s ? a->t_hi : p->t_s;
	if (p->errors && (!a->errors || t0 < a->err_t0))
		a->err_t0 = t0;
	a->nint++;
	a->ios += p->ios;
	a->errors += p->errors;
	a->bytes += bytes;
	a->user_ns += cpu[0];
	a->sys_ns += cpu[1];
	a->inflight = inflight;
	a->dur_s += p->dt_s;
	if (h) {
		a->has_hist = true;
		eng_hist_merge(a->hist, h);
	}
	return tl_add(&a->tl, p);
}

static int interval(struct mg_set *set, struct mg_stream *s, unsigned line, const json_t *j,
		    const struct mg_span *span, struct eng_hist *h)
{
	const json_t *dev = json_object_get(j, "device"), *hj = json_object_get(j, "hist");
	struct cli_tl_sample p = { 0 };
	uint64_t run, bytes, inflight = 0, cpu[2] = { 0, 0 };
	double t0, t1;
	char why[128];
	struct mg_acc *a;

	if (!get_u64(j, "run", &run) || run > UINT32_MAX || !get_num(j, "t0", &t0) ||
	    !get_num(j, "t1", &t1) || t0 < 0 || t1 < t0 || !get_u64(j, "ios", &p.ios) ||
	    !get_u64(j, "bytes", &bytes) || !get_u64(j, "errors", &p.errors) ||
	    (!json_is_string(dev) && !json_is_null(dev)))
		return bad(s, line, "interval without run, device, t0, t1, ios, bytes or errors");
	if (!json_is_null(hj) && mg_hist_parse(hj, h, why, sizeof(why)))
		return bad(s, line, "%s", why);
	get_u64(j, "inflight", &inflight);
	get_u64(j, "user_ns", &cpu[0]);
	get_u64(j, "sys_ns", &cpu[1]);
	s->last_t1 = t1;
	s->last_run = (unsigned)run;
	/* the total's line: the devices' lines already hold its IOs, and a
	 * selection of devices needs them apart */
	if (json_is_null(dev) || t0 + MG_EPS < span->from_s ||
	    (span->to_s >= 0 && t1 > span->to_s + MG_EPS))
		return 0;
	a = acc_of(set, (unsigned)(s - set->s), (unsigned)run, json_string_value(dev));
	if (!a)
		return -ENOMEM;
	p.t_s = t1;
	p.dt_s = t1 - t0;
	p.iops = p.dt_s > 0 ? (double)p.ios / p.dt_s : 0;
	if (!json_is_null(hj) && h->count) {
		p.has_lat = true;
		p.mean_ns = eng_hist_mean(h);
		p.p50_ns = eng_hist_percentile(h, 50);
		p.p99_ns = eng_hist_percentile(h, 99);
		p.max_ns = h->max_ns;
	}
	return take(a, &p, bytes, cpu, inflight, json_is_null(hj) ? NULL : h, t0);
}

static int window(struct mg_stream *s, unsigned line, const json_t *j)
{
	const char *label = json_string_value(json_object_get(j, "label"));
	struct mg_window *w;
	uint64_t run, wall = 0;

	if (!get_u64(j, "run", &run) || run > UINT32_MAX)
		return bad(s, line, "window without run");
	get_u64(j, "wall_start_ns", &wall);
	w = realloc(s->win, (s->nwin + 1) * sizeof(*w));
	if (!w)
		return -ENOMEM;
	s->win = w;
	w = &w[s->nwin++];
	w->run = (unsigned)run;
	w->wall_start_ns = wall;
	snprintf(w->label, sizeof(w->label), "%s", label ? label : "run");
	return 0;
}

/* One line after the header. */
static int line_in(struct mg_set *set, struct mg_stream *s, unsigned line, const json_t *j,
		   const struct mg_span *span, struct eng_hist *h)
{
	const char *type = json_string_value(json_object_get(j, "type"));

	if (!type)
		return bad(s, line, "a line without \"type\"");
	if (!strcmp(type, "interval"))
		return interval(set, s, line, j, span, h);
	if (!strcmp(type, "window"))
		return window(s, line, j);
	if (!strcmp(type, "event"))
		return json_array_append(s->events, (json_t *)j) ? -ENOMEM : 0;
	if (!strcmp(type, "end")) {
		if (!json_is_string(json_object_get(j, "how")))
			return bad(s, line, "end line without \"how\"");
		json_decref(s->end);
		s->end = json_incref((json_t *)j);
		return 0;
	}
	if (!strcmp(type, "header"))
		return bad(s, line, "a second header");
	return 0;	/* a type of a later version: ignored, as unknown keys are */
}

/* The first line: ours, and histograms this build reads. */
static int header(struct mg_stream *s, const json_t *j)
{
	const json_t *hk = json_object_get(j, "hist");
	const char *schema = json_string_value(json_object_get(j, "schema"));
	const char *type = json_string_value(json_object_get(j, "type"));
	const char *host = json_string_value(json_object_get(j, "host"));
	const char *kind = json_string_value(json_object_get(hk, "kind"));
	uint64_t sub = 0, mexp = 0;

	if (!type || strcmp(type, "header") || !schema || strcmp(schema, MG_SCHEMA)) {
		cli_say("%s: not an iostorm stream (its first line is no header with \"schema\": \"%s\")",
			s->path, MG_SCHEMA);
		return -EINVAL;
	}
	s->command = json_string_value(json_object_get(j, "command"));
	if (!host || !s->command) {
		cli_say("%s:1: the header names no host or command", s->path);
		return -EINVAL;
	}
	if (!kind || strcmp(kind, "log-linear") || !get_u64(hk, "sub_bits", &sub) ||
	    !get_u64(hk, "max_exp", &mexp) || sub != ENG_HIST_SUB_BITS || mexp != ENG_HIST_MAX_EXP) {
		cli_say("%s:1: histograms of another kind than this iostorm's (log-linear, sub_bits %u, max_exp %u)",
			s->path, ENG_HIST_SUB_BITS, ENG_HIST_MAX_EXP);
		return -EINVAL;
	}
	snprintf(s->host, sizeof(s->host), "%s", host);
	s->header = json_incref((json_t *)j);
	return 0;
}

static int read_lines(struct mg_set *set, struct mg_stream *s, FILE *f,
		      const struct mg_span *span, struct eng_hist *h)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	json_error_t e;
	json_t *j;
	int rc = 0;

	while (!rc && (len = getline(&buf, &cap, f)) > 0) {
		bool whole = buf[len - 1] == '\n';

		s->lines++;
		j = json_loadb(buf, (size_t)len, 0, &e);
		if (!json_is_object(j) && !s->header) {
			cli_say("%s: not an iostorm stream (its first line is no header with \"schema\": \"%s\")",
				s->path, MG_SCHEMA);
			rc = -EINVAL;
		} else if (!json_is_object(j) && !whole) {
			s->cut_line = s->lines;
			cli_say("%s:%u: the last line is cut short, skipped", s->path, s->lines);
		} else if (!json_is_object(j)) {
			bad(s, s->lines, "not a JSON object (%s)", j ? "another JSON value" : e.text);
		} else {
			rc = s->header ? line_in(set, s, s->lines, j, span, h) : header(s, j);
		}
		json_decref(j);
	}
	if (!rc && ferror(f)) {
		rc = -EIO;
		cli_say("%s: cannot read: %s", s->path, strerror(EIO));
	}
	if (!rc && !s->header) {
		cli_say("%s: not an iostorm stream (empty)", s->path);
		rc = -EINVAL;
	}
	if (rc == -ENOMEM)
		cli_say("out of memory");
	free(buf);
	return rc;
}

int mg_stream_read(struct mg_set *set, const char *path, const struct mg_span *span)
{
	struct mg_stream *s;
	struct eng_hist *h = malloc(sizeof(*h));
	FILE *f = NULL;
	int rc = 0;

	s = realloc(set->s, (set->n + 1) * sizeof(*s));
	if (!s || !h) {
		free(h);
		if (s)
			set->s = s;
		cli_say("out of memory");
		return -ENOMEM;
	}
	set->s = s;
	s = &s[set->n++];
	memset(s, 0, sizeof(*s));
	s->path = path;
	s->events = json_array();
	f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	if (!f) {
		rc = -errno;
		cli_say("%s: cannot open: %s", path, strerror(errno));
	} else if (!s->events) {
		rc = -ENOMEM;
		cli_say("out of memory");
	} else {
		rc = read_lines(set, s, f, span, h);
	}
	if (f && f != stdin)
		fclose(f);
	free(h);
	return rc;
}

void mg_set_name(struct mg_set *set)
{
	const json_t *rank;
	unsigned i, k;
	bool dup;

	for (i = 0; i < set->n; i++) {
		struct mg_stream *s = &set->s[i];

		for (dup = false, k = 0; k < set->n && !dup; k++)
			dup = k != i && !strcmp(set->s[k].host, s->host);
		rank = json_object_get(s->header, "rank");
		if (!dup)
			snprintf(s->name, sizeof(s->name), "%s", s->host);
		else if (json_is_integer(rank))
			snprintf(s->name, sizeof(s->name), "%s#%lld", s->host,
				 (long long)json_integer_value(rank));
		else
			snprintf(s->name, sizeof(s->name), "%s#%u", s->host, i + 1);
	}
}

void mg_set_free(struct mg_set *set)
{
	unsigned i;

	for (i = 0; i < set->n; i++) {
		json_decref(set->s[i].header);
		json_decref(set->s[i].end);
		json_decref(set->s[i].events);
		free(set->s[i].win);
	}
	for (i = 0; i < set->nacc; i++) {
		free(set->acc[i].hist);
		free(set->acc[i].tl.s);
	}
	free(set->s);
	free(set->acc);
	memset(set, 0, sizeof(*set));
}
