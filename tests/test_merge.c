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
	CHECK(d && d->hist && same_hist(d->hist, &A[0].truth));
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
	if (da && db && da->hist && db->hist) {
		eng_hist_reset(&sum);
		eng_hist_merge(&sum, da->hist);
		eng_hist_merge(&sum, db->hist);
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
	CHECK(v.nhost == 2 && v.host[1].d.ios == B[0].truth.count && v.host[1].d.hist &&
	      same_hist(v.host[1].d.hist, &B[0].truth));
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
	CHECK(d && d->hist && same_hist(d->hist, &want) && d->tl.n == 5);
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
	struct eng_hist h;
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
	CHECK(!mg_hist_parse(j, &h, why, sizeof(why)) && h.b[1] == 1 && h.b[2] == 1 && h.count == 2);
	json_decref(j);
}

int main(int argc, char **argv)
{
	const char *names[] = { "alpha.jsonl", "beta.jsonl", "gamma.jsonl", "cut.jsonl",
				"bad.jsonl", "bad2.jsonl", "empty.jsonl", "nohead.jsonl",
				"sub5.jsonl" };
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
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(path_of(names[i]));
	rmdir(dir);
	return t_result();
}
