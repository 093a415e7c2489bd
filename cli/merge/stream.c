/* Reading a stream line by line (stream.h). Each line stands alone, so a
 * bad one is skipped and the rest still add up; only the header decides
 * whether the file is a stream at all. A line is read into a buffer of at
 * most MG_LINE_MAX bytes, so no input, /dev/zero included, takes more. */
#include "cli/merge/stream.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/report/out.h"

/* A window edge compared with an interval's: t0/t1 are doubles written
 * with enough digits to round-trip, so only rounding in the user's value
 * is forgiven. */
#define MG_EPS 1e-9
/* What a sum may reach: JSON's integers (jansson's json_int_t). */
#define MG_SUM_MAX ((uint64_t)INT64_MAX)

/* key of o as a count (an integer, 0 or more) into v. Absent or null:
 * true where the key may be left out (v untouched), else false with why
 * filled; anything else false with why filled. */
static bool count_of(const json_t *o, const char *key, bool need, uint64_t *v, char *why,
		     size_t len)
{
	const json_t *j = json_object_get(o, key);

	if (!j || json_is_null(j)) {
		if (need)
			snprintf(why, len, "no \"%s\"", key);
		return !need;
	}
	if (!json_is_integer(j) || json_integer_value(j) < 0) {
		snprintf(why, len, "\"%s\" is not a count (an integer, 0 or more)", key);
		return false;
	}
	*v = (uint64_t)json_integer_value(j);
	return true;
}

/* key of o as a finite number in [0, max] into v, or false with why. */
static bool num_of(const json_t *o, const char *key, double max, double *v, char *why,
		   size_t len)
{
	const json_t *j = json_object_get(o, key);

	if (!json_is_number(j)) {
		snprintf(why, len, "no \"%s\" (a number)", key);
		return false;
	}
	*v = json_number_value(j);
	if (!isfinite(*v) || *v < 0 || *v > max) {
		if (isinf(max))
			snprintf(why, len, "\"%s\" is %g, not 0 or more", key, *v);
		else
			snprintf(why, len, "\"%s\" is %g, not within 0 to %g", key, *v, max);
		return false;
	}
	return true;
}

/* The figures beside the buckets: each a count, min and max where there
 * is an IO, and what one measurement can have (min <= max, the mean
 * between them). */
static bool hist_figures(const json_t *j, struct mg_hist *h, char *why, size_t len)
{
	uint64_t lo, hi;

	if (!count_of(j, "count", true, &h->count, why, len) ||
	    !count_of(j, "sum_ns", true, &h->sum_ns, why, len) ||
	    !num_of(j, "sumsq", INFINITY, &h->sumsq, why, len))
		return false;
	if (!h->count)
		return true;
	if (!count_of(j, "min_ns", true, &h->min_ns, why, len) ||
	    !count_of(j, "max_ns", true, &h->max_ns, why, len))
		return false;
	if (h->min_ns > h->max_ns) {
		snprintf(why, len, "histogram min_ns %llu above its max_ns %llu",
			 (unsigned long long)h->min_ns, (unsigned long long)h->max_ns);
		return false;
	}
	/* count * min <= sum_ns <= count * max, where the product fits */
	if ((!__builtin_mul_overflow(h->count, h->min_ns, &lo) && h->sum_ns < lo) ||
	    (!__builtin_mul_overflow(h->count, h->max_ns, &hi) && h->sum_ns > hi)) {
		snprintf(why, len, "histogram sum_ns %llu is not between count times min_ns and times max_ns",
			 (unsigned long long)h->sum_ns);
		return false;
	}
	return true;
}

/* [lo_ns, count] e, the i-th of the line, into h: a lower bound of a
 * bucket above the previous one. */
