/* The output layer: every command's units, number formats, the choice of
 * stream for the text, the error and note lines, and the JSON file. A
 * command prints its table to cli_out_text(), says what went wrong with
 * cli_say(), and ends with cli_out_json(), whose file main.c reserved
 * with cli_out_reserve() before the command began. */
#ifndef CLI_REPORT_OUT_H
#define CLI_REPORT_OUT_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/opts/opts.h"
#include "cli/report/json_dump.h"
#include "cli/report/outpath.h"
#include "cli/report/say.h"

/* ---- streams and files ---- */

/* Where the text report goes: stdout, or stderr when --json - or --stream -
 * gives stdout to the JSON alone. */
FILE *cli_out_text(const struct cli_opts *o);
/* --stream tells the output layer that it is open (cli/live/stream.c):
 * whether it took stdout, and report, which gets every report that
 * cli_out_json writes (NULL: closed, none). */
void cli_out_stream(bool on_stdout, void (*report)(json_t *report));
/* Whether anyone reads the command's JSON report: --json, or --stream's
 * end line. A command builds it only then. */
bool cli_out_report_wanted(const struct cli_opts *o);

/* Every JSON document's "schema". */
#define CLI_JSON_SCHEMA "iostorm/1"
/* How the reports are serialised (topo keeps its own, older flags). */
#define CLI_JSON_REPORT (JSON_INDENT(2) | JSON_REAL_PRECISION(12))

/* ---- a report's file, reserved before the work that fills it ---- */

/* A report that cannot be written is lost with all the work behind it (a
 * 30-minute saturate), so its file is made ready first, before any IO,
 * and only filled at the end. Its path passes cli_outpath_check first
 * (cli/report/outpath.h: a file, a FIFO, /dev/null or a terminal; no
 * operand, no other output; symlinks as protected_symlinks allows). A
 * regular file (or a new one) gets REAL.tmp-XXXXXX beside the file the
 * path resolves to, created at once with that file's mode (or fopen's),
 * filled, synced and renamed over it, so a reader never sees half a
 * report, a failed or killed run leaves the previous file whole, and a
 * symlink to it stays a symlink. The rest is written in place, never
 * renamed over: /dev/null, a terminal, or a file reached through /proc
 * (/dev/stdout) is opened (not truncated) at once; a FIFO is only checked
 * for write permission, since opening it waits for a reader and a run
 * must not wait for one. */
struct cli_outfile {
	const char *path;	/* the destination as named; NULL: none reserved */
	struct cli_outpath at;	/* what it is, resolved */
	char tmp[PATH_MAX];	/* the temporary beside at.real; "": in place */
	int fd;			/* -1: opened at the end (a FIFO) */
	bool trunc;		/* in place on a regular file: emptied at the end */
};

/* Reserves path (not "-") into f. 0 or -errno with f->at.why saying why
 * (-EINVAL: not something a report may be written over, a usage error);
 * on failure nothing is left on disk and f holds nothing else. */
int cli_outfile_reserve(struct cli_outfile *f, const char *path);
/* The fd to write the report into: the temporary, or path in place
 * (opened now if it was left to the end; emptied if it is a regular
 * file). >= 0, or -errno. */
int cli_outfile_fd(struct cli_outfile *f);
/* The end of a report written into cli_outfile_fd: the temporary synced,
 * closed and renamed over path; in place, closed. 0 or -errno; either
 * way f holds nothing after, and no temporary is left. */
int cli_outfile_commit(struct cli_outfile *f);
/* Drops a reservation: its fd closed, its temporary removed. Harmless on
 * an empty or already committed f. */
void cli_outfile_discard(struct cli_outfile *f);

/* ---- the JSON report ---- */

/* Reserves the JSON report's file (cli_outfile_reserve) before the
 * command does any IO: main.c calls it once the verb's options parse,
 * iostorm-mpi's rank 0 in its setup. NULL or "-" (stdout) need nothing.
 * A path that cannot be written is said in one line ("PATH: reason") and
 * returns -errno; 0 otherwise. The reservation is dropped by
 * cli_out_release or at exit(), whichever comes first. */
int cli_out_reserve(const char *path);
/* Drops the JSON reservation, if any: its temporary is removed. */
void cli_out_release(void);

/* Writes j and a final newline to path ("-": stdout), through the
 * reservation when path is the reserved one, else reserving it now (see
 * struct cli_outfile). 0, or -errno with err filled: "PATH: reason" when
 * path cannot be written at all, "PATH: cannot write the JSON report:
 * reason" when writing it failed (the previous file is left whole). */
int cli_json_write(const json_t *j, const char *path, size_t flags, char *err,
		   size_t errlen);
/* The end of a command that reports: j (whose reference it takes; NULL
 * means building it ran out of memory) written to path with
 * cli_json_write, a failure said in one line, and handed to --stream's
 * end line (cli/live/stream.h); path NULL: only that. Returns 0 or
 * -errno. A command calls it when cli_out_report_wanted(o). */
int cli_out_json(const char *path, json_t *j, size_t flags);
/* cli_out_json for a report too large to hold whole: its member
 * rows->key made an element at a time as it is written (json_dump.h). */
int cli_out_json_rows(const char *path, json_t *j, size_t flags,
		      const struct cli_json_rows *rows);

#endif
