/* The gnuplot side of iostorm plot: strings a report cannot break out of,
 * the common panel settings, and gnuplot run as a child fed the script on
 * its stdin, its picture on its stdout. */
#include "cli/plot/plot_int.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define GP_STR_MAX 120

/* The length of the UTF-8 sequence at s and its code point; 0 when s does
 * not start one (a stray continuation byte, an overlong form, a
 * surrogate, beyond U+10FFFF). */
static size_t utf8_seq(const unsigned char *s, uint32_t *cp)
{
	size_t n, i;
	uint32_t c;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07u;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3fu);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

void cli_gp_str(FILE *gp, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t out = 0, n;
	uint32_t cp;

	fputc('\'', gp);
	while (*p && out < GP_STR_MAX) {
		if (*p == '\'') {
			fputs("''", gp);
			n = 1;
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(gp, "\\x%02x", *p);
			n = 1;
		} else if (*p < 0x80) {
			fputc(*p, gp);
			n = 1;
		} else if (!(n = utf8_seq(p, &cp))) {
			fprintf(gp, "\\x%02x", *p);
			n = 1;
		} else if (cp < 0xa0 || cp == 0xfffe || cp == 0xffff) {
			fprintf(gp, "\\u%04x", (unsigned)cp);
		} else {
			fwrite(p, 1, n, gp);
		}
		p += n;
		out += n;
	}
	if (*p)
		fputs("...", gp);
	fputc('\'', gp);
}

void cli_gp_panel(FILE *gp, const char *title)
{
	/* reset keeps the terminal and the multiplot; the panel starts clean */
	fputs("reset\nset title ", gp);
	cli_gp_str(gp, title);
	fputs("\nset grid\nset key outside right top vertical\n"
	      "set border 3\nset tics nomirror\n", gp);
}

double cli_gp_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *cli_gp_name(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* ---- the child ---- */

/* The last line gnuplot wrote on its stderr (its error message), trimmed. */
static void last_line(int fd, char *err, size_t errlen)
{
	char buf[4096], *line = NULL, *p;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	struct stat st;

	/* the end of a long stderr holds the error */
	if (!fstat(fd, &st) && st.st_size > (off_t)sizeof(buf) - 1)
		n = pread(fd, buf, sizeof(buf) - 1, st.st_size - (off_t)sizeof(buf) + 1);
	buf[n > 0 ? n : 0] = '\0';
	for (p = strtok(buf, "\n"); p; p = strtok(NULL, "\n")) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p && strcmp(p, "^"))
			line = p;
	}
	snprintf(err, errlen, "gnuplot failed: %s", line ? line : "no message");
}

/* gnuplot with stdin the pipe's read end, stdout fd out, stderr fd errfd.
 * 0 with *pid, or the -errno of posix_spawnp (-ENOENT: not installed). */
static int spawn(int in, int out, int errfd, pid_t *pid)
{
	const char *prog = getenv("IOSTORM_GNUPLOT");
	char *argv[] = { "gnuplot", NULL };
	posix_spawn_file_actions_t fa;
	extern char **environ;
	int rc;

	if (!prog || !*prog)
		prog = "gnuplot";
	if (posix_spawn_file_actions_init(&fa))
		return -ENOMEM;
	rc = posix_spawn_file_actions_adddup2(&fa, in, 0);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, out, 1);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, errfd, 2);
	if (!rc)
		rc = posix_spawnp(pid, prog, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return -rc;
}

/* Runs gnuplot on the script, its picture into fd out. */
static int run_gnuplot(const char *script, size_t len, int out, char *err,
		       size_t errlen)
{
	int p[2] = { -1, -1 }, errfd, status = 0, rc, fed;
	pid_t pid;

	/* a file, not a pipe: gnuplot may write more than a pipe holds
	 * while we still feed it */
	errfd = memfd_create("gnuplot-stderr", MFD_CLOEXEC);
	if (errfd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot make a file for gnuplot's messages: %s", strerror(-rc));
		return rc;
	}
	if (pipe2(p, O_CLOEXEC)) {
		rc = -errno;
		snprintf(err, errlen, "cannot make a pipe to gnuplot: %s", strerror(-rc));
		goto out;
	}
	rc = spawn(p[0], out, errfd, &pid);
	if (rc == -ENOENT) {
		snprintf(err, errlen, "gnuplot is not installed (none in PATH): install "
			 "Debian's gnuplot-nox package (apt-get install gnuplot-nox)");
		goto out;
	}
	if (rc) {
		snprintf(err, errlen, "cannot run gnuplot: %s", strerror(-rc));
		goto out;
	}
	close(p[0]);
	p[0] = -1;
	fed = cli_write_all(p[1], script, len);
	close(p[1]);
	p[1] = -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		last_line(errfd, err, errlen);
		rc = -EIO;
	} else if (fed) {
		/* it stopped reading early and still said all was well: the
		 * picture may lack what it did not read */
		snprintf(err, errlen, "gnuplot stopped reading the script: %s", strerror(-fed));
		rc = -EIO;
	}
out:
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	close(errfd);
	return rc;
}

int cli_gp_render(const char *script, size_t len, struct cli_outfile *out, char *err,
		  size_t errlen)
{
	const char *path = out->path;
	int fd = cli_outfile_fd(out), rc;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(-fd));
		cli_outfile_discard(out);
		return fd;
	}
	rc = run_gnuplot(script, len, fd, err, errlen);
	if (rc) {
		cli_outfile_discard(out);
		return rc;
	}
	rc = cli_outfile_commit(out);
	if (rc)
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	return rc;
}
