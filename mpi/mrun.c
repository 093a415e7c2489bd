/* iostorm-mpi run: every host opens its targets (all stop, said once by
 * rank 0, when one cannot), all start after one barrier, each runs
 * iostorm run's measured run; rank 0 gets every host's report as JSON and
 * the histograms summed bucket by bucket, and prints a row per host and
 * the cluster: total IOPS and the merged percentiles (never an average of
 * percentiles). */
#include "mpi/mpi_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/report/hosts.h"
#include "cli/report/json.h"
#include "cli/report/out.h"
#include "cli/report/report.h"
#include "cli/runner/repeat.h"
#include "cli/runner/runner.h"
#include "cli/runner/targets.h"

struct mrun {
	struct mpi_ctx *m;
	struct cli_opts o;
	struct mpi_host h;
	struct cli_targets ts;
	struct cli_report rep;
	char *tfile;
	bool ran;			/* rep holds a run */
};

static int setup(struct mrun *x)
{
	bool settled;
	int rc = mpi_begin(x->m, &x->h, &x->o, &x->tfile, false, &settled);

	if (settled)
		return rc;
	if (!rc)
		rc = cli_exit_status(cli_targets_open(&x->ts, &x->o));
	return mpi_agree(x->m, rc);
}

/* After one barrier, the run; CLI_EXIT_* of this rank. */
static int measure(struct mrun *x)
{
	const struct eng_target *tp[CLI_MAX_TARGETS];
	struct cli_run_spec spec = cli_run_spec_of(&x->o, ENG_OP_READ);
	bool intr = false;
	unsigned i;
	int rc;

	for (i = 0; i < x->ts.n; i++)
		tp[i] = &x->ts.t[i];
	spec.targets = tp;
	spec.ntargets = x->ts.n;
	rc = mpi_sync(x->m, CLI_EXIT_OK, &intr);
	if (rc)
		return rc;
	rc = cli_exit_status(cli_runner_repeat(&x->o, &spec, &x->rep, NULL, NULL));
	x->ran = !rc;
	return rc;
}

static json_t *host_entry(const struct mrun *x)
{
	const struct cli_dev *t = &x->rep.total;
	json_t *j = mpi_host_json(x->m, &x->h, x->ts.n);

	if (!j)
		return NULL;
	json_object_set_new(j, "cluster", json_pack("{s:o, s:o}",
		"window_start_ns", x->ran && t->wall_start_ns ? json_integer((json_int_t)t->wall_start_ns) : json_null(),
		"window_end_ns", x->ran && t->wall_end_ns ? json_integer((json_int_t)t->wall_end_ns) : json_null()));
	json_object_set_new(j, "run", x->ran ? cli_json_report(&x->rep, &x->o) : json_null());
	return j;
}

/* ---- rank 0's report ---- */

static double num(const json_t *j, const char *a, const char *b)
{
	j = json_object_get(json_object_get(j, a), b);
	return json_is_number(j) ? json_number_value(j) : -1;
}

/* A host's row from its report's total (cli/report/hosts.h reads a cli_dev). */
static void host_dev(const json_t *run, struct cli_dev *d)
{
	const json_t *t = json_object_get(run, "total"), *lat = json_object_get(t, "lat_ns");

	memset(d, 0, sizeof(*d));
	d->iops = num(run, "total", "iops");
	d->bw_bytes = num(run, "total", "bw_bytes");
	d->errors = (uint64_t)json_integer_value(json_object_get(t, "errors"));
	d->has_lat = json_is_object(lat);
	d->lat.p50 = (uint64_t)json_number_value(json_object_get(lat, "p50"));
	d->lat.p99 = (uint64_t)json_number_value(json_object_get(lat, "p99"));
	d->lat.p9999 = (uint64_t)json_number_value(json_object_get(lat, "p99.99"));
}

static void print(const struct mpi_ctx *m, const struct cli_opts *o, const json_t *hosts,
		  const struct cli_dev *c)
{
	FILE *f = cli_out_text(o);
	const json_t *h, *run;
	struct cli_dev d;
	unsigned ndev = 0, n, marks = 0;
	size_t i;

	fprintf(f, "iostorm-mpi run: %d host%s, bs %u, QD%u, ramp %.3gs time %.3gs%s\n", m->size,
		m->size == 1 ? "" : "s", o->bs, o->qd, cli_secs(o->ramp_ns), cli_secs(o->time_ns),
		c->errors ? ", IO ERRORS" : "");
	cli_hosts_head(f);
	json_array_foreach(hosts, i, h) {
		char name[IMPI_HOST_LEN + 16];

		run = json_object_get(h, "run");
		mpi_host_name(hosts, i, name, sizeof(name));
		n = (unsigned)json_integer_value(json_object_get(h, "devices"));
		ndev += n;
		if (json_is_object(run))
			host_dev(run, &d);
		cli_hosts_row(f, name, n, json_is_object(run) ? &d : NULL, &marks);
	}
	cli_hosts_row(f, "cluster", ndev, c, &marks);
	cli_hosts_merged_line(f, c->ios, marks);
	fprintf(f, "windows: started within %.2f ms and ended within %.2f ms of each other (by the hosts' clocks)\n",
		1e3 * mpi_spread(hosts, NULL, "window_start_ns"),
		1e3 * mpi_spread(hosts, NULL, "window_end_ns"));
	fflush(f);
}

