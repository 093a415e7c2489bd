/* iostorm-mpi saturate: every host opens its targets (all stop, said once
 * by rank 0, when one cannot); each host in turn runs saturate's own
 * steps (its devices alone, then all at once: the host alone) while the
 * others wait; then all hosts at once at QD1 and at QDn, each after a
 * barrier; every host's result goes to rank 0 as JSON, which reports the
 * cluster (report.c). The steps are saturate's own pieces (cli/saturate/saturate.h). */
#include "mpi/mpi_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/report/out.h"
#include "cli/runner/stop.h"
#include "cli/saturate/saturate.h"

struct msat {
	struct mpi_ctx *m;
	struct cli_opts o;
	struct cli_sat_opts so;
	struct mpi_host h;
	struct sat s;
	char *tfile;			/* the targets file's text */
	json_t *result;			/* this host's saturate JSON */
	json_t *cluster;		/* {"qd1": {...}, "qdn": {...}} */
	bool intr;			/* some rank was interrupted */
};

/* false: return *status (an error said by rank 0, or help printed). */
static bool parse(struct msat *x, int argc, char **argv, int *status)
{
	int rc;

	x->m->quiet_others = true;	/* the same argv everywhere: say it once */
	rc = cli_opts_cmdline(&x->o, &cli_verb_saturate, argc, argv);
	if (!rc && x->o.demo && x->o.ntargets) {
		cli_say("--demo makes its own targets: drop the TARGET operands");
		rc = -EINVAL;
	}
	x->m->quiet_others = false;
	x->so.demo = x->o.demo;
	x->so.compare_placement = x->o.compare_placement;
	x->so.demo_size = x->o.demo_size;
	*status = cli_exit_status(rc);
	return !rc;
}

/* Targets and saturate's setup on every rank; the worst status, said. */
static int setup(struct msat *x)
{
	bool settled;
	int rc = mpi_begin(x->m, &x->h, &x->o, &x->tfile, x->so.demo, &settled);

	if (settled)
		return rc;
	if (!rc)
		rc = cli_exit_status(cli_sat_open(&x->s, &x->o, &x->so));
	if (!rc && !x->cluster) {
		cli_say("out of memory");
		rc = CLI_EXIT_RUNTIME;
	}
	return mpi_agree(x->m, rc);
}

static void plan(struct msat *x)
{
	const struct cli_opts *o = &x->o;
	unsigned own = 2 * x->s.n + 2 + cli_sat_smt_steps(&x->s) +
		       (x->so.compare_placement ? 1 : 0);
	int steps = mpi_sum((int)own) + 2;
	FILE *f = cli_out_text(o);

	/* this host's labels count its own steps and the cluster's two */
	x->s.nsteps = own + 2;
	x->s.step_ns = o->ramp_ns + o->time_ns;
	if (x->m->rank)
		return;
	fprintf(f, "iostorm-mpi saturate: %d host%s; each host alone in turn (each device alone at QD1 then QD%u, then all at once), then all hosts at once at QD1 then QD%u\n",
		x->m->size, x->m->size == 1 ? "" : "s", o->qd, o->qd);
	if (o->time_ns)
		fprintf(f, "plan: %d steps of %.3gs ramp + %.3gs measured: about %.0fs\n", steps,
			cli_secs(o->ramp_ns), cli_secs(o->time_ns),
			(double)steps * (double)x->s.step_ns / (double)CLI_NS_PER_S);
	fflush(f);
}

/* Host h's own steps, while the others wait at the barrier. */
static int host_alone(struct msat *x)
{
	struct sat *s = &x->s;
	int rc = cli_sat_solo(s);

	if (!rc && !cli_runner_interrupted())
		rc = cli_sat_step(s, SAT_QD1_ALL, -1);
	if (!rc && !cli_runner_interrupted())
		rc = cli_sat_step(s, SAT_QDN_ALL, -1);
	if (!rc && x->so.compare_placement && !cli_runner_interrupted())
		rc = cli_sat_step(s, SAT_QDN_REMOTE, -1);
	s->interrupted |= cli_runner_interrupted();
	return cli_exit_status(rc);
}

/* Every host's turn, one after the other; the worst status. */
static int hosts_in_turn(struct msat *x)
{
	int h, mine, rc = CLI_EXIT_OK;

	for (h = 0; h < x->m->size && !rc && !x->intr; h++) {
		mine = h == x->m->rank ? host_alone(x) : CLI_EXIT_OK;
		x->intr = cli_runner_interrupted();
		rc = mpi_sync(x->m, mine, &x->intr);
	}
	return rc;
}

