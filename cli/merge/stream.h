/* Reading iostorm's JSON-lines streams (--stream, schema
 * "iostorm-stream/1", docs/json.md) for 'iostorm merge': each stream's
 * header, windows and end, and each device's intervals of each window
 * added up (counts, CPU time, histograms bucket by bucket, kept sparse:
 * mhist.h), only those intervals that lie wholly inside the asked time
 * window. Every figure is checked before it is added: a line whose
 * figures cannot be (a negative count, buckets that do not add up to
 * their count, min above max, IOs in no time, a sum past 64 bits) is bad.
 * A bad line is said ("FILE:LINE: why"), counted and skipped; a stream
 * with no header is refused. */
#ifndef CLI_MERGE_STREAM_H
#define CLI_MERGE_STREAM_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "cli/merge/mhist.h"
#include "cli/report/timeline.h"

#define MG_SCHEMA "iostorm-stream/1"
#define MG_NAME_LEN 64
#define MG_HOST_LEN 80		/* a host's name in the report: "HOST#K" */
#define MG_MAX_BAD 16		/* bad lines kept for the JSON, per stream */
/* The longest line read (bytes, newline included). iostorm writes a few
 * KiB (an interval's histogram: at most 4736 buckets, about 140 KiB);
 * jansson's tree of a line takes up to some 80 times its text (a line of
 * empty objects), so this bounds a line's cost to about 85 MB. A longer
 * line is named and skipped; a longer first line is no stream. The end
 * line, which carries the whole report and grows with the run, is the one
 * exception: over this, its "how" and "exit" are read from its head and
 * its report is left out (docs/merge.md). */
#define MG_LINE_MAX (1u << 20)
/* An interval's t0 and t1 at most (seconds into its window): 100 days,
 * as --from and --to. */
#define MG_MAX_T_S (100.0 * 24 * 3600)

/* One device's intervals of one window of one stream, added up. */
struct mg_acc {
	unsigned stream, run;
	char *dev;			/* as the stream names it; owned */
	unsigned nint;			/* intervals taken */
	uint64_t ios, bytes, errors, user_ns, sys_ns;
	uint64_t cpu_ns;		/* exact; user_ns + sys_ns in a stream
					 * from before it was written */
	uint64_t inflight;		/* at the end of the latest one */
	double dur_s;			/* their lengths, added */
	double t_lo, t_hi;		/* the earliest t0, the latest t1 */
	double err_t0;			/* t0 of the earliest interval with
					 * errors (valid when errors > 0) */
	bool has_hist;			/* some line carried a histogram */
	struct mg_hist hist;		/* owned */
	struct cli_tl_series tl;	/* a sample per interval; owned */
};

/* A window (a run, a sweep's step, a repeat) as a stream started it. */
struct mg_window {
	unsigned run;
	char label[MG_NAME_LEN];
	uint64_t wall_start_ns;
};

struct mg_bad {
	unsigned line;
	char why[160];
};

struct mg_stream {
	const char *path;		/* as given; "-": stdin */
	char host[MG_NAME_LEN];		/* the header's */
	char name[MG_HOST_LEN];		/* in the report: host, or
					 * "host#K" where several share it */
	json_t *header;			/* owned */
	const char *command;		/* in header */
	json_t *end;			/* the end line; NULL: cut short */
	json_t *events;			/* the event lines, an array; owned */
	double last_t1;			/* of its last interval read */
	unsigned last_run;
	unsigned lines;			/* read, the cut one included */
	unsigned nbad;			/* corrupt lines skipped */
	bool end_cut;			/* its end line was over MG_LINE_MAX:
					 * "how" and "exit" kept, no report */
	struct mg_bad bad[MG_MAX_BAD];	/* the first of them */
	unsigned cut_line;		/* its last line, cut mid-line; 0: none */
	struct mg_window *win;
	unsigned nwin;
};

/* What to read: the time window, seconds into each window. */
struct mg_span {
	double from_s, to_s;		/* to_s < 0: to the end */
};

/* What every stream's taken intervals add up to: each sum any report of
 * them holds (a device's, a host's, the total) is at most this, so
 * keeping these within JSON's integers (2^63 - 1) and finite keeps every
 * figure so. */
struct mg_sums {
	uint64_t ios, bytes, errors, user_ns, sys_ns, cpu_ns;
	uint64_t lat_count, lat_sum_ns;
	double lat_sumsq, dur_s;
};

struct mg_set {
	struct mg_stream *s;
	unsigned n;
	struct mg_acc *acc;
	unsigned nacc, capacc;
	json_t *index;			/* "STREAM/RUN/DEVICE": its acc's place */
	struct mg_sums sum;
};

/* Reads the stream at path ("-": stdin) into set as its next stream,
 * taking the intervals that lie wholly within span. 0, or -errno said in
 * one line naming path: -EINVAL for a file that is not a stream (no
 * header, another schema, another histogram, a first line over
 * MG_LINE_MAX); -EISDIR for a directory; another -errno for a file that
 * cannot be opened or read (the read's own errno), or -ENOMEM ("out of
 * memory"), never taken for the file's end. Bad lines after the header
 * are said and counted in the stream, not returned. */
int mg_stream_read(struct mg_set *set, const char *path, const struct mg_span *span);
/* Names the streams for the report (mg_stream.name): "HOST#RANK" or
 * "HOST#K" (K its place from 1) where several streams share a host. */
void mg_set_name(struct mg_set *set);
void mg_set_free(struct mg_set *set);

/* One interval line's histogram into h (emptied first): 0, -ENOMEM, or
 * -EINVAL with why filled: a figure that is not a count, a bucket that is
 * no bucket's lower bound or out of order, buckets that do not add up to
 * "count", min_ns above max_ns or outside the lowest and highest bucket,
 * sum_ns outside count times min_ns and max_ns. For tests too. */
int mg_hist_parse(const json_t *j, struct mg_hist *h, char *why, size_t len);

#endif
