/* --listen's endpoint without IO (cli/live/prom.h): synthetic interval sets
 * with known histograms in, GET /metrics out through a plain socket; every
 * series is served at 0 with its _created before the first interval, and
 * the same series (the same le bounds) after; each bound is an engine
 * bucket's edge, 16 a power of two, and histogram_quantile over them is
 * within 5% of the report's percentiles on a narrow distribution; the
 * counters and buckets add up over
 * two windows exactly, the paths and methods other than GET /metrics, an
 * oversized request, a port in use and a bad value are answered, and close
 * lingers until a stop request. */
#include "cli/live/prom.h"
#include "cli/live/prom_int.h"
#include "cli/runner/stop.h"
#include "engine/hist.h"
#include "tests/helpers.h"
#include "tests/prom_client.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG (64 * 1024)

#define LINE(r, l) CHECKF(prom_has_line(r, l), "no line '%s'", l)

/* ---- the synthetic windows ---- */

static struct eng_hist ha, hb;

/* device a: 3 at 500 ns (below the first le, 1024 ns), 5 at 1.5 us
 * (between le 1472 and 1536 ns), 7 at 3 ms (between 2883584 and 3014656
 * ns), 1 at 20 s (above the last le, 2^30 ns); device b: 2 at 40 us
 * (between 38912 and 40960 ns), and 1 at 2047 ns and 1 at 2048 ns, on
 * either side of le 2048 ns: an IO at a bound is counted from the next le
 * up (its engine bucket begins there); the same each window */
static void fill(void)
{
	eng_hist_reset(&ha);
	eng_hist_reset(&hb);
	eng_hist_add_n(&ha, 500, 3);
	eng_hist_add_n(&ha, 1500, 5);
	eng_hist_add_n(&ha, 3000000, 7);
	eng_hist_add_n(&ha, 20000000000ull, 1);
	eng_hist_add_n(&hb, 40000, 2);
	eng_hist_add_n(&hb, 2047, 1);
	eng_hist_add_n(&hb, 2048, 1);
}

static void publish(struct cli_prom *p, unsigned run, const char *label, uint64_t inflight)
{
	struct cli_interval dev[2] = {
		{ .device = "a", .t0_s = 0, .t1_s = 1.5, .ios = 16, .bytes = 16 * 4096,
		  .errors = 1, .inflight = inflight, .user_ns = 1500000, .sys_ns = 2000000000,
		  .hist = &ha },
		{ .device = "b", .t0_s = 0, .t1_s = 1.5, .ios = 2, .bytes = 8192,
		  .inflight = 1, .hist = &hb },
	};
	struct cli_interval total = { .t0_s = 0, .t1_s = 1.5, .ios = 18 };
	struct cli_interval_set s = { .run = run, .label = label, .ndev = 2, .dev = dev,
				      .total = &total, .last = true };

	cli_prom_interval(p, &s);
}

static void check_window2(const struct reply *r)
{
	LINE(r, "iostorm_ios_total{device=\"a\"} 32");
	LINE(r, "iostorm_ios_total{device=\"b\"} 4");
	LINE(r, "iostorm_bytes_total{device=\"a\"} 131072");
	LINE(r, "iostorm_errors_total{device=\"a\"} 2");
	LINE(r, "iostorm_errors_total{device=\"b\"} 0");
	LINE(r, "iostorm_inflight_ios{device=\"a\"} 7");
	LINE(r, "iostorm_measured_seconds_total{device=\"a\"} 3.000000000");
	LINE(r, "iostorm_cpu_seconds_total{device=\"a\",mode=\"user\"} 0.003000000");
	LINE(r, "iostorm_cpu_seconds_total{device=\"a\",mode=\"system\"} 4.000000000");
	LINE(r, "iostorm_latency_seconds_bucket{device=\"a\",le=\"1.024e-06\"} 6");
	LINE(r, "iostorm_latency_seconds_bucket{device=\"a\",le=\"1.472e-06\"} 6");
	LINE(r, "iostorm_latency_seconds_bucket{device=\"a\",le=\"1.536e-06\"} 16");
	LINE(r, "iostorm_latency_seconds_bucket{device=\"a\",le=\"0.002883584\"} 16");
	LINE(r, "iostorm_latency_seconds_bucket{device=\"a\",le=\"0.003014656\"} 30");
	LINE(r, "iostorm_latency_seconds_bucket{device=\"a\",le=\"1.073741824\"} 30");
	LINE(r, "iostorm_latency_seconds_bucket{device=\"a\",le=\"+Inf\"} 32");
	LINE(r, "iostorm_latency_seconds_count{device=\"a\"} 32");
	/* 2 x (1500 + 7500 + 21000000 + 20000000000) ns */
	LINE(r, "iostorm_latency_seconds_sum{device=\"a\"} 40.042018000");
	LINE(r, "iostorm_latency_seconds_bucket{device=\"b\",le=\"1.984e-06\"} 0");
	LINE(r, "iostorm_latency_seconds_bucket{device=\"b\",le=\"2.048e-06\"} 2");
	LINE(r, "iostorm_latency_seconds_bucket{device=\"b\",le=\"2.176e-06\"} 4");
	LINE(r, "iostorm_latency_seconds_bucket{device=\"b\",le=\"3.8912e-05\"} 4");
	LINE(r, "iostorm_latency_seconds_bucket{device=\"b\",le=\"4.096e-05\"} 8");
	LINE(r, "iostorm_latency_seconds_count{device=\"b\"} 8");
	LINE(r, "iostorm_window_info{index=\"1\",label=\"qd \\\"2\\\"\"} 1");
}

