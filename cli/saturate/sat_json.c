/* saturate's report as JSON (docs/json.md): every device's figures per
 * step, the node and system sums, the findings and the verdict. A step
 * that did not run is null. */
#include "cli/saturate/sat_int.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "cli/report/drive_json.h"
#include "cli/report/json.h"
#include "cli/report/openloop.h"
#include "cli/report/setup_json.h"
#include "cli/report/spread.h"
#include "cli/words/findings_words.h"

/* An IOPS figure or gap: null when unknown, and a gap where all at once
 * beat the sum alone (negative) is null too. */
static json_t *jnum(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

static json_t *jpct(double v)
{
	return model_gap_known(v) ? json_real(v) : json_null();
}

static json_t *fig_json(const struct satdev *sd, enum sat_fig f, bool lat)
{
	const struct cli_dev *d = &sd->fig[f];
	/* the step's average per worker; the CPU-bound rule reads the busiest */
	double cpu = model_gap_cpu_pct(d->user_s + d->sys_s, d->elapsed_s, d->nworkers);
	json_t *j;

	if (!sd->done[f])
		return json_null();
	j = json_pack("{s:f, s:I, s:I, s:f, s:f}", "iops", d->iops,
		      "ios", (json_int_t)d->ios, "errors", (json_int_t)d->errors,
		      "elapsed_s", d->elapsed_s, "cpu_pct", model_gap_known(cpu) ? cpu : 0.0);
	if (j && lat)
		json_object_set_new(j, "lat_ns", cli_json_lat(d));
	if (j)
		json_object_set_new(j, "timeline", cli_json_timeline(&d->tl));
	if (j)
		json_object_set_new(j, "repeats", cli_json_repeats(d));
	if (j)
		json_object_set_new(j, "open_loop", cli_open_json(d));
	if (j)
		json_object_set_new(j, "cpu", cli_json_cpu(d));
	return j;
}

/* Step f's cost over the devices the system sums cover; null where none
 * of them ran it. */
static json_t *sys_cpu(const struct sat *s, enum sat_fig f)
{
	struct cli_dev sum;

	return cli_sat_cpu_sum(s, f, &sum) ? cli_json_cpu(&sum) : json_null();
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
		      "qd1", "solo", fig_json(sd, SAT_QD1_SOLO, true),
		      "all", fig_json(sd, SAT_QD1_ALL, true),
		      "qdn", "solo", fig_json(sd, SAT_QDN_SOLO, true),
		      "all", fig_json(sd, SAT_QDN_ALL, true),
		      "loss_pct", jpct(model_gap_loss_pct(cli_sat_iops(sd, SAT_QDN_SOLO), cli_sat_iops(sd, SAT_QDN_ALL))),
		      "qd1_loss_pct", jpct(model_gap_loss_pct(cli_sat_iops(sd, SAT_QD1_SOLO), cli_sat_iops(sd, SAT_QD1_ALL))),
		      "off_node", sd->off_node);
	if (j)
		json_object_set_new(j, "failed", sd->failed ? json_string(sd->why) : json_null());
	if (j)
		json_object_set_new(j, "drive", cli_json_drive(cli_drive_find(sd->t->path)));
	if (j && s->so->compare_placement) {
		json_object_set_new(json_object_get(j, "qdn"), "remote",
				    fig_json(sd, SAT_QDN_REMOTE, true));
		json_object_set_new(j, "numa_penalty_pct",
				    jpct(model_gap_loss_pct(cli_sat_iops(sd, SAT_QDN_ALL),
							  cli_sat_iops(sd, SAT_QDN_REMOTE))));
	}
	return j;
}

/* The devices the system sums cover: those that failed no step. */
static json_t *covered(const struct sat *s)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < s->n; i++)
		if (!s->dev[i].failed)
			json_array_append_new(a, json_string(s->dev[i].t->name));
	return a;
}

static json_t *sys_json(const struct sat *s)
{
	const struct model_gap_sys *y = &s->gap.sys;

	return json_pack("{s:I, s:o, s:{s:o, s:o, s:o, s:o, s:o, s:o},"
			 " s:{s:o, s:o, s:o, s:o, s:o, s:o}}",
			 "qd", (json_int_t)s->o->qd, "devices", covered(s),
			 "qd1", "solo_sum_iops", jnum(y->qd1_solo), "all_iops", jnum(y->qd1_all),
			 "gap_iops", jnum(y->qd1_gap), "gap_pct", jpct(y->qd1_gap_pct),
			 "solo_cpu", sys_cpu(s, SAT_QD1_SOLO), "all_cpu", sys_cpu(s, SAT_QD1_ALL),
			 "qdn", "solo_sum_iops", jnum(y->qdn_solo), "all_iops", jnum(y->qdn_all),
			 "gap_iops", jnum(y->qdn_gap), "gap_pct", jpct(y->qdn_gap_pct),
			 "solo_cpu", sys_cpu(s, SAT_QDN_SOLO), "all_cpu", sys_cpu(s, SAT_QDN_ALL));
}

static json_t *node_json(const struct model_gap_node *n)
{
	return json_pack("{s:o, s:I, s:o, s:o, s:o, s:o, s:o}",
			 "os_index", n->os_index < 0 ? json_null() : json_integer(n->os_index),
			 "ndevices", (json_int_t)n->ndev,
			 "solo_sum_iops", jnum(n->qdn_solo), "all_iops", jnum(n->qdn_all),
			 "qd1_solo_sum_iops", jnum(n->qd1_solo), "qd1_all_iops", jnum(n->qd1_all),
			 "loss_pct", jpct(n->loss_pct));
}

