/* iostorm merge's reader and its arithmetic (cli/merge/): streams built
 * here from known synthetic histograms, in the stream format's own shape
 * (docs/json.md, iostorm-stream/1), read back and merged. Merging every
 * interval gives the very histogram of every sample (so the same
 * percentiles), two halves (--to T, --from T) add up to the whole, two
 * hosts give the sum with a row each, a cut last line and a corrupt line
 * in the middle are named by line and skipped, the selections take what
 * they name, and what is not a stream is refused.
 * `test_merge --write DIR` writes the streams that tests/t_merge.sh reads
 * (tests/fixtures/streams/), whose end line carries the truth's figures. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/merge/stream.h"
#include "cli/merge/view.h"
#include "engine/hist.h"
#include "tests/helpers.h"

#define NINT 10			/* intervals of a window */

struct gdev {
	const char *name;
	struct eng_hist truth;		/* every sample of the window */
	struct eng_hist part[NINT];	/* each interval's */
	uint64_t errors[NINT];
};

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A few dozen latencies per interval, 20 to 215 us with a rare tail to
 * 5 ms, so lines stay short and percentiles have something to find. */
static void gen_dev(struct gdev *d, const char *name, uint64_t seed, unsigned nint)
{
	unsigned i, k, n;
	uint64_t ns;

	rng_state = seed;
	d->name = name;
	eng_hist_reset(&d->truth);
	for (i = 0; i < nint; i++) {
		eng_hist_reset(&d->part[i]);
		n = 40 + (unsigned)(rnd() % 30);
		for (k = 0; k < n; k++) {
			ns = 20000 + 5000 * (rnd() % 40);
			if (rnd() % 97 == 0)
				ns = 1000000 + rnd() % 4000000;
			eng_hist_add(&d->part[i], ns);
			eng_hist_add(&d->truth, ns);
		}
		d->errors[i] = i == 3 && !strcmp(name, "loopB") ? 2 : 0;
	}
}

static json_t *hist_json(const struct eng_hist *h)
{
	json_t *b = json_array();
	uint64_t lo, hi;
	unsigned i;

	for (i = 0; i < ENG_HIST_BUCKETS; i++) {
		if (!h->b[i])
			continue;
		eng_hist_bounds(i, &lo, &hi);
		json_array_append_new(b, json_pack("[I, I]", (json_int_t)lo, (json_int_t)h->b[i]));
	}
	return json_pack("{s:I, s:I, s:f, s:I, s:I, s:o}", "count", (json_int_t)h->count,
			 "sum_ns", (json_int_t)h->sum_ns, "sumsq", h->sumsq,
			 "min_ns", (json_int_t)(h->count ? h->min_ns : 0),
			 "max_ns", (json_int_t)h->max_ns, "buckets", b);
}

static void emit(FILE *f, json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17));

	fprintf(f, "%s\n", s);
	free(s);
	json_decref(j);
}

static json_t *lat_json(const struct eng_hist *h)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:f}",
			 "p50", (json_int_t)eng_hist_percentile(h, 50),
			 "p99", (json_int_t)eng_hist_percentile(h, 99),
			 "p99.9", (json_int_t)eng_hist_percentile(h, 99.9),
			 "p99.99", (json_int_t)eng_hist_percentile(h, 99.99),
			 "mean", eng_hist_mean(h));
}

/* One window's lines: its start, then each interval's devices and total. */
static void emit_window(FILE *f, struct gdev *d, unsigned nd, unsigned run, const char *label,
			unsigned nint)
{
	struct eng_hist tot;
	json_t *names = json_array(), *line;
	uint64_t ios;
	unsigned i, k;

	for (k = 0; k < nd; k++)
		json_array_append_new(names, json_string(d[k].name));
	emit(f, json_pack("{s:s, s:I, s:s, s:I, s:o}", "type", "window", "run", (json_int_t)run,
			  "label", label, "wall_start_ns", (json_int_t)1700000000000000000ll,
			  "devices", names));
	for (i = 0; i < nint; i++) {
		/* 1 s each, the last 0.5 s (a window's last may be shorter) */
		double t0 = i, t1 = i + 1 == nint ? i + 0.5 : i + 1;

		eng_hist_reset(&tot);
		ios = 0;
		for (k = 0; k < nd; k++) {
			line = json_pack("{s:s, s:I, s:s, s:f, s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:o}",
				"type", "interval", "run", (json_int_t)run, "device", d[k].name,
				"t0", t0, "t1", t1, "ios", (json_int_t)d[k].part[i].count,
				"bytes", (json_int_t)(d[k].part[i].count * 4096),
				"errors", (json_int_t)d[k].errors[i], "inflight", (json_int_t)32,
				"user_ns", (json_int_t)1000000, "sys_ns", (json_int_t)3000000,
				"hist", hist_json(&d[k].part[i]));
			if (i + 1 == nint)
				json_object_set_new(line, "last", json_true());
			emit(f, line);
			eng_hist_merge(&tot, &d[k].part[i]);
			ios += d[k].part[i].count;
		}
		emit(f, json_pack("{s:s, s:I, s:n, s:f, s:f, s:I, s:I, s:I, s:I, s:o}",
				  "type", "interval", "run", (json_int_t)run, "device", "t0", t0,
				  "t1", t1, "ios", (json_int_t)ios, "bytes", (json_int_t)(ios * 4096),
				  "errors", (json_int_t)0, "inflight", (json_int_t)64,
				  "hist", hist_json(&tot)));
	}
}

