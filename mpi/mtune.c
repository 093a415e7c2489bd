/* iostorm-mpi tune: every host tunes its own targets (docs/tune.md), all
 * hosts at once, each within --budget, and writes its own job file
 * (--write-config with %h or %r in its path); rank 0 prints each host's
 * search in rank order and names the knobs where the hosts' winners
 * disagree (cli/tune/disagree.c). Hosts tune at once because each one's
 * search is its own: a host's budget is the command's, and hosts that
 * share a switch or a subsystem are said to, since each then tunes under
 * the others' load. */
#include "mpi/mpi_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/report/json.h"
#include "cli/report/out.h"
#include "cli/runner/stop.h"
#include "cli/tune/disagree.h"
#include "cli/tune/tune_cmd.h"

struct mtune {
	struct mpi_ctx *m;
	struct cli_opts o;
	struct mpi_host h;
	struct tune *t;
	char *tfile;
	char job[PATH_MAX];		/* this host's --write-config */
	char *text;			/* the search's words, said by rank 0 */
	size_t textlen;
	FILE *tf;
};

static int setup(struct mtune *x)
{
	bool settled;
	int rc = mpi_begin(x->m, &x->h, &x->o, &x->tfile, false, &settled);

	if (settled)
		return rc;
	if (!rc && x->o.write_config) {
		rc = mpi_rank_path(x->m, "--write-config", x->o.write_config, x->job,
				   sizeof(x->job));
		if (!rc)
			x->o.write_config = x->job;
	}
	if (!rc && !(x->tf = open_memstream(&x->text, &x->textlen))) {
		cli_say("out of memory");
		rc = CLI_EXIT_RUNTIME;
	}
	if (!rc)
		rc = cli_exit_status(tune_open(&x->o, x->tf, &x->t));
	return mpi_agree(x->m, rc);
}

/* This host's entry: its targets, its job file and its whole tune report
 * (with its setup record), and its words under "text", which rank 0 says
 * and takes out. */
static json_t *host_entry(struct mtune *x)
{
	json_t *j = mpi_host_json(x->m, &x->h, x->o.ntargets);

	if (!j)
		return NULL;
	if (x->tf)
		fflush(x->tf);
	json_object_set_new(j, "job_file", x->o.write_config ? json_string(x->job) : json_null());
	json_object_set_new(j, "tune", tune_report_json(x->t));
	json_object_set_new(j, "text", json_stringn(x->text ? x->text : "", x->textlen));
	return j;
}

/* Hosts that share a switch or an NVMe subsystem tuned under each other's
 * load: said, a line per pair and what they share. */
static void shared(FILE *f, const json_t *hosts)
{
	const json_t *a, *b, *q, *r;
	char na[IMPI_HOST_LEN + 16], nb[IMPI_HOST_LEN + 16];
	size_t i, j, k, l;

	json_array_foreach(hosts, i, a) {
		for (j = i + 1; j < json_array_size(hosts); j++) {
			const char *sw = json_string_value(json_object_get(a, "switch")), *what = NULL;

			b = json_array_get(hosts, j);
			if (sw && json_string_value(json_object_get(b, "switch")) &&
			    !strcmp(sw, json_string_value(json_object_get(b, "switch"))))
				what = sw;
			json_array_foreach(json_object_get(a, "nqns"), k, q)
				json_array_foreach(json_object_get(b, "nqns"), l, r)
					if (!what && json_equal((json_t *)q, (json_t *)r))
						what = json_string_value(q);
			if (!what)
				continue;
			mpi_host_name(hosts, i, na, sizeof(na));
			mpi_host_name(hosts, j, nb, sizeof(nb));
			fprintf(f, "note: %s and %s share %s: each tuned under the other's load\n", na,
				nb, what);
		}
	}
}

