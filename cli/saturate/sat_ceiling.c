/* saturate's ceiling: the model of the path from each device to
 * memory, on what this run measured. Each device's demand is its solo QDn
 * IOPS; its links come from the topology; each node's memory write
 * bandwidth is measured here, after the steps (topo/membw.h); each node's
 * CPU is the IOs per CPU-second its workers did in the solo QDn steps
 * times its cores (and what SMT added, where measured). The model predicts
 * the whole system's IOPS and the resource that binds, set against the
 * all-at-once QDn step. Devices that failed a step are left out, as in
 * the sums. */
#include "cli/saturate/sat_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/plan/ceil_out.h"
#include "cli/report/out.h"
#include "cli/plan/plan.h"
#include "topo/membw.h"

#define MEMBW_BUDGET_NS (CLI_NS_PER_S / 2)
/* The measurement this far below the model is "well short": said. */
#define SHORT_PCT 20.0

/* The NUMA node a device's workers and DMA belong to: its locality's
 * first node, or the machine's only one; -1 unknown. */
static int dev_node(const struct sat *s, const struct satdev *sd)
{
	if (sd->td && sd->td->nnodes)
		return (int)sd->td->nodes[0];
	return topo_nnodes(s->topo) == 1 ? (int)topo_node(s->topo, 0)->os_index : -1;
}

/* Each node some healthy device uses: its memory bandwidth, measured. */
static int measure_memory(struct sat *s)
{
	struct topo_membw bw;
	unsigned i, k;
	int node, err;

	for (i = 0; i < s->n; i++) {
		node = s->dev[i].failed ? -1 : dev_node(s, &s->dev[i]);
		for (k = 0; node >= 0 && k < s->ceil.nmem; k++)
			if (s->ceil.mem[k].node == (unsigned)node)
				node = -1;
		if (node < 0 || s->ceil.nmem == SAT_CEIL_MAX_NODES)
			continue;
		if (!s->o->quiet)
			cli_say("measuring node %d's memory write bandwidth", node);
		err = topo_membw_measure(s->topo, (unsigned)node, MEMBW_BUDGET_NS, &bw);
		if (err) {
			cli_say("node %d's memory bandwidth: %s: left unknown", node, strerror(-err));
			continue;
		}
		s->ceil.mem[s->ceil.nmem].node = (unsigned)node;
		s->ceil.mem[s->ceil.nmem].bytes_s = bw.bytes_s;
		s->ceil.mem_threads[s->ceil.nmem++] = bw.threads;
	}
	return 0;
}

/* Per node: the solo QDn steps' IOs over their workers' CPU seconds, the
 * cost every report gives (model/cost.h) on the node's sums. */
static void cpu_rates(struct sat *s)
{
	double user_s[SAT_CEIL_MAX_NODES] = { 0 }, sys_s[SAT_CEIL_MAX_NODES] = { 0 };
	uint64_t ios[SAT_CEIL_MAX_NODES] = { 0 };
	struct model_cost c;
	const struct cli_dev *d;
	unsigned i, k;
	int node;


	for (i = 0; i < s->n; i++) {
		d = &s->dev[i].fig[SAT_QDN_SOLO];
		node = dev_node(s, &s->dev[i]);
		if (s->dev[i].failed || !s->dev[i].done[SAT_QDN_SOLO] || node < 0)
			continue;
		for (k = 0; k < s->ceil.ncpu && s->ceil.cpu[k].node != (unsigned)node; k++)
			;
		if (k == s->ceil.ncpu) {
			if (k == SAT_CEIL_MAX_NODES)
				continue;
			s->ceil.cpu[s->ceil.ncpu++] = (struct cli_plan_cpu){ (unsigned)node, 0, 1 };
		}
		user_s[k] += d->user_s;
		sys_s[k] += d->sys_s;
		ios[k] += d->cpu_ios;
	}
	for (k = 0; k < s->ceil.ncpu; k++) {
		s->ceil.cpu[k].ios_per_cpu_s = !model_cost(user_s[k], sys_s[k], ios[k], &c) &&
			model_cost_known(c.ios_per_cpu_s) ? c.ios_per_cpu_s : 0;
		s->ceil.cpu[k].smt = s->smt.ratio > 1 ? s->smt.ratio : 1;
	}
}