/* ---- the cases ---- */

static json_t *setup_record(void)
{
	return json_pack("{s:{s:s, s:s, s:s}, s:[{s:s, s:s, s:o}]}", "machine",
			 "iostorm_version", "9.9", "hostname", "h", "kernel", "6.1\\x",
			 "devices", "name", "a", "model", "M \"1\"\nz", "firmware", json_null());
}

static void paths_and_methods(unsigned port)
{
	static struct reply r;
	static char big[BIG + 256];
	int n;

	CHECK(!prom_get(port, "GET", "/", NULL, &r) && r.status == 404);
	CHECK(r.body && strstr(r.body, "/metrics"));
	CHECK(!prom_get(port, "GET", "/nothing", NULL, &r) && r.status == 404);
	CHECK(!prom_get(port, "GET", "/metrics/x", NULL, &r) && r.status == 404);
	CHECK(!prom_get(port, "POST", "/metrics", NULL, &r) && r.status == 405);
	CHECK(strstr(r.head, "Allow: GET, HEAD"));
	CHECK(!prom_get(port, "DELETE", "/metrics", NULL, &r) && r.status == 405);
	CHECK(!prom_get(port, "HEAD", "/metrics", NULL, &r) && r.status == 200);
	CHECK(r.body && !*r.body);
	/* a 64 KiB header: over the connection's memory */
	n = snprintf(big, sizeof(big), "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ");
	memset(big + n, 'a', BIG);
	memcpy(big + n + BIG, "\r\n\r\n", 5);
	CHECK(!prom_fetch(port, false, big, strlen(big), &r));
	CHECKF(r.status == 431, "a 64 KiB header: status %d", r.status);
	/* and the server still answers */
	CHECK(!prom_get(port, "GET", "/metrics", NULL, &r) && r.status == 200);
}

static void formats(unsigned port)
{
	static struct reply r;
	size_t n;

	CHECK(!prom_get(port, "GET", "/metrics", NULL, &r) && r.status == 200);
	CHECK(strstr(r.head, "Content-Type: text/plain; version=0.0.4; charset=utf-8"));
	LINE(&r, "# TYPE iostorm_ios_total counter");
	LINE(&r, "# TYPE iostorm_setup_info gauge");
	LINE(&r, "# TYPE iostorm_window_info gauge");
	/* _created as a gauge family of its own, after its counter's */
	LINE(&r, "# TYPE iostorm_ios_created gauge");
	LINE(&r, "# TYPE iostorm_latency_seconds_created gauge");
	CHECK(!strstr(r.body, "# EOF"));
	check_window2(&r);
	/* what Prometheus 2.42 sends */
	CHECK(!prom_get(port, "GET", "/metrics", "application/openmetrics-text;version=1.0.0,"
		   "application/openmetrics-text;version=0.0.1;q=0.75,"
		   "text/plain;version=0.0.4;q=0.5,*/*;q=0.1", &r) && r.status == 200);
	CHECK(strstr(r.head,
		     "Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8"));
	LINE(&r, "# TYPE iostorm_ios counter");
	LINE(&r, "# UNIT iostorm_latency_seconds seconds");
	LINE(&r, "# TYPE iostorm_setup info");
	LINE(&r, "# TYPE iostorm_window info");
	/* _created beside its sample, in the family */
	CHECK(!strstr(r.body, "# TYPE iostorm_ios_created"));
	CHECK(strstr(r.body, "iostorm_ios_total{device=\"a\"} 32\niostorm_ios_created{device=\"a\"} "));
	CHECK(strstr(r.body, "iostorm_latency_seconds_sum{device=\"b\"} 0.000168190\n"
			     "iostorm_latency_seconds_created{device=\"b\"} "));
	n = strlen(r.body);
	CHECK(n > 6 && !strcmp(r.body + n - 6, "# EOF\n"));
	check_window2(&r);
}

