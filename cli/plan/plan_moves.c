/* plan's moves in words and JSON: see plan_moves.h. */
#include "cli/plan/plan_moves.h"

#include <stdbool.h>

static const char *const slot_source[] = {
	[CLI_PLAN_SLOTS_LISTED] = "topology",
	[CLI_PLAN_SLOTS_GIVEN] = "given",
	[CLI_PLAN_SLOTS_ASSUMED] = "assumed",
};

static const char *const stop_name[] = {
	[MODEL_CEIL_STOP_MET] = "demand_met",
	[MODEL_CEIL_STOP_NO_SLOT] = "no_free_slot",
	[MODEL_CEIL_STOP_NO_GAIN] = "no_gain",
};

/* m's figures as they are now (after the moves), for the binding text. */
static struct cli_ceil_snap now(const struct model_ceil *m)
{
	return (struct cli_ceil_snap){ .fig = m->fig, .predicted = m->predicted,
				       .demand = m->demand, .binding = m->binding };
}

/* Whether port i is the first of m's free ports under its host bridge. */
static bool first_under(const struct model_ceil *m, unsigned i)
{
	unsigned k;

	for (k = 0; k < i; k++)
		if (m->port[k].host_bridge == m->port[i].host_bridge)
			return false;
	return true;
}

/* "0000:40 2, 0000:80 1": each host bridge with free ports, how many
 * (with counts) or just the names. */
static void bridges_text(char *buf, size_t len, const struct model_ceil *m, bool counts)
{
	size_t o = 0;
	unsigned i, k, n;

	buf[0] = '\0';
	for (i = 0; i < m->nports && o < len; i++) {
		if (!first_under(m, i))
			continue;
		for (n = 0, k = i; k < m->nports; k++)
			n += m->port[k].host_bridge == m->port[i].host_bridge;
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "",
				      m->res[m->port[i].host_bridge].name);
		if (counts && o < len)
			o += (size_t)snprintf(buf + o, len - o, " %u", n);
	}
}

/* Where the free slots came from, once. */
static void print_slots(FILE *out, const struct model_ceil *m, const struct cli_plan *p,
			bool export)
{
	char hbs[512];

	bridges_text(hbs, sizeof(hbs), m, p->slots != CLI_PLAN_SLOTS_ASSUMED);
	switch (p->slots) {
	case CLI_PLAN_SLOTS_LISTED:
		fprintf(out, "  free slots: the topology's %u free root port%s (per host bridge: %s)\n",
			     m->nports, m->nports == 1 ? "" : "s", hbs);
		break;
	case CLI_PLAN_SLOTS_GIVEN:
		fprintf(out, "  free slots: %u, as --free-slots gives them%s%s%s\n", m->nports,
			     m->nports ? " (per host bridge: " : "", hbs, m->nports ? ")" : "");
		break;
	case CLI_PLAN_SLOTS_ASSUMED:
		fprintf(out, "  free slots: none known (%s); assumed: one under each host bridge "
			     "with devices (%s), every move below marked; --free-slots "
			     "BRIDGE=N,... gives the real ones\n",
			     export ? "the export lists no empty root port: lstopo keeps them only "
				      "when taken with --filter bridge:all" :
				      "hwloc shows no empty root port on this machine",
			     m->nports ? hbs : "none of known node");
		break;
	}
}

static void print_move(FILE *out, const struct model_ceil *m, const struct cli_plan *p,
		       unsigned i, double before)
{
	const struct model_ceil_move *mv = &m->move[i];
	const struct model_ceil_port *port = &m->port[mv->to_port];
	const struct topo_dev *d = p->dev[mv->drive];
	const struct model_ceil_res *to = &m->res[mv->to_bridge];

	fprintf(out, "  %u. move %s from host bridge %s, port %s, ", i + 1, m->res[mv->drive].name,
		     d->host_bridge, d->upstream);
	if (port->name[0])
		fprintf(out, "to free root port %s (host bridge %s, node %d", port->name,
			     to->name, to->node);
	else
		fprintf(out, "to a free slot under host bridge %s (node %d", to->name, to->node);
	fprintf(out, "%s): ceiling %.0f IOPS (+%.0f)\n", port->assumed ? ", assumed" : "",
		     mv->ceiling_after, mv->ceiling_after - before);
}

