/* The ceiling model's tree: checked, copied, and each resource's capacity
 * worked out once. */
#include "model/ceiling_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *model_ceil_kind_name(enum model_ceil_kind k)
{
	switch (k) {
	case MODEL_CEIL_DRIVE: return "drive";
	case MODEL_CEIL_LINK: return "link";
	case MODEL_CEIL_SWITCH: return "switch";
	case MODEL_CEIL_HOST_BRIDGE: return "host_bridge";
	case MODEL_CEIL_MEMORY: return "memory";
	case MODEL_CEIL_CPU: return "cpu";
	}
	return "unknown";
}

/* ---- checks ---- */

static bool index_ok(int i, unsigned n)
{
	return i >= 0 && (unsigned)i < n;
}

/* Resources from i to the top, i included; 0 when longer than
 * MODEL_CEIL_MAX_DEPTH, as a loop would be. Parents are in range. */
static unsigned depth(const struct model_ceil_res *res, unsigned i)
{
	unsigned n = 1;
	int p = res[i].parent;

	for (; p >= 0; p = res[p].parent)
		if (++n > MODEL_CEIL_MAX_DEPTH)
			return 0;
	return n;
}

static int check_res(const struct model_ceil_in *in, unsigned i)
{
	const struct model_ceil_res *r = &in->res[i];
	int p = r->parent;

	if ((unsigned)r->kind > MODEL_CEIL_CPU)
		return -EINVAL;
	if (p != -1 && (!index_ok(p, in->nres) || (unsigned)p == i ||
			in->res[p].kind == MODEL_CEIL_DRIVE))
		return -EINVAL;
	if (r->kind != MODEL_CEIL_DRIVE)
		return 0;
	/* a demand is measured or given, never unknown */
	if (!(r->iops >= 0) || isinf(r->iops))
		return -EINVAL;
	if (r->cpu != -1 && (!index_ok(r->cpu, in->nres) ||
			     in->res[r->cpu].kind != MODEL_CEIL_CPU))
		return -EINVAL;
	return 0;
}

static int check(const struct model_ceil_in *in)
{
	unsigned i, d;
	int b;

	if (!in->bs || (in->nres && !in->res) || (in->nports && !in->ports))
		return -EINVAL;
	for (i = 0; i < in->nres; i++)
		if (check_res(in, i))
			return -EINVAL;
	/* parents are in range now, so chains can be walked */
	for (i = 0; i < in->nres; i++)
		if (!depth(in->res, i))
			return -EINVAL;
	for (i = 0; i < in->nports; i++) {
		b = in->ports[i].host_bridge;
		if (!index_ok(b, in->nres) ||
		    in->res[b].kind != MODEL_CEIL_HOST_BRIDGE)
			return -EINVAL;
		/* a drive in it: drive, the port's link, then the bridge's */
		d = depth(in->res, (unsigned)b);
		if (d + 2 > MODEL_CEIL_MAX_DEPTH)
			return -EINVAL;
	}
	return 0;
}

/* ---- capacities ---- */

double ceil_link_capacity(const struct model_ceil *m,
			  const struct model_pcie_link *l)
{
	double iops;

	if (model_pcie_iops(l, m->bs, &iops))
		return INFINITY;
	return iops;
}

/* Root ports under bridge b: its children, and the free ports under it
 * with what their slots can run (not the assumed ones: no fact shows
 * them). Unknown as soon as one part is. */
static double bridge_sum(const struct model_ceil *m, unsigned b)
{
	double sum = 0;
	unsigned i, parts = 0;

	for (i = 0; i < m->nin; i++) {
		if (m->res[i].parent != (int)b)
			continue;
		sum += ceil_capacity(m, i);
		parts++;
	}
	for (i = 0; i < m->nports; i++) {
		if (m->port[i].host_bridge != (int)b || m->port[i].assumed)
			continue;
		sum += ceil_link_capacity(m, &m->port[i].link);
		parts++;
	}
	return parts ? sum : INFINITY;
}