static void refusals(unsigned port)
{
	static const char *const bad[] = { "abc", "1.2.3:80", "65536", "[::1]", "::1:80",
					   "127.0.0.1:", ":", "-1", "[::1:80", "" };
	struct cli_prom *q = NULL;
	char err[256], where[32];
	size_t i;
	int rc;

	snprintf(where, sizeof(where), "127.0.0.1:%u", port);
	rc = cli_prom_open(&q, where, NULL, err, sizeof(err));
	CHECKF(rc == -EADDRINUSE, "port in use: %d", rc);
	CHECKF(strstr(err, "in use") && !strchr(err, '\n'), "'%s'", err);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rc = cli_prom_open(&q, bad[i], NULL, err, sizeof(err));
		CHECKF(rc == -EINVAL && !strchr(err, '\n') && strstr(err, "--listen"),
		       "'%s': %d '%s'", bad[i], rc, err);
	}
	/* an address this machine does not have */
	rc = cli_prom_open(&q, "192.0.2.1:0", NULL, err, sizeof(err));
	CHECKF(rc == -EADDRNOTAVAIL, "192.0.2.1: %d", rc);
}

static void ipv6(void)
{
	static struct reply r;
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	struct cli_prom *q = NULL;
	char err[256];
	int rc = cli_prom_open(&q, "[::1]:0", NULL, err, sizeof(err));

	/* a kernel or namespace without IPv6 loopback refuses it: fine */
	if (rc == -EADDRNOTAVAIL || rc == -EAFNOSUPPORT)
		return;
	CHECKF(!rc, "[::1]:0: %d %s", rc, err);
	if (rc)
		return;
	CHECK(!prom_fetch(cli_prom_port(q), true, req, sizeof(req) - 1, &r) && r.status == 200);
	cli_prom_close(q, 0);
}

struct stopper {
	unsigned port;
	_Atomic bool stopped;	/* set before the stop request */
};

/* While close lingers: the final figures are still served; then a stop
 * request */
static void *stopper(void *arg)
{
	static struct reply r;
	struct stopper *st = arg;

	CHECK(!prom_get(st->port, "GET", "/metrics", NULL, &r) && r.status == 200);
	check_window2(&r);
	atomic_store(&st->stopped, true);
	raise(SIGINT);
	return NULL;
}

/* close lingers (10 minutes here), serving, until a stop request after the
 * last interval (even one that comes before close begins): it returns only
 * once the request was made; then the port is closed */
static void linger(struct cli_prom *p, unsigned port)
{
	static struct reply r;
	struct stopper st = { .port = port };
	pthread_t t;

	cli_runner_signals();
	CHECK(!cli_runner_interrupted());
	CHECK(!pthread_create(&t, NULL, stopper, &st));
	cli_prom_close(p, 600ull * 1000000000ull);
	CHECK(atomic_load(&st.stopped));
	pthread_join(t, NULL);
	CHECK(prom_get(port, "GET", "/metrics", NULL, &r) == -ECONNREFUSED);
}

/* Device a's series in a scrape in the classic format, in order: each
 * sample line up to its value, one a line (malloc'd) */
static char *series(const char *body)
{
	char *out = malloc(strlen(body) + 1), *o = out;
	const char *l, *nl, *sp;

	if (!out)
		return NULL;
	for (l = body; l && *l; l = nl + 1) {
		nl = strchr(l, '\n');
		if (!nl)
			break;
		sp = nl > l ? memrchr(l, ' ', (size_t)(nl - l)) : NULL;
		if (*l == '#' || !sp || sp == l || !memmem(l, (size_t)(sp - l), "{device=\"a\"", 11))
			continue;
		memcpy(o, l, (size_t)(sp - l));
		o += sp - l;
		*o++ = '\n';
	}
	*o = '\0';
	return out;
}