/* The healthy devices with their solo QDn IOPS. 0, -ENOMEM, -ENODATA. */
static int build(struct sat *s)
{
	const struct topo_dev **devs = calloc(s->n, sizeof(*devs));
	const char **names = calloc(s->n, sizeof(*names));
	struct cli_plan_rate *rates = calloc(s->n, sizeof(*rates));
	struct cli_plan_figs f = { .bs = s->o->bs, .mems = s->ceil.mem, .nmems = s->ceil.nmem,
				   .cpus = s->ceil.cpu, .ncpus = s->ceil.ncpu };
	unsigned i;
	int err = -ENOMEM;

	if (!devs || !names || !rates)
		goto out;
	for (i = 0; i < s->n; i++) {
		const struct satdev *sd = &s->dev[i];

		if (sd->failed || !sd->td || !sd->done[SAT_QDN_SOLO])
			continue;
		devs[f.ndevs] = sd->td;
		names[f.ndevs] = sd->t->name;
		snprintf(rates[f.ndevs].name, sizeof(rates[f.ndevs].name), "%s", sd->t->name);
		rates[f.ndevs++].iops = sd->fig[SAT_QDN_SOLO].iops;
	}
	f.devs = devs;
	f.names = names;
	f.rates = rates;
	f.nrates = f.ndevs;
	err = f.ndevs ? cli_plan_build(s->topo, &f, &s->ceil.plan) : -ENODATA;
out:
	free(devs);
	free(names);
	free(rates);
	return err;
}

int cli_sat_ceiling(struct sat *s)
{
	int err;

	if (!s->topo) {
		snprintf(s->ceil.why_not, sizeof(s->ceil.why_not), "no topology");
		return 0;
	}
	if (s->o->rate) {
		snprintf(s->ceil.why_not, sizeof(s->ceil.why_not),
			 "--rate held every step to the rate asked: none measured a drive's capacity");
		return 0;
	}
	if (!model_gap_known(s->gap.sys.qdn_all)) {
		snprintf(s->ceil.why_not, sizeof(s->ceil.why_not),
			 "the all-at-once QDn step was not measured");
		return 0;
	}
	measure_memory(s);
	cpu_rates(s);
	err = build(s);
	if (err == -ENODATA) {
		snprintf(s->ceil.why_not, sizeof(s->ceil.why_not), "no healthy device was measured alone");
		return 0;
	}
	if (!err)
		err = model_ceil_init(&s->ceil.m, &s->ceil.plan.in);
	if (err)
		return err == -ENOMEM ? err : -EINVAL;
	s->ceil.m_init = true;
	model_ceil_solve(&s->ceil.m);
	err = cli_ceil_snap_take(&s->ceil.m, &s->ceil.snap);
	if (err)
		return err;
	s->ceil.measured = s->gap.sys.qdn_all;
	s->ceil.done = true;
	return 0;
}

void cli_sat_ceiling_free(struct sat *s)
{
	cli_ceil_snap_free(&s->ceil.snap);
	if (s->ceil.m_init)
		model_ceil_free(&s->ceil.m);
	cli_plan_free(&s->ceil.plan);
}

/* How far the measurement falls short of the model, in percent. */
static double short_pct(const struct sat *s)
{
	const double p = s->ceil.snap.predicted;

	return p > 0 ? 100.0 * (p - s->ceil.measured) / p : 0;
}

/* What the shortfall is put to: the verdict's own cause where it names
 * one (model/gap.c: CPU-sharing or CPU-bound workers, a shared link or
 * backing disk, workers off their node, throttling, or alone steps the
 * machine disturbed), so that the model and the verdict tell one story;
 * else the settings check found, else nothing known (MODEL_GAP_NVERDICTS). */
static bool verdict_is_cause(enum model_gap_verdict v)
{
	return v == MODEL_GAP_V_HOST || v == MODEL_GAP_V_LINK || v == MODEL_GAP_V_BACKING ||
	       v == MODEL_GAP_V_PLACEMENT || v == MODEL_GAP_V_THERMAL || v == MODEL_GAP_V_NOISY;
}

