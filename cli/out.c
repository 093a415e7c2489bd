/* The output layer: one prefix for every line on stderr. */
#include "cli/out.h"

#include <stdarg.h>
#include <stdio.h>

/* The running command: set once by its front end, read by every line. */
static const char *verb;

void cli_out_verb(const char *name)
{
	verb = name;
}

void cli_say(const char *fmt, ...)
{
	va_list ap;

	if (verb)
		fprintf(stderr, "iostorm %s: ", verb);
	else
		fputs("iostorm: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
