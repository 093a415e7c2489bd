/* iostorm fill: the one command that writes. Every block of each target's
 * range once, sequentially, in large IOs at depth (engine/fill.c), so
 * that a run's reads come from flash and not from the drive's table of
 * never-written blocks. Every target is checked before the first write:
 * given once, nothing holding it, no signature (cli/fill/fill_target.c),
 * no data in a sample of its range (cli/fill/fill_data.c); nothing is
 * written without --yes-destroy-data, and nothing that holds data
 * without --overwrite-data beside it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/commands.h"
#include "cli/fill/fill_data.h"
#include "cli/fill/fill_target.h"
#include "cli/opts/opts.h"
#include "cli/report/out.h"
#include "cli/report/progress.h"
#include "cli/runner/stop.h"
#include "engine/fill.h"
#include "engine/rng.h"

#define GIB (1024.0 * 1024 * 1024)

enum { O_YES = 0x700, O_OVERWRITE };
#define FILL_MAX_QD 4096u	/* engine/fill.c's bound */

static int cmd_fill(int argc, char **argv);

/* the sample's size, from the one constant the check reads */
static void synopsis_sample(FILE *f)
{
	fprintf(f, " It then reads\n"
		"%u blocks spread over the range and refuses data: blocks that read\n"
		"neither as never written (zeros; FFh where the NVMe namespace says so)\n"
		"nor as an earlier fill's, unless --overwrite-data is given too. Every\n"
		"other iostorm command only reads.", FILL_SAMPLE_BLOCKS);
}

static int set_yes(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_flag("--yes-destroy-data", arg, &o->yes_destroy, err, errlen);
}

static int set_overwrite(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_flag("--overwrite-data", arg, &o->overwrite_data, err, errlen);
}

/* the shared options fill takes (no setter: the shared one), and its own */
static const struct cli_optdesc own[] = {
	CLI_OPT_OWN("bs", 0, NULL, 0, 0, NULL, NULL, NULL, NULL),
	CLI_OPT_OWN("qd", 0, NULL, 0, 0, NULL, NULL, NULL, NULL),
	CLI_OPT_OWN("range", 0, NULL, 0, 0, NULL, NULL, NULL, NULL),
	CLI_OPT_OWN("quiet", 0, NULL, 0, 0, NULL, NULL, NULL, NULL),
	CLI_OPT_OWN("yes-destroy-data", O_YES, NULL, 0, 0, set_yes, NULL, NULL,
	  "write over every block of the targets' range: without it\n"
	  "fill writes nothing"),
	CLI_OPT_OWN("overwrite-data", O_OVERWRITE, NULL, 0, 0, set_overwrite, NULL, NULL,
	  "with --yes-destroy-data, write over a range whose sampled\n"
	  "blocks hold data too: without it fill writes only where\n"
	  "each reads as never written or as an earlier fill's"),
	CLI_OPT_END,
};

const struct cli_verb cli_verb_fill = {
	.name = "fill",
	.what = "write every block once, so that reads come from flash (destroys data)",
	.synopsis = "iostorm fill --yes-destroy-data [options] TARGET...\n\n"
		"Writes every block of each TARGET's range once, sequentially, --bs bytes\n"
		"per write with --qd in flight, with data no two 4K blocks share, then\n"
		"flushes the drive's cache. A drive answers a read of a block it never\n"
		"stored from its mapping table, without reading flash: after fill, every\n"
		"read of the range is a real one. It refuses, before any write, a device\n"
		"that is mounted or in use, one that holds a partition table (a GPT\n"
		"found by its backup header too), a file system or a RAID or LVM\n"
		"signature (libblkid, as wipefs sees them), a target given twice, a\n"
		"character device, and any run without --yes-destroy-data.",
	.synopsis_more = synopsis_sample,
	.operands = CLI_OPERANDS_TARGETS,
	.groups = 0,
	.own = own,
	.qd = 16,
	.bs = 1u << 20,
	.run = cmd_fill,
};

struct fill_watch {
	const char *name;
	uint64_t len;
	struct timespec t0, last;
	bool show;
};

/* "16.0 MiB", "2.00 GiB" */
static const char *human(uint64_t b, char *buf, size_t len)
{
	if ((double)b < GIB)
		snprintf(buf, len, "%.1f MiB", (double)b / (1024.0 * 1024));
	else
		snprintf(buf, len, "%.2f GiB", (double)b / GIB);
	return buf;
}

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* engine/fill's callback: the live line twice a second, and the stop */
static int watch(void *arg, uint64_t done)
{
	struct fill_watch *w = arg;
	struct timespec now;
	char line[256];
	double s, rate;

	if (cli_runner_interrupted())
		return 1;
	if (!w->show)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (since(&w->last, &now) < 0.5)
		return 0;
	w->last = now;
	s = since(&w->t0, &now);
	rate = s > 0 ? (double)done / s : 0;
	snprintf(line, sizeof(line), "[fill] %s %.0f%% of %.2f GiB  %.0f MB/s  ETA %.0fs", w->name,
		 100.0 * (double)done / (double)w->len, (double)w->len / GIB, rate / 1e6,
		 rate > 0 ? (double)(w->len - done) / rate : 0.0);
	cli_progress_line(line);
	return 0;
}

