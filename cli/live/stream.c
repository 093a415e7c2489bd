/* JSON lines of the command's live figures: see stream.h and docs/json.md. */
#include "cli/live/stream.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/live/live.h"
#include "cli/report/json.h"
#include "cli/report/out.h"
#include "engine/hist.h"

static struct {
	int fd;			/* -1: closed */
	const char *path;
	const char *command;
	int rank;		/* -1: not under iostorm-mpi */
	bool header;		/* written */
	bool cut;		/* a write failed: nothing more is written */
	bool stalled;		/* a stall event was written */
	bool pinned;		/* the report is the rank's own (mpi) */
	/* a regular file: nothing is written into it before the first run
	 * commits the command (header); it is emptied then */
	bool file;
	bool created;		/* the file was not there: removed if never used */
	struct cli_outpath at;	/* what the path is, resolved */
	json_t *report;
} st = { .fd = -1, .rank = -1 };

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * CLI_NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* j (whose reference it takes) as one line, in one write(2). */
static void put(json_t *j)
{
	char *txt;
	size_t len;
	int rc;

	if (!j)
		return;
	if (st.fd < 0 || st.cut) {
		json_decref(j);
		return;
	}
	txt = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(12));
	json_decref(j);
	if (!txt) {
		rc = -ENOMEM;
	} else {
		len = strlen(txt);
		txt[len] = '\n';	/* json_dumps' NUL: the line is len + 1 */
		rc = cli_write_all(st.fd, txt, len + 1);
		free(txt);
	}
	if (rc) {
		st.cut = true;
		cli_say("--stream %s: cannot write: %s: the stream is cut here",
			st.path, strerror(-rc));
	}
}

/* The histogram of an interval: null without latency; only the non-empty
 * buckets, each by its lower bound. */
static json_t *hist_json(const struct eng_hist *h)
{
	json_t *b, *j;
	uint64_t lo, hi;
	unsigned i;

	if (!h)
		return json_null();
	b = json_array();
	for (i = 0; b && i < ENG_HIST_BUCKETS; i++) {
		if (!h->b[i])
			continue;
		eng_hist_bounds(i, &lo, &hi);
		if (json_array_append_new(b, json_pack("[I, I]", (json_int_t)lo, (json_int_t)h->b[i]))) {
			json_decref(b);
			b = NULL;
		}
	}
	j = json_pack("{s:I, s:I, s:f, s:o, s:o, s:o?}", "count", (json_int_t)h->count,
		      "sum_ns", (json_int_t)h->sum_ns, "sumsq", h->sumsq,
		      "min_ns", h->count ? json_integer((json_int_t)h->min_ns) : json_null(),
		      "max_ns", h->count ? json_integer((json_int_t)h->max_ns) : json_null(),
		      "buckets", b);
	return j;
}

static void put_interval(const struct cli_interval_set *s, const struct cli_interval *iv)
{
	json_t *j = json_pack("{s:s, s:I, s:o, s:f, s:f, s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:I,"
			      " s:o}",
			      "type", "interval", "run", (json_int_t)s->run,
			      "device", iv->device ? json_string(iv->device) : json_null(),
			      "t0", iv->t0_s, "t1", iv->t1_s, "t1_seen", iv->t1_seen_s,
			      "ios", (json_int_t)iv->ios,
			      "bytes", (json_int_t)iv->bytes, "errors", (json_int_t)iv->errors,
			      "inflight", (json_int_t)iv->inflight,
			      "cpu_ns", (json_int_t)iv->cpu_ns,
			      "user_ns", (json_int_t)iv->user_ns, "sys_ns", (json_int_t)iv->sys_ns,
			      "hist", hist_json(iv->hist));

	if (j && s->last)
		json_object_set_new(j, "last", json_true());
	put(j);
}

static void on_interval(void *ctx, const struct cli_interval_set *s)
{
	unsigned i;

	(void)ctx;
	for (i = 0; i < s->ndev; i++)
		put_interval(s, &s->dev[i]);
	put_interval(s, s->total);
}

static void on_window(void *ctx, const struct cli_live_window *w)
{
	json_t *devs = json_array();
	unsigned i;

	(void)ctx;
	for (i = 0; devs && i < w->ndev; i++)
		json_array_append_new(devs, json_string(w->devices[i]));
	put(json_pack("{s:s, s:I, s:s, s:I, s:f, s:f, s:o}", "type", "window",
		      "run", (json_int_t)w->run, "label", w->label,
		      "wall_start_ns", (json_int_t)w->wall_start_ns,
		      "interval_s", cli_secs(w->interval_ns), "time_s", cli_secs(w->time_ns),
		      "devices", devs ? devs : json_null()));
}

static void on_event(void *ctx, const struct cli_live_event *e)
{
	(void)ctx;
	if (!strcmp(e->what, "stall"))
		st.stalled = true;
	put(json_pack("{s:s, s:I, s:o, s:f, s:s, s:s}", "type", "event",
		      "run", (json_int_t)e->run,
		      "device", e->device ? json_string(e->device) : json_null(),
		      "t", e->t_s, "what", e->what, "text", e->text));
}

static void on_start(void *ctx, const struct cli_live_start *s);

static const struct cli_live_sink sink = {
	.start = on_start, .window = on_window, .interval = on_interval, .event = on_event,
};

/* path opened for the stream (see stream.h), checked first. fd, or
 * -errno said. */
