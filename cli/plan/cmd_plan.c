/* iostorm plan: the ceiling model on a topology (an lstopo export, or this
 * machine without running IO) and the drive rates given or measured: which
 * part of the machine caps the IOPS, and which drive to move to which free
 * root port, one move at a time, with the ceiling after each; where the
 * topology lists no free root port at all, what moving a drive the binding
 * resource holds back onto each other host bridge would give, if it has a
 * free slot. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/plan/ceil_out.h"
#include "cli/commands.h"
#include "cli/out/out.h"
#include "cli/out/setup_json.h"
#include "cli/topo/topo_load.h"
#include "cli/plan/plan.h"
#include "cli/plan/plan_from.h"
#include "cli/topo/topo_dot.h"
#include "model/ceiling.h"
#include "topo/topo.h"

#define MAX_IOPS 1000000000000ull	/* 10^12: no drive comes near */
#define MAX_BW 100000000000000ull	/* 100 TB/s */

static int set_from(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	if (!*arg) {
		snprintf(err, errlen, "--from: the file name is empty");
		return -EINVAL;
	}
	o->from = arg;
	return 0;
}

static int set_drive_iops(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_count("--drive-iops", arg, 1, MAX_IOPS, &o->drive_iops, err, errlen);
}

static int set_memory_bw(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_count("--memory-bw", arg, 1, MAX_BW, &o->memory_bw, err, errlen);
}

static int set_bridge_bw(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_count("--host-bridge-bw", arg, 1, MAX_BW, &o->bridge_bw, err, errlen);
}

static int set_bs(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	uint64_t v;
	int rc = cli_parse_size("--bs", arg, 1, CLI_MAX_BS, &v, err, errlen);

	if (rc)
		return rc;
	if (v & (v - 1)) {
		snprintf(err, errlen, "--bs: '%s' is not a power of two", arg);
		return -EINVAL;
	}
	o->bs = (uint32_t)v;
	o->bs_set = true;
	return 0;
}

static int show_bs(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_size(o->bs, buf, len);
}

static const struct cli_optdesc own[] = {
	{ "bs", 'b', "SIZE", 0, 0, set_bs, show_bs, NULL,
	  "bytes per read the figures are for: a power of two\n"
	  "up to 1m; with --from, the report's" },
	{ "drive-iops", 0x301, "N", 0, 0, set_drive_iops, NULL, NULL,
	  "each drive's IOPS alone (1k = 1000); with --from,\n"
	  "for the drives the report did not measure" },
	{ "memory-bw", 0x302, "BYTES/s", 0, 0, set_memory_bw, NULL, NULL,
	  "each node's memory write bandwidth (150g = 150 GB/s);\n"
	  "without it: unknown, no limit" },
	{ "host-bridge-bw", 0x304, "BYTES/s", 0, 0, set_bridge_bw, NULL, NULL,
	  "each host bridge's (root complex's) bandwidth, from\n"
	  "the platform's documents (an AMD EPYC quadrant,\n"
	  "an Intel stack); without it: the sum of its root ports" },
	{ "from", 0x303, "FILE", 0, 0, set_from, NULL, NULL,
	  "a saturate --json report: each drive's solo QDn\n"
	  "IOPS and each node's IOs per CPU-second" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL, NULL },
};

static int cmd_plan(int argc, char **argv);

const struct cli_verb cli_verb_plan = {
	.name = "plan",
	.what = "which part of the machine caps the IOPS, and which drive to move",
	.synopsis = "iostorm plan [--topology FILE.xml] [--drive-iops N] [--memory-bw BYTES/s]\n"
		"             [--host-bridge-bw BYTES/s] [--bs SIZE] [--from saturate.json]\n"
		"             [--json FILE|-] [--dot]\n\n"
		"The ceiling model without running IO: each drive's demand through its\n"
		"links, switches, host bridge, node memory and CPU; the predicted IOPS\n"
		"and the resource that binds; then the drive moves to free root ports\n"
		"that raise the ceiling most, one at a time. A capacity nothing gives\n"
		"is unknown and limits nothing; the report says which.",
	.operands = CLI_OPERANDS_NONE,
	.groups = CLI_OG_JSON | CLI_OG_TOPO,
	.own = own,
	.run = cmd_plan,
};

/* What-if moves (model_ceil_what_if), when the topology lists no free
 * root port. */
struct whatifs {
	struct model_ceil_what_if *w;
	unsigned n;
};

/* ---- text ---- */

