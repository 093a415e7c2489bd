/* Inside the option parser: the table of shared options (opts_table.c)
 * that the getopt front end and job files (opts.c) look up, and the
 * helpers the value parsers (opts_parse.c) lend them. Not for commands:
 * they use cli/opts.h. */
#ifndef CLI_OPTS_IMPL_H
#define CLI_OPTS_IMPL_H

#include "cli/opts/opts.h"
#include "cli/report/say.h"

/* The options every verb draws from by group; ends with a NULL name. */
extern const struct cli_optdesc cli_opts_table[];

/* Formats the message into err; returns -EINVAL. */
int cli_opts_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* names (NULL-terminated) as "a, b or c" in buf; snprintf's return. */
int cli_choices_text(const char *const *names, char *buf, size_t len);
/* A plain decimal number at the start of s: digits only (no sign, no
 * space, no hex), checked for overflow. 0, -EINVAL or -ERANGE; *end is
 * the first character after the digits. */
int cli_parse_digits(const char *s, uint64_t *v, const char **end);

#endif
