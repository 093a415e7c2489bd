/* --listen under iostorm-mpi: each rank serves its own figures, so the
 * ranks that share a host take consecutive ports, PORT + the rank's index
 * among its host's ranks (MPI_COMM_TYPE_SHARED), and a scraper lists
 * them (docs/prometheus.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "cli/commands.h"
#include "cli/report/out.h"
#include "mpi/mpi_int.h"

/* This rank's index among the ranks of its host (a collective call:
 * main.c makes it on every rank, once). */
int mpi_local_rank(void)
{
	MPI_Comm node;
	int r = 0;

	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
				&node) != MPI_SUCCESS)
		return 0;
	MPI_Comm_rank(node, &r);
	MPI_Comm_free(&node);
	return r;
}

int mpi_listen_addr(const struct mpi_ctx *m, const struct cli_opts *o, const char **out)
{
	/* the endpoint's address for the command's length */
	static char where[300];
	const char *colon;
	unsigned long port;
	int local = m->local;

	*out = o->listen;
	if (!o->listen)
		return CLI_EXIT_OK;
	colon = strrchr(o->listen, ':');
	port = strtoul(colon ? colon + 1 : o->listen, NULL, 10);	/* checked */
	if (port && local) {
		if (port + (unsigned long)local > 65535) {
			cli_say("--listen %s: rank %d of this host would listen on port %lu, past 65535",
				o->listen, local, port + (unsigned long)local);
			return CLI_EXIT_USAGE;
		}
		snprintf(where, sizeof(where), "%.*s%lu", colon ? (int)(colon - o->listen + 1) : 0,
			 o->listen, port + (unsigned long)local);
		*out = where;
	}
	return CLI_EXIT_OK;
}
