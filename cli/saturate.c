/* saturate: plan the steps, run each through the runner, keep one set of
 * figures per device and step, then hand the numbers to cli/gap.c and print
 * what it concludes. */
#include "cli/saturate.h"

#include <errno.h>
#include <jansson.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/gap.h"
#include "cli/json.h"
#include "cli/report.h"
#include "cli/runner.h"
#include "engine/clock.h"
#include "topo/topo.h"

enum fig {
	F_QD1_SOLO,
	F_QDN_SOLO,
	F_QD1_ALL,
	F_QDN_ALL,
	F_QDN_REMOTE,
	F_N,
};

static const char *const fig_name[F_N] = {
	"alone QD1", "alone QDn", "all QD1", "all QDn", "all QDn remote",
};

struct satdev {
	const struct eng_target *t;
	struct cli_dev fig[F_N];	/* hist NULL; cpus owned here */
	bool done[F_N];
	const struct topo_dev *td;	/* NULL: no topology */
	bool off_node;
};

struct sat {
	const struct cli_opts *o;
	const struct cli_sat_opts *so;
	struct cli_targets ts;
	struct satdev *dev;
	unsigned n;
	struct topo *topo;
	const char *engine;
	enum eng_mode mode;
	bool interrupted;
	unsigned step, nsteps;
	uint64_t step_ns;
	FILE *out;			/* the table's stream */
	struct cli_gap gap;
	struct topo_finding *tf;
	int ntf;
};

static void say(const char *msg, const char *arg)
{
	fprintf(stderr, "iostorm saturate: %s%s\n", msg, arg ? arg : "");
}

/* ---- steps ---- */

static unsigned step_qd(const struct sat *s, enum fig f)
{
	return f == F_QD1_SOLO || f == F_QD1_ALL ? 1 : s->o->qd;
}

static void keep(struct satdev *sd, enum fig f, const struct cli_dev *d)
{
	int *cpus = NULL;

	if (d->cpus && d->nworkers) {
		cpus = malloc(d->nworkers * sizeof(*cpus));
		if (cpus)
			memcpy(cpus, d->cpus, d->nworkers * sizeof(*cpus));
	}
	sd->fig[f] = *d;
	sd->fig[f].hist = NULL;
	sd->fig[f].cpus = cpus;
	sd->fig[f].nworkers = cpus ? d->nworkers : 0;
	sd->done[f] = true;
}

static void step_label(const struct sat *s, enum fig f, int only, char *buf,
		       size_t len)
{
	/* this step included: the runner's own ETA covers the step only */
	uint64_t left = (uint64_t)(s->nsteps - s->step) * s->step_ns;

	snprintf(buf, len, "step %u/%u %s QD%u %s, all done in ~%.0fs",
		 s->step + 1, s->nsteps, f == F_QD1_SOLO || f == F_QDN_SOLO ? "alone" : "all",
		 step_qd(s, f), only >= 0 ? s->dev[only].t->name : "devices",
		 (double)left / 1e9);
}

/* One step: device `only` alone, or every device (only < 0). */
static int run_step(struct sat *s, enum fig f, int only)
{
	const struct eng_target *tp[CLI_MAX_TARGETS];
	struct cli_run_spec spec = { .op = ENG_OP_READ, .targets = tp };
	struct cli_opts so = *s->o;
	struct cli_report rep;
	char label[160];
	unsigned i;
	int rc;

	if (only >= 0)
		tp[spec.ntargets++] = s->dev[only].t;
	for (i = 0; only < 0 && i < s->n; i++)
		tp[spec.ntargets++] = s->dev[i].t;
	so.qd = step_qd(s, f);
	so.batch = s->o->batch < so.qd ? s->o->batch : so.qd;
	if (f == F_QDN_REMOTE) {
		so.placement = CLI_PLACE_REMOTE;
		so.placement_set = true;
	}
	so.json = NULL;
	step_label(s, f, only, label, sizeof(label));
	spec.label = label;
	rc = cli_runner_run(&so, &spec, &rep);
	if (!rc) {
		for (i = 0; i < rep.ndev; i++)
			keep(&s->dev[only >= 0 ? (unsigned)only : i], f, &rep.dev[i]);
		s->engine = rep.engine;
		s->mode = rep.mode;
		s->interrupted |= rep.interrupted;
		if (!s->o->quiet)
			fprintf(stderr, "iostorm: %u/%u %s %s: %.0f IOPS%s\n", s->step + 1,
				s->nsteps, fig_name[f], only >= 0 ? s->dev[only].t->name : "devices",
				rep.total.iops, rep.interrupted ? " (interrupted)" : "");
	}
	cli_report_free(&rep);
	s->step++;
	return rc;
}

