/* The ceiling's table, binding sentence and JSON: see ceil_out.h. */
#include "cli/plan/ceil_out.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Resources in report order: by kind (drives, links, switches, host
 * bridges, memory, CPUs), each kind in tree order; those no drive uses
 * left out. Returns the count. */
static unsigned report_order(const struct model_ceil *m, const struct cli_ceil_snap *s, unsigned *idx)
{
	unsigned k, i, n = 0;

	for (k = MODEL_CEIL_DRIVE; k <= MODEL_CEIL_CPU; k++)
		for (i = 0; i < m->nin; i++)
			if (m->res[i].kind == (enum model_ceil_kind)k && s->fig[i].ndrives)
				idx[n++] = i;
	return n;
}

void cli_ceil_snap_free(struct cli_ceil_snap *s)
{
	free(s->fig);
	free(s->idx);
	memset(s, 0, sizeof(*s));
}

int cli_ceil_snap_take(const struct model_ceil *m, struct cli_ceil_snap *s)
{
	s->fig = malloc((m->nres ? m->nres : 1) * sizeof(*s->fig));
	s->idx = malloc((m->nres ? m->nres : 1) * sizeof(*s->idx));
	if (!s->fig || !s->idx)
		return -ENOMEM;
	memcpy(s->fig, m->fig, m->nres * sizeof(*s->fig));
	s->n = report_order(m, s, s->idx);
	s->predicted = m->predicted;
	s->demand = m->demand;
	s->binding = m->binding;
	return 0;
}

static void fmt_iops(char *buf, size_t len, double v)
{
	if (isinf(v))
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%.0f", v);
}

/* "switch 0000:01:00.0's upstream link, shared by 4 drives, holds them to
 * 1739603 IOPS" */
void cli_ceil_binding_text(char *buf, size_t len, const struct model_ceil *m,
			   const struct cli_ceil_snap *s)
{
	unsigned bs = m->bs;

	const struct model_ceil_res *r;
	const struct model_ceil_fig *f;

	if (s->binding < 0) {
		snprintf(buf, len, "nothing binds: every drive gets its demand (capacities that are "
			 "unknown limit nothing)");
		return;
	}
	r = &m->res[s->binding];
	f = &s->fig[s->binding];
	switch (r->kind) {
	case MODEL_CEIL_SWITCH:
		snprintf(buf, len, "the upstream link of switch %s, shared by %u drive%s, holds them "
			 "to %.0f IOPS", r->name, f->ndrives, f->ndrives == 1 ? "" : "s", f->capacity);
		break;
	case MODEL_CEIL_LINK:
		snprintf(buf, len, "the link at %s holds its %u drive%s to %.0f IOPS", r->name,
			 f->ndrives, f->ndrives == 1 ? "" : "s", f->capacity);
		break;
	case MODEL_CEIL_MEMORY:
		snprintf(buf, len, "%s's memory bandwidth holds its %u drive%s to %.0f IOPS of %u "
			 "bytes", r->name, f->ndrives, f->ndrives == 1 ? "" : "s", f->capacity, bs);
		break;
	case MODEL_CEIL_CPU:
		snprintf(buf, len, "the cores of %s (%u at %.0f IOs per CPU-second) hold its %u "
			 "drive%s to %.0f IOPS", r->name, r->cores, r->ios_per_cpu_s, f->ndrives,
			 f->ndrives == 1 ? "" : "s", f->capacity);
		break;
	case MODEL_CEIL_HOST_BRIDGE:
		snprintf(buf, len, "host bridge %s holds its %u drive%s to %.0f IOPS", r->name,
			 f->ndrives, f->ndrives == 1 ? "" : "s", f->capacity);
		break;
	case MODEL_CEIL_DRIVE:
		snprintf(buf, len, "%s", r->name);
		break;
	}
}

void cli_ceil_print(FILE *out, const struct model_ceil *m, const struct cli_ceil_snap *s)
{
	const unsigned *idx = s->idx;
	unsigned j, i, n = s->n;
	int w = 14;	/* the name column: as wide as the longest name */

	for (j = 0; j < n; j++)
		if ((int)strlen(m->res[idx[j]].name) > w)
			w = (int)strlen(m->res[idx[j]].name);
	fprintf(out, "  %-12s %-*s %12s %12s %12s %6s\n", "KIND", w, "NAME", "DEMAND",
		     "CAPACITY", "PREDICTED", "UTIL");
	for (j = 0; j < n; j++) {
		const struct model_ceil_fig *f = &s->fig[i = idx[j]];
		char cap[32], util[16];

		fmt_iops(cap, sizeof(cap), f->capacity);
		if (isinf(f->capacity) || f->implied)
			snprintf(util, sizeof(util), "-");
		else
			snprintf(util, sizeof(util), "%.0f%%", 100 * f->utilization);
		fprintf(out, "  %-12s %-*s %12.0f %12s %12.0f %6s%s\n",
			     model_ceil_kind_name(m->res[i].kind), w, m->res[i].name, f->demand, cap,
			     f->allocated, util, (int)i == s->binding ? "  binds" :
			     f->implied ? "  (sum of its root ports)" : "");
	}
}

static json_t *cap_json(const struct model_ceil_fig *f)
{
	return isinf(f->capacity) ? json_null() : json_real(f->capacity);
}

json_t *cli_ceil_resources_json(const struct model_ceil *m, const struct cli_ceil_snap *s)
{
	json_t *a = json_array();
	const unsigned *idx = s->idx;
	unsigned j, i, n = s->n;

	for (j = 0; a && j < n; j++) {
		const struct model_ceil_fig *f = &s->fig[i = idx[j]];

		json_array_append_new(a, json_pack("{s:s, s:s, s:f, s:o, s:f, s:o, s:o, s:b}",
			"kind", model_ceil_kind_name(m->res[i].kind), "name", m->res[i].name,
			"demand_iops", f->demand, "capacity_iops", cap_json(f),
			"predicted_iops", f->allocated,
			"utilization", isinf(f->capacity) || f->implied ? json_null() :
				json_real(f->utilization),
			"node", m->res[i].node < 0 || m->res[i].kind == MODEL_CEIL_DRIVE ? json_null() :
				json_integer(m->res[i].node),
			"implied", f->implied));
	}
	return a;
}

