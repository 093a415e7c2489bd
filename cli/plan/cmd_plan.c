/* iostorm plan: the ceiling model on a topology (an lstopo export, or this
 * machine without running IO) and the drive rates given or measured: which
 * part of the machine caps the IOPS, and which drives to move to which free
 * slots, one after another, with the ceiling after each. The free slots are
 * those --free-slots names, else the topology's free root ports, else one
 * assumed under each host bridge with devices, said once and each move
 * marked. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/plan/ceil_out.h"
#include "cli/commands.h"
#include "cli/report/out.h"
#include "cli/report/setup_json.h"
#include "cli/topo/topo_load.h"
#include "cli/plan/plan.h"
#include "cli/plan/plan_from.h"
#include "cli/plan/plan_moves.h"
#include "cli/plan/plan_slots.h"
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

static int set_free_slots(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	struct cli_plan_slots l;

	if (cli_plan_slots_parse(arg, &l, err, errlen))
		return -EINVAL;
	o->free_slots = arg;
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
	CLI_OPT_OWN("bs", 'b', "SIZE", 0, 0, set_bs, show_bs, NULL,
	  "bytes per read the figures are for: a power of two\n"
	  "up to 1m; with --from, the report's"),
	CLI_OPT_OWN("drive-iops", 0x301, "N", 0, 0, set_drive_iops, NULL, NULL,
	  "each drive's IOPS alone (1k = 1000); with --from,\n"
	  "for the drives the report did not measure"),
	CLI_OPT_OWN("memory-bw", 0x302, "BYTES/s", 0, 0, set_memory_bw, NULL, NULL,
	  "each node's memory write bandwidth (150g = 150 GB/s);\n"
	  "without it: unknown, no limit"),
	CLI_OPT_OWN("host-bridge-bw", 0x304, "BYTES/s", 0, 0, set_bridge_bw, NULL, NULL,
	  "each host bridge's (root complex's) bandwidth, from\n"
	  "the platform's documents (an AMD EPYC quadrant,\n"
	  "an Intel stack); without it: the sum of its root ports"),
	CLI_OPT_OWN("from", 0x303, "FILE", 0, 0, set_from, NULL, NULL,
	  "a saturate --json report: each drive's solo QDn\n"
	  "IOPS and each node's IOs per CPU-second"),
	CLI_OPT_OWN("free-slots", 0x305, "LIST", 0, CLI_OF_LIST, set_free_slots, NULL, NULL,
	  "the empty slots a drive can go into, per host bridge:\n"
	  "0000:40=2,0001:00=1; without it: the free root ports\n"
	  "the topology lists, else one assumed per host bridge"),
	CLI_OPT_END,
};

static int cmd_plan(int argc, char **argv);

const struct cli_verb cli_verb_plan = {
	.name = "plan",
	.what = "which part of the machine caps the IOPS, and which drive to move",
	.synopsis = "iostorm plan [--topology FILE.xml] [--drive-iops N] [--memory-bw BYTES/s]\n"
		"             [--host-bridge-bw BYTES/s] [--bs SIZE] [--from saturate.json]\n"
		"             [--free-slots BRIDGE=N,...] [--json FILE|-] [--dot]\n\n"
		"The ceiling model without running IO: each drive's demand through its\n"
		"links, switches, host bridge, node memory and CPU; the predicted IOPS\n"
		"and the resource that binds; then a plan: drive moves into free slots,\n"
		"one after another, each the one that raises the ceiling most on the\n"
		"layout the moves before it left, with the ceiling after it, until no\n"
		"move raises it or no free slot is left. A capacity nothing gives is\n"
		"unknown and limits nothing; the report says which.",
	.operands = CLI_OPERANDS_NONE,
	.groups = CLI_OG_JSON | CLI_OG_TOPO,
	.own = own,
	.run = cmd_plan,
};

/* ---- text ---- */

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

static void print_text(FILE *out, struct topo *t, const struct cli_opts *o,
		       const struct cli_plan *p, const struct model_ceil *m, const struct cli_ceil_snap *s)
{
	char bind[256];

	fprintf(out, "plan: %s (%u NUMA node%s, %u drive%s, %u free slot%s%s), %u-byte reads\n",
		     o->topology ? o->topology : "this machine", topo_nnodes(t),
		     topo_nnodes(t) == 1 ? "" : "s", p->ndrives, p->ndrives == 1 ? "" : "s",
		     p->nports, p->nports == 1 ? "" : "s",
		     p->slots == CLI_PLAN_SLOTS_ASSUMED ? " assumed" :
		     p->slots == CLI_PLAN_SLOTS_GIVEN ? " given" : "", m->bs);
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
	cli_plan_moves_print(out, m, p, s, o->topology != NULL);
}

