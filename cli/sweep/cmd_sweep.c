/* iostorm sweep [--qd LIST] TARGET...: all targets at once at each queue
 * depth in turn; IOPS and latency per depth, the knee (the smallest depth
 * reaching 90% of the best IOPS) and the depth where p99 has doubled from
 * the first depth. Here: its options and the command; the running, the
 * text, the summary and the JSON are in the files sweep_int.h names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/check/check.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/report/out.h"
#include "cli/runner/limits.h"
#include "cli/runner/runner.h"
#include "cli/runner/stop.h"
#include "cli/slo/slo.h"
#include "cli/sweep/sweep_int.h"

#define DEFAULT_QDS "1,2,4,8,16,32,64,128,256"
#define STR_(x) #x
#define STR(x) STR_(x)

/* --qd takes a list here: checked now, read again by the command. */
static int set_qd_list(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	uint32_t qds[CLI_MAX_QDS];

	if (cli_qd_list_parse(arg, qds, CLI_MAX_QDS, err, errlen) < 0)
		return -EINVAL;
	o->qd_list = arg;
	return 0;
}

static int show_qd_list(const struct cli_opts *o, char *buf, size_t len)
{
	return snprintf(buf, len, "%s", o->qd_list ? o->qd_list : DEFAULT_QDS);
}

static int set_rate_list(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	struct cli_rate_list l;

	if (cli_rate_list_parse(arg, &l, err, errlen))
		return -EINVAL;
	o->rate_list = arg;
	return 0;
}

static const struct cli_optdesc own[] = {
	CLI_OPT_OWN("qd", 'd', "LIST", 0, CLI_OF_LIST, set_qd_list, show_qd_list, NULL,
	  "queue depths to run, increasing, comma-separated;\n"
	  "with --rate one depth, the limit of every rate\n"
	  "(" STR(RATE_QD) " unless given)"),
	CLI_OPT_OWN("rate", 0x500, "LIST", 0, CLI_OF_LIST, set_rate_list, NULL, NULL,
	  "sweep by load instead of depth: an open loop at\n"
	  "each entry, increasing: 10%,50%,100% of each\n"
	  "target's closed-loop maximum at --qd (measured\n"
	  "first), or IOs per second per device: 1k,5k,20k"),
	CLI_SLO_OPTDESCS,
	CLI_OPT_END,
};

static int cmd_sweep(int argc, char **argv);

const struct cli_verb cli_verb_sweep = {
	.name = "sweep",
	.what = "IOPS and latency per queue depth",
	.synopsis = "iostorm sweep [options] [--qd LIST] TARGET...\n\n"
		"Runs every TARGET at once at each queue depth of LIST, reporting IOPS\n"
		"and latency per depth, the knee (the smallest depth reaching 90% of\n"
		"the best IOPS) and the depth where p99 latency has doubled from the\n"
		"first depth. --qd takes a comma-separated list here; --time and\n"
		"--ramp are each depth's.\n\n"
		"With --rate LIST it sweeps load instead: an open loop at each rate\n"
		"(--rate in 'iostorm run'), at most --qd in flight, reporting latency\n"
		"from when each IO was due and the service time against load, and the\n"
		"load where p99 has doubled from the first.\n\n"
		"With --slo BOUNDS it finds each target's capacity at a latency\n"
		"target: the highest rate at which every bound holds, by a search over\n"
		"the rate from the closed-loop maximum at --qd, at most --slo-points\n"
		"points of --time each (docs/saturate.md).",
	.operands = CLI_OPERANDS_TARGETS,
	.groups = CLI_OG_ENGINE | CLI_OG_TARGET | CLI_OG_JSON | CLI_OG_REPEAT | CLI_OG_RATE,
	.own = own,
	.qd = 1,
	.ramp_ns = CLI_NS_PER_S,
	.time_ns = 3 * CLI_NS_PER_S,
	.jobfile = true,
	.run = cmd_sweep,
};


/* The deepest of the depths asked for. */
static uint32_t deepest(const uint32_t *qds, unsigned n)
{
	uint32_t qd = 1;
	unsigned i;

	for (i = 0; i < n; i++)
		qd = qds[i] > qd ? qds[i] : qd;
	return qd;
}