static int hist_bucket(const json_t *e, size_t i, struct mg_hist *h, uint64_t *total, char *why,
		       size_t len)
{
	const json_t *l = json_array_get(e, 0), *c = json_array_get(e, 1);
	uint64_t lo, blo, bhi;
	unsigned idx;

	if (!json_is_array(e) || json_array_size(e) != 2 || !json_is_integer(l) ||
	    !json_is_integer(c) || json_integer_value(l) < 0 || json_integer_value(c) < 0) {
		snprintf(why, len, "histogram bucket %zu is not [lo_ns, count] of two counts", i);
		return -EINVAL;
	}
	lo = (uint64_t)json_integer_value(l);
	idx = eng_hist_index(lo);
	eng_hist_bounds(idx, &blo, &bhi);
	if (blo != lo || (h->len && idx <= h->idx[h->len - 1])) {
		snprintf(why, len, "histogram bucket %zu: %llu ns is %s", i, (unsigned long long)lo,
			 blo != lo ? "no bucket's lower bound" : "out of order");
		return -EINVAL;
	}
	if (__builtin_add_overflow(*total, (uint64_t)json_integer_value(c), total) ||
	    *total > MG_SUM_MAX) {
		snprintf(why, len, "histogram buckets hold more than 2^63 - 1 IOs");
		return -EINVAL;
	}
	return mg_hist_push(h, idx, (uint64_t)json_integer_value(c));
}