/* The condition a what-if move holds on, said once for text (JSON:
 * needs_free_slot). */
static const char *slot_mark(const struct cli_opts *o)
{
	return o->topology ? "if it has a free slot (this export lists no empty slot: take it "
			     "with lstopo --filter bridge:all)" :
			     "if it has a free slot (hwloc shows no empty one on this machine)";
}

/* What the model could not know, one line each. */
static void print_unknown(FILE *out, const struct cli_plan *p, const struct model_ceil *m,
			  const struct cli_opts *o)
{
	unsigned i, nmem = 0, ncpu = 0;

	for (i = 0; i < m->nin; i++) {
		if (!isinf(m->fig[i].capacity) || !m->fig[i].ndrives)
			continue;
		nmem += m->res[i].kind == MODEL_CEIL_MEMORY;
		ncpu += m->res[i].kind == MODEL_CEIL_CPU;
	}
	if (nmem)
		fprintf(out, "  unknown: the memory bandwidth of %u node%s (give --memory-bw): no "
			     "limit counted\n", nmem, nmem == 1 ? "" : "s");
	if (ncpu)
		fprintf(out, "  unknown: the CPU of %u node%s (%s): no limit counted\n", ncpu,
			     ncpu == 1 ? "" : "s", o->from ? "the report has no CPU figure for it" :
			     "run saturate and give --from");
	if (p->nlinks_unknown)
		fprintf(out, "  unknown: %u link%s (%s): no limit counted\n", p->nlinks_unknown,
			     p->nlinks_unknown == 1 ? "" : "s", o->topology ?
			     "the export records neither GB/s nor speed and width" :
			     "sysfs gives no speed or width");
	if (p->nleft_out)
		fprintf(out, "  left out: %u drive%s without a rate (%s): %s\n", p->nleft_out,
			     p->nleft_out == 1 ? "" : "s", p->left_out,
			     "the report did not measure them; --drive-iops gives one");
	if (p->nno_bridge)
		fprintf(out, "  left out: %u drive%s without a host bridge in the topology (%s)\n",
			     p->nno_bridge, p->nno_bridge == 1 ? "" : "s", p->no_bridge);
	if (p->nports_unknown_node)
		fprintf(out, "  %u free root port%s under host bridges of unknown node: locality "
			     "unknown, never a move's target\n", p->nports_unknown_node,
			     p->nports_unknown_node == 1 ? "" : "s");
}

static void print_what_ifs(FILE *out, const struct model_ceil *m, const struct cli_plan *p,
			   const struct cli_ceil_snap *s, const struct whatifs *wi,
			   const struct cli_opts *o)
{
	const struct model_ceil_res *b = s->binding >= 0 ? &m->res[s->binding] : NULL;
	unsigned i;

	if (!b)
		return;
	if (!wi->n) {
		fprintf(out, "  nor would a move to another host bridge of known node raise the "
			     "ceiling by %.0f%% or more\n", 100 * MODEL_CEIL_MIN_GAIN);
		return;
	}
	fprintf(out, "  what if, for a drive through the binding %s %s, each move alone:\n",
		     b->kind == MODEL_CEIL_HOST_BRIDGE ? "host bridge" : model_ceil_kind_name(b->kind),
		     b->name);
	for (i = 0; i < wi->n; i++) {
		const struct model_ceil_what_if *w = &wi->w[i];
		const struct model_ceil_res *to = &m->res[w->to_bridge];

		fprintf(out, "  %u. move %s from host bridge %s, port %s, to host bridge %s (node "
			     "%d), %s: ceiling %.0f IOPS (+%.0f)\n", i + 1, m->res[w->drive].name,
			     p->dev[w->drive]->host_bridge, p->dev[w->drive]->upstream, to->name,
			     to->node, slot_mark(o), w->ceiling_after,
			     w->ceiling_after - s->predicted);
	}
}