/* Before the first interval, where the command times its IOs: every
 * series of device a is there, each at 0 but its _created (a Unix time
 * of this century), 7 of them: 5 counters (the CPU time's two modes), the
 * histogram; all its bounds */
static void zero_series(const struct reply *r)
{
	const char *l, *nl, *sp, *br;
	unsigned created = 0, buckets = 0, n = 0;
	double v;

	CHECK(r->body != NULL);
	for (l = r->body; l && *l; l = nl + 1) {
		nl = strchr(l, '\n');
		if (!nl)
			break;
		sp = nl > l ? memrchr(l, ' ', (size_t)(nl - l)) : NULL;
		if (*l == '#' || !sp || !strncmp(l, "iostorm_setup_info", 18))
			continue;
		br = strchr(l, '{');
		CHECKF(br && br < nl && !strncmp(br, "{device=\"a\"", 11), "%.*s", (int)(nl - l), l);
		v = strtod(sp + 1, NULL);
		n++;
		if (memmem(l, (size_t)(sp - l), "_created{", 9)) {
			created++;
			CHECKF(v > 1e9 && v < 4e9, "%.*s", (int)(nl - l), l);
			continue;
		}
		buckets += !strncmp(l, "iostorm_latency_seconds_bucket{", 31);
		CHECKF(v == 0, "not 0: %.*s", (int)(nl - l), l);
	}
	CHECKF(created == 7, "%u _created", created);
	CHECKF(buckets == CLI_PROM_NLE + 1, "%u buckets", buckets);
	CHECKF(n == 7 + 7 + CLI_PROM_NLE + 1 + 2, "%u series", n);
}

/* Each bound is an engine bucket's lower edge (an IO is never split),
 * CLI_PROM_PER_OCTAVE a power of two, from 1.024 us to 1.07 s */
static void bounds(void)
{
	uint64_t lo, hi, le, prev = 0;
	unsigned k;

	CHECK(CLI_PROM_PER_OCTAVE == 16);
	CHECK(cli_prom_le_ns(0) == 1024 && cli_prom_le_ns(CLI_PROM_NLE - 1) == 1ull << 30);
	for (k = 0; k < CLI_PROM_NLE; k++) {
		le = cli_prom_le_ns(k);
		eng_hist_bounds(eng_hist_index(le), &lo, &hi);
		CHECKF(lo == le, "le %llu ns: its engine bucket begins at %llu",
		       (unsigned long long)le, (unsigned long long)lo);
		CHECKF(le > prev && (!prev || (le - prev) * 16 <= prev), "le %llu after %llu",
		       (unsigned long long)le, (unsigned long long)prev);
		prev = le;
	}
}

/* Prometheus' histogram_quantile(q) over the bounds served and the
 * counts below each, count in all (+Inf): its bucketQuantile
 * (promql/quantile.go), linear inside the bucket that holds the rank, from
 * 0 below the first bound; in +Inf, the last bound */
static double prom_quantile(double q, const uint64_t *below, uint64_t count)
{
	double rank = q * (double)count, lo = 0, c0 = 0;
	unsigned k;

	for (k = 0; k < CLI_PROM_NLE && (double)below[k] < rank; k++) {
		lo = (double)cli_prom_le_ns(k);
		c0 = (double)below[k];
	}
	if (k == CLI_PROM_NLE)
		return (double)cli_prom_le_ns(CLI_PROM_NLE - 1);
	return lo + ((double)cli_prom_le_ns(k) - lo) * (rank - c0) / ((double)below[k] - c0);
}

/* A drive whose latencies lie within a few % of each other (logistic in
 * log space, scale 0.011: about 2% standard deviation, 20000 IOs drawn at
 * even steps of the distribution), its median at 16 places across a power
 * of two from 100 us: histogram_quantile over the buckets served is within
 * 5% of the report's p50, p90 and p99 (eng_hist_percentile). The worst
 * case of a narrow distribution, where the interpolation inside a bucket
 * errs most: 16 bounds a power of two are at most 2.8% off here, 8 up to
 * 7.4% */