double ceil_capacity(const struct model_ceil *m, unsigned i)
{
	const struct model_ceil_res *r = &m->res[i];
	double smt;

	if (r->kind == MODEL_CEIL_DRIVE)
		return r->iops;
	if (r->iops > 0)
		return r->iops;
	if (r->bytes_s > 0)
		return r->bytes_s / m->bs;
	switch (r->kind) {
	case MODEL_CEIL_LINK:
	case MODEL_CEIL_SWITCH:
		return ceil_link_capacity(m, &r->link);
	case MODEL_CEIL_HOST_BRIDGE:
		return bridge_sum(m, i);
	case MODEL_CEIL_CPU:
		if (!(r->ios_per_cpu_s > 0) || !r->cores)
			return INFINITY;
		/* workers take one PU per core first: SMT never costs */
		smt = r->smt > 1 ? r->smt : 1;
		return r->ios_per_cpu_s * r->cores * smt;
	case MODEL_CEIL_DRIVE:
	case MODEL_CEIL_MEMORY:
		break;
	}
	return INFINITY;
}

unsigned ceil_path(const struct model_ceil *m, unsigned d, int *path)
{
	unsigned n = 0;
	int p;

	for (p = (int)d; p >= 0 && n < MODEL_CEIL_MAX_DEPTH; p = m->res[p].parent)
		path[n++] = p;
	if (m->res[d].cpu >= 0)
		path[n++] = m->res[d].cpu;
	return n;
}

/* ---- init and free ---- */

static void free_all(struct model_ceil *m)
{
	free(m->moved);
	free(m->frozen);
	free(m->nfree);
	free(m->fixed);
	free(m->rate);
	free(m->move);
	free(m->port_used);
	free(m->port);
	free(m->fig);
	free(m->res);
}

static int alloc_all(struct model_ceil *m)
{
	size_t n = m->nres ? m->nres : 1, np = m->nports ? m->nports : 1;

	m->res = calloc(n, sizeof(*m->res));
	m->fig = calloc(n, sizeof(*m->fig));
	m->port = calloc(np, sizeof(*m->port));
	m->port_used = calloc(np, sizeof(*m->port_used));
	m->move = calloc(np, sizeof(*m->move));
	m->rate = calloc(n, sizeof(*m->rate));
	m->fixed = calloc(n, sizeof(*m->fixed));
	m->nfree = calloc(n, sizeof(*m->nfree));
	m->frozen = calloc(n, sizeof(*m->frozen));
	m->moved = calloc(n, sizeof(*m->moved));
	if (!m->res || !m->fig || !m->port || !m->port_used || !m->move ||
	    !m->rate || !m->fixed || !m->nfree || !m->frozen || !m->moved)
		return -ENOMEM;
	return 0;
}

/* Free port i's link: unused (no parent) until a move puts a drive in. */
static void port_link(struct model_ceil *m, unsigned i)
{
	struct model_ceil_res *r = &m->res[m->nin + i];
	const struct model_ceil_port *p = &m->port[i];

	memset(r, 0, sizeof(*r));
	r->kind = MODEL_CEIL_LINK;
	memcpy(r->name, p->name, sizeof(r->name));
	r->name[sizeof(r->name) - 1] = '\0';
	r->parent = -1;
	r->node = m->res[p->host_bridge].node;
	r->link = p->link;
	r->cpu = -1;
}

int model_ceil_init(struct model_ceil *m, const struct model_ceil_in *in)
{
	struct model_ceil c = { 0 };
	unsigned i;
	int ret;

	ret = check(in);
	if (ret)
		return ret;
	c.bs = in->bs;
	c.nin = in->nres;
	c.nports = in->nports;
	c.nres = in->nres + in->nports;
	c.binding = -1;
	ret = alloc_all(&c);
	if (ret) {
		free_all(&c);
		return ret;
	}
	if (in->nres)
		memcpy(c.res, in->res, in->nres * sizeof(*c.res));
	if (in->nports)
		memcpy(c.port, in->ports, in->nports * sizeof(*c.port));
	for (i = 0; i < c.nres; i++)
		c.res[i].name[MODEL_CEIL_NAME - 1] = '\0';
	for (i = 0; i < c.nports; i++)
		port_link(&c, i);
	for (i = 0; i < c.nres; i++) {
		c.fig[i].capacity = ceil_capacity(&c, i);
		c.fig[i].implied = c.res[i].kind == MODEL_CEIL_HOST_BRIDGE &&
				   !(c.res[i].iops > 0) && !(c.res[i].bytes_s > 0);
	}
	*m = c;
	return 0;
}

void model_ceil_free(struct model_ceil *m)
{
	free_all(m);
	memset(m, 0, sizeof(*m));
}