static void print_moves(FILE *out, const struct model_ceil *m, const struct cli_plan *p,
			const struct cli_ceil_snap *s, const struct whatifs *wi,
			const struct cli_opts *o)
{
	double before = s->predicted;
	unsigned i;

	fprintf(out, "\nmoves\n");
	if (!m->nports)
		fprintf(out, "  none: the topology has no free root port (an lstopo export keeps "
			     "empty slots only when taken with bridges kept: lstopo "
			     "--filter bridge:all)\n");
	if (!m->nports)
		print_what_ifs(out, m, p, s, wi, o);
	for (i = 0; i < m->nmoves; i++) {
		const struct model_ceil_move *mv = &m->move[i];
		const struct topo_dev *d = p->dev[mv->drive];
		const struct model_ceil_res *to = &m->res[mv->to_bridge];

		fprintf(out, "  %u. move %s from host bridge %s, port %s, to free root port %s "
			     "(host bridge %s, node %d): ceiling %.0f IOPS (+%.0f)\n", i + 1,
			     m->res[mv->drive].name, d->host_bridge, d->upstream,
			     m->port[mv->to_port].name, to->name, to->node, mv->ceiling_after,
			     mv->ceiling_after - before);
		before = mv->ceiling_after;
	}
	if (m->nports && m->nmoves == m->nports)
		fprintf(out, "  then no free root port is left\n");
	else if (m->nports)
		fprintf(out, "  %s move raises the ceiling by %.0f%% or more\n",
			     m->nmoves ? "then no further" : "no", 100 * MODEL_CEIL_MIN_GAIN);
}

static void print_text(FILE *out, struct topo *t, const struct cli_opts *o,
		       const struct cli_plan *p, const struct model_ceil *m, const struct cli_ceil_snap *s,
		       const struct whatifs *wi)
{
	char bind[256];

	fprintf(out, "plan: %s (%u NUMA node%s, %u drive%s, %u free root port%s), %u-byte reads\n",
		     o->topology ? o->topology : "this machine", topo_nnodes(t),
		     topo_nnodes(t) == 1 ? "" : "s", p->ndrives, p->ndrives == 1 ? "" : "s",
		     p->nports, p->nports == 1 ? "" : "s", m->bs);
	if (o->from)
		fprintf(out, "  drive rates: solo QDn IOPS measured by saturate (%s)%s\n", o->from,
			     o->drive_iops ? ", --drive-iops for the others" : "");
	else
		fprintf(out, "  drive rates: %llu IOPS each (--drive-iops)\n",
			     (unsigned long long)o->drive_iops);
	print_unknown(out, p, m, o);
	fprintf(out, "\nceiling\n");
	cli_ceil_print(out, m, s);
	cli_ceil_binding_text(bind, sizeof(bind), m, s);
	fprintf(out, "\npredicted: %.0f IOPS of %.0f demanded\nbinding: %s\n", s->predicted,
		     s->demand, bind);
	print_moves(out, m, p, s, wi, o);
}

/* ---- JSON ---- */

static json_t *moves_json(const struct model_ceil *m, const struct cli_plan *p,
			  const struct whatifs *wi)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < m->nmoves; i++) {
		const struct model_ceil_move *mv = &m->move[i];
		const struct topo_dev *d = p->dev[mv->drive];
		const struct model_ceil_res *to = &m->res[mv->to_bridge];

		json_array_append_new(a, json_pack("{s:s, s:{s:s, s:s}, s:{s:s, s:s, s:i}, s:f, s:b}",
			"device", m->res[mv->drive].name,
			"from", "host_bridge", d->host_bridge, "port", d->upstream,
			"to", "host_bridge", to->name, "port", m->port[mv->to_port].name,
			"node", to->node,
			"ceiling_after", mv->ceiling_after, "needs_free_slot", false));
	}
	for (i = 0; a && i < wi->n; i++) {
		const struct model_ceil_what_if *w = &wi->w[i];
		const struct topo_dev *d = p->dev[w->drive];
		const struct model_ceil_res *to = &m->res[w->to_bridge];

		json_array_append_new(a, json_pack("{s:s, s:{s:s, s:s}, s:{s:s, s:n, s:i}, s:f, s:b}",
			"device", m->res[w->drive].name,
			"from", "host_bridge", d->host_bridge, "port", d->upstream,
			"to", "host_bridge", to->name, "port", "node", to->node,
			"ceiling_after", w->ceiling_after, "needs_free_slot", true));
	}
	return a;
}