static void emit_header(FILE *f, const char *host, const char *command)
{
	emit(f, json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:f, s:{s:s, s:i, s:i},"
			  " s:{s:{s:s}}, s:{s:i, s:i, s:i, s:f, s:f, s:s, s:s}}",
			  "type", "header", "schema", MG_SCHEMA, "version", "test", "host", host,
			  "command", command, "wall_ns", (json_int_t)1700000000000000000ll,
			  "interval_s", 1.0, "hist", "kind", "log-linear", "sub_bits", ENG_HIST_SUB_BITS,
			  "max_exp", ENG_HIST_MAX_EXP, "setup", "machine", "hostname", host,
			  "options", "bs", 4096, "qd", 32, "batch", 8, "time_s", 9.5, "ramp_s", 1.0,
			  "engine_used", "io_uring", "completion_used", "irq"));
}

/* The end line, its report the truth's figures (what run's own --json
 * would say of the same IOs). */
static void emit_end(FILE *f, struct gdev *d, unsigned nd)
{
	json_t *devs = json_array();
	struct eng_hist tot;
	uint64_t errs = 0;
	unsigned k, i;

	eng_hist_reset(&tot);
	for (k = 0; k < nd; k++) {
		for (i = 0; i < NINT; i++)
			errs += d[k].errors[i];
		eng_hist_merge(&tot, &d[k].truth);
		json_array_append_new(devs, json_pack("{s:s, s:I, s:o}", "name", d[k].name,
			"ios", (json_int_t)d[k].truth.count, "lat_ns", lat_json(&d[k].truth)));
	}
	emit(f, json_pack("{s:s, s:s, s:i, s:{s:s, s:s, s:o, s:{s:I, s:I, s:o}}}", "type", "end",
			  "how", "completed", "exit", errs ? 1 : 0, "report", "schema", "iostorm/1",
			  "command", "run", "devices", devs, "total", "ios", (json_int_t)tot.count,
			  "errors", (json_int_t)errs, "lat_ns", lat_json(&tot)));
}

static struct gdev A[2], B[1], S[1], S2[1];

static void gen_all(void)
{
	gen_dev(&A[0], "loopA", 0x1234567ull, NINT);
	gen_dev(&A[1], "loopB", 0x7654321ull, NINT);
	gen_dev(&B[0], "loopC", 0xabcdefull, NINT);
	gen_dev(&S[0], "loopD", 0x1111ull, 3);
	gen_dev(&S2[0], "loopD", 0x2222ull, 3);
}

/* alpha (two devices), beta (one), gamma (a sweep: two windows). */
static int write_all(const char *dir)
{
	char p[4096];
	FILE *f;

	snprintf(p, sizeof(p), "%s/alpha.jsonl", dir);
	if (!(f = fopen(p, "w")))
		return -errno;
	emit_header(f, "alpha", "run");
	emit_window(f, A, 2, 0, "run", NINT);
	emit_end(f, A, 2);
	fclose(f);
	snprintf(p, sizeof(p), "%s/beta.jsonl", dir);
	if (!(f = fopen(p, "w")))
		return -errno;
	emit_header(f, "beta", "run");
	emit_window(f, B, 1, 0, "run", NINT);
	emit_end(f, B, 1);
	fclose(f);
	snprintf(p, sizeof(p), "%s/gamma.jsonl", dir);
	if (!(f = fopen(p, "w")))
		return -errno;
	emit_header(f, "gamma", "sweep");
	emit_window(f, S, 1, 0, "qd 1", 3);
	emit_window(f, S2, 1, 1, "qd 4", 3);
	fprintf(f, "{\"type\":\"end\",\"how\":\"completed\",\"exit\":0,\"report\":{}}\n");
	fclose(f);
	return 0;
}

