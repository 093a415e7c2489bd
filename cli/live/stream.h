/* --stream FILE: the command's live figures as JSON lines (docs/json.md,
 * schema "iostorm-stream/1"): a header once, a "window" line when each
 * measured window starts, an "interval" line per device and interval and
 * one for their total, "event" lines (a stall), and an "end" line with
 * how the command ended and its JSON report. Each line is one write(2),
 * so a run killed at any point leaves whole lines and at most one cut
 * last line. A write that fails (a full disk, a reader gone) is said
 * once and cuts the stream there: the run goes on, and the command exits
 * 1 as for a JSON report it could not write. */
#ifndef CLI_LIVE_STREAM_H
#define CLI_LIVE_STREAM_H

#include <jansson.h>
#include <stdbool.h>

#include "cli/opts/opts.h"

#define CLI_STREAM_SCHEMA "iostorm-stream/1"

/* Opens path ("-": stdout) for command, before the command's first IO
 * (main.c, and iostorm-mpi's ranks); adds the stream's sink
 * (cli/live/live.h). The path passes cli_outpath_check first
 * (cli/report/outpath.h: a file, a FIFO, /dev/null or a terminal, no
 * operand and no other output: else -EINVAL) and is claimed as
 * "--stream's file". A FIFO must have its reader already (a run never
 * waits for one). A regular file is opened for appending and emptied
 * only when the command commits to its first run (the header line):
 * one that ends before (a usage error, a bad target, a port in use)
 * leaves it as it was, and removes it if the stream created it; a
 * reader following it (tail -f) keeps its place. A path that cannot be
 * written is said in one line ("--stream PATH: reason") and returns
 * -errno. */
int cli_stream_open(const char *path, const char *command);
/* (Whether it is open, and on stdout, the output layer is told:
 * cli_out_stream, cli/report/out.h.) */
/* With iostorm-mpi: the rank the header names; -1: none (the default). */
void cli_stream_rank(int rank);
/* The command's report (what --json writes; a new reference is taken),
 * for the end line. The last one given wins. */
void cli_stream_report(json_t *report);
/* Under iostorm-mpi: each rank's end line carries its own host's entry
 * (what rank 0 gathers into the cluster report's hosts[]), not the cluster
 * report rank 0 writes after: report (a new reference is taken) is kept,
 * and cli_stream_report is ignored from now on. */
void cli_stream_report_pin(json_t *report);
/* The end line (its header first if no run started: cli/live/live.h's
 * start hook writes it otherwise) (how: from the exit status, SIGINT/SIGTERM, a stall said),
 * and the stream closed. Returns the exit status, 1 where it was 0 and
 * the stream was cut. */
int cli_stream_end(int exit_status, bool interrupted);

#endif