static json_t *json_report(const struct cli_opts *o, const struct cli_plan *p,
			   const struct model_ceil *m, const struct cli_ceil_snap *s,
			   const struct whatifs *wi)
{
	char bind[256];
	json_t *j;

	cli_ceil_binding_text(bind, sizeof(bind), m, s);
	j = json_pack("{s:s, s:s, s:{s:I, s:o, s:o, s:o, s:o, s:o}, "
		      "s:{s:o, s:f, s:f, s:o, s:o, s:s}, s:o, s:{s:I, s:I, s:I, s:I}}",
		"schema", CLI_JSON_SCHEMA, "command", "plan",
		"config", "bs", (json_int_t)m->bs,
		"topology", o->topology ? json_string(o->topology) : json_null(),
		"drive_iops", o->drive_iops ? json_integer((json_int_t)o->drive_iops) : json_null(),
		"memory_bw_bytes_s", o->memory_bw ? json_integer((json_int_t)o->memory_bw) :
			json_null(),
		"host_bridge_bw_bytes_s", o->bridge_bw ? json_integer((json_int_t)o->bridge_bw) :
			json_null(),
		"from", o->from ? json_string(o->from) : json_null(),
		"ceiling", "resources", cli_ceil_resources_json(m, s),
		"predicted_iops", s->predicted, "demand_iops", s->demand,
		"binding", s->binding < 0 ? json_null() : json_string(m->res[s->binding].name),
		"binding_kind", s->binding < 0 ? json_null() :
			json_string(model_ceil_kind_name(m->res[s->binding].kind)),
		"binding_text", bind,
		"moves", moves_json(m, p, wi),
		"unknown", "links", (json_int_t)p->nlinks_unknown,
		"drives_left_out", (json_int_t)p->nleft_out,
		"drives_without_host_bridge", (json_int_t)p->nno_bridge,
		"free_ports_unknown_node", (json_int_t)p->nports_unknown_node);
	/* the machine that made the plan; the drives' settings are those of
	 * a run's targets, which a plan has none of */
	if (j)
		json_object_set_new(j, "setup", cli_json_setup(NULL, 0));
	return j;
}

/* ---- the command ---- */

/* The figures: the options and the --from report. 0 or -errno, said:
 * -EINVAL for options that do not go together and a --from file that is
 * not a saturate report; another -errno for one that cannot be read. */
static int figures(struct cli_opts *o, struct cli_plan_from *from, struct cli_plan_figs *f)
{
	char err[256];
	int ret;

	memset(f, 0, sizeof(*f));
	if (o->ntargets) {
		cli_say("plan takes no targets ('%s'): it plans every NVMe drive of the topology",
			o->targets[0]);
		return -EINVAL;
	}
	if (o->dot && o->json && !strcmp(o->json, "-")) {
		cli_say("--dot and --json - both want stdout: give --json a file");
		return -EINVAL;
	}
	if (!o->drive_iops && !o->from) {
		cli_say("no drive rates: give --drive-iops N (a drive's IOPS alone) or --from "
			"saturate.json (measured); plan never guesses them");
		return -EINVAL;
	}
	if (o->from) {
		ret = cli_plan_from_read(o->from, from, err, sizeof(err));
		if (ret) {
			cli_say("%s: %s", o->from, err);
			return ret;
		}
		if (!o->bs_set && from->bs)
			o->bs = from->bs;
	}
	f->bs = o->bs;
	f->drive_iops = (double)o->drive_iops;
	f->memory_bytes_s = (double)o->memory_bw;
	f->bridge_bytes_s = (double)o->bridge_bw;
	f->rates = from->rates;
	f->nrates = from->nrates;
	f->cpus = from->cpus;
	f->ncpus = from->ncpus;
	/* --memory-bw, given, wins over what the report measured */
	f->mems = o->memory_bw ? NULL : from->mems;
	f->nmems = o->memory_bw ? 0 : from->nmems;
	return 0;
}

/* --dot: the topology's drives with the plan drawn over them. 0 or
 * -ENOMEM. */
static int draw(struct topo *t, const struct cli_opts *o, const struct model_ceil *m,
		const struct cli_ceil_snap *s)
{
	unsigned n = topo_ndevs(t), i;
	const struct topo_dev **devs = calloc(n ? n : 1, sizeof(*devs));
	struct cli_dot_move *mv = calloc(m->nmoves ? m->nmoves : 1, sizeof(*mv));
	const struct model_ceil_res *b = s->binding >= 0 ? &m->res[s->binding] : NULL;
	char bind[256];
	struct cli_dot_plan pl = {
		.binding = b ? b->name : NULL,
		.binding_kind = b ? model_ceil_kind_name(b->kind) : NULL,
		.binding_node = b ? b->node : -1, .binding_text = bind,
		.predicted = s->predicted, .moves = mv, .nmoves = m->nmoves,
	};
	int ret = -ENOMEM;

	if (!devs || !mv)
		goto out;
	for (i = 0; i < n; i++)
		devs[i] = topo_dev(t, i);
	for (i = 0; i < m->nmoves; i++)
		mv[i] = (struct cli_dot_move){ m->res[m->move[i].drive].name,
					       m->port[m->move[i].to_port].name,
					       m->move[i].ceiling_after };
	cli_ceil_binding_text(bind, sizeof(bind), m, s);
	ret = cli_topo_dot_plan(stdout, t, o->topology, devs, n, &pl);
	fflush(stdout);
out:
	free(devs);
	free(mv);
	return ret;
}

