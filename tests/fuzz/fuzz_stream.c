/* libFuzzer: a stream for iostorm merge, any bytes at all. It is read as
 * merge reads it (cli/merge/stream.c), then every window it holds is
 * merged into a report (cli/merge/view.c). Never a crash or a leak; a
 * refused file is said in exactly one line and refused as not a stream
 * (-EINVAL); a read one adds up: the total's IOs are its devices', each
 * device's intervals are its timeline, the host rows add up to the total,
 * the merged histograms hold as many IOs as their buckets, min is not
 * above max, and every rate is finite (merge's checks, docs/merge.md). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/merge/stream.h"
#include "cli/merge/view.h"
#include "cli/report/out.h"
#include "tests/fuzz/fuzz.h"

#define MAX_RUNS 4

static unsigned said;

static void count_line(void *ctx, const char *line)
{
	(void)ctx;
	(void)line;
	said++;
}

static uint64_t bucket_sum(const struct eng_hist *h)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < ENG_HIST_BUCKETS; i++)
		n += h->b[i];
	return n;
}

static void check_view(const struct mg_view *v)
{
	static struct eng_hist h;
	uint64_t ios = 0, hios = 0, lat = 0;
	unsigned i, nint = 0;

	for (i = 0; i < v->r.ndev; i++) {
		ios += v->r.dev[i].ios;
		nint += v->r.dev[i].tl.n;
		mg_view_hist(v, false, i, &h);
		if (bucket_sum(&h) != h.count || (h.count && h.min_ns > h.max_ns))
			fuzz_fail("%s: its histogram's buckets do not hold its count", v->r.dev[i].name);
		if (v->r.dev[i].iops < 0 || v->r.dev[i].iops != v->r.dev[i].iops ||
		    v->r.dev[i].iops > 1e300)
			fuzz_fail("%s: IOPS %g", v->r.dev[i].name, v->r.dev[i].iops);
		lat += h.count;
	}
	if (v->r.total.hist && (v->r.total.hist->count != lat ||
				bucket_sum(v->r.total.hist) != lat))
		fuzz_fail("run %u: the total's histogram holds %llu IOs, the devices' %llu", v->run,
			  (unsigned long long)v->r.total.hist->count, (unsigned long long)lat);
	for (i = 0; i < v->nhost; i++)
		hios += v->host[i].d.ios;
	if (ios != v->r.total.ios || hios != ios)
		fuzz_fail("run %u: devices hold %llu IOs, the total %llu, the hosts %llu", v->run,
			  (unsigned long long)ios, (unsigned long long)v->r.total.ios,
			  (unsigned long long)hios);
	if (nint != v->nint)
		fuzz_fail("run %u: %u intervals taken, %u in the timelines", v->run, v->nint, nint);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct mg_sel all = { NULL, 0, NULL, 0 };
	struct mg_span span = { 0, -1 };
	struct mg_set set = { 0 };
	struct mg_view v;
	unsigned runs[MAX_RUNS], n, i;
	char path[64];
	int fd = fuzz_file(data, size, path, sizeof(path)), rc;

	if (fd < 0)
		fuzz_fail("cannot make the input a file: %d", fd);
	said = 0;
	cli_out_sink(count_line, NULL);
	rc = mg_stream_read(&set, path, &span);
	if (rc && (rc != -EINVAL || said != 1))
		fuzz_fail("refused with %d in %u lines, want -EINVAL in one", rc, said);
	if (!rc) {
		mg_set_name(&set);
		n = mg_runs(&set, &all, runs, MAX_RUNS);
		for (i = 0; i < n; i++) {
			if (mg_view_build(&set, &all, runs[i], "run", &v))
				fuzz_fail("run %u: no report built", runs[i]);
			check_view(&v);
			mg_view_free(&v);
		}
	}
	cli_out_sink(NULL, NULL);
	mg_set_free(&set);
	close(fd);
	return 0;
}