void cli_sat_print_ceiling(const struct sat *s)
{
	FILE *f = s->out;
	char bind[256], names[512];
	unsigned k;

	if (!s->ceil.done) {
		fprintf(f, "\nceiling: not modelled (%s)\n", s->ceil.why_not);
		return;
	}
	fprintf(f, "\nceiling: the model on measured inputs (solo QD%u IOPS, links, memory, CPU)\n",
		s->o->qd);
	for (k = 0; k < s->ceil.nmem; k++)
		fprintf(f, "  memory write bandwidth, node %u: %.1f GB/s (%u threads, measured now)\n",
			s->ceil.mem[k].node, s->ceil.mem[k].bytes_s / 1e9, s->ceil.mem_threads[k]);
	for (k = 0; k < s->ceil.ncpu; k++)
		fprintf(f, "  CPU, node %u: %.0f IOs per CPU-second in the solo steps%s\n",
			s->ceil.cpu[k].node, s->ceil.cpu[k].ios_per_cpu_s,
			s->smt.ratio > 1 ? ", SMT counted as measured" : "");
	cli_ceil_print(f, &s->ceil.m, &s->ceil.snap);
	cli_ceil_binding_text(bind, sizeof(bind), &s->ceil.m, &s->ceil.snap);
	fprintf(f, "predicted: %.0f IOPS; measured all at once: %.0f IOPS (%.0f%% of the prediction)\n",
		s->ceil.snap.predicted, s->ceil.measured,
		s->ceil.snap.predicted > 0 ? 100.0 * s->ceil.measured / s->ceil.snap.predicted : 0.0);
	fprintf(f, "binding: %s\n", bind);
	if (short_pct(s) < SHORT_PCT)
		return;
	if (verdict_is_cause(s->gap.healthy))
		fprintf(f, "the measurement falls %.0f%% short of the model; the verdict below names the cause (%s), which the model's resources do not hold\n",
			short_pct(s), model_gap_verdict_name(s->gap.healthy));
	else if (cli_check_names(&s->check, names, sizeof(names), NULL) > 0)
		fprintf(f, "the measurement falls %.0f%% short of the model; settings the model does not see cost IOPS on these targets: %s (iostorm check says what each costs and how to change it)\n",
			short_pct(s), names);
	else
		fprintf(f, "the measurement falls %.0f%% short of the model: what remains unexplained may be CPU time the workers' own counters do not see (interrupts, kernel threads such as a loop device's), a fabric limit or the IO die, which no file on the machine describes\n",
			short_pct(s));
}

/* The kinds of the settings that cost IOPS on the targets, as check's
 * JSON names them. */
static json_t *settings_json(const struct sat *s)
{
	bool seen[CHECK_NKINDS] = { false };
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < s->check.nf; i++) {
		enum check_kind k = s->check.f[i].kind;

		if (seen[k])
			continue;
		seen[k] = true;
		json_array_append_new(a, json_string(check_kind_info(k)->name));
	}
	return a ? a : json_null();
}

/* The shortfall's cause as the text puts it: the verdict's kind, or
 * "settings", or "unknown"; null where the measurement is not well short. */
static json_t *shortfall_json(const struct sat *s)
{
	char names[512];

	if (short_pct(s) < SHORT_PCT)
		return json_null();
	if (verdict_is_cause(s->gap.healthy))
		return json_string(model_gap_verdict_name(s->gap.healthy));
	if (cli_check_names(&s->check, names, sizeof(names), NULL) > 0)
		return json_string("settings");
	return json_string("unknown");
}

json_t *cli_sat_ceiling_json(const struct sat *s)
{
	const struct model_ceil *m = &s->ceil.m;
	const int b = s->ceil.snap.binding;
	json_t *mem, *cpu;
	char bind[256];
	unsigned k;

	if (!s->ceil.done)
		return json_null();
	mem = json_array();
	cpu = json_array();
	for (k = 0; mem && k < s->ceil.nmem; k++)
		json_array_append_new(mem, json_pack("{s:I, s:f}", "node",
						     (json_int_t)s->ceil.mem[k].node,
						     "bytes_s", s->ceil.mem[k].bytes_s));
	for (k = 0; cpu && k < s->ceil.ncpu; k++)
		json_array_append_new(cpu, json_pack("{s:I, s:f, s:f}", "node",
						     (json_int_t)s->ceil.cpu[k].node,
						     "ios_per_cpu_s", s->ceil.cpu[k].ios_per_cpu_s,
						     "smt", s->ceil.cpu[k].smt));
	cli_ceil_binding_text(bind, sizeof(bind), m, &s->ceil.snap);
	return json_pack("{s:o, s:f, s:f, s:o, s:o, s:s, s:f, s:b, s:o, s:o, s:o, s:o}",
			 "resources", cli_ceil_resources_json(m, &s->ceil.snap),
			 "predicted_iops", s->ceil.snap.predicted,
			 "demand_iops", s->ceil.snap.demand,
			 "binding", b < 0 ? json_string("drive") : json_string(m->res[b].name),
			 "binding_kind", b < 0 ? json_string("drive") :
				json_string(model_ceil_kind_name(m->res[b].kind)),
			 "binding_text", bind,
			 "measured_iops", s->ceil.measured,
			 "well_short", short_pct(s) >= SHORT_PCT,
			 "shortfall_cause", shortfall_json(s),
			 "memory", mem ? mem : json_null(), "cpu", cpu ? cpu : json_null(),
			 "settings", settings_json(s));
}