static int open_path(const char *path)
{
	struct cli_outpath *p = &st.at;
	int fd, fl, rc;

	rc = cli_outpath_check(path, p);
	if (rc) {
		cli_say("--stream %s: %s", path, p->why);
		return rc;
	}
	st.file = (p->kind == CLI_OUTPATH_FILE || p->kind == CLI_OUTPATH_NEW) && !p->magic;
	st.created = p->kind == CLI_OUTPATH_NEW;
	/* no O_TRUNC: emptied when the command commits (header) */
	fd = cli_outpath_open(p, O_APPEND | O_NONBLOCK | (st.file ? O_CREAT : 0));
	if (fd < 0) {
		cli_say("--stream %s: %s", path,
			fd == -ENXIO ? "a FIFO with no reader yet" :
			fd == -ESTALE || fd == -ELOOP ? "changed while it was checked" :
			strerror(-fd));
		return fd;
	}
	/* blocking from now on: a slow reader slows the stream, never cuts it */
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		fl = -errno;
		cli_say("--stream %s: %s", path, strerror(-fl));
		close(fd);
		return fl;
	}
	return fd;
}

/* A file the stream created and never wrote: removed, if its name still
 * names it. */
static void remove_unused(void)
{
	struct stat a, b;

	if (st.created && !st.header && !fstat(st.fd, &a) && !lstat(st.at.real, &b) &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		unlink(st.at.real);
}

int cli_stream_open(const char *path, const char *command)
{
	int fd = strcmp(path, "-") ? open_path(path) : STDOUT_FILENO;

	if (fd < 0)
		return fd;
	if (fd != STDOUT_FILENO && cli_outpath_claim_checked(path, "--stream's file", &st.at)) {
		cli_say("out of memory");
		close(fd);
		return -ENOMEM;
	}
	if (cli_live_add(&sink, NULL)) {
		cli_say("--stream %s: too many live sinks", path);
		if (fd != STDOUT_FILENO)
			close(fd);
		return -ENOSPC;
	}
	st.fd = fd;
	st.path = path;
	st.command = command;
	cli_out_stream(fd == STDOUT_FILENO, cli_stream_report);
	return 0;
}

void cli_stream_rank(int rank)
{
	st.rank = rank;
}

/* The options as the report's config has them, less what only a run
 * knows (the mode and engine it used, its buffers). */
static json_t *options_json(const struct cli_opts *o)
{
	struct cli_report r;
	json_t *j;

	memset(&r, 0, sizeof(r));
	r.mode = o->mode;
	j = cli_json_config(o, &r);
	if (j) {
		json_object_del(j, "completion_used");
		json_object_del(j, "engine_used");
		json_object_del(j, "fixed_buffers");
	}
	return j;
}

/* The header line, once: the setup record and the options (both null for
 * a command that ended before its first run). */
static void header(const struct cli_opts *o, const json_t *setup)
{
	char host[HOST_NAME_MAX + 1] = "";
	uint64_t tick;
	json_t *j;

	if (st.fd < 0 || st.header)
		return;
	/* a regular file is the command's only once it commits to a run: one
	 * that ended before leaves the file as it was */
	if (st.file && !o)
		return;
	st.header = true;
	if (st.file && ftruncate(st.fd, 0)) {
		st.cut = true;
		cli_say("--stream %s: cannot empty it: %s: nothing is written", st.path,
			strerror(errno));
		return;
	}
	(void)gethostname(host, sizeof(host) - 1);
	tick = eng_cpu_tick_ns();
	j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:f, s:o, s:{s:s, s:i, s:i}, s:O?, s:o}",
		      "type", "header", "schema", CLI_STREAM_SCHEMA, "version", IOSTORM_VERSION,
		      "host", host, "command", st.command, "wall_ns", (json_int_t)wall_ns(),
		      "interval_s", o ? cli_secs(o->interval_ns) : 1.0,
		      "cpu_tick_ns", tick ? json_integer((json_int_t)tick) : json_null(),
		      "hist", "kind", "log-linear", "sub_bits", ENG_HIST_SUB_BITS,
		      "max_exp", ENG_HIST_MAX_EXP,
		      "setup", setup, "options", o ? options_json(o) : json_null());
	if (j && st.rank >= 0)
		json_object_set_new(j, "rank", json_integer(st.rank));
	put(j);
}

static void on_start(void *ctx, const struct cli_live_start *s)
{
	(void)ctx;
	header(s->o, s->setup);
}

void cli_stream_report_pin(json_t *report)
{
	if (st.fd < 0)
		return;
	json_decref(st.report);
	st.report = json_incref(report);
	st.pinned = true;
}

void cli_stream_report(json_t *report)
{
	if (st.fd < 0 || st.pinned)
		return;
	json_decref(st.report);
	st.report = json_incref(report);
}

int cli_stream_end(int exit_status, bool interrupted)
{
	const char *how = interrupted ? "interrupted" : st.stalled ? "stalled" :
			  exit_status ? "failed" : "completed";

	if (st.fd < 0)
		return exit_status;
	header(NULL, NULL);
	if (st.header || !st.file) {
		/* "o" takes the report's reference */
		put(json_pack("{s:s, s:s, s:i, s:o}", "type", "end", "how", how,
			      "exit", exit_status, "report", st.report ? st.report : json_null()));
		st.report = NULL;
	}
	json_decref(st.report);
	st.report = NULL;
	remove_unused();
	cli_live_remove(&sink, NULL);
	cli_out_stream(false, NULL);
	if (st.fd != STDOUT_FILENO)
		close(st.fd);
	st.fd = -1;
	return st.cut && !exit_status ? CLI_EXIT_RUNTIME : exit_status;
}
