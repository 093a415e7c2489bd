/* This host's targets and the resources it shares with others: its line
 * of the targets file, else the TARGET operands, else demo targets with
 * --demo, else its own NVMe namespaces; the NVMe subsystem NQNs sysfs
 * lists; the switch= and nqn= of its line. */
#include "mpi/mpi_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/report/out.h"
#include "cli/runner/targets.h"
#include "topo/topo.h"

/* Every NVMe namespace as /dev/NAME into h->own: a count, or -ENOMEM. */
static int own_nvme(struct mpi_host *h)
{
	int n = cli_nvme_paths(&h->own);

	h->nown = n > 0 ? (unsigned)n : 0;
	return n;
}

int mpi_host_resolve(struct mpi_ctx *m, struct mpi_host *h, struct cli_opts *o,
		     const char *tfile_text, bool demo)
{
	char err[640];
	int rc, n;

	memset(h, 0, sizeof(*h));
	n = topo_subsys_nqns(NULL, h->nqn, IMPI_MAX_RES);
	h->nnqn = n > 0 ? (unsigned)n : 0;
	if (tfile_text) {
		rc = mpi_tfile_find(tfile_text, m->targets_file, m->rank, m->host, &h->tl, err,
				    sizeof(err));
		if (rc == -ENOMEM) {
			cli_say("out of memory");
			return CLI_EXIT_RUNTIME;
		}
		if (rc) {
			/* every rank read the same text and found the same fault */
			if (!m->rank)
				mpi_say(m, "%s", err);
			h->same = true;
			return CLI_EXIT_USAGE;
		}
	}
	if (h->tl.ntargets) {
		h->from = "targets file";
		h->paths = h->tl.targets;
		h->n = h->tl.ntargets;
	} else if (o->ntargets) {
		h->from = "command line";
		h->paths = o->targets;
		h->n = o->ntargets;
	} else if (demo) {
		h->from = "demo";
		h->has_demo = true;
		rc = cli_exit_status(cli_demo_create(&h->demo, o->demo_size, o->quiet));
		if (rc)
			return rc;
		h->paths = h->demo.paths;
		h->n = h->demo.n;
	} else {
		n = own_nvme(h);
		if (n < 0)
			return CLI_EXIT_RUNTIME;	/* said */
		if (!n) {
			cli_say("no targets: no line for it%s%s, no TARGET, and no NVMe namespace here (--demo runs on demo targets)",
				m->targets_file ? " in " : "", m->targets_file ? m->targets_file : "");
			return CLI_EXIT_USAGE;
		}
		h->from = "NVMe namespaces";
		h->paths = h->own;
		h->n = h->nown;
	}
	/* The last step of reading this rank's command line, before anything
	 * reads o (cli_opts is read-only after it, issue 40): the TARGET
	 * operands are per host under iostorm-mpi, so a host's own line of the
	 * targets file or its own namespaces are its operands. */
	o->targets = h->paths;
	o->ntargets = h->n;
	return CLI_EXIT_OK;
}

void mpi_host_free(struct mpi_host *h, bool quiet)
{
	unsigned i;

	if (h->has_demo) {
		cli_demo_remove(&h->demo);
		if (!quiet)
			cli_say("demo: targets removed");
	}
	for (i = 0; h->own && i < h->nown; i++)
		free(h->own[i]);
	free(h->own);
	mpi_tline_free(&h->tl);
	memset(h, 0, sizeof(*h));
}

json_t *mpi_host_json(const struct mpi_ctx *m, const struct mpi_host *h, unsigned devices)
{
	json_t *nqns = json_array(), *targets = json_array();
	unsigned i;

	for (i = 0; nqns && i < h->nnqn; i++)
		json_array_append_new(nqns, json_string(h->nqn[i]));
	for (i = 0; nqns && i < h->tl.nres; i++)
		if (!strncmp(h->tl.res[i], "nqn ", 4))
			json_array_append_new(nqns, json_string(h->tl.res[i] + 4));
	for (i = 0; targets && i < h->n; i++)
		json_array_append_new(targets, json_string(h->paths[i]));
	return json_pack("{s:s, s:i, s:o, s:o, s:s?, s:o, s:I}", "host", m->host,
			 "rank", m->rank, "switch",
			 h->tl.sw[0] ? json_string(h->tl.sw) : json_null(), "nqns",
			 nqns ? nqns : json_null(), "targets_from", h->from,
			 "targets", targets ? targets : json_null(), "devices",
			 (json_int_t)devices);
}
