/* The output layer: every command's units, number formats, the choice of
 * stream for the text, the error and note lines, and the JSON file. A
 * command prints its table to cli_out_text(), says what went wrong with
 * cli_say(), and ends with cli_out_json(). */
#ifndef CLI_OUT_H
#define CLI_OUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/opts.h"

/* ---- units ---- */

#define CLI_NS_PER_S 1000000000ull
#define CLI_NS_PER_US 1000.0
#define CLI_MIB (1024.0 * 1024.0)

static inline double cli_secs(uint64_t ns)
{
	return (double)ns / (double)CLI_NS_PER_S;
}

/* ---- number formats ---- */

/* A latency in microseconds with the precision a reader needs: 1.23
 * below 10, 123.4 below 1000, 1234 above; "-" when the figure is not
 * known. Returns buf. */
const char *cli_fmt_us(char *buf, size_t len, double ns, bool known);

/* ---- lines on stderr ---- */

/* Names the running command in every line from now on: "iostorm VERB: ".
 * Before a command runs (main.c's own errors) the prefix is "iostorm: ". */
void cli_out_verb(const char *name);
/* One error or note line on stderr, with the prefix and a newline. */
void cli_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* From now on every cli_say line goes to fn, escaped and without the
 * prefix, instead of stderr; fn NULL: stderr again. For the MPI layer,
 * which names the host on each line and holds a setup error for rank 0. */
void cli_out_sink(void (*fn)(void *ctx, const char *line), void *ctx);
/* s to f with control characters as \xNN (cli_say does this to its line). */
void cli_put_escaped(const char *s, FILE *f);

/* ---- streams and files ---- */

/* Where the text report goes: stdout, or stderr when --json - gives stdout
 * to the JSON alone. */
FILE *cli_out_text(const struct cli_opts *o);

/* Every JSON document's "schema". */
#define CLI_JSON_SCHEMA "iostorm/1"
/* How the reports are serialised (topo keeps its own, older flags). */
#define CLI_JSON_REPORT (JSON_INDENT(2) | JSON_REAL_PRECISION(12))

/* Writes j and a final newline to path ("-": stdout). A regular file (or
 * a new one) is written to PATH.tmp-XXXXXX beside it, synced and renamed
 * into place, so a reader never sees half a report and a failed or killed
 * run leaves the previous file whole; anything else (a device, a FIFO, a
 * symlink) is written in place. 0, or -errno with err filled. */
int cli_json_write(const json_t *j, const char *path, size_t flags, char *err,
		   size_t errlen);
/* The end of a command that reports: j (whose reference it takes; NULL
 * means building it ran out of memory) written to path with
 * cli_json_write, a failure said in one line. Returns the exit status. */
int cli_out_json(const char *path, json_t *j, size_t flags);

#endif