static json_t *bridge_json(const struct model_gap_bridge *b)
{
	return json_pack("{s:o, s:I, s:o, s:o, s:o, s:o, s:o}",
			 "id", b->id[0] ? json_string(b->id) : json_null(),
			 "ndevices", (json_int_t)b->ndev,
			 "solo_sum_iops", jnum(b->qdn_solo), "all_iops", jnum(b->qdn_all),
			 "qd1_solo_sum_iops", jnum(b->qd1_solo), "qd1_all_iops", jnum(b->qd1_all),
			 "loss_pct", jpct(b->loss_pct));
}

/* The SMT steps, or null where the machine has no core with two PUs. */
/* The setup of the targets saturate measured. */
static json_t *sat_setup_json(const struct sat *s)
{
	const char *paths[CLI_MAX_TARGETS];
	unsigned i;

	for (i = 0; i < s->n; i++)
		paths[i] = s->dev[i].t->path;
	return cli_json_setup(paths, s->n);
}

static json_t *smt_json(const struct sat *s)
{
	if (!s->smt.tried)
		return json_null();
	return json_pack("{s:s, s:[i, i], s:o, s:o, s:o, s:o}", "device", s->smt.dev,
			 "cpus", s->smt.pu[0], s->smt.pu[1],
			 "one_pu_iops", jnum(s->smt.one), "both_pus_iops", jnum(s->smt.both),
			 "one_pu_busy_pct", jpct(s->smt.one_busy_pct),
			 "ratio", s->smt.ratio >= 0 ? json_real(s->smt.ratio) : json_null());
}

/* The figures a gap finding's text is said from, [{name, value}] by the
 * names model/gap.c gives them; device_loss's worst devices as a worst
 * (the name) and a worst_pct (its loss) each. */
static json_t *gap_values(const struct model_gap_finding *f)
{
	const char *const *names = model_gap_num_names(f->kind);
	json_t *a = json_array();
	unsigned i;

	/* a figure the run did not measure (the noise during a step) is null */
	for (i = 0; a && i < MODEL_GAP_NUMS && names[i]; i++)
		json_array_append_new(a, json_pack("{s:s, s:o}", "name", names[i], "value",
						   isfinite(f->num[i]) ? json_real(f->num[i])
								       : json_null()));
	for (i = 0; a && i < f->ntop && i < MODEL_GAP_TOP; i++) {
		json_array_append_new(a, json_pack("{s:s, s:s}", "name", "worst", "value",
						   f->top[i]));
		json_array_append_new(a, json_pack("{s:s, s:f}", "name", "worst_pct", "value",
						   f->top_pct[i]));
	}
	return a;
}

json_t *cli_sat_json(const struct sat *s)
{
	struct cli_report meta;
	json_t *j, *devs, *nodes, *find, *tf;
	char text[CLI_GAP_WORDS_MAX];
	unsigned i;

	memset(&meta, 0, sizeof(meta));
	meta.command = "saturate";
	meta.engine = s->engine;
	meta.mode = s->mode;
	meta.unfixed_bufs = s->unfixed;
	devs = json_array();
	nodes = json_array();
	find = json_array();
	tf = json_array();
	for (i = 0; devs && i < s->n; i++)
		json_array_append_new(devs, dev_json(s, &s->dev[i]));
	for (i = 0; nodes && i < s->gap.nnodes; i++)
		json_array_append_new(nodes, node_json(&s->gap.nodes[i]));
	for (i = 0; find && i < s->gap.nfind; i++) {
		cli_gap_text(&s->gap.find[i], text, sizeof(text));
		json_array_append_new(find, json_pack("{s:s, s:s?, s:s, s:o}", "kind",
						      model_gap_kind_name(s->gap.find[i].kind),
						      "device", s->gap.find[i].device[0] ? s->gap.find[i].device : NULL,
						      "text", text, "values", gap_values(&s->gap.find[i])));
	}
	for (i = 0; tf && i < (unsigned)s->ntf; i++) {
		char ttext[CLI_TOPO_WORDS_MAX];

		cli_topo_text(&s->tf[i], ttext, sizeof(ttext));
		json_array_append_new(tf, json_pack("{s:s, s:s?, s:s}", "kind",
						    topo_finding_kind_name(s->tf[i].kind),
						    "device", s->tf[i].device[0] ? s->tf[i].device : NULL,
						    "text", ttext));
	}
	cli_gap_verdict_text(&s->gap, text, sizeof(text));
	j = json_pack("{s:s, s:s, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:{s:s, s:s}}",
		      "schema", CLI_JSON_SCHEMA, "command", "saturate",
		      "config", cli_json_config(s->o, &meta),
		      "compare_placement", s->so->compare_placement,
		      "devices", devs, "nodes", nodes, "system", sys_json(s),
		      "findings", find, "topology_findings", tf,
		      "verdict", "kind", model_gap_verdict_name(s->gap.verdict),
		      "text", text);
	if (j) {
		json_t *hb = json_array();

		for (i = 0; hb && i < s->gap.nbridges; i++)
			json_array_append_new(hb, bridge_json(&s->gap.bridges[i]));
		json_object_set_new(j, "host_bridges", hb ? hb : json_null());
		json_object_set_new(j, "smt", smt_json(s));
		json_object_set_new(j, "ceiling", cli_sat_ceiling_json(s));
		json_object_set_new(j, "interrupted", json_boolean(s->interrupted));
		json_object_set_new(j, "setup", sat_setup_json(s));
		json_object_set_new(j, "slo", cli_sat_slo_json(s));
		json_object_set_new(j, "placement_notes", cli_json_place_notes(s->place_notes));
	}
	return j;
}
