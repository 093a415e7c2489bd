/* A rank's begin of the command: its host's targets (tfile.c, hosts.c),
 * the outputs every rank names for itself (stream.c, listen.c), then the
 * begin of any command (cli/command.h). */
#include <stdio.h>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/live/stream.h"
#include "mpi/mpi_int.h"

static int outputs(const struct mpi_ctx *m, const struct cli_opts *o)
{
	/* the stream's header names the command for the command's length */
	static char verb[32];
	struct cli_command_out out = { .report = m->rank ? NULL : o->json, .stream_cmd = verb };
	int rc;

	snprintf(verb, sizeof(verb), "mpi-%s", m->verb);
	rc = mpi_stream_path(m, o, &out.stream);
	if (!rc)
		rc = mpi_listen_addr(m, o, &out.listen);
	if (rc)
		return rc;
	cli_stream_rank(m->rank);
	return cli_exit_status(cli_command_begin(o, "the target", &out));
}

int mpi_begin(struct mpi_ctx *m, struct mpi_host *h, struct cli_opts *o, char **tfile,
	      bool demo, bool *settled)
{
	int rc;

	*settled = true;
	if (m->targets_file) {
		rc = mpi_tfile_load(m, tfile);
		if (rc)
			return rc;	/* rank 0 said it; every rank knows */
	}
	m->hold = true;
	rc = mpi_host_resolve(m, h, o, *tfile, demo);
	if (h->same) {
		m->hold = false;
		return rc;
	}
	*settled = false;
	/* the outputs made ready before any rank's first IO: a path rank 0
	 * cannot write stops every rank */
	return rc ? rc : outputs(m, o);
}