/* The settings that cost IOPS on the targets, at the deepest depth. */
static void say_check(const struct cli_opts *o, const struct cli_targets *ts,
		      const uint32_t *qds, unsigned n)
{
	const char *paths[CLI_MAX_TARGETS];
	/* a copy kept: cli/check reads a run's depth, CPUs and mode from the
	 * options, not from a run spec (cli/runner/spec.h) */
	struct cli_opts deep = *o;
	unsigned i;

	deep.qd = deepest(qds, n);
	for (i = 0; i < ts->n; i++)
		paths[i] = ts->t[i].path;
	cli_check_summary(&deep, paths, ts->n);
}


/* The deepest point's buffers and descriptors, before the first point
 * runs: a sweep that cannot finish says so before it starts. 0 or
 * cli_limits_check's -errno, said. */
static int check_deepest(const struct cli_opts *o, const uint32_t *qds, int n)
{
	struct cli_run_spec deep = cli_run_spec_of(o, ENG_OP_READ);

	deep.qd = deepest(qds, (unsigned)n);
	return cli_limits_check(o, &deep);
}

/* A depth where any IO failed, or a target that stalled or was stopped,
 * makes the sweep exit 1, after its summary. */
static bool had_errors(const struct point *pt, unsigned n, const struct failed *fl)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (pt[i].done && pt[i].total.errors)
			return true;
	return fl->any;
}

/* sweep --rate and --slo: one depth, --qd's or RATE_QD, the limit of every
 * rate (and with --slo the depth of the closed-loop maximum the search
 * starts from), into o->qd and qds[0]. 1, or -EINVAL with err. The last
 * step of reading sweep's command line, before anything reads o: its --qd
 * is a list, which only --rate or --slo, read after it, makes one depth. */
static int one_depth(struct cli_opts *o, uint32_t *qds, const char *flag, char *err,
		     size_t errlen)
{
	int nq = 1;

	qds[0] = RATE_QD;
	if (o->qd_list)
		nq = cli_qd_list_parse(o->qd_list, qds, CLI_MAX_QDS, err, errlen);
	if (nq < 0)
		return -EINVAL;
	if (nq != 1) {
		snprintf(err, errlen, "--qd: '%s': sweep %s takes one depth, the limit of every rate",
			 o->qd_list, flag);
		return -EINVAL;
	}
	o->qd = qds[0];
	return 1;
}

/* sweep --rate: its points, one per entry of the list, all at one depth
 * (--qd naming one, else RATE_QD). The count, or -EINVAL with err. */
static int rate_points(struct cli_opts *o, struct point *pt, uint32_t *qds, bool *pct,
		       char *err, size_t errlen)
{
	struct cli_rate_list l;
	unsigned i;

	if (cli_rate_list_parse(o->rate_list, &l, err, errlen) ||
	    one_depth(o, qds, "--rate", err, errlen) < 0)
		return -EINVAL;
	*pct = l.pct;
	for (i = 0; i < l.n; i++) {
		pt[i].rated = true;
		pt[i].load_pct = l.pct ? l.v[i] : -1;
		pt[i].rate = l.v[i];
		qds[i] = o->qd;
	}
	return (int)l.n;
}


/* --slo's refusals, then the open loop's at its least rate. */
static int slo_check(const struct cli_opts *o)
{
	struct cli_run_spec r = cli_run_spec_of(o, ENG_OP_READ);
	int rc = cli_slo_check(o);

	if (rc || !o->slo.n)
		return rc;
	r.rate = r.jobs_per_device;
	return cli_runner_rate_check(&r);
}

/* The open loop's refusals, before the maximum or any point runs: with
 * rates given as such, the lowest must give each worker an IO a second;
 * a load's rates are raised to that (point_rates). */
static int rate_check(const struct cli_opts *o, const struct point *pt)
{
	struct cli_run_spec r = cli_run_spec_of(o, ENG_OP_READ);

	r.rate = pt[0].load_pct >= 0 ? r.jobs_per_device : (uint64_t)pt[0].rate;
	return cli_runner_rate_check(&r);
}