int mg_hist_parse(const json_t *j, struct mg_hist *h, char *why, size_t len)
{
	const json_t *b = json_object_get(j, "buckets"), *e;
	uint64_t total = 0, lo, hi;
	size_t i;
	int rc;

	mg_hist_clear(h);
	if (!json_is_array(b)) {
		snprintf(why, len, "histogram without buckets");
		return -EINVAL;
	}
	if (!hist_figures(j, h, why, len))
		return -EINVAL;
	json_array_foreach(b, i, e)
		if ((rc = hist_bucket(e, i, h, &total, why, len)))
			return rc;
	if (total != h->count) {
		snprintf(why, len, "histogram buckets hold %llu IOs, its count says %llu",
			 (unsigned long long)total, (unsigned long long)h->count);
		return -EINVAL;
	}
	if (!h->count) {
		h->min_ns = UINT64_MAX;
		h->max_ns = 0;
		return 0;
	}
	/* the extremes lie in the lowest and the highest bucket (an interval's
	 * too: eng_hist_diff takes them from those buckets' bounds) */
	eng_hist_bounds(h->idx[0], &lo, &hi);
	if (h->min_ns < lo || h->min_ns > hi) {
		snprintf(why, len, "histogram min_ns %llu is not in its lowest bucket",
			 (unsigned long long)h->min_ns);
		return -EINVAL;
	}
	eng_hist_bounds(h->idx[h->len - 1], &lo, &hi);
	if (h->max_ns < lo || h->max_ns > hi) {
		snprintf(why, len, "histogram max_ns %llu is not in its highest bucket",
			 (unsigned long long)h->max_ns);
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
 * memory. Found through set->index: "STREAM/RUN" holds an object of the
 * window's devices, each its acc's place. */
static struct mg_acc *acc_of(struct mg_set *set, unsigned stream, unsigned run, const char *dev)
{
	json_t *devs, *at;
	struct mg_acc *a;
	char key[32];

	snprintf(key, sizeof(key), "%u/%u", stream, run);
	if (!set->index && !(set->index = json_object()))
		return NULL;
	devs = json_object_get(set->index, key);
	if (!devs && (json_object_set_new(set->index, key, json_object()) ||
		      !(devs = json_object_get(set->index, key))))
		return NULL;
	at = json_object_get(devs, dev);
	if (at)
		return &set->acc[json_integer_value(at)];
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
	mg_hist_init(&a->hist);
	a->dev = strdup(dev);
	if (!a->dev || json_object_set_new(devs, dev, json_integer(set->nacc))) {
		free(a->dev);
		return NULL;
	}
	a->stream = stream;
	a->run = run;
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

/* An interval line's own figures. */
struct figs {
	uint64_t run, ios, bytes, errors, inflight, user_ns, sys_ns, cpu_ns;
	double t0, t1;
	const struct mg_hist *h;	/* NULL: "hist" null */
};

/* sum + add into sum, false where it would pass MG_SUM_MAX. */
static bool add_to(uint64_t *sum, uint64_t add)
{
	uint64_t v;

	if (__builtin_add_overflow(*sum, add, &v) || v > MG_SUM_MAX)
		return false;
	*sum = v;
	return true;
}

/* f added to the streams' sums, or the name of the figure that would
 * pass what a report can hold (the sums unchanged then). */
static const char *add_sums(struct mg_sums *sum, const struct figs *f)
{
	struct mg_sums n = *sum;

	if (!add_to(&n.ios, f->ios))
		return "ios";
	if (!add_to(&n.bytes, f->bytes))
		return "bytes";
	if (!add_to(&n.errors, f->errors))
		return "errors";
	if (!add_to(&n.user_ns, f->user_ns))
		return "user_ns";
	if (!add_to(&n.sys_ns, f->sys_ns))
		return "sys_ns";
	if (!add_to(&n.cpu_ns, f->cpu_ns))
		return "cpu_ns";
	if (f->h && !add_to(&n.lat_count, f->h->count))
		return "hist.count";
	if (f->h && !add_to(&n.lat_sum_ns, f->h->sum_ns))
		return "hist.sum_ns";
	n.lat_sumsq += f->h ? f->h->sumsq : 0;
	n.dur_s += f->t1 - f->t0;
	if (!isfinite(n.lat_sumsq) || n.lat_sumsq > 0x1p1000)
		return "hist.sumsq";
	*sum = n;
	return NULL;
}

/* The interval's figures into its device's accumulator. */
static int take(struct mg_acc *a, const struct cli_tl_sample *p, const struct figs *f)
{
	int rc = f->h ? mg_hist_add(&a->hist, f->h) : 0;

	if (rc)
		return rc;
	a->t_lo = a->nint && a->t_lo < f->t0 ? a->t_lo : f->t0;
	a->t_hi = a->nint && a->t_hi > f->t1 ? a->t_hi : f->t1;
	if (f->errors && (!a->errors || f->t0 < a->err_t0))
		a->err_t0 = f->t0;
	a->nint++;
	a->ios += f->ios;
	a->errors += f->errors;
	a->bytes += f->bytes;
	a->user_ns += f->user_ns;
	a->sys_ns += f->sys_ns;
	a->cpu_ns += f->cpu_ns;
	a->inflight = f->inflight;
	a->dur_s += p->dt_s;
	a->has_hist |= f->h != NULL;
	return tl_add(&a->tl, p);
}

/* The line's counts and times into f, or false with why: every count an
 * integer of 0 or more, 0 <= t0 <= t1 <= MG_MAX_T_S, and an interval
 * that holds IOs lasting some time (its rate would be infinite). */
static bool figs_of(const json_t *j, struct figs *f, char *why, size_t len)
{
	const json_t *dev = json_object_get(j, "device");

	if (!count_of(j, "run", true, &f->run, why, len) ||
	    !num_of(j, "t0", MG_MAX_T_S, &f->t0, why, len) ||
	    !num_of(j, "t1", MG_MAX_T_S, &f->t1, why, len) ||
	    !count_of(j, "ios", true, &f->ios, why, len) ||
	    !count_of(j, "bytes", true, &f->bytes, why, len) ||
	    !count_of(j, "errors", true, &f->errors, why, len) ||
	    !count_of(j, "inflight", false, &f->inflight, why, len) ||
	    !count_of(j, "user_ns", false, &f->user_ns, why, len) ||
	    !count_of(j, "sys_ns", false, &f->sys_ns, why, len))
		return false;
	/* a stream from before the exact total: its split's sum stands */
	f->cpu_ns = f->user_ns + f->sys_ns;
	if (!count_of(j, "cpu_ns", false, &f->cpu_ns, why, len))
		return false;
	if (f->run > UINT32_MAX) {
		snprintf(why, len, "\"run\" %llu is over %u", (unsigned long long)f->run, UINT32_MAX);
		return false;
	}
	if (!json_is_string(dev) && !json_is_null(dev)) {
		snprintf(why, len, "\"device\" is neither a name nor null");
		return false;
	}
	if (f->t1 < f->t0) {
		snprintf(why, len, "t1 %g is before t0 %g", f->t1, f->t0);
		return false;
	}
	return true;
}

static int interval(struct mg_set *set, struct mg_stream *s, unsigned line, const json_t *j,
		    const struct mg_span *span, struct mg_hist *h, struct eng_hist *dense)
{
	const json_t *dev = json_object_get(j, "device"), *hj = json_object_get(j, "hist");
	struct figs f = { 0 };
	struct cli_tl_sample p = { 0 };
	const char *over;
	char why[160];
	struct mg_acc *a;
	int rc;

	if (!figs_of(j, &f, why, sizeof(why)))
		return bad(s, line, "%s", why);
	if (!hj)
		return bad(s, line, "no \"hist\" (a histogram or null)");
	if (!json_is_null(hj) && (rc = mg_hist_parse(hj, h, why, sizeof(why))))
		return rc == -EINVAL ? bad(s, line, "%s", why) : rc;
	f.h = json_is_null(hj) ? NULL : h;
	/* a window's last interval ends where its workers stopped, by their
	 * clocks, never before its t0 (cli/report/timeline.c): it may be empty
	 * of time, rarely, and hold the IOs done after the last copy */
	if (f.t1 <= f.t0 && (f.ios || f.errors || (f.h && f.h->count)) &&
	    !json_is_true(json_object_get(j, "last")))
		return bad(s, line, "%llu IOs in no time (t0 = t1 = %g)",
			   (unsigned long long)(f.ios + f.errors), f.t0);
	s->last_t1 = f.t1;
	s->last_run = (unsigned)f.run;
	/* the total's line: the devices' lines already hold its IOs, and a
	 * selection of devices needs them apart */
	if (json_is_null(dev) || f.t0 + MG_EPS < span->from_s ||
	    (span->to_s >= 0 && f.t1 > span->to_s + MG_EPS))
		return 0;
	if ((over = add_sums(&set->sum, &f)))
		return bad(s, line, "its %s would take the streams' sum past 2^63 - 1", over);
	a = acc_of(set, (unsigned)(s - set->s), (unsigned)f.run, json_string_value(dev));
	if (!a)
		return -ENOMEM;
	p.t_s = f.t1;
	p.dt_s = f.t1 - f.t0;
	p.ios = f.ios;
	p.errors = f.errors;
	p.iops = p.dt_s > 0 ? (double)p.ios / p.dt_s : 0;
	if (f.h && f.h->count) {
		eng_hist_reset(dense);
		mg_hist_into(dense, f.h);
		p.has_lat = true;
		p.mean_ns = eng_hist_mean(dense);
		p.p50_ns = eng_hist_percentile(dense, 50);
		p.p99_ns = eng_hist_percentile(dense, 99);
		p.max_ns = dense->max_ns;
	}
	return take(a, &p, &f);
}

static int window(struct mg_stream *s, unsigned line, const json_t *j)
{
	const char *label = json_string_value(json_object_get(j, "label"));
	struct mg_window *w;
	uint64_t run, wall = 0;
	char why[160];

	if (!count_of(j, "run", true, &run, why, sizeof(why)) ||
	    !count_of(j, "wall_start_ns", false, &wall, why, sizeof(why)))
		return bad(s, line, "window: %s", why);
	if (run > UINT32_MAX)
		return bad(s, line, "window: \"run\" %llu is over %u", (unsigned long long)run,
			   UINT32_MAX);
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
		   const struct mg_span *span, struct mg_hist *h, struct eng_hist *dense)
{
	const char *type = json_string_value(json_object_get(j, "type"));

	if (!type)
		return bad(s, line, "a line without \"type\"");
	if (!strcmp(type, "interval"))
		return interval(set, s, line, j, span, h, dense);
	if (!strcmp(type, "window"))
		return window(s, line, j);
	if (!strcmp(type, "event"))
		return json_array_append(s->events, (json_t *)j) ? -ENOMEM : 0;
	if (!strcmp(type, "end")) {
		if (!json_is_string(json_object_get(j, "how")))
			return bad(s, line, "end line without \"how\"");
		json_decref(s->end);
		s->end = json_incref((json_t *)j);
		s->end_cut = false;
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
	char why[160];

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
	if (!kind || strcmp(kind, "log-linear") || !count_of(hk, "sub_bits", true, &sub, why, 1) ||
	    !count_of(hk, "max_exp", true, &mexp, why, 1) || sub != ENG_HIST_SUB_BITS ||
	    mexp != ENG_HIST_MAX_EXP) {
		cli_say("%s:1: histograms of another kind than this iostorm's (log-linear, sub_bits %u, max_exp %u)",
			s->path, ENG_HIST_SUB_BITS, ENG_HIST_MAX_EXP);
		return -EINVAL;
	}
	snprintf(s->host, sizeof(s->host), "%s", host);
	s->header = json_incref((json_t *)j);
	return 0;
}

/* A line as read: its first MG_LINE_MAX bytes, and its whole length. */
struct line {
	char *buf;
	size_t len, cap;
	uint64_t total;
	bool whole;		/* it ends in a newline */
};

/* The next line of f into l, of which at most MG_LINE_MAX bytes are
 * kept. With first, reading stops one byte past MG_LINE_MAX (a header
 * is never that long: /dev/zero is no stream); otherwise the rest of a
 * longer line is read and dropped. 1: a line; 0: the end of the file;
 * -ENOMEM; or the read's -errno. */
static int next_line(FILE *f, struct line *l, bool first)
{
	char *b;
	int c;

	l->len = 0;
	l->total = 0;
	l->whole = false;
	errno = 0;
	while ((c = getc_unlocked(f)) != EOF) {
		if (l->len < MG_LINE_MAX) {
			if (l->len == l->cap) {
				b = realloc(l->buf, l->cap ? 2 * l->cap : 4096);
				if (!b)
					return -ENOMEM;
				l->buf = b;
				l->cap = l->cap ? 2 * l->cap : 4096;
			}
			l->buf[l->len++] = (char)c;
		}
		l->total++;
		if (c == '\n') {
			l->whole = true;
			return 1;
		}
		if (first && l->total > MG_LINE_MAX)
			return 1;
	}
	if (ferror(f))
		return errno ? -errno : -EIO;
	return l->total ? 1 : 0;
}

/* Whether json_loadb gave no j for want of memory, no fault of the
 * line's: jansson's parser returns NULL without a word where an
 * allocation fails (src/load.c: parse_object, parse_array), and says
 * every fault of the text. */
static bool no_memory(const json_t *j, const json_error_t *e)
{
	return !j && (json_error_code(e) == json_error_out_of_memory || !e->text[0]);
}

/* An end line over MG_LINE_MAX: iostorm writes its "report" after "how"
 * and "exit" (cli/live/stream.c), so the object up to the report, closed,
 * is read for them. Anything else that long is a bad line. */
static int long_line(struct mg_stream *s, struct line *l)
{
	static const char tail[] = ",\"report\":";
	static const char head[] = "{\"type\":\"end\",";
	const char *at = memmem(l->buf, l->len, tail, sizeof(tail) - 1);
	json_error_t e;
	json_t *j = NULL;

	if (l->len > sizeof(head) && !memcmp(l->buf, head, sizeof(head) - 1) && at) {
		l->buf[at - l->buf] = '}';
		j = json_loadb(l->buf, (size_t)(at - l->buf) + 1, 0, &e);
		if (no_memory(j, &e))
			return -ENOMEM;
	}
	if (!json_is_string(json_object_get(j, "how"))) {
		json_decref(j);
		return bad(s, s->lines, "a line of %llu bytes, over the %u MiB a line may hold",
			   (unsigned long long)l->total, MG_LINE_MAX >> 20);
	}
	cli_say("%s:%u: the end line is over %u MiB: how the command ended is read, its report left out",
		s->path, s->lines, MG_LINE_MAX >> 20);
	json_decref(s->end);
	s->end = j;
	s->end_cut = true;
	return 0;
}

static int one_line(struct mg_set *set, struct mg_stream *s, const struct line *l,
		    const struct mg_span *span, struct mg_hist *h, struct eng_hist *dense)
{
	json_error_t e;
	json_t *j = json_loadb(l->buf, l->len, 0, &e);
	int rc = 0;

	if (no_memory(j, &e))
		return -ENOMEM;
	if (!json_is_object(j) && !s->header) {
		cli_say("%s: not an iostorm stream (its first line is no header with \"schema\": \"%s\")",
			s->path, MG_SCHEMA);
		rc = -EINVAL;
	} else if (!json_is_object(j) && !l->whole) {
		s->cut_line = s->lines;
		cli_say("%s:%u: the last line is cut short, skipped", s->path, s->lines);
	} else if (!json_is_object(j)) {
		bad(s, s->lines, "not a JSON object (%s)", j ? "another JSON value" : e.text);
	} else {
		rc = s->header ? line_in(set, s, s->lines, j, span, h, dense) : header(s, j);
	}
	json_decref(j);
	return rc;
}

static int read_lines(struct mg_set *set, struct mg_stream *s, FILE *f,
		      const struct mg_span *span, struct mg_hist *h, struct eng_hist *dense)
{
	struct line l = { 0 };
	int rc = 0, got;

	while (!rc && (got = next_line(f, &l, !s->header)) > 0) {
		s->lines++;
		if (l.total <= MG_LINE_MAX) {
			rc = one_line(set, s, &l, span, h, dense);
		} else if (!s->header) {
			cli_say("%s: not an iostorm stream (its first line is over %u MiB)", s->path,
				MG_LINE_MAX >> 20);
			rc = -EINVAL;
		} else if (!l.whole) {
			s->cut_line = s->lines;
			cli_say("%s:%u: the last line is cut short, skipped", s->path, s->lines);
		} else {
			rc = long_line(s, &l);
		}
	}
	if (!rc && got < 0) {
		rc = got;
		if (rc != -ENOMEM)
			cli_say("%s: cannot read: %s", s->path, strerror(-rc));
	}
	if (!rc && !s->header) {
		cli_say("%s: not an iostorm stream (empty)", s->path);
		rc = -EINVAL;
	}
	if (rc == -ENOMEM)
		cli_say("out of memory");
	free(l.buf);
	return rc;
}

/* A stream named by path, opened; NULL with rc said. */
static FILE *open_stream(const char *path, int *rc)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	struct stat st;

	if (!f) {
		*rc = -errno;
		cli_say("%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		cli_say("%s: a directory, not a stream", path);
		if (f != stdin)
			fclose(f);
		*rc = -EISDIR;
		return NULL;
	}
	return f;
}

int mg_stream_read(struct mg_set *set, const char *path, const struct mg_span *span)
{
	struct mg_stream *s;
	struct eng_hist *dense = malloc(sizeof(*dense));
	struct mg_hist h;
	FILE *f = NULL;
	int rc = 0;

	mg_hist_init(&h);
	s = realloc(set->s, (set->n + 1) * sizeof(*s));
	if (!s || !dense) {
		free(dense);
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
	if (!s->events) {
		rc = -ENOMEM;
		cli_say("out of memory");
	} else if ((f = open_stream(path, &rc))) {
		rc = read_lines(set, s, f, span, &h, dense);
	}
	if (f && f != stdin)
		fclose(f);
	mg_hist_free(&h);
	free(dense);
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
		free(set->acc[i].dev);
		mg_hist_free(&set->acc[i].hist);
		free(set->acc[i].tl.s);
	}
	json_decref(set->index);
	free(set->s);
	free(set->acc);
	memset(set, 0, sizeof(*set));
}
