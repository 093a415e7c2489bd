/* The output layer: every command's units and its error and note lines. */
#ifndef CLI_OUT_H
#define CLI_OUT_H

#include <stdbool.h>
#include <stdint.h>

/* ---- units ---- */

#define CLI_NS_PER_S 1000000000ull
#define CLI_NS_PER_US 1000.0
#define CLI_MIB (1024.0 * 1024.0)

static inline double cli_secs(uint64_t ns)
{
	return (double)ns / (double)CLI_NS_PER_S;
}

/* ---- lines on stderr ---- */

/* Names the running command in every line from now on: "iostorm VERB: ".
 * Before a command runs (main.c's own errors) the prefix is "iostorm: ". */
void cli_out_verb(const char *name);
/* One error or note line on stderr, with the prefix and a newline. */
void cli_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