static int cmd_sweep(int argc, char **argv)
{
	struct cli_opts o;
	struct cli_targets ts = { NULL, 0 };
	struct point pt[CLI_MAX_QDS];
	struct failed *fl = NULL;
	struct topo_notes *notes = NULL;
	struct sweep w;
	uint32_t qds[CLI_MAX_QDS];
	double max[CLI_MAX_TARGETS] = { 0 };
	bool pct = false;
	char err[256];
	FILE *f;
	int n = 0, i, rc, done;

	memset(pt, 0, sizeof(pt));
	rc = cli_opts_cmdline(&o, &cli_verb_sweep, argc, argv);
	if (rc)
		goto out;
	rc = -EINVAL;
	if (o.slo.n)
		n = one_depth(&o, qds, "--slo", err, sizeof(err));
	else if (o.rate_list)
		n = rate_points(&o, pt, qds, &pct, err, sizeof(err));
	else
		n = cli_qd_list_parse(o.qd_list ? o.qd_list : DEFAULT_QDS, qds, CLI_MAX_QDS, err,
				      sizeof(err));
	if (n < 0)
		cli_say("%s", err);
	else if ((rc = slo_check(&o)))
		;	/* said */
	else if (o.rate_list && (rc = rate_check(&o, pt)))
		;	/* said */
	else if (!(rc = check_deepest(&o, qds, n)))
		rc = cli_targets_open(&ts, &o);
	if (!rc && !(fl = calloc(1, sizeof(*fl)))) {
		cli_say("out of memory");
		rc = -ENOMEM;
	}
	if (rc)
		goto out;
	for (i = 0; i < n; i++)
		pt[i].qd = qds[i];
	say_check(&o, &ts, qds, (unsigned)n);
	f = cli_out_text(&o);
	if (o.slo.n) {
		rc = sweep_slo(&o, &ts, fl, f);
		goto end;
	}
	if (o.rate_list)
		fprintf(f, "iostorm sweep: %u target%s, bs %u, %d %s at QD%u (%s), %.3gs ramp + %.3gs each\n",
			ts.n, ts.n == 1 ? "" : "s", o.bs, n,
			pct ? "loads of each target's closed-loop maximum" : "rates per device", o.qd,
			cli_arrival_name(o.arrival), cli_secs(o.ramp_ns), cli_secs(o.time_ns));
	else
		fprintf(f, "iostorm sweep: %u target%s, bs %u, %d depths, %.3gs ramp + %.3gs each\n",
			ts.n, ts.n == 1 ? "" : "s", o.bs, n, cli_secs(o.ramp_ns), cli_secs(o.time_ns));
	rc = pct ? sweep_measure_max(&o, &ts, fl, max, f, &notes) : 0;
	if (rc == -EINTR)
		rc = 0;		/* stopped before the first rate: said as such */
	else if (!rc)
		rc = sweep_run_points(&o, &ts, pt, (unsigned)n, fl, f, max, &notes);
	w = (struct sweep){ .o = &o, .ts = &ts, .pt = pt, .n = (unsigned)n, .fl = fl,
			    .interrupted = cli_runner_interrupted(), .max = max, .has_max = pct,
			    .place_notes = notes };
	/* a point that failed as a whole (said) keeps the ones before it; a
	 * stop request before any point measured still gets its report */
	if (rc != -EINVAL && (pt[0].done || (!rc && w.interrupted))) {
		done = sweep_summary(&w, f);
		rc = rc ? rc : done;
	}
	if (!rc && had_errors(pt, (unsigned)n, fl))
		rc = -EIO;
end:
	if (fl->stalled)	/* workers hold a target */
		cli_command_abandon(cli_exit_status(rc ? rc : -EIO));
out:
	for (i = 0; i < CLI_MAX_QDS; i++) {
		free(pt[i].total.tl.s);
		free(pt[i].total.open.svc_hist);
		free(pt[i].total.reps);
		for (unsigned t = 0; pt[i].dev && t < pt[i].ndev; t++)
			free(pt[i].dev[t].d.reps);
		free(pt[i].dev);
	}
	free(fl);
	free(notes);
	cli_targets_close(&ts);
	return cli_exit_status(rc);
}