/* The range fill writes on t: the whole target, or --range inside it */
static int fill_range(const struct cli_opts *o, const struct fill_target *t, uint64_t *off,
		      uint64_t *len)
{
	*off = o->range_off;
	*len = o->range_len ? o->range_len : (t->size > o->range_off ? t->size - o->range_off : 0);
	if (!*len || *off + *len > t->size) {
		cli_say("%s: --range %llu:%llu is outside its %llu bytes", t->path,
			(unsigned long long)*off, (unsigned long long)*len,
			(unsigned long long)t->size);
		return -EINVAL;
	}
	if (*off % t->lbs || *len % t->lbs) {
		cli_say("%s: --range must start and end on its %u-byte logical block", t->path, t->lbs);
		return -EINVAL;
	}
	return 0;
}

static int fill_one(const struct cli_opts *o, struct fill_target *t, uint64_t off, uint64_t len)
{
	struct fill_watch w = { .name = t->path, .len = len, .show = cli_progress_enabled(o->quiet) };
	struct eng_fill_result r;
	char a[32], b[32];
	double s;
	int rc;

	if (t->held)
		cli_say("%s: %u of %u sampled blocks hold data: writing over them, as "
			"--overwrite-data says", t->path, t->held, t->sampled);
	clock_gettime(CLOCK_MONOTONIC, &w.t0);
	w.last = w.t0;
	rc = eng_fill(t->fd, off, len, o->bs, o->qd, (uint64_t)w.t0.tv_nsec, watch, &w, &r);
	cli_progress_clear();
	s = (double)r.elapsed_ns / 1e9;
	if (rc == -EINTR) {
		cli_say("%s: stopped after %s of %s: the rest of its range is as it was", t->path,
			human(r.bytes, a, sizeof(a)), human(len, b, sizeof(b)));
		return rc;
	}
	if (rc) {
		cli_say("%s: a write failed (%s) at byte %llu, after %s", t->path, strerror(-rc),
			(unsigned long long)r.fail_off, human(r.bytes, a, sizeof(a)));
		return rc;
	}
	printf("%s: wrote %s (bytes %llu to %llu) in %.1f s: %.0f MB/s\n", t->path,
	       human(len, a, sizeof(a)), (unsigned long long)off, (unsigned long long)(off + len), s,
	       s > 0 ? (double)len / s / 1e6 : 0.0);
	fflush(stdout);
	return 0;
}

static int cmd_fill(int argc, char **argv)
{
	struct cli_opts o;
	struct fill_target *t = NULL;
	uint64_t *off = NULL, *len = NULL;
	unsigned i, n = 0;
	int rc = cli_opts_cmdline(&o, &cli_verb_fill, argc, argv), bad = 0;

	if (!rc && !o.ntargets) {
		cli_say("names no TARGET: fill writes the block devices or files it is given");
		rc = -EINVAL;
	}
	if (!rc && o.qd > FILL_MAX_QD) {
		cli_say("--qd %u: fill keeps at most %u writes in flight", o.qd, FILL_MAX_QD);
		rc = -EINVAL;
	}
	if (!rc && o.bs < 4096) {
		cli_say("--bs %u: fill writes at least 4k at a time", o.bs);
		rc = -EINVAL;
	}
	if (rc)
		return cli_exit_status(rc);
	t = calloc(o.ntargets, sizeof(*t));
	off = calloc(o.ntargets, sizeof(*off));
	len = calloc(o.ntargets, sizeof(*len));
	if (!t || !off || !len) {
		cli_say("out of memory");
		rc = -ENOMEM;
		goto out;
	}
	/* every target, every refusal said, before the first write */
	for (i = 0; i < o.ntargets; i++, n++) {
		t[i].path = o.targets[i];
		rc = fill_target_stat(&t[i]);
		if (!rc)
			rc = fill_target_twice(t, i);
		if (!rc)
			rc = fill_target_open(&t[i]);
		if (!rc)
			rc = fill_range(&o, &t[i], &off[i], &len[i]);
		if (!rc)
			rc = fill_data_check(&t[i], off[i], len[i], eng_rng_seed(o.seed, i),
					     o.overwrite_data);
		if (rc && (!bad || rc != -EINVAL))
			bad = rc;
	}
	if (!bad && !o.yes_destroy) {
		cli_say("writes over every block of its targets: add --yes-destroy-data to mean it");
		bad = -EINVAL;
	}
	rc = bad;
	if (!rc)
		cli_runner_signals();
	for (i = 0; !rc && i < o.ntargets; i++)
		rc = fill_one(&o, &t[i], off[i], len[i]);
out:
	for (i = 0; i < n; i++)
		fill_target_close(&t[i]);
	free(t);
	free(off);
	free(len);
	return cli_exit_status(rc);
}
