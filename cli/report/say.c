/* The lines every command says and the formats its figures share: one
 * prefix for every line on stderr, control characters escaped, one
 * latency format. The lowest layer of cli/report: it includes none of it. */
#include "cli/report/say.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The running command: set once by its front end, read by every line. */
static const char *verb;
/* Where cli_say's lines go instead of stderr (cli_out_sink). */
static void (*sink)(void *ctx, const char *line);
static void *sink_ctx;

const char *cli_fmt_us(char *buf, size_t len, double ns, bool known)
{
	double us = ns / CLI_NS_PER_US;

	if (!known)
		snprintf(buf, len, "-");
	else if (us < 10.0)
		snprintf(buf, len, "%.2f", us);
	else if (us < 1000.0)
		snprintf(buf, len, "%.1f", us);
	else
		snprintf(buf, len, "%.0f", us);
	return buf;
}

void cli_out_verb(const char *name)
{
	verb = name;
}

/* s with every control character (a job file's binary bytes, a path or a
 * sysfs string with an escape sequence) written as \xNN, so a message is
 * one harmless line on a terminal. */
void cli_put_escaped(const char *s, FILE *f)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

void cli_out_sink(void (*fn)(void *ctx, const char *line), void *ctx)
{
	sink = fn;
	sink_ctx = ctx;
}

/* line with control characters as \xNN, cut to fit len. */
static void escape_into(char *buf, size_t len, const char *line)
{
	size_t at = 0;

	for (; *line && at + 5 < len; line++) {
		unsigned char c = (unsigned char)*line;

		if (c < 0x20 || c == 0x7f)
			at += (size_t)snprintf(buf + at, len - at, "\\x%02x", c);
		else
			buf[at++] = (char)c;
	}
	buf[at] = '\0';
}

void cli_say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (sink) {
		char esc[4 * sizeof(line)];

		va_start(ap, fmt);
		vsnprintf(line, sizeof(line), fmt, ap);
		va_end(ap);
		escape_into(esc, sizeof(esc), line);
		sink(sink_ctx, esc);
		return;
	}
	if (verb)
		fprintf(stderr, "iostorm %s: ", verb);
	else
		fputs("iostorm: ", stderr);
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	cli_put_escaped(line, stderr);
	fputc('\n', stderr);
}

const char *cli_fmt_pct_ci(char *buf, size_t len, uint64_t v, const struct model_pct_ci *c,
			   bool has, unsigned *marks)
{
	unsigned m = 0;
	size_t at;

	if (!has)
		return cli_fmt_us(buf, len, 0, false);
	if (c->ios && !c->figure) {
		snprintf(buf, len, "(%llu)", (unsigned long long)c->beyond);
		m = CLI_PCT_FEW;
	} else {
		cli_fmt_us(buf, len, (double)v, true);
		at = strlen(buf);
		if (c->ios && c->wide && at + 1 < len) {
			snprintf(buf + at, len - at, "~");
			m = CLI_PCT_WIDE;
		}
	}
	if (marks)
		*marks |= m;
	return buf;
}

void cli_pct_legend(FILE *f, unsigned marks)
{
	if (marks & CLI_PCT_WIDE)
		fprintf(f, "~: that percentile's 95%% interval is wider than +-%.0f%% of it (the JSON's _ci keys give each interval)\n",
			100.0 * MODEL_PCT_WIDE);
	if (marks & CLI_PCT_FEW)
		fprintf(f, "(N): only N IOs lie beyond that percentile, fewer than %u: too few to state it\n",
			MODEL_PCT_MIN_BEYOND);
}