static int run_all(struct sat *s)
{
	unsigned i;
	int rc = 0;

	for (i = 0; i < s->n && !rc && !cli_runner_interrupted(); i++) {
		rc = run_step(s, F_QD1_SOLO, (int)i);
		if (!rc && !cli_runner_interrupted())
			rc = run_step(s, F_QDN_SOLO, (int)i);
	}
	if (!rc && !cli_runner_interrupted())
		rc = run_step(s, F_QD1_ALL, -1);
	if (!rc && !cli_runner_interrupted())
		rc = run_step(s, F_QDN_ALL, -1);
	if (!rc && s->so->compare_placement && !cli_runner_interrupted())
		rc = run_step(s, F_QDN_REMOTE, -1);
	s->interrupted |= cli_runner_interrupted();
	return rc;
}

static void plan(struct sat *s)
{
	const struct cli_opts *o = s->o;

	s->nsteps = 2 * s->n + 2 + (s->so->compare_placement ? 1 : 0);
	s->step_ns = o->ramp_ns + o->time_ns;
	fprintf(s->out, "iostorm saturate: %u device%s; each alone at QD1 then QD%u, then all at once at QD1 then QD%u%s\n",
		s->n, s->n == 1 ? "" : "s", o->qd, o->qd,
		s->so->compare_placement ? ", then all at QDn with remote workers" : "");
	if (o->time_ns)
		fprintf(s->out, "plan: %u steps of %.3gs ramp + %.3gs measured: about %.0fs\n",
			s->nsteps, (double)o->ramp_ns / 1e9, (double)o->time_ns / 1e9,
			(double)s->nsteps * (double)s->step_ns / 1e9);
	else
		fprintf(s->out, "plan: %u steps of %llu IOs per device each\n", s->nsteps,
			(unsigned long long)o->ios);
	fflush(s->out);
}

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
	const struct cli_dev *d = &sd->fig[F_QDN_ALL];
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