/* ---- the checks ---- */

static char dir[] = "/tmp/test_merge.XXXXXX";

static const char *path_of(const char *name)
{
	static char p[4][256];
	static unsigned k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static bool same_hist(const struct eng_hist *a, const struct eng_hist *b)
{
	return a->count == b->count && a->sum_ns == b->sum_ns &&
	       !memcmp(a->b, b->b, sizeof(a->b)) && a->min_ns == b->min_ns && a->max_ns == b->max_ns;
}

/* Whether v's device d (host false) or host row d (host true) holds the
 * histogram want: a view's rows hold none of their own (view.h). */
static bool hist_is(const struct mg_view *v, bool host, unsigned i, const struct eng_hist *want)
{
	static struct eng_hist h;

	if (i >= (host ? v->nhost : v->r.ndev))
		return false;
	mg_view_hist(v, host, i, &h);
	return same_hist(&h, want);
}

static unsigned dev_at(const struct mg_view *v, const struct cli_dev *d)
{
	return d ? (unsigned)(d - v->r.dev) : ~0u;
}

static const struct cli_dev *dev_named(const struct mg_view *v, const char *name)
{
	unsigned i;

	for (i = 0; i < v->r.ndev; i++)
		if (!strcmp(v->r.dev[i].name, name))
			return &v->r.dev[i];
	return NULL;
}

static const struct mg_span whole = { 0, -1 };
static const struct mg_sel all = { NULL, 0, NULL, 0 };

/* Every interval merged: the truth's histogram exactly, its percentiles. */
static void check_whole(void)
{
	struct mg_set set = { 0 };
	struct mg_view v;
	const struct cli_dev *d;
	uint64_t errs = 0;
	unsigned i;

	CHECK(!mg_stream_read(&set, path_of("alpha.jsonl"), &whole));
	mg_set_name(&set);
	CHECK(set.n == 1 && set.s[0].end && !set.s[0].nbad && !set.s[0].cut_line);
	CHECK(!mg_view_build(&set, &all, 0, "run", &v));
	CHECK(v.r.ndev == 2 && v.nhost == 1 && v.nint == 2 * NINT);
	CHECKF(v.t_lo == 0 && v.t_hi == NINT - 0.5, "%g..%g", v.t_lo, v.t_hi);
	d = dev_named(&v, "loopA");
	CHECK(d && !d->hist && hist_is(&v, false, dev_at(&v, d), &A[0].truth));
	CHECK(d && d->ios == A[0].truth.count && d->bytes == 4096 * A[0].truth.count);
	CHECK(d && d->lat.p99 == eng_hist_percentile(&A[0].truth, 99));
	CHECK(d && d->lat.p9999 == eng_hist_percentile(&A[0].truth, 99.99));
	CHECKF(d && d->elapsed_s == NINT - 0.5, "%g", d ? d->elapsed_s : -1);
	CHECK(d && d->iops == (double)A[0].truth.count / (NINT - 0.5));
	CHECK(d && d->tl.n == NINT);
	d = dev_named(&v, "loopB");
	for (i = 0; i < NINT; i++)
		errs += A[1].errors[i];
	CHECK(d && d->errors == errs && errs);
	CHECK(v.r.total.ios == A[0].truth.count + A[1].truth.count);
	{
		struct eng_hist t;

		eng_hist_reset(&t);
		eng_hist_merge(&t, &A[0].truth);
		eng_hist_merge(&t, &A[1].truth);
		CHECK(v.r.total.hist && same_hist(v.r.total.hist, &t));
		CHECK(v.r.total.lat.p50 == eng_hist_percentile(&t, 50));
		CHECK(v.r.total.lat.p99 == eng_hist_percentile(&t, 99));
	}
	mg_view_free(&v);
	mg_set_free(&set);
}

/* --to T and --from T: two halves that add up to the whole. */
static void check_halves(void)
{
	struct mg_set s1 = { 0 }, s2 = { 0 };
	struct mg_span first = { 0, 4 }, second = { 4, -1 };
	struct mg_view a, b;
	const struct cli_dev *da, *db;
	struct eng_hist sum;

	CHECK(!mg_stream_read(&s1, path_of("alpha.jsonl"), &first));
	CHECK(!mg_stream_read(&s2, path_of("alpha.jsonl"), &second));
	mg_set_name(&s1);
	mg_set_name(&s2);
	CHECK(!mg_view_build(&s1, &all, 0, "run", &a));
	CHECK(!mg_view_build(&s2, &all, 0, "run", &b));
	CHECKF(a.nint == 2 * 4 && b.nint == 2 * (NINT - 4), "%u %u", a.nint, b.nint);
	CHECK(a.t_lo == 0 && a.t_hi == 4 && b.t_lo == 4);
	da = dev_named(&a, "loopA");
	db = dev_named(&b, "loopA");
	CHECK(da && db && da->ios + db->ios == A[0].truth.count);
	/* IOPS over the time the intervals cover: 4 s, and 4 to 9.5 s */
	CHECKF(da && db && da->iops == (double)da->ios / 4 && db->iops == (double)db->ios / 5.5,
	       "%g %g", da ? da->iops : -1, db ? db->iops : -1);
	if (da && db) {
		struct eng_hist hb;

		mg_view_hist(&a, false, dev_at(&a, da), &sum);
		mg_view_hist(&b, false, dev_at(&b, db), &hb);
		eng_hist_merge(&sum, &hb);
		CHECK(same_hist(&sum, &A[0].truth));
	}
	/* an interval across the edge is in neither: 3.5 to 4.5 takes none */
	mg_view_free(&a);
	mg_view_free(&b);
	mg_set_free(&s1);
	mg_set_free(&s2);
	{
		struct mg_set s3 = { 0 };
		struct mg_span mid = { 3.5, 4.5 };
		unsigned runs[4];

		CHECK(!mg_stream_read(&s3, path_of("alpha.jsonl"), &mid));
		CHECK(mg_runs(&s3, &all, runs, 4) == 0);
		mg_set_free(&s3);
	}
}

/* Two hosts: the sum, a row each, names HOST:DEV. */
static void check_hosts(void)
{
	struct mg_set set = { 0 };
	struct mg_view v;
	char *want[] = { "beta" }, *dv[] = { "loopB", "beta:loopC" };
	struct mg_sel hb = { NULL, 0, want, 1 }, ds = { dv, 2, NULL, 0 };

	CHECK(!mg_stream_read(&set, path_of("alpha.jsonl"), &whole));
	CHECK(!mg_stream_read(&set, path_of("beta.jsonl"), &whole));
	mg_set_name(&set);
	CHECK(!strcmp(set.s[0].name, "alpha") && !strcmp(set.s[1].name, "beta"));
	CHECK(!mg_view_build(&set, &all, 0, "run", &v));
	CHECK(v.r.ndev == 3 && v.nhost == 2);
	CHECK(dev_named(&v, "alpha:loopA") && dev_named(&v, "beta:loopC"));
	CHECK(v.r.total.ios == A[0].truth.count + A[1].truth.count + B[0].truth.count);
	CHECK(v.nhost == 2 && v.host[0].ndev == 2 && v.host[1].ndev == 1);
	CHECK(v.nhost == 2 && v.host[1].d.ios == B[0].truth.count && hist_is(&v, true, 1, &B[0].truth));
	CHECK(v.nhost == 2 && v.host[1].d.lat.p99 == eng_hist_percentile(&B[0].truth, 99));
	CHECK(v.nhost == 2 && v.host[0].d.ios == A[0].truth.count + A[1].truth.count);
	mg_view_free(&v);
	/* --host beta: beta's device alone, named as with one host */
	CHECK(!mg_view_build(&set, &hb, 0, "run", &v));
	CHECK(v.r.ndev == 1 && dev_named(&v, "loopC") && v.r.total.ios == B[0].truth.count);
	mg_view_free(&v);
	/* --device loopB,beta:loopC */
	CHECK(!mg_view_build(&set, &ds, 0, "run", &v));
	CHECK(v.r.ndev == 2 && dev_named(&v, "alpha:loopB") && dev_named(&v, "beta:loopC"));
	CHECK(v.r.total.ios == A[1].truth.count + B[0].truth.count);
	mg_view_free(&v);
	mg_set_free(&set);
	/* one host twice (two processes on one machine): told apart */
	CHECK(!mg_stream_read(&set, path_of("beta.jsonl"), &whole));
	CHECK(!mg_stream_read(&set, path_of("beta.jsonl"), &whole));
	mg_set_name(&set);
	CHECK(!strcmp(set.s[0].name, "beta#1") && !strcmp(set.s[1].name, "beta#2"));
	mg_set_free(&set);
}

/* copies src to dst with line `cut` cut in half and what follows dropped,
 * or line `bad` replaced by `with` */
static void derive(const char *src, const char *dst, unsigned cut, unsigned bad, const char *with)
{
	FILE *in = fopen(src, "r"), *out = fopen(dst, "w");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned n = 0;

	CHECK(in && out);
	while (in && out && (len = getline(&buf, &cap, in)) > 0) {
		n++;
		if (n == cut) {
			fwrite(buf, 1, (size_t)len / 2, out);
			break;
		}
		if (n == bad)
			fprintf(out, "%s\n", with);
		else
			fwrite(buf, 1, (size_t)len, out);
	}
	free(buf);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
}

/* A stream cut mid-line (SIGKILL): every whole interval, the cut line
 * named; a corrupt line: named, skipped, the rest kept. */
static void check_damage(void)
{
	struct mg_set set = { 0 };
	struct mg_view v;
	const struct cli_dev *d;
	struct eng_hist want;
	unsigned i;

	/* line 1 header, 2 window, then 3 lines per interval: line 3+3*5 is
	 * interval 5's loopA */
	derive(path_of("alpha.jsonl"), path_of("cut.jsonl"), 3 + 3 * 5, 0, NULL);
	CHECK(!mg_stream_read(&set, path_of("cut.jsonl"), &whole));
	mg_set_name(&set);
	CHECK(set.n == 1 && !set.s[0].end && set.s[0].cut_line == 3 + 3 * 5 && !set.s[0].nbad);
	CHECKF(set.s[0].last_t1 == 5, "%g", set.s[0].last_t1);
	CHECK(!mg_view_build(&set, &all, 0, "run", &v));
	eng_hist_reset(&want);
	for (i = 0; i < 5; i++)
		eng_hist_merge(&want, &A[0].part[i]);
	d = dev_named(&v, "loopA");
	CHECK(d && hist_is(&v, false, dev_at(&v, d), &want) && d->tl.n == 5);
	mg_view_free(&v);
	mg_set_free(&set);

	/* interval 2's loopB line (3+3*2+1) garbage, interval 6's loopA a
	 * bucket that is no bucket's lower bound */
	derive(path_of("alpha.jsonl"), path_of("bad.jsonl"), 0, 3 + 3 * 2 + 1, "{\"type\":\"interval\",\"ru");
	derive(path_of("bad.jsonl"), path_of("bad2.jsonl"), 0, 3 + 3 * 6,
	       "{\"type\":\"interval\",\"run\":0,\"device\":\"loopA\",\"t0\":6,\"t1\":7,\"ios\":1,"
	       "\"bytes\":4096,\"errors\":0,\"hist\":{\"count\":1,\"sum_ns\":20001,\"sumsq\":4e8,"
	       "\"min_ns\":20001,\"max_ns\":20001,\"buckets\":[[20001,1]]}}");
	CHECK(!mg_stream_read(&set, path_of("bad2.jsonl"), &whole));
	mg_set_name(&set);
	CHECKF(set.n == 1 && set.s[0].nbad == 2 && set.s[0].bad[0].line == 3 + 3 * 2 + 1 &&
	       set.s[0].bad[1].line == 3 + 3 * 6 && set.s[0].end, "nbad %u", set.s[0].nbad);
	CHECK(strstr(set.s[0].bad[1].why, "lower bound"));
	CHECK(!mg_view_build(&set, &all, 0, "run", &v));
	d = dev_named(&v, "loopA");
	CHECK(d && d->ios == A[0].truth.count - A[0].part[6].count && d->tl.n == NINT - 1);
	d = dev_named(&v, "loopB");
	CHECK(d && d->ios == A[1].truth.count - A[1].part[2].count);
	mg_view_free(&v);
	mg_set_free(&set);
}

/* Windows: each its own; what is not a stream is refused. */
static void check_runs_and_refusals(void)
{
	struct mg_set set = { 0 };
	struct mg_view v;
	struct mg_hist h;
	unsigned runs[8];
	FILE *f;
	char why[128];
	json_t *j;

	CHECK(!mg_stream_read(&set, path_of("gamma.jsonl"), &whole));
	mg_set_name(&set);
	CHECK(mg_runs(&set, &all, runs, 8) == 2 && runs[0] == 0 && runs[1] == 1);
	CHECK(!mg_view_build(&set, &all, 1, "run", &v));
	CHECK(!strcmp(v.label, "qd 4") && v.r.ndev == 1 && v.r.total.ios == S2[0].truth.count);
	mg_view_free(&v);
	mg_set_free(&set);

	CHECK(mg_stream_read(&set, path_of("nonexistent.jsonl"), &whole) == -ENOENT);
	mg_set_free(&set);
	f = fopen(path_of("empty.jsonl"), "w");
	CHECK(f);
	if (f)
		fclose(f);
	CHECK(mg_stream_read(&set, path_of("empty.jsonl"), &whole) == -EINVAL);
	mg_set_free(&set);
	/* a report is JSON but no stream */
	derive(path_of("alpha.jsonl"), path_of("nohead.jsonl"), 0, 1, "{\"schema\":\"iostorm/1\"}");
	CHECK(mg_stream_read(&set, path_of("nohead.jsonl"), &whole) == -EINVAL);
	mg_set_free(&set);
	derive(path_of("alpha.jsonl"), path_of("sub5.jsonl"), 0, 1,
	       "{\"type\":\"header\",\"schema\":\"iostorm-stream/1\",\"host\":\"x\",\"command\":\"run\","
	       "\"hist\":{\"kind\":\"log-linear\",\"sub_bits\":5,\"max_exp\":42}}");
	CHECK(mg_stream_read(&set, path_of("sub5.jsonl"), &whole) == -EINVAL);
	mg_set_free(&set);

	mg_hist_init(&h);
	j = json_loads("{\"count\":3,\"sum_ns\":3,\"sumsq\":3,\"min_ns\":1,\"max_ns\":1,"
		       "\"buckets\":[[1,2]]}", 0, NULL);
	CHECK(mg_hist_parse(j, &h, why, sizeof(why)) == -EINVAL && strstr(why, "count says 3"));
	json_decref(j);
	j = json_loads("{\"count\":2,\"sum_ns\":3,\"sumsq\":3,\"min_ns\":1,\"max_ns\":2,"
		       "\"buckets\":[[2,1],[1,1]]}", 0, NULL);
	CHECK(mg_hist_parse(j, &h, why, sizeof(why)) == -EINVAL && strstr(why, "out of order"));
	json_decref(j);
	j = json_loads("{\"count\":2,\"sum_ns\":3,\"sumsq\":5,\"min_ns\":1,\"max_ns\":2,"
		       "\"buckets\":[[1,1],[2,1]]}", 0, NULL);
	CHECK(!mg_hist_parse(j, &h, why, sizeof(why)) && h.len == 2 && h.idx[0] == 1 &&
	      h.n[0] == 1 && h.idx[1] == 2 && h.n[1] == 1 && h.count == 2);
	json_decref(j);
	mg_hist_free(&h);
}

/* The sparse histogram adds up as the engine's does: histograms of
 * ranges that overlap and that do not, added to both, give the same
 * buckets and figures, in 10 bytes a bucket held. */
static void check_sparse(void)
{
	static struct eng_hist dense, one, back;
	struct mg_hist sum, part;
	unsigned r, k, i, used = 0;
	uint64_t base, n;

	eng_hist_reset(&dense);
	mg_hist_init(&sum);
	mg_hist_init(&part);
	rng_state = 0x5eedull;
	for (r = 0; r < 60; r++) {
		eng_hist_reset(&one);
		base = (rnd() % 8) * 50000;
		n = 1 + rnd() % 300;
		for (k = 0; k < n; k++)
			eng_hist_add(&one, base + rnd() % (r % 3 ? 40000 : 4000000));
		mg_hist_clear(&part);
		for (i = 0; i < ENG_HIST_BUCKETS; i++)
			CHECK(!mg_hist_push(&part, i, one.b[i]));
		part.count = one.count;
		part.sum_ns = one.sum_ns;
		part.sumsq = one.sumsq;
		part.min_ns = one.min_ns;
		part.max_ns = one.max_ns;
		CHECK(!mg_hist_add(&sum, &part));
		eng_hist_merge(&dense, &one);
	}
	eng_hist_reset(&back);
	mg_hist_into(&back, &sum);
	CHECK(same_hist(&back, &dense) && back.sumsq == dense.sumsq);
	for (i = 0; i < ENG_HIST_BUCKETS; i++)
		used += dense.b[i] != 0;
	for (k = 1; k < sum.len; k++)
		CHECK(sum.idx[k - 1] < sum.idx[k] && sum.n[k]);
	CHECKF(sum.len == used && mg_hist_bytes(&sum) <= 10 * 2 * (size_t)used,
	       "%u buckets of %u held in %zu bytes", sum.len, used, mg_hist_bytes(&sum));
	mg_hist_free(&sum);
	mg_hist_free(&part);
}

/* A stream: the header, a window, then lines. */
static void write_stream(const char *name, const char *const *lines, unsigned n)
{
	FILE *f = fopen(path_of(name), "w");
	unsigned i;

	CHECK(f);
	if (!f)
		return;
	fprintf(f, "{\"type\":\"header\",\"schema\":\"iostorm-stream/1\",\"host\":\"h\","
		"\"command\":\"run\",\"hist\":{\"kind\":\"log-linear\",\"sub_bits\":7,\"max_exp\":42}}\n"
		"{\"type\":\"window\",\"run\":0,\"label\":\"run\"}\n");
	for (i = 0; i < n; i++)
		fprintf(f, "%s\n", lines[i]);
	fclose(f);
}

#define IV(dev, t0, t1, ios, rest) \
	"{\"type\":\"interval\",\"run\":0,\"device\":\"" dev "\",\"t0\":" t0 ",\"t1\":" t1 \
	",\"ios\":" ios ",\"bytes\":0,\"errors\":0" rest "}"
#define HN ",\"hist\":null"
/* one IO of 20000 ns */
#define H1 ",\"hist\":{\"count\":1,\"sum_ns\":20000,\"sumsq\":4e8,\"min_ns\":20000," \
	"\"max_ns\":20000,\"buckets\":[[19968,1]]}"

/* Figures no measurement has, a line each: named by line with why,
 * skipped, and nothing of them added; the good lines beside them are. */
static void check_figures(void)
{
	static const struct { const char *line, *why; } bad[] = {
		{ IV("d", "0", "1", "-1", HN), "\"ios\" is not a count" },
		{ IV("d", "0", "1", "1", ",\"inflight\":-3" HN), "\"inflight\" is not a count" },
		{ IV("d", "0", "1", "5", ",\"hist\":{\"count\":5,\"sum_ns\":100000,\"sumsq\":1,"
		  "\"min_ns\":20000,\"max_ns\":20000,\"buckets\":[[19968,2]]}"),
		  "buckets hold 2 IOs, its count says 5" },
		/* two buckets of 2^63 - 1 and one of 3 wrap 64 bits to 1 */
		{ IV("d", "0", "1", "1", ",\"hist\":{\"count\":1,\"sum_ns\":20000,\"sumsq\":1,"
		  "\"min_ns\":20000,\"max_ns\":20000,\"buckets\":[[19968,9223372036854775807],"
		  "[24960,9223372036854775807],[29952,3]]}"), "more than 2^63 - 1 IOs" },
		{ IV("d", "0", "1", "2", ",\"hist\":{\"count\":2,\"sum_ns\":50000,\"sumsq\":1,"
		  "\"min_ns\":30000,\"max_ns\":20000,\"buckets\":[[19968,1],[29952,1]]}"),
		  "min_ns 30000 above its max_ns 20000" },
		{ IV("d", "0", "1", "2", ",\"hist\":{\"count\":2,\"sum_ns\":50000,\"sumsq\":1,"
		  "\"min_ns\":25000,\"max_ns\":30000,\"buckets\":[[19968,1],[29952,1]]}"),
		  "min_ns 25000 is not in its lowest bucket" },
		{ IV("d", "0", "1", "1", ",\"hist\":{\"count\":1,\"sum_ns\":90000,\"sumsq\":1,"
		  "\"min_ns\":20000,\"max_ns\":20000,\"buckets\":[[19968,1]]}"),
		  "sum_ns 90000 is not between" },
		{ IV("d", "0", "1", "1", ",\"hist\":{\"count\":1,\"sum_ns\":20000,\"sumsq\":-4,"
		  "\"min_ns\":20000,\"max_ns\":20000,\"buckets\":[[19968,1]]}"),
		  "\"sumsq\" is -4, not 0 or more" },
		{ IV("d", "1", "1", "7", HN), "7 IOs in no time" },
		{ IV("d", "2", "1", "0", HN), "t1 1 is before t0 2" },
		{ IV("d", "0", "1e300", "1", HN), "\"t1\" is 1e+300, not within 0 to" },
		{ IV("d", "0", "1", "1", ",\"hist\":{\"count\":1,\"sum_ns\":20000,\"sumsq\":4e8,"
		  "\"min_ns\":20000,\"max_ns\":20000,\"buckets\":[[19968,-1]]}"),
		  "bucket 0 is not [lo_ns, count]" },
		/* alone a count JSON holds; beside the good line's IO, past it */
		{ IV("e", "1", "2", "9223372036854775807", HN), "its ios would take the streams' sum past" },
	};
	const char *lines[sizeof(bad) / sizeof(bad[0]) + 2];
	struct mg_set set = { 0 };
	struct mg_view v;
	unsigned i, n = sizeof(bad) / sizeof(bad[0]);

	lines[0] = IV("d", "0", "1", "1", H1);
	for (i = 0; i < n; i++)
		lines[1 + i] = bad[i].line;
	/* a window's last interval may end where it began (timeline.c) */
	lines[n + 1] = "{\"type\":\"interval\",\"run\":0,\"device\":\"d\",\"t0\":1,\"t1\":1,"
		       "\"ios\":2,\"bytes\":0,\"errors\":0,\"hist\":null,\"last\":true}";
	write_stream("figures.jsonl", lines, n + 2);
	CHECK(!mg_stream_read(&set, path_of("figures.jsonl"), &whole));
	mg_set_name(&set);
	CHECKF(set.n == 1 && set.s[0].nbad == n, "%u bad lines, want %u", set.n ? set.s[0].nbad : 0, n);
	for (i = 0; set.n && i < n && i < set.s[0].nbad; i++)
		CHECKF(set.s[0].bad[i].line == 4 + i && strstr(set.s[0].bad[i].why, bad[i].why),
		       "line %u: '%s', want '%s' at line %u", set.s[0].bad[i].line,
		       set.s[0].bad[i].why, bad[i].why, 4 + i);
	CHECK(!mg_view_build(&set, &all, 0, "run", &v));
	CHECKF(v.r.ndev == 1 && v.r.total.ios == 3 && v.r.total.lat.max == 20000 &&
	       v.r.dev[0].tl.n == 2, "%u devices, %llu IOs", v.r.ndev,
	       (unsigned long long)v.r.total.ios);
	mg_view_free(&v);
	mg_set_free(&set);
}

/* Lines over MG_LINE_MAX: a first one is no stream, read no further than
 * the cap (so /dev/zero ends); a later one is named and skipped; the end
 * line, which holds the report, gives its "how" and "exit". A directory
 * says so. */
static void check_long_lines(void)
{
	struct mg_set set = { 0 };
	char *pad = malloc(MG_LINE_MAX + 2), *l1, *l2;
	const char *lines[3];

	CHECK(pad);
	if (!pad)
		return;
	memset(pad, 'x', MG_LINE_MAX + 1);
	pad[MG_LINE_MAX + 1] = '\0';
	CHECK(asprintf(&l1, "{\"type\":\"event\",\"run\":0,\"text\":\"%s\"}", pad) > 0);
	CHECK(asprintf(&l2, "{\"type\":\"end\",\"how\":\"interrupted\",\"exit\":130,"
		       "\"report\":{\"pad\":\"%s\"}}", pad) > 0);
	lines[0] = l1;
	lines[1] = IV("d", "0", "1", "1", H1);
	lines[2] = l2;
	write_stream("long.jsonl", lines, 3);
	CHECK(!mg_stream_read(&set, path_of("long.jsonl"), &whole));
	CHECKF(set.n == 1 && set.s[0].nbad == 1 && set.s[0].bad[0].line == 3 &&
	       strstr(set.s[0].bad[0].why, "over the 1 MiB"), "nbad %u", set.n ? set.s[0].nbad : 0);
	CHECK(set.n == 1 && set.s[0].end && set.s[0].end_cut && set.nacc == 1 &&
	      !strcmp(json_string_value(json_object_get(set.s[0].end, "how")), "interrupted") &&
	      json_integer_value(json_object_get(set.s[0].end, "exit")) == 130 &&
	      !json_object_get(set.s[0].end, "report"));
	mg_set_free(&set);

	lines[0] = pad;
	write_stream("nohead-long.jsonl", lines, 1);
	{
		/* the header itself that long */
		FILE *f = fopen(path_of("nohead-long.jsonl"), "w");

		CHECK(f && fputs(pad, f) >= 0);
		if (f)
			fclose(f);
	}
	CHECK(mg_stream_read(&set, path_of("nohead-long.jsonl"), &whole) == -EINVAL);
	mg_set_free(&set);
	CHECK(mg_stream_read(&set, "/dev/zero", &whole) == -EINVAL);
	mg_set_free(&set);
	CHECK(mg_stream_read(&set, dir, &whole) == -EISDIR);
	mg_set_free(&set);
	free(l1);
	free(l2);
	free(pad);
}

int main(int argc, char **argv)
{
	const char *names[] = { "alpha.jsonl", "beta.jsonl", "gamma.jsonl", "cut.jsonl",
				"bad.jsonl", "bad2.jsonl", "empty.jsonl", "nohead.jsonl",
				"sub5.jsonl", "figures.jsonl", "long.jsonl", "nohead-long.jsonl" };
	size_t i;

	gen_all();
	if (argc == 3 && !strcmp(argv[1], "--write"))
		return write_all(argv[2]) ? T_EXIT_FAIL : T_EXIT_PASS;
	if (!mkdtemp(dir) || write_all(dir)) {
		fprintf(stderr, "cannot write the streams in %s\n", dir);
		return T_EXIT_FAIL;
	}
	check_whole();
	check_halves();
	check_hosts();
	check_damage();
	check_runs_and_refusals();
	check_sparse();
	check_figures();
	check_long_lines();
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(path_of(names[i]));
	rmdir(dir);
	return t_result();
}
