/* The lines every command says and the formats its figures share: the
 * units, the latency format, the prefixed and escaped lines on stderr.
 * cli/report/out.h includes it; the layers below out.h (outpath, json_dump)
 * include it alone. */
#ifndef CLI_REPORT_SAY_H
#define CLI_REPORT_SAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/pctci.h"

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

/* A percentile v with its 95% interval c (model/pctci.h) as every table
 * prints one: cli_fmt_us's figure, with "~" after it where the interval
 * is wider than +-10% (or an end is unbounded), and "(N)" in its place
 * where only N < MODEL_PCT_MIN_BEYOND IOs lie beyond it: too few to state
 * it. A c with no IOs (none worked out) is the figure alone; "-" when has
 * is false. The marks used are or'ed into *marks (NULL: none kept), for
 * cli_pct_legend. Returns buf. */
#define CLI_PCT_WIDE 0x1u
#define CLI_PCT_FEW 0x2u
const char *cli_fmt_pct_ci(char *buf, size_t len, uint64_t v, const struct model_pct_ci *c,
			   bool has, unsigned *marks);
/* The line under a table that explains the marks used (nothing for none). */
void cli_pct_legend(FILE *f, unsigned marks);

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

#endif