static void quantiles(void)
{
	static struct eng_hist h;
	static const double pct[] = { 50, 90, 99 };
	struct cli_prom_state st;
	struct cli_interval iv = { .device = "a", .t1_s = 1, .hist = &h };
	struct cli_interval_set set = { .ndev = 1, .dev = &iv, .total = &iv, .last = true };
	double med, u, r, q;
	unsigned m, i, k;

	for (m = 0; m < 16; m++) {
		med = 100000.0 * exp2(m / 16.0);
		eng_hist_reset(&h);
		for (i = 0; i < 20000; i++) {
			u = (i + 0.5) / 20000;
			eng_hist_add(&h, (uint64_t)(med * exp(0.011 * log(u / (1 - u)))));
		}
		iv.ios = h.count;
		CHECK(!cli_prom_state_init(&st, NULL) && !cli_prom_state_add(&st, &set));
		for (k = 0; k < 3 && st.ndev == 1; k++) {
			r = (double)eng_hist_percentile(&h, pct[k]);
			q = prom_quantile(pct[k] / 100, st.dev[0].below, st.dev[0].lat_count);
			CHECKF(fabs(q - r) <= 0.05 * r, "median %.0f ns: p%.0f %.0f ns, "
			       "histogram_quantile %.0f ns (%+.1f%%)", med, pct[k], r, q,
			       (q - r) / r * 100);
		}
		cli_prom_state_free(&st);
	}
}

int main(void)
{
	static struct reply r;
	struct cli_prom *p = NULL;
	char err[256];
	json_t *setup = setup_record();
	char *first, *later;
	unsigned port;
	int rc;

	bounds();
	quantiles();
	rc = cli_prom_open(&p, "0", setup, err, sizeof(err));
	CHECKF(!rc, "open: %s", err);
	if (rc) {
		json_decref(setup);
		return t_result();
	}
	port = cli_prom_port(p);
	CHECK(port > 0);
	/* before any interval: the setup only */
	CHECK(!prom_get(port, "GET", "/metrics", NULL, &r) && r.status == 200);
	LINE(&r, "iostorm_setup_info{device=\"a\",model=\"M \\\"1\\\"\\nz\",firmware=\"\","
	     "kernel=\"6.1\\\\x\",hostname=\"h\",version=\"9.9\"} 1");
	/* the setup's device, at 0 from the start; no histogram before the
	 * command says it times its IOs (--no-latency: none) */
	LINE(&r, "iostorm_ios_total{device=\"a\"} 0");
	CHECK(!strstr(r.body, "iostorm_latency_seconds_bucket{"));
	CHECK(!strstr(r.body, "iostorm_window_info{"));
	/* the command's start: every series at 0, with its _created */
	cli_prom_setup(p, setup, true);
	json_decref(setup);
	CHECK(!prom_get(port, "GET", "/metrics", NULL, &r) && r.status == 200);
	zero_series(&r);
	first = series(r.body);
	CHECK(!prom_get(port, "GET", "/metrics", "application/openmetrics-text;version=1.0.0", &r) &&
	      r.status == 200);
	zero_series(&r);
	/* the first window: its devices by its sets' names, b (not in the
	 * setup record) at 0 from its start, and the window's info */
	cli_prom_window(p, 0, "qd 1", 2, (const char *const[]){ "a", "b" });
	CHECK(!prom_get(port, "GET", "/metrics", NULL, &r) && r.status == 200);
	LINE(&r, "iostorm_ios_total{device=\"b\"} 0");
	LINE(&r, "iostorm_latency_seconds_bucket{device=\"b\",le=\"1.024e-06\"} 0");
	LINE(&r, "iostorm_window_info{index=\"0\",label=\"qd 1\"} 1");
	fill();
	publish(p, 0, "qd 1", 3);
	CHECK(!prom_get(port, "GET", "/metrics", NULL, &r) && r.status == 200);
	LINE(&r, "iostorm_ios_total{device=\"a\"} 16");
	LINE(&r, "iostorm_latency_seconds_bucket{device=\"a\",le=\"1.024e-06\"} 3");
	LINE(&r, "iostorm_inflight_ios{device=\"a\"} 3");
	publish(p, 1, "qd \"2\"", 7);
	/* device a's series as in the first scrape: the same bounds */
	CHECK(!prom_get(port, "GET", "/metrics", NULL, &r) && r.status == 200);
	later = series(r.body);
	CHECK(first && later && !strcmp(first, later));
	free(first);
	free(later);
	formats(port);
	paths_and_methods(port);
	refusals(port);
	ipv6();
	linger(p, port);
	return t_result();
}