/* The cluster's sums from the hosts' totals, latency from hist. */
static void sums(const json_t *hosts, const struct eng_hist *hist, struct cli_dev *c)
{
	const json_t *h, *run;
	size_t i;

	memset(c, 0, sizeof(*c));
	json_array_foreach(hosts, i, h) {
		run = json_object_get(h, "run");
		if (!json_is_object(run))
			continue;
		c->iops += num(run, "total", "iops");
		c->bw_bytes += num(run, "total", "bw_bytes");
		c->ios += (uint64_t)num(run, "total", "ios");
		c->errors += (uint64_t)num(run, "total", "errors");
	}
	cli_lat_from_hist(c, hist);
}

static int report(const struct mpi_ctx *m, const struct cli_opts *o, json_t *hosts,
		  const struct eng_hist *hist, bool interrupted)
{
	struct cli_dev c;
	json_t *cfg, *j;
	double ss = mpi_spread(hosts, NULL, "window_start_ns");
	double es = mpi_spread(hosts, NULL, "window_end_ns");

	sums(hosts, hist, &c);
	print(m, o, hosts, &c);
	if (!o->json)
		return c.errors ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
	cfg = json_object_get(json_object_get(json_array_get(hosts, 0), "run"), "config");
	j = json_pack("{s:s, s:s, s:{s:i, s:s?}, s:o, s:O, s:{s:f, s:f, s:I, s:I, s:o, s:o, s:o},"
		      " s:b}",
		      "schema", CLI_JSON_SCHEMA, "command", "run",
		      "mpi", "ranks", m->size, "targets_file", m->targets_file,
		      "config", cfg ? json_deep_copy(cfg) : json_null(), "hosts", hosts,
		      "cluster", "iops", c.iops, "bw_bytes", c.bw_bytes,
		      "ios", (json_int_t)c.ios, "errors", (json_int_t)c.errors,
		      "lat_ns", cli_json_lat(&c),
		      "window_start_spread_s", ss < 0 ? json_null() : json_real(ss),
		      "window_end_spread_s", es < 0 ? json_null() : json_real(es),
		      "interrupted", interrupted);
	if (cli_out_json(o->json, j, CLI_JSON_REPORT))
		return CLI_EXIT_RUNTIME;
	return c.errors ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
}

/* Every host's entry and histogram to rank 0, which reports; the worst
 * status of every rank. */
static int gather(struct mrun *x, int rc)
{
	static struct eng_hist sum;	/* 37 KB: not on the stack */
	json_t *hosts = NULL;
	int mine = x->ran && x->rep.total.errors ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
	bool intr = x->ran && x->rep.interrupted;

	/* every rank reduces, with an empty histogram where it has none */
	if (mpi_reduce_hist(x->m, x->ran ? x->rep.total.hist : NULL, &sum))
		mine = CLI_EXIT_RUNTIME;
	intr = mpi_max(intr);
	if (mpi_gather_hosts(x->m, host_entry(x), &hosts))
		mine = CLI_EXIT_RUNTIME;
	else if (!x->m->rank)
		mine = report(x->m, &x->o, hosts, &sum, intr) ? CLI_EXIT_RUNTIME : mine;
	json_decref(hosts);
	mine = mpi_max(mine);
	return rc ? rc : mine;
}

int mpi_run(struct mpi_ctx *m, int argc, char **argv)
{
	struct mrun x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.m = m;
	m->quiet_others = true;
	rc = cli_opts_cmdline(&x.o, &cli_verb_run, argc, argv);
	m->quiet_others = false;
	if (rc)
		return cli_exit_status(rc);
	rc = setup(&x);
	if (!rc && !x.h.same)
		rc = gather(&x, mpi_max(measure(&x)));
	/* this rank's own: the others close as usual */
	if (x.rep.stalled) {
		m->abandon = true;	/* workers hold the targets: leave them */
	} else {
		cli_report_free(&x.rep);
		cli_targets_close(&x.ts);
		mpi_host_free(&x.h, true);
	}
	free(x.tfile);
	return rc;
}
