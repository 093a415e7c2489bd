/* The output layer: one prefix for every line on stderr, one latency
 * format, one stream choice and one way to write a JSON report. */
#include "cli/out.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"

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

FILE *cli_out_text(const struct cli_opts *o)
{
	return o->json && !strcmp(o->json, "-") ? stderr : stdout;
}

/* ---- the JSON file ---- */

/* j and a newline into f, flushed: 0, -EIO from jansson, or -errno. */
static int dump(const json_t *j, FILE *f, size_t flags)
{
	int rc = 0;

	if (json_dumpf(j, f, flags) || fputc('\n', f) == EOF)
		rc = -EIO;
	if (fflush(f) && !rc)
		rc = -errno;
	return rc;
}

/* Something that is there and not a regular file: /dev/null, a FIFO, a
 * symlink. Renaming over it would replace it, so it is written in place. */
static bool write_in_place(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && !S_ISREG(st.st_mode);
}

/* The mode fopen would leave: the file's own, or 0666 less the umask. */
static mode_t file_mode(const char *path)
{
	struct stat st;
	mode_t mask;

	if (!stat(path, &st))
		return st.st_mode & 07777;
	mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

static int write_plain(const json_t *j, const char *path, size_t flags, bool *opened)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return -errno;
	*opened = true;
	rc = dump(j, f, flags);
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}

/* PATH.tmp-XXXXXX, synced, then renamed over path; removed on failure. */
static int write_atomic(const json_t *j, const char *path, size_t flags, bool *opened)
{
	char tmp[PATH_MAX];
	FILE *f;
	int fd, rc;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*opened = true;
	f = fdopen(fd, "w");
	if (!f) {
		rc = -errno;
		close(fd);
		unlink(tmp);
		return rc;
	}
	rc = fchmod(fd, file_mode(path)) ? -errno : dump(j, f, flags);
	/* on disk before the name points at it: a crash leaves the old report
	 * or the new one, never an empty file */
	if (!rc && fsync(fd))
		rc = -errno;
	if (fclose(f) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

int cli_json_write(const json_t *j, const char *path, size_t flags, char *err,
		   size_t errlen)
{
	bool out = !strcmp(path, "-"), opened = out;
	int rc;

	if (out)
		rc = dump(j, stdout, flags);
	else if (write_in_place(path))
		rc = write_plain(j, path, flags, &opened);
	else
		rc = write_atomic(j, path, flags, &opened);
	if (rc && !opened)
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	else if (rc)
		snprintf(err, errlen, "%s: cannot write the JSON report: %s",
			 out ? "stdout" : path, strerror(-rc));
	return rc;
}

int cli_out_json(const char *path, json_t *j, size_t flags)
{
	char err[PATH_MAX + 128];
	int rc;

	if (!j) {
		cli_say("cannot build the JSON report (out of memory)");
		return CLI_EXIT_RUNTIME;
	}
	rc = cli_json_write(j, path, flags, err, sizeof(err));
	json_decref(j);
	if (rc)
		cli_say("%s", err);
	return rc ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}