static void load_topology(struct sat *s)
{
	const struct topo_dev **devs;
	unsigned i, k = 0;
	int err;

	/* the machine that runs the steps: an XML export would describe
	 * another one (that is what 'iostorm topo --topology' is for) */
	err = topo_load(&s->topo, NULL, NULL);
	if (err) {
		say("no topology (NUMA nodes and PCI paths unknown): ", strerror(-err));
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

static double iops_of(const struct satdev *sd, enum fig f)
{
	return sd->done[f] ? sd->fig[f].iops : -1;
}

static double p99_of(const struct satdev *sd, enum fig f)
{
	return sd->done[f] && sd->fig[f].has_lat ? (double)sd->fig[f].lat.p99 : -1;
}

static double cpu_pct(const struct cli_dev *d)
{
	if (d->elapsed_s <= 0 || !d->nworkers)
		return -1;
	return 100.0 * (d->user_s + d->sys_s) / d->elapsed_s / d->nworkers;
}

static unsigned host_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	return (unsigned)CPU_COUNT(&set);
}

static int analyse(struct sat *s)
{
	struct cli_gap_dev *g = calloc(s->n ? s->n : 1, sizeof(*g));
	struct cli_gap_in in = { g, s->n, s->o->qd, host_cpus() };
	unsigned i;

	if (!g)
		return -ENOMEM;
	for (i = 0; i < s->n; i++) {
		struct satdev *sd = &s->dev[i];
		const struct topo_dev *td = sd->td;

		sd->off_node = off_node(sd);
		g[i] = (struct cli_gap_dev){
			.name = sd->t->name,
			.node = td && td->nnodes ? (int)td->nodes[0] : -1,
			.host_bridge = td && td->has_pci ? td->host_bridge : "",
			.upstream = td && td->has_pci ? td->upstream : "",
			.qd1_solo = iops_of(sd, F_QD1_SOLO), .qd1_all = iops_of(sd, F_QD1_ALL),
			.qdn_solo = iops_of(sd, F_QDN_SOLO), .qdn_all = iops_of(sd, F_QDN_ALL),
			.qd1_solo_p99 = p99_of(sd, F_QD1_SOLO), .qd1_all_p99 = p99_of(sd, F_QD1_ALL),
			.cpu_pct = sd->done[F_QDN_ALL] ? cpu_pct(&sd->fig[F_QDN_ALL]) : -1,
			.cpus = sd->fig[F_QDN_ALL].cpus,
			.nworkers = sd->fig[F_QDN_ALL].nworkers,
			.off_node = sd->off_node,
			.qdn_remote = iops_of(sd, F_QDN_REMOTE),
		};
	}
	cli_gap_analyse(&in, &s->gap);
	free(g);
	return 0;
}

/* ---- the table ---- */

#define IW 9	/* IOPS column */
#define LW 7	/* latency column, us */

static void put_iops(FILE *f, double v)
{
	if (v < 0)
		fprintf(f, " %*s", IW, "-");
	else
		fprintf(f, " %*.0f", IW, v);
}

static void put_lat(FILE *f, const struct satdev *sd, enum fig e, uint64_t v)
{
	char buf[32];
	double us = (double)v / 1e3;

	if (!sd || !sd->done[e] || !sd->fig[e].has_lat)
		snprintf(buf, sizeof(buf), "-");
	else if (us < 10)
		snprintf(buf, sizeof(buf), "%.2f", us);
	else if (us < 1000)
		snprintf(buf, sizeof(buf), "%.1f", us);
	else
		snprintf(buf, sizeof(buf), "%.0f", us);
	fprintf(f, " %*s", LW, buf);
}

static void put_pct(FILE *f, double v)
{
	if (!cli_gap_known(v))
		fprintf(f, " %6s", "-");
	else
		fprintf(f, " %6.1f", v);
}

static void node_str(const struct satdev *sd, char *buf, size_t len)
{
	const struct topo_dev *td = sd->td;
	size_t at = 0;
	unsigned i;

	if (!td || !td->nnodes) {
		snprintf(buf, len, "-");
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < td->nnodes && at + 12 < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%u", i ? "," : "", td->nodes[i]);
}

static void print_dev(const struct sat *s, const struct satdev *sd, int namew)
{
	FILE *f = s->out;
	char node[32];

	node_str(sd, node, sizeof(node));
	fprintf(f, "%-*s %5s", namew, sd->t->name, node);
	put_iops(f, iops_of(sd, F_QD1_SOLO));
	put_lat(f, sd, F_QD1_SOLO, sd->fig[F_QD1_SOLO].lat.p50);
	put_lat(f, sd, F_QD1_SOLO, sd->fig[F_QD1_SOLO].lat.p99);
	put_lat(f, sd, F_QD1_SOLO, sd->fig[F_QD1_SOLO].lat.p9999);
	put_iops(f, iops_of(sd, F_QD1_ALL));
	put_lat(f, sd, F_QD1_ALL, sd->fig[F_QD1_ALL].lat.p50);
	put_lat(f, sd, F_QD1_ALL, sd->fig[F_QD1_ALL].lat.p99);
	put_iops(f, iops_of(sd, F_QDN_SOLO));
	put_iops(f, iops_of(sd, F_QDN_ALL));
	put_pct(f, cli_gap_loss_pct(iops_of(sd, F_QDN_SOLO), iops_of(sd, F_QDN_ALL)));
	fputc('\n', f);
}

static void print_node(const struct sat *s, const struct cli_gap_node *n, int namew)
{
	FILE *f = s->out;
	char name[32];
	int k;

	if (n->os_index < 0)
		snprintf(name, sizeof(name), "no node");
	else
		snprintf(name, sizeof(name), "node %d", n->os_index);
	fprintf(f, "%-*s %5u", namew, name, n->ndev);
	put_iops(f, n->qd1_solo);
	for (k = 0; k < 3; k++)
		put_lat(f, NULL, F_QD1_SOLO, 0);
	put_iops(f, n->qd1_all);
	for (k = 0; k < 2; k++)
		put_lat(f, NULL, F_QD1_SOLO, 0);
	put_iops(f, n->qdn_solo);
	put_iops(f, n->qdn_all);
	put_pct(f, n->loss_pct);
	fputc('\n', f);
}

static void print_system(const struct sat *s)
{
	const struct cli_gap_sys *y = &s->gap.sys;
	FILE *f = s->out;
	char qdn[16];

	snprintf(qdn, sizeof(qdn), "QD%u", s->o->qd);
	fprintf(f, "\nsystem      sum of each alone   all at once         gap      gap%%\n");
	fprintf(f, "  %-8s", "QD1");
	put_iops(f, y->qd1_solo);
	fprintf(f, "          ");
	put_iops(f, y->qd1_all);
	fprintf(f, "   ");
	put_iops(f, y->qd1_gap);
	put_pct(f, y->qd1_gap_pct);
	fprintf(f, "\n  %-8s", qdn);
	put_iops(f, y->qdn_solo);
	fprintf(f, "          ");
	put_iops(f, y->qdn_all);
	fprintf(f, "   ");
	put_iops(f, y->qdn_gap);
	put_pct(f, y->qdn_gap_pct);
	fputc('\n', f);
}

static void print_remote(const struct sat *s)
{
	unsigned i;

	if (!s->so->compare_placement)
		return;
	fprintf(s->out, "\nplacement     local QD%u    remote QD%u  NUMA penalty%%\n", s->o->qd, s->o->qd);
	for (i = 0; i < s->n; i++) {
		const struct satdev *sd = &s->dev[i];

		fprintf(s->out, "%-12s", sd->t->name);
		put_iops(s->out, iops_of(sd, F_QDN_ALL));
		fprintf(s->out, "    ");
		put_iops(s->out, iops_of(sd, F_QDN_REMOTE));
		fprintf(s->out, "   ");
		put_pct(s->out, cli_gap_loss_pct(iops_of(sd, F_QDN_ALL), iops_of(sd, F_QDN_REMOTE)));
		fputc('\n', s->out);
	}
	if (s->topo && topo_nnodes(s->topo) < 2)
		fprintf(s->out, "(one NUMA node here: remote placement is local placement)\n");
}

static void print_report(const struct sat *s)
{
	FILE *f = s->out;
	int namew = 10, k;
	unsigned i;
	char qdn[24];

	for (i = 0; i < s->n; i++)
		if ((int)strlen(s->dev[i].t->name) > namew)
			namew = (int)strlen(s->dev[i].t->name);
	snprintf(qdn, sizeof(qdn), "QD%u IOPS", s->o->qd);
	fprintf(f, "\niostorm saturate: %s, completion %s, bs %u, QD1 and QD%u, per step ramp %.3gs time %.3gs%s\n",
		s->engine ? s->engine : "?", eng_mode_name(s->mode), s->o->bs, s->o->qd,
		(double)s->o->ramp_ns / 1e9, (double)s->o->time_ns / 1e9,
		s->interrupted ? ", INTERRUPTED" : "");
	k = namew + 6;
	fprintf(f, "%*s %-*s %-*s %-*s\n", k, "",
		IW + 3 * (LW + 1), "|-------- QD1 alone, us ---------",
		IW + 2 * (LW + 1), "|--- QD1 all at once --",
		2 * (IW + 1) + 7, qdn);
	fprintf(f, "%-*s %5s %*s %*s %*s %*s %*s %*s %*s %*s %*s %6s\n", namew, "device", "node",
		IW, "IOPS", LW, "p50", LW, "p99", LW, "p99.99", IW, "IOPS", LW, "p50",
		LW, "p99", IW, "alone", IW, "all", "loss%");
	for (i = 0; i < s->n; i++)
		print_dev(s, &s->dev[i], namew);
	for (i = 0; i < s->gap.nnodes; i++)
		print_node(s, &s->gap.nodes[i], namew);
	print_system(s);
	print_remote(s);
	fprintf(f, "\nthe gap, attributed:\n");
	for (i = 0; i < s->gap.nfind; i++)
		fprintf(f, "  - %s\n", s->gap.find[i].text);
	if (!s->gap.nfind)
		fprintf(f, "  (nothing the numbers support)\n");
	for (k = 0, i = 0; i < (unsigned)s->ntf; i++) {
		if (s->tf[i].kind == TOPO_FIND_NO_PCI)
			continue;
		if (!k++)
			fprintf(f, "topology:\n");
		fprintf(f, "  - %s\n", s->tf[i].text);
	}
	fprintf(f, "verdict: %s\n", s->gap.verdict_text);
	fflush(f);
}

/* ---- JSON ---- */

static json_t *jnum(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

static json_t *jpct(double v)
{
	return cli_gap_known(v) ? json_real(v) : json_null();
}

static json_t *fig_json(const struct satdev *sd, enum fig f, bool lat)
{
	const struct cli_dev *d = &sd->fig[f];
	json_t *j;

	if (!sd->done[f])
		return json_null();
	j = json_pack("{s:f, s:I, s:I, s:f, s:f}", "iops", d->iops,
		      "ios", (json_int_t)d->ios, "errors", (json_int_t)d->errors,
		      "elapsed_s", d->elapsed_s, "cpu_pct", cpu_pct(d) < 0 ? 0.0 : cpu_pct(d));
	if (j && lat)
		json_object_set_new(j, "lat_ns", cli_json_lat(d));
	return j;
}

static json_t *nodes_of(const struct satdev *sd)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && sd->td && i < sd->td->nnodes; i++)
		json_array_append_new(a, json_integer(sd->td->nodes[i]));
	return a;
}

static json_t *dev_json(const struct sat *s, const struct satdev *sd)
{
	const struct topo_dev *td = sd->td;
	json_t *j;

	j = json_pack("{s:s, s:s, s:o, s:s?, s:s?, s:{s:o, s:o}, s:{s:o, s:o}, s:o, s:o, s:b}",
		      "name", sd->t->name, "path", sd->t->path,
		      "numa_nodes", nodes_of(sd),
		      "host_bridge", td && td->has_pci ? td->host_bridge : NULL,
		      "upstream", td && td->has_pci ? td->upstream : NULL,
		      "qd1", "solo", fig_json(sd, F_QD1_SOLO, true),
		      "all", fig_json(sd, F_QD1_ALL, true),
		      "qdn", "solo", fig_json(sd, F_QDN_SOLO, true),
		      "all", fig_json(sd, F_QDN_ALL, true),
		      "loss_pct", jpct(cli_gap_loss_pct(iops_of(sd, F_QDN_SOLO), iops_of(sd, F_QDN_ALL))),
		      "qd1_loss_pct", jpct(cli_gap_loss_pct(iops_of(sd, F_QD1_SOLO), iops_of(sd, F_QD1_ALL))),
		      "off_node", sd->off_node);
	if (j && s->so->compare_placement) {
		json_object_set_new(json_object_get(j, "qdn"), "remote",
				    fig_json(sd, F_QDN_REMOTE, true));
		json_object_set_new(j, "numa_penalty_pct",
				    jpct(cli_gap_loss_pct(iops_of(sd, F_QDN_ALL),
							  iops_of(sd, F_QDN_REMOTE))));
	}
	return j;
}

static json_t *sys_json(const struct sat *s)
{
	const struct cli_gap_sys *y = &s->gap.sys;

	return json_pack("{s:I, s:{s:o, s:o, s:o, s:o}, s:{s:o, s:o, s:o, s:o}}",
			 "qd", (json_int_t)s->o->qd,
			 "qd1", "solo_sum_iops", jnum(y->qd1_solo), "all_iops", jnum(y->qd1_all),
			 "gap_iops", jnum(y->qd1_gap), "gap_pct", jpct(y->qd1_gap_pct),
			 "qdn", "solo_sum_iops", jnum(y->qdn_solo), "all_iops", jnum(y->qdn_all),
			 "gap_iops", jnum(y->qdn_gap), "gap_pct", jpct(y->qdn_gap_pct));
}

static json_t *node_json(const struct cli_gap_node *n)
{
	return json_pack("{s:o, s:I, s:o, s:o, s:o, s:o, s:o}",
			 "os_index", n->os_index < 0 ? json_null() : json_integer(n->os_index),
			 "ndevices", (json_int_t)n->ndev,
			 "solo_sum_iops", jnum(n->qdn_solo), "all_iops", jnum(n->qdn_all),
			 "qd1_solo_sum_iops", jnum(n->qd1_solo), "qd1_all_iops", jnum(n->qd1_all),
			 "loss_pct", jpct(n->loss_pct));
}

static json_t *report_json(const struct sat *s)
{
	struct cli_report meta;
	json_t *j, *devs, *nodes, *find, *tf;
	unsigned i;

	memset(&meta, 0, sizeof(meta));
	meta.command = "saturate";
	meta.engine = s->engine;
	meta.mode = s->mode;
	devs = json_array();
	nodes = json_array();
	find = json_array();
	tf = json_array();
	for (i = 0; devs && i < s->n; i++)
		json_array_append_new(devs, dev_json(s, &s->dev[i]));
	for (i = 0; nodes && i < s->gap.nnodes; i++)
		json_array_append_new(nodes, node_json(&s->gap.nodes[i]));
	for (i = 0; find && i < s->gap.nfind; i++)
		json_array_append_new(find, json_pack("{s:s, s:s?, s:s}", "kind",
						      cli_gap_kind_name(s->gap.find[i].kind),
						      "device", s->gap.find[i].device[0] ? s->gap.find[i].device : NULL,
						      "text", s->gap.find[i].text));
	for (i = 0; tf && i < (unsigned)s->ntf; i++)
		json_array_append_new(tf, json_pack("{s:s, s:s?, s:s}", "kind",
						    topo_finding_kind_name(s->tf[i].kind),
						    "device", s->tf[i].device[0] ? s->tf[i].device : NULL,
						    "text", s->tf[i].text));
	j = json_pack("{s:s, s:s, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:{s:s, s:s}}",
		      "schema", CLI_JSON_SCHEMA, "command", "saturate",
		      "config", cli_json_config(s->o, &meta),
		      "compare_placement", s->so->compare_placement,
		      "devices", devs, "nodes", nodes, "system", sys_json(s),
		      "findings", find, "topology_findings", tf,
		      "verdict", "kind", cli_gap_verdict_name(s->gap.verdict),
		      "text", s->gap.verdict_text);
	if (j)
		json_object_set_new(j, "interrupted", json_boolean(s->interrupted));
	return j;
}

static int write_json(const struct sat *s)
{
	char err[512];
	json_t *j;

	if (!s->o->json)
		return CLI_EXIT_OK;
	j = report_json(s);
	if (!j) {
		say("cannot build the JSON report (out of memory)", NULL);
		return CLI_EXIT_RUNTIME;
	}
	if (cli_json_write(j, s->o->json, err, sizeof(err))) {
		say("--json ", err);
		json_decref(j);
		return CLI_EXIT_RUNTIME;
	}
	json_decref(j);
	return CLI_EXIT_OK;
}

/* ---- the run ---- */

int cli_sat_cmdline(struct cli_opts *o, const char *cmd, int argc, char **argv,
		    const char *synopsis, const struct cli_opt_extra *extra,
		    cli_opt_cb cb, void *ctx, uint32_t qd, uint64_t ramp_ns,
		    uint64_t time_ns)
{
	cli_opts_init(o, cmd, CLI_OG_TARGET);
	o->qd = qd;
	o->ramp_ns = ramp_ns;
	o->time_ns = time_ns;
	return cli_opts_cmdline_parse(o, argc, argv, synopsis, extra, cb, ctx);
}

static void sat_free(struct sat *s)
{
	unsigned i, f;

	for (i = 0; s->dev && i < s->n; i++)
		for (f = 0; f < F_N; f++)
			free(s->dev[i].fig[f].cpus);
	free(s->dev);
	free(s->tf);
	if (s->topo)
		topo_free(s->topo);
	cli_targets_close(&s->ts);
}

int cli_saturate_run(const struct cli_opts *o, const struct cli_sat_opts *so)
{
	struct sat s;
	unsigned i;
	int rc;

	memset(&s, 0, sizeof(s));
	s.o = o;
	s.so = so;
	s.out = o->json && !strcmp(o->json, "-") ? stderr : stdout;
	if (!o->ntargets || o->ntargets > CLI_MAX_TARGETS) {
		say(o->ntargets ? "too many targets" : "no TARGET given", NULL);
		return CLI_EXIT_USAGE;
	}
	rc = cli_targets_open(&s.ts, o);
	if (rc)
		return rc;
	s.n = s.ts.n;
	s.dev = calloc(s.n, sizeof(*s.dev));
	if (!s.dev) {
		say("out of memory", NULL);
		sat_free(&s);
		return CLI_EXIT_RUNTIME;
	}
	for (i = 0; i < s.n; i++)
		s.dev[i].t = &s.ts.t[i];
	load_topology(&s);
	plan(&s);
	rc = run_all(&s);
	if (!rc && analyse(&s)) {
		say("out of memory", NULL);
		rc = CLI_EXIT_RUNTIME;
	}
	if (!rc) {
		print_report(&s);
		rc = write_json(&s);
	}
	sat_free(&s);
	return rc;
}