/* ---- JSON ---- */

static json_t *json_report(const struct cli_opts *o, const struct cli_plan *p,
			   const struct model_ceil *m, const struct cli_ceil_snap *s)
{
	char bind[256];
	json_t *j;

	cli_ceil_binding_text(bind, sizeof(bind), m, s);
	j = json_pack("{s:s, s:s, s:{s:I, s:o, s:o, s:o, s:o, s:o, s:o}, "
		      "s:{s:o, s:f, s:f, s:o, s:o, s:s}, s:o, s:o, s:o, s:{s:I, s:I, s:I, s:I}}",
		"schema", CLI_JSON_SCHEMA, "command", "plan",
		"config", "bs", (json_int_t)m->bs,
		"topology", o->topology ? json_string(o->topology) : json_null(),
		"drive_iops", o->drive_iops ? json_integer((json_int_t)o->drive_iops) : json_null(),
		"memory_bw_bytes_s", o->memory_bw ? json_integer((json_int_t)o->memory_bw) :
			json_null(),
		"host_bridge_bw_bytes_s", o->bridge_bw ? json_integer((json_int_t)o->bridge_bw) :
			json_null(),
		"from", o->from ? json_string(o->from) : json_null(),
		"free_slots", o->free_slots ? json_string(o->free_slots) : json_null(),
		"ceiling", "resources", cli_ceil_resources_json(m, s),
		"predicted_iops", s->predicted, "demand_iops", s->demand,
		"binding", s->binding < 0 ? json_null() : json_string(m->res[s->binding].name),
		"binding_kind", s->binding < 0 ? json_null() :
			json_string(model_ceil_kind_name(m->res[s->binding].kind)),
		"binding_text", bind,
		"free_slots", cli_plan_slots_json(m, p),
		"moves", cli_plan_moves_json(m, p),
		"after_moves", cli_plan_after_json(m),
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
static int figures(struct cli_opts *o, struct cli_plan_from *from, struct cli_plan_slots *slots,
		   struct cli_plan_figs *f)
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
	/* checked when it was given */
	if (o->free_slots && !cli_plan_slots_parse(o->free_slots, slots, err, sizeof(err)))
		f->slots = slots;
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
					       m->res[m->move[i].to_bridge].name,
					       m->port[m->move[i].to_port].assumed,
					       m->move[i].ceiling_after };
	cli_ceil_binding_text(bind, sizeof(bind), m, s);
	ret = cli_topo_dot_plan(stdout, t, o->topology, devs, n, &pl);
	fflush(stdout);
out:
	free(devs);
	free(mv);
	return ret;
}

/* "0000:00, 0000:40": t's host bridges. */
static void bridge_names(struct topo *t, char *buf, size_t len)
{
	const struct topo_host_bridge *hbs;
	unsigned i, n = topo_host_bridges(t, &hbs);
	size_t o = 0;

	snprintf(buf, len, "none");
	for (i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", hbs[i].name);
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
	if (ret == -ENOENT) {
		char hbs[512];

		bridge_names(t, hbs, sizeof(hbs));
		cli_say("--free-slots: %s has no host bridge %s (its host bridges: %s)",
			o->topology ? o->topology : "this machine", p->no_such_bridge, hbs);
		return -EINVAL;
	}
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

/* The plan from the figures: 0 or -errno, said. */
static int plan(struct cli_opts *o, struct cli_plan_from *from)
{
	struct cli_plan_figs f;
	struct cli_plan_slots slots;
	struct cli_plan p = { 0 };
	struct model_ceil m = { 0 };
	struct cli_ceil_snap s = { 0 };
	struct topo *t = NULL;
	bool m_init = false;
	int rc;

	rc = figures(o, from, &slots, &f);
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
	rc = -ENOMEM;
	if (o->dot) {
		if (draw(t, o, &m, &s)) {
			cli_say("out of memory");
			goto out;
		}
	} else {
		print_text(cli_out_text(o), t, o, &p, &m, &s);
	}
	rc = 0;
	/* cli_out_json says why it could not write the report */
	if (o->json && cli_out_json(o->json, json_report(o, &p, &m, &s), CLI_JSON_REPORT))
		rc = -EIO;
out:
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