/* Why the moves end. */
static void print_stop(FILE *out, const struct model_ceil *m)
{
	switch (m->stop) {
	case MODEL_CEIL_STOP_MET:
		fprintf(out, "  %s every drive gets its demand\n", m->nmoves ? "then" : "none needed:");
		break;
	case MODEL_CEIL_STOP_NO_SLOT:
		fprintf(out, m->nports ? "  then no free slot is left\n" : "  none: no free slot\n");
		break;
	case MODEL_CEIL_STOP_NO_GAIN:
		fprintf(out, "  %s move raises the ceiling by %.0f%% or more\n",
			     m->nmoves ? "then no further" : "no", 100 * MODEL_CEIL_MIN_GAIN);
		break;
	}
}

void cli_plan_moves_print(FILE *out, const struct model_ceil *m, const struct cli_plan *p,
			  const struct cli_ceil_snap *s, bool export)
{
	struct cli_ceil_snap after = now(m);
	double before = s->predicted;
	char bind[256];
	unsigned i;

	fprintf(out, "\nmoves, one after another\n");
	print_slots(out, m, p, export);
	for (i = 0; i < m->nmoves; i++) {
		print_move(out, m, p, i, before);
		before = m->move[i].ceiling_after;
	}
	print_stop(out, m);
	if (!m->nmoves)
		return;
	cli_ceil_binding_text(bind, sizeof(bind), m, &after);
	fprintf(out, "  after %s: %.0f IOPS of %.0f demanded; binding: %s\n",
		     m->nmoves == 1 ? "the move" : "the moves", m->predicted, m->demand, bind);
}

json_t *cli_plan_moves_json(const struct model_ceil *m, const struct cli_plan *p)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < m->nmoves; i++) {
		const struct model_ceil_move *mv = &m->move[i];
		const struct model_ceil_port *port = &m->port[mv->to_port];
		const struct topo_dev *d = p->dev[mv->drive];
		const struct model_ceil_res *to = &m->res[mv->to_bridge];

		json_array_append_new(a, json_pack("{s:s, s:{s:s, s:s}, s:{s:s, s:o, s:i}, s:f, s:b}",
			"device", m->res[mv->drive].name,
			"from", "host_bridge", d->host_bridge, "port", d->upstream,
			"to", "host_bridge", to->name,
			"port", port->name[0] ? json_string(port->name) : json_null(),
			"node", to->node,
			"ceiling_after", mv->ceiling_after, "assumed", port->assumed));
	}
	return a;
}

json_t *cli_plan_slots_json(const struct model_ceil *m, const struct cli_plan *p)
{
	json_t *hbs = json_array();
	unsigned i;

	for (i = 0; hbs && i < m->nports; i++)
		if (first_under(m, i))
			json_array_append_new(hbs, json_string(m->res[m->port[i].host_bridge].name));
	return json_pack("{s:s, s:I, s:o}", "source", slot_source[p->slots],
			 "count", (json_int_t)m->nports, "host_bridges", hbs);
}

json_t *cli_plan_after_json(const struct model_ceil *m)
{
	struct cli_ceil_snap after = now(m);
	char bind[256];

	cli_ceil_binding_text(bind, sizeof(bind), m, &after);
	return json_pack("{s:f, s:o, s:o, s:s, s:s}", "predicted_iops", m->predicted,
		"binding", m->binding < 0 ? json_null() : json_string(m->res[m->binding].name),
		"binding_kind", m->binding < 0 ? json_null() :
			json_string(model_ceil_kind_name(m->res[m->binding].kind)),
		"binding_text", bind, "stop", stop_name[m->stop]);
}