/* The tree built: 0 or -errno, said; -EINVAL when the --from report
 * measured none of the topology's drives. */
static int build(struct topo *t, const struct cli_opts *o, const struct cli_plan_figs *f,
		 struct cli_plan *p)
{
	int ret;

	if (!topo_ndevs(t)) {
		cli_say("no NVMe drive %s: nothing to plan",
			o->topology ? "in this topology" : "on this machine");
		return -ENODEV;
	}
	ret = cli_plan_build(t, f, p);
	if (ret == -ENODATA && p->nno_bridge && !p->nleft_out) {
		cli_say("no drive has a host bridge in the topology (%s): nothing to plan",
			p->no_bridge);
		return -ENODATA;
	}
	if (ret == -ENODATA) {
		cli_say("%s: none of its devices is an NVMe drive of %s (%s has %s)", o->from,
			o->topology ? o->topology : "this machine",
			o->topology ? "the export" : "the machine", p->left_out);
		return -EINVAL;
	}
	if (ret)
		cli_say("out of memory");
	return ret;
}

/* The what-if moves of a topology that lists no free root port: 0 or
 * -errno (model_ceil_what_if's). */
static int what_ifs(const struct model_ceil *m, struct whatifs *wi)
{
	int n;

	wi->w = calloc(m->nin ? m->nin : 1, sizeof(*wi->w));
	if (!wi->w)
		return -ENOMEM;
	n = model_ceil_what_if(m, wi->w, m->nin);
	if (n < 0)
		return n;
	wi->n = (unsigned)n;
	return 0;
}

/* The plan from the figures: 0 or -errno, said. */
static int plan(struct cli_opts *o, struct cli_plan_from *from)
{
	struct cli_plan_figs f;
	struct cli_plan p = { 0 };
	struct model_ceil m = { 0 };
	struct cli_ceil_snap s = { 0 };
	struct whatifs wi = { 0 };
	struct topo *t = NULL;
	bool m_init = false;
	int rc;

	rc = figures(o, from, &f);
	if (!rc)
		rc = cli_topo_load(o->topology, &t);
	if (!rc)
		rc = build(t, o, &f, &p);
	if (rc)
		goto out;
	rc = -ENOMEM;
	if (model_ceil_init(&m, &p.in)) {
		/* the builder's tree is the model's to check: a bug here */
		cli_say("the ceiling model refused the tree built from the topology");
		rc = -EPROTO;
		goto out;
	}
	m_init = true;
	model_ceil_solve(&m);
	if (cli_ceil_snap_take(&m, &s)) {
		cli_say("out of memory");
		goto out;
	}
	model_ceil_plan(&m);
	if (!m.nports && (rc = what_ifs(&m, &wi))) {
		cli_say(rc == -ENOMEM ? "out of memory" :
			"the ceiling model refused the tree built from the topology");
		rc = rc == -ENOMEM ? rc : -EPROTO;
		goto out;
	}
	rc = -ENOMEM;
	if (o->dot) {
		if (draw(t, o, &m, &s)) {
			cli_say("out of memory");
			goto out;
		}
	} else {
		print_text(cli_out_text(o), t, o, &p, &m, &s, &wi);
	}
	rc = 0;
	/* cli_out_json says why it could not write the report */
	if (o->json && cli_out_json(o->json, json_report(o, &p, &m, &s, &wi), CLI_JSON_REPORT))
		rc = -EIO;
out:
	free(wi.w);
	cli_ceil_snap_free(&s);
	if (m_init)
		model_ceil_free(&m);
	cli_plan_free(&p);
	topo_free(t);
	return rc;
}

static int cmd_plan(int argc, char **argv)
{
	struct cli_plan_from from = { 0 };
	struct cli_opts o;
	int rc = cli_opts_cmdline(&o, &cli_verb_plan, argc, argv);

	if (!rc)
		rc = plan(&o, &from);
	cli_plan_from_free(&from);
	return cli_exit_status(rc);
}