/* The host's result as saturate reports it, before the cluster steps
 * reuse the all-devices figures. */
static int conclude_host(struct msat *x)
{
	if (!cli_sat_any_done(&x->s))
		return CLI_EXIT_OK;
	if (cli_sat_analyse(&x->s)) {
		cli_say("out of memory");
		return CLI_EXIT_RUNTIME;
	}
	x->result = cli_sat_json(&x->s);
	return CLI_EXIT_OK;
}

static json_t *jiops(double v, bool known)
{
	return known ? json_real(v) : json_null();
}

/* One cluster step into figure f: the devices that have not failed, at
 * once with every other host. Its figures go to x->cluster[key]. */
static int cluster_step(struct msat *x, enum sat_fig f, const char *key)
{
	struct sat *s = &x->s;
	bool ran[CLI_MAX_TARGETS];
	double iops = 0;
	uint64_t t0 = 0, t1 = 0;
	unsigned i, n = 0;
	int rc;

	for (i = 0; i < s->n; i++)
		ran[i] = !s->dev[i].failed;
	rc = cli_exit_status(cli_sat_step(s, f, -1));
	for (i = 0; !rc && i < s->n; i++) {
		const struct cli_dev *d = &s->dev[i].fig[f];

		if (!ran[i] || !s->dev[i].done[f])
			continue;
		iops += d->iops;
		n++;
		t0 = t0 ? t0 : d->wall_start_ns;
		t1 = t1 ? t1 : d->wall_end_ns;
	}
	s->interrupted |= cli_runner_interrupted();
	json_object_set_new(x->cluster, key,
			    json_pack("{s:o, s:I, s:o, s:o}", "iops", jiops(iops, n && t0),
				      "devices", (json_int_t)n,
				      "window_start_ns", t0 ? json_integer((json_int_t)t0) : json_null(),
				      "window_end_ns", t1 ? json_integer((json_int_t)t1) : json_null()));
	return rc;
}

/* All hosts at once, QD1 then QDn, each after a barrier. */
static int cluster_steps(struct msat *x, int rc)
{
	rc = mpi_sync(x->m, rc, &x->intr);
	if (!rc && !x->intr)
		rc = cluster_step(x, SAT_QD1_ALL, "qd1");
	x->intr |= cli_runner_interrupted();
	rc = mpi_sync(x->m, rc, &x->intr);
	if (!rc && !x->intr)
		rc = cluster_step(x, SAT_QDN_ALL, "qdn");
	return rc;
}

/* This host's entry of the report's hosts[]. */
static json_t *host_entry(struct msat *x)
{
	json_t *j = mpi_host_json(x->m, &x->h, x->s.n);

	if (!j)
		return NULL;
	json_object_set_new(j, "io_errors", json_boolean(x->s.io_errors));
	json_object_set_new(j, "cluster", json_incref(x->cluster));
	json_object_set_new(j, "saturate", x->result ? json_incref(x->result) : json_null());
	return j;
}

/* Every host's entry to rank 0, which reports; the worst status. */
static int report(struct msat *x, int rc)
{
	json_t *hosts = NULL;
	int mine = x->s.io_errors ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;

	if (mpi_gather_hosts(x->m, host_entry(x), &hosts))
		mine = CLI_EXIT_RUNTIME;
	else if (!x->m->rank)
		mine = mpi_sat_report(x->m, &x->o, hosts, x->intr) ? CLI_EXIT_RUNTIME : mine;
	json_decref(hosts);
	mine = mpi_max(mine);
	return rc ? rc : mine;
}

int mpi_saturate(struct mpi_ctx *m, int argc, char **argv)
{
	struct msat x;
	int rc, crc;

	memset(&x, 0, sizeof(x));
	x.m = m;
	if (!parse(&x, argc, argv, &rc))
		return rc;
	x.cluster = json_object();
	rc = setup(&x);
	if (!rc && !x.h.same) {
		plan(&x);
		rc = hosts_in_turn(&x);
		/* what a host measured is reported even when another failed */
		crc = conclude_host(&x);
		rc = rc ? rc : crc;
		if (!x.intr)
			rc = cluster_steps(&x, rc);
		rc = report(&x, mpi_max(rc));
	}
	/* this rank's own: the others close as usual */
	if (x.s.stalled) {
		m->abandon = true;	/* workers hold the targets: leave them */
	} else {
		cli_sat_close(&x.s);
		mpi_host_free(&x.h, x.o.quiet);
	}
	json_decref(x.result);
	json_decref(x.cluster);
	free(x.tfile);
	return rc;
}
