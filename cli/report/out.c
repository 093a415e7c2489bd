/* The output layer: one stream choice, and one way to reserve a report's
 * file before the work and write it after (the lines and formats it
 * shares with every command are cli/report/say.c's). */
#include "cli/report/out.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"

/* What --stream asked of the output layer (cli_out_stream): whether it
 * took stdout, and where each command's report goes beside --json. The
 * stream calls in; this layer never calls the stream, so the two are no
 * include circle. */
static bool stream_stdout;
static void (*stream_report)(json_t *report);

void cli_out_stream(bool on_stdout, void (*report)(json_t *report))
{
	stream_stdout = on_stdout;
	stream_report = report;
}

bool cli_out_report_wanted(const struct cli_opts *o)
{
	return o->json || stream_report;
}

FILE *cli_out_text(const struct cli_opts *o)
{
	return (o->json && !strcmp(o->json, "-")) || stream_stdout ? stderr : stdout;
}

/* ---- a report's file ---- */

/* The mode fopen would leave: the file's own, or 0666 less the umask. */
static mode_t file_mode(const struct cli_outpath *p)
{
	mode_t mask;

	if (p->kind == CLI_OUTPATH_FILE)
		return p->st.st_mode & 07777;
	mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

/* REAL.tmp-XXXXXX beside the file, with its mode. */
static int reserve_tmp(struct cli_outfile *f)
{
	int fd, rc;

	if (snprintf(f->tmp, sizeof(f->tmp), "%s.tmp-XXXXXX", f->at.real) >= (int)sizeof(f->tmp)) {
		f->tmp[0] = '\0';
		return -ENAMETOOLONG;
	}
	fd = mkostemp(f->tmp, O_CLOEXEC);
	if (fd < 0) {
		f->tmp[0] = '\0';
		return -errno;
	}
	if (fchmod(fd, file_mode(&f->at))) {
		rc = -errno;
		close(fd);
		unlink(f->tmp);
		f->tmp[0] = '\0';
		return rc;
	}
	f->fd = fd;
	return 0;
}

/* Written in place (see out.h): opened now, but a FIFO, only checked. */
static int reserve_in_place(struct cli_outfile *f)
{
	int fd;

	if (f->at.kind == CLI_OUTPATH_FIFO)
		return faccessat(AT_FDCWD, f->at.real, W_OK, AT_EACCESS) ? -errno : 0;
	fd = cli_outpath_open(&f->at, 0);
	if (fd < 0)
		return fd;
	f->fd = fd;
	f->trunc = f->at.kind == CLI_OUTPATH_FILE;
	return 0;
}

int cli_outfile_reserve(struct cli_outfile *f, const char *path)
{
	enum cli_outpath_kind k;
	int rc;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	rc = cli_outpath_check(path, &f->at);
	if (rc)
		return rc;
	k = f->at.kind;
	if ((k == CLI_OUTPATH_FILE || k == CLI_OUTPATH_NEW) && !f->at.magic)
		rc = reserve_tmp(f);
	else
		rc = reserve_in_place(f);
	if (rc) {
		snprintf(f->at.why, sizeof(f->at.why), "%s", strerror(-rc));
		return rc;
	}
	f->path = path;
	return 0;
}

int cli_outfile_fd(struct cli_outfile *f)
{
	int fd;

	if (!f->path)
		return -EBADF;
	/* a FIFO waits here for its reader, as fopen did; a signal ends the
	 * wait (the stop handler has no SA_RESTART), so ^C still ends it */
	if (f->fd < 0) {
		fd = cli_outpath_open(&f->at, 0);
		if (fd < 0)
			return fd;
		f->fd = fd;
	}
	if (f->trunc && ftruncate(f->fd, 0))
		return -errno;
	f->trunc = false;
	return f->fd;
}

int cli_outfile_commit(struct cli_outfile *f)
{
	int rc = f->path ? 0 : -EBADF;

	/* on disk before the name points at it: a crash leaves the old report
	 * or the new one, never an empty file */
	if (!rc && f->tmp[0] && fsync(f->fd))
		rc = -errno;
	if (f->fd >= 0 && close(f->fd) && !rc)
		rc = -errno;
	f->fd = -1;
	if (!rc && f->tmp[0] && rename(f->tmp, f->at.real))
		rc = -errno;
	if (!rc)
		f->tmp[0] = '\0';
	cli_outfile_discard(f);
	return rc;
}

void cli_outfile_discard(struct cli_outfile *f)
{
	if (f->fd >= 0)
		close(f->fd);
	if (f->tmp[0])
		unlink(f->tmp);
	f->fd = -1;
	f->tmp[0] = '\0';
	f->path = NULL;
	f->trunc = false;
}

/* ---- the JSON report ---- */

/* The report's file, reserved by main.c before the command runs. */
static struct cli_outfile json_file = { .fd = -1 };

void cli_out_release(void)
{
	cli_outfile_discard(&json_file);
}

int cli_out_reserve(const char *path)
{
	static bool at_exit;
	int rc;

	cli_out_release();
	if (!path || !strcmp(path, "-"))
		return 0;
	/* a command that ends with exit() leaves no temporary either */
	if (!at_exit && atexit(cli_out_release)) {
		cli_say("%s: cannot arrange to remove its temporary file at exit", path);
		return -ENOMEM;
	}
	at_exit = true;
	rc = cli_outfile_reserve(&json_file, path);
	if (rc) {
		cli_say("%s: %s", path, json_file.at.why);
		return rc;
	}
	rc = cli_outpath_claim_checked(path, "--json's file", &json_file.at);
	if (rc) {
		cli_out_release();
		cli_say("out of memory");
	}
	return rc;
}


/* j (with rows, see json_dump.h) and a newline into f's file, committed;
 * f dropped either way. */
static int write_report(struct cli_outfile *f, const json_t *j, size_t flags,
			const struct cli_json_rows *rows)
{
	int fd = cli_outfile_fd(f);
	int rc = fd < 0 ? fd : cli_json_dump_fd(fd, j, flags, rows);

	if (rc) {
		cli_outfile_discard(f);
		return rc;
	}
	return cli_outfile_commit(f);
}

/* j and a newline to stdout, after what stdio holds: 0 or -errno. */
static int dump_stdout(const json_t *j, size_t flags, const struct cli_json_rows *rows)
{
	if (fflush(stdout))
		return -errno;
	return cli_json_dump_fd(STDOUT_FILENO, j, flags, rows);
}

/* cli_json_write, with rows. */
static int json_write(const json_t *j, const struct cli_json_rows *rows, const char *path,
		      size_t flags, char *err, size_t errlen)
{
	struct cli_outfile own, *f = &json_file;
	int rc;

	if (!strcmp(path, "-")) {
		rc = dump_stdout(j, flags, rows);
		if (rc)
			snprintf(err, errlen, "stdout: cannot write the JSON report: %s",
				 strerror(-rc));
		return rc;
	}
	if (!json_file.path || strcmp(json_file.path, path)) {
		f = &own;
		rc = cli_outfile_reserve(f, path);
		if (rc) {
			snprintf(err, errlen, "%s: %s", path, f->at.why);
			return rc;
		}
	}
	rc = write_report(f, j, flags, rows);
	if (rc)
		snprintf(err, errlen, "%s: cannot write the JSON report: %s", path,
			 strerror(-rc));
	return rc;
}

int cli_json_write(const json_t *j, const char *path, size_t flags, char *err,
		   size_t errlen)
{
	return json_write(j, NULL, path, flags, err, errlen);
}

int cli_out_json_rows(const char *path, json_t *j, size_t flags, const struct cli_json_rows *rows)
{
	char err[PATH_MAX + 128];
	int rc;

	if (!j) {
		cli_say("cannot build the JSON report (out of memory)");
		return -ENOMEM;
	}
	/* --stream's end line carries the same report (with rows, merge's:
	 * merge has no stream) */
	if (stream_report)
		stream_report(j);
	if (!path) {
		json_decref(j);
		return 0;
	}
	rc = json_write(j, rows, path, flags, err, sizeof(err));
	json_decref(j);
	if (rc)
		cli_say("%s", err);
	return rc;
}

int cli_out_json(const char *path, json_t *j, size_t flags)
{
	return cli_out_json_rows(path, j, flags, NULL);
}
