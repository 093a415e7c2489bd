/* libFuzzer: a stream for iostorm merge, any bytes at all. It is read as
 * merge reads it (cli/merge/stream.c), then every window it holds is
 * merged into a report (cli/merge/view.c). Never a crash or a leak; a
 * refused file is said in exactly one line and refused as not a stream
 * (-EINVAL); a read one adds up: the total's IOs are its devices', each
 * device's intervals are its timeline, the host rows add up to the total,
 * and the merged histograms hold as many IOs as their buckets. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/merge/stream.h"
#include "cli/merge/view.h"
#include "cli/out/out.h"
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
	uint64_t ios = 0, hios = 0;
	unsigned i, nint = 0;

	for (i = 0; i < v->r.ndev; i++) {
		ios += v->r.dev[i].ios;
		nint += v->r.dev[i].tl.n;
		if (v->r.dev[i].hist && bucket_sum(v->r.dev[i].hist) != v->r.dev[i].hist->count)
			fuzz_fail("%s: its histogram's buckets do not hold its count", v->r.dev[i].name);
	}
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
