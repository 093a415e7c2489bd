/* saturate's gathered facts into model/gap.c's input: each device's NUMA
 * node and PCI path, whether its workers ran off its node, and the IOPS,
 * latency and CPU figures of every step, and the seconds its drive
 * throttled by its own log (cli/runner/drive.h). A pure step: sat_run.c loads the
 * topology and reads the affinity; nothing here does I/O or prints. */
#include "cli/saturate/sat_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/runner/drive.h"
#include "model/stats.h"

double cli_sat_iops(const struct satdev *sd, enum sat_fig f)
{
	return sd->done[f] ? sd->fig[f].iops : MODEL_GAP_UNKNOWN;
}

bool cli_sat_cpu_sum(const struct sat *s, enum sat_fig f, struct cli_dev *sum)
{
	bool any = false;
	unsigned i;

	memset(sum, 0, sizeof(*sum));
	snprintf(sum->name, sizeof(sum->name), "system");
	for (i = 0; i < s->n; i++) {
		if (s->dev[i].failed || !s->dev[i].done[f])
			continue;
		cli_dev_add_counters(sum, &s->dev[i].fig[f]);
		any = true;
	}
	return any;
}

static double p99_of(const struct satdev *sd, enum sat_fig f)
{
	return sd->done[f] && sd->fig[f].has_lat ? (double)sd->fig[f].lat.p99
						 : MODEL_GAP_UNKNOWN;
}

/* What the CPU-bound rule reads: the busiest worker's share of the step. */
static double busiest_pct(const struct satdev *sd, enum sat_fig f)
{
	const struct cli_dev *d = &sd->fig[f];

	return sd->done[f] ? model_gap_cpu_pct(d->busiest_s, d->elapsed_s, 1)
			   : MODEL_GAP_UNKNOWN;
}

/* The all-devices QDn step's workers against the device's local cpuset. */
static bool off_node(const struct satdev *sd)
{
	const struct cli_dev *d = &sd->fig[SAT_QDN_ALL];
	int *local = NULL, n;
	bool off;

	if (!sd->td || !sd->td->cpus || !sd->td->nnodes || !d->cpus)
		return false;
	n = topo_cpuset_array(&sd->td->cpuset, &local);
	if (n <= 0)
		return false;
	off = model_gap_off_node(d->cpus, d->nworkers, local, (unsigned)n);
	free(local);
	return off;
}

/* What the drive's own log says it throttled during the command. */
static unsigned throttled_s(const struct satdev *sd)
{
	struct model_health_change c;

	cli_drive_change(cli_drive_find(sd->t->path), &c);
	return c.throttled_s;
}

/* The step's IOPS interval from its own seconds (the timeline: every
 * whole interval one sample; the last, shorter one left out): the upper
 * end (hi) or the lower; 0 where there are fewer than two seconds. The
 * seconds of one step are not independent draws, so this is the step's
 * noise as it showed, not a claim about the next run. */
static double iops_end(const struct satdev *sd, enum sat_fig f, bool hi)
{
	const struct cli_tl_series *tl = &sd->fig[f].tl;
	double v[256], m, lo, up;
	unsigned k, n = 0;

	if (!sd->done[f] || !tl->n)
		return 0;
	for (k = 0; k < tl->n && n < 256; k++)
		if (tl->s[k].dt_s >= 0.5 * tl->s[0].dt_s)
			v[n++] = tl->s[k].iops;
	if (n < 2 || model_mean_ci(v, n, MODEL_AMEAN, 0.95, &m, &lo, &up))
		return 0;
	return hi ? up : (lo > 0 ? lo : 0);
}

/* With --repeat: 100 x (max - min) / mean of step f's repeats' IOPS. */
static double rep_spread(const struct satdev *sd, enum sat_fig f)
{
	const struct cli_dev *d = &sd->fig[f];
	double v[CLI_MAX_REPEAT], pct;
	unsigned r;

	if (!sd->done[f] || d->nreps < 2)
		return 0;
	for (r = 0; r < d->nreps && r < CLI_MAX_REPEAT; r++)
		v[r] = d->reps[r].iops;
	pct = model_range_pct(v, r);
	return isfinite(pct) ? pct : 0;
}

/* What other processes used of step f's workers' CPUs (noise.other_cpu),
 * percent; unknown where the step did not run or /proc/stat could not
 * say. */
static double other_pct(const struct satdev *sd, enum sat_fig f)
{
	struct cli_noise_pct p;

	if (!sd->done[f])
		return MODEL_GAP_UNKNOWN;
	cli_noise_pct(&sd->fig[f].noise, &p);
	return isfinite(p.other) ? p.other : MODEL_GAP_UNKNOWN;
}

static struct model_gap_dev gap_dev(const struct satdev *sd)
{
	const struct topo_dev *td = sd->td;

	return (struct model_gap_dev){
		.name = sd->t->name,
		.node = td && td->nnodes ? (int)td->nodes[0] : -1,
		.host_bridge = td && td->has_pci ? td->host_bridge : "",
		.upstream = td && td->has_pci ? td->upstream : "",
		.qd1_solo = cli_sat_iops(sd, SAT_QD1_SOLO), .qd1_all = cli_sat_iops(sd, SAT_QD1_ALL),
		.qdn_solo = cli_sat_iops(sd, SAT_QDN_SOLO), .qdn_all = cli_sat_iops(sd, SAT_QDN_ALL),
		.qd1_solo_p99 = p99_of(sd, SAT_QD1_SOLO), .qd1_all_p99 = p99_of(sd, SAT_QD1_ALL),
		.cpu_pct = busiest_pct(sd, SAT_QDN_ALL),
		.cpus = sd->fig[SAT_QDN_ALL].cpus,
		.nworkers = sd->fig[SAT_QDN_ALL].nworkers,
		.off_node = sd->off_node,
		.qdn_remote = cli_sat_iops(sd, SAT_QDN_REMOTE),
		.throttled_s = throttled_s(sd),
		.backing = sd->backing,
		.qd1_solo_hi = iops_end(sd, SAT_QD1_SOLO, true),
		.qd1_all_lo = iops_end(sd, SAT_QD1_ALL, false),
		.qdn_solo_hi = iops_end(sd, SAT_QDN_SOLO, true),
		.qdn_all_lo = iops_end(sd, SAT_QDN_ALL, false),
		.qdn_solo_rep_pct = rep_spread(sd, SAT_QDN_SOLO),
		.qdn_all_rep_pct = rep_spread(sd, SAT_QDN_ALL),
		.qd1_solo_other_pct = other_pct(sd, SAT_QD1_SOLO),
		.qdn_solo_other_pct = other_pct(sd, SAT_QDN_SOLO),
	};
}

/* The healthy devices go to the rules and the sums; the failed ones are
 * named first and left out of both. */
int cli_sat_analyse(struct sat *s)
{
	struct model_gap_dev *g = calloc(s->n ? s->n : 1, sizeof(*g));
	struct model_gap_failed *f = calloc(s->n ? s->n : 1, sizeof(*f));
	struct model_gap_in in = { .dev = g, .failed = f, .qd = s->o->qd,
				   .host_cpus = s->host_cpus };
	unsigned i;
	int err = 0;

	if (!g || !f) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < s->n; i++) {
		s->dev[i].off_node = off_node(&s->dev[i]);
		if (s->dev[i].failed)
			f[in.nfailed++] = (struct model_gap_failed){ s->dev[i].t->name,
								     s->dev[i].why };
		else
			g[in.ndev++] = gap_dev(&s->dev[i]);
	}
	model_gap_analyse(&in, &s->gap);
out:
	free(f);
	free(g);
	return err;
}
