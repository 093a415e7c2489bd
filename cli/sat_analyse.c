/* saturate's figures into cli/gap.c's input: the topology of each device
 * (NUMA nodes, PCI path, whether its workers ran off its node) and the
 * IOPS, latency and CPU figures of every step. */
#include "cli/sat_impl.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* ---- topology facts ---- */

static bool cpu_in(const int *set, int n, int cpu)
{
	int i;

	for (i = 0; i < n; i++)
		if (set[i] == cpu)
			return true;
	return false;
}

/* A worker pinned outside its device's local cpuset ran off its node. */
static bool off_node(const struct satdev *sd)
{
	const struct cli_dev *d = &sd->fig[SAT_QDN_ALL];
	int *local = NULL, n;
	bool off = false;
	unsigned w;

	if (!sd->td || !sd->td->cpus || !sd->td->nnodes || !d->cpus)
		return false;
	n = topo_cpulist_parse(sd->td->cpus, &local);
	if (n <= 0)
		return false;
	for (w = 0; w < d->nworkers; w++)
		if (d->cpus[w] >= 0 && !cpu_in(local, n, d->cpus[w]))
			off = true;
	free(local);
	return off;
}

void cli_sat_load_topology(struct sat *s)
{
	const struct topo_dev **devs;
	unsigned i, k = 0;
	int err;

	/* the machine that runs the steps: an XML export would describe
	 * another one (that is what 'iostorm topo --topology' is for) */
	err = topo_load(&s->topo, NULL, NULL);
	if (err) {
		cli_sat_say("no topology (NUMA nodes and PCI paths unknown): ", strerror(-err));
		s->topo = NULL;
		return;
	}
	devs = calloc(s->n ? s->n : 1, sizeof(*devs));
	for (i = 0; i < s->n; i++) {
		if (topo_lookup(s->topo, s->dev[i].t->path, &s->dev[i].td))
			s->dev[i].td = NULL;
		else if (devs)
			devs[k++] = s->dev[i].td;
	}
	if (devs && k) {
		s->ntf = topo_findings(s->topo, devs, k, &s->tf);
		if (s->ntf < 0)
			s->ntf = 0;
	}
	free(devs);
}

/* ---- analysis ---- */

double cli_sat_iops(const struct satdev *sd, enum sat_fig f)
{
	return sd->done[f] ? sd->fig[f].iops : MODEL_GAP_UNKNOWN;
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

static unsigned host_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	return (unsigned)CPU_COUNT(&set);
}

int cli_sat_analyse(struct sat *s)
{
	struct model_gap_dev *g = calloc(s->n ? s->n : 1, sizeof(*g));
	struct model_gap_in in = { g, s->n, s->o->qd, host_cpus() };
	unsigned i;

	if (!g)
		return -ENOMEM;
	for (i = 0; i < s->n; i++) {
		struct satdev *sd = &s->dev[i];
		const struct topo_dev *td = sd->td;

		sd->off_node = off_node(sd);
		g[i] = (struct model_gap_dev){
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
		};
	}
	model_gap_analyse(&in, &s->gap);
	free(g);
	return 0;
}

