/* --stream under iostorm-mpi: each rank writes its own stream, named by
 * its rank or host (docs/mpi.md), with the rank in its header and its
 * own host's entry in its end line. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/live/stream.h"
#include "cli/report/out.h"
#include "mpi/mpi_int.h"

/* o->stream with %r, %h and %% replaced into buf: 0, or -EINVAL with why
 * in why (a usage error), -ENAMETOOLONG. *per_rank: %r or %h was there. */
static int expand(const struct mpi_ctx *m, const char *path, char *buf, size_t len,
		  bool *per_rank, const char **why)
{
	size_t at = 0;
	int n;

	*per_rank = false;
	for (; *path; path++) {
		if (*path != '%') {
			n = snprintf(buf + at, len - at, "%c", *path);
		} else if (path[1] == 'r') {
			n = snprintf(buf + at, len - at, "%d", m->rank);
			*per_rank = true;
			path++;
		} else if (path[1] == 'h') {
			n = snprintf(buf + at, len - at, "%s", m->host);
			*per_rank = true;
			path++;
		} else if (path[1] == '%') {
			n = snprintf(buf + at, len - at, "%%");
			path++;
		} else {
			*why = "a '%' that is not %r (the rank), %h (the host) or %%";
			return -EINVAL;
		}
		if (n < 0 || (size_t)n >= len - at)
			return -ENAMETOOLONG;
		at += (size_t)n;
	}
	return 0;
}

int mpi_rank_path(const struct mpi_ctx *m, const char *opt, const char *pattern, char *buf,
		  size_t len)
{
	const char *why = NULL;
	bool per_rank = false;
	int rc = expand(m, pattern, buf, len, &per_rank, &why);

	if (rc) {
		cli_say("%s %s: %s", opt, pattern, why ? why : strerror(-rc));
		return CLI_EXIT_USAGE;
	}
	if (!per_rank && m->size > 1) {
		cli_say("%s %s: each of the %d ranks writes its own: put %%r (the rank) or %%h (the host) in its name",
			opt, pattern, m->size);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

int mpi_stream_path(const struct mpi_ctx *m, const struct cli_opts *o, const char **out)
{
	/* the stream keeps its path for the command's length */
	static char path[PATH_MAX];
	int rc;

	*out = NULL;
	if (!o->stream)
		return CLI_EXIT_OK;
	if (!strcmp(o->stream, "-") && m->size > 1) {
		cli_say("--stream -: each rank writes its own stream: name a file with %%r (the rank) or %%h (the host) in it");
		return CLI_EXIT_USAGE;
	}
	rc = CLI_EXIT_OK;
	if (strcmp(o->stream, "-"))
		rc = mpi_rank_path(m, "--stream", o->stream, path, sizeof(path));
	else
		snprintf(path, sizeof(path), "-");
	if (!rc)
		*out = path;
	return rc;
}

int mpi_gather_hosts(const struct mpi_ctx *m, json_t *own, json_t **hosts)
{
	cli_stream_report_pin(own);	/* a reference of its own */
	return mpi_gather_json(m, own, hosts);
}