/* Rank 0: each host's search, the disagreements, the JSON. */
static int report(const struct mtune *x, json_t *hosts, bool intr)
{
	const struct cli_opts *o = &x->o;
	FILE *f = cli_out_text(o);
	size_t i, n = json_array_size(hosts);
	const char **names = calloc(n ? n : 1, sizeof(*names));
	const json_t **tunes = calloc(n ? n : 1, sizeof(*tunes));
	char (*nm)[IMPI_HOST_LEN + 16] = calloc(n ? n : 1, sizeof(*nm));
	json_t *h, *dis = NULL, *j;
	int rc = CLI_EXIT_RUNTIME;

	if (!names || !tunes || !nm)
		goto out;
	json_array_foreach(hosts, i, h) {
		mpi_host_name(hosts, i, nm[i], sizeof(nm[i]));
		names[i] = nm[i];
		tunes[i] = json_object_get(json_object_get(h, "tune"), "tune");
		fprintf(f, "\n== %s (rank %zu): %zu target%s, job file %s ==\n", nm[i], i,
			json_array_size(json_object_get(h, "targets")),
			json_array_size(json_object_get(h, "targets")) == 1 ? "" : "s",
			json_is_string(json_object_get(h, "job_file")) ?
			json_string_value(json_object_get(h, "job_file")) : "none");
		fputs(json_string_value(json_object_get(h, "text")) ?
		      json_string_value(json_object_get(h, "text")) : "(its entry was lost)\n", f);
		json_object_del(h, "text");
	}
	shared(f, hosts);
	dis = tune_disagree(names, tunes, n);
	if (!dis)
		goto out;
	fprintf(f, "\n");
	tune_say_disagree(f, dis, n);
	fflush(f);
	rc = CLI_EXIT_OK;
	if (o->json) {
		j = json_pack("{s:s, s:s, s:{s:i, s:s?}, s:O, s:O, s:b}", "schema", CLI_JSON_SCHEMA,
			      "command", "tune", "mpi", "ranks", x->m->size,
			      "targets_file", x->m->targets_file, "hosts", hosts, "disagree", dis,
			      "interrupted", intr);
		if (cli_out_json(o->json, j, CLI_JSON_REPORT))
			rc = CLI_EXIT_RUNTIME;
	}
out:
	if (rc && !dis)
		cli_say("out of memory");
	json_decref(dis);
	free(names);
	free(tunes);
	free(nm);
	return rc;
}

/* The searches, every host's entry to rank 0, which reports; the worst
 * status of every rank. */
static int go(struct mtune *x)
{
	json_t *hosts = NULL;
	bool intr = false;
	int rc = mpi_sync(x->m, CLI_EXIT_OK, &intr), mine;

	if (rc)
		return rc;
	if (!x->m->rank)
		fprintf(cli_out_text(&x->o), "iostorm-mpi tune: %d host%s, each searching its own "
			"targets at once, within the budget; each host's search follows once all "
			"have ended\n", x->m->size, x->m->size == 1 ? "" : "s");
	fflush(cli_out_text(&x->o));
	mine = cli_exit_status(tune_go(x->t));
	/* a host done early waits without spinning a core (mpi_sync polls
	 * with sleeps; a blocking gather may spin), which would take CPU from
	 * a search still running beside it: ranks that share a machine */
	intr = tune_interrupted(x->t) || cli_runner_interrupted();
	(void)mpi_sync(x->m, mine, &intr);
	if (mpi_gather_hosts(x->m, host_entry(x), &hosts))
		mine = CLI_EXIT_RUNTIME;
	else if (!x->m->rank && report(x, hosts, intr))
		mine = CLI_EXIT_RUNTIME;
	json_decref(hosts);
	return mpi_max(mine);
}

int mpi_tune(struct mpi_ctx *m, int argc, char **argv)
{
	struct mtune x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.m = m;
	m->quiet_others = true;
	rc = cli_opts_cmdline(&x.o, &cli_verb_tune, argc, argv);
	m->quiet_others = false;
	if (rc)
		return cli_exit_status(rc);
	rc = setup(&x);
	if (!rc && !x.h.same)
		rc = go(&x);
	if (x.t && tune_stalled(x.t)) {
		m->abandon = true;	/* workers hold the targets: leave them */
	} else {
		tune_close(x.t);
		mpi_host_free(&x.h, true);
	}
	if (x.tf)
		fclose(x.tf);
	free(x.text);
	free(x.tfile);
	return rc;
}
