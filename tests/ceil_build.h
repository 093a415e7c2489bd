/* Builds a resource tree for the ceiling model's tests in a few lines:
 * add a resource, get its index. 4 KiB reads; link capacities by hand
 * (docs/ceiling.md): Gen3 x4 869801.58 IOPS, Gen4 x4 1739603.15. */
#ifndef TESTS_CEIL_BUILD_H
#define TESTS_CEIL_BUILD_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/ceiling.h"

#define GEN3X4 869801.5765153575
#define GEN4X4 1739603.153030715
#define GEN4X8 3479206.30606143
#define BS 4096

struct tree {
	struct model_ceil_res r[64];
	unsigned n;
	struct model_ceil_port p[32];
	unsigned np;
};

static inline int add(struct tree *t, enum model_ceil_kind k,
		      const char *name, int parent)
{
	struct model_ceil_res *r = &t->r[t->n];

	memset(r, 0, sizeof(*r));
	r->kind = k;
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->parent = parent;
	r->node = -1;
	r->cpu = -1;
	return (int)t->n++;
}

static inline int add_node(struct tree *t, enum model_ceil_kind k,
			   const char *name, int parent, int node)
{
	int i = add(t, k, name, parent);

	t->r[i].node = node;
	return i;
}

static inline int add_link(struct tree *t, enum model_ceil_kind k,
			   const char *name, int parent, double gts,
			   unsigned width)
{
	int i = add(t, k, name, parent);

	t->r[i].link.speed_gts = gts;
	t->r[i].link.width = width;
	return i;
}

static inline int add_drive(struct tree *t, const char *name, int parent,
			    double iops, int cpu)
{
	int i = add(t, MODEL_CEIL_DRIVE, name, parent);

	t->r[i].iops = iops;
	t->r[i].cpu = cpu;
	return i;
}

/* A drive on a link of its own right under a host bridge. */
static inline int add_slot_drive(struct tree *t, const char *name, int bridge,
				 double gts, unsigned width, double iops,
				 int cpu)
{
	char port[MODEL_CEIL_NAME];
	int l;

	snprintf(port, sizeof(port), "%.50s link", name);
	l = add_link(t, MODEL_CEIL_LINK, port, bridge, gts, width);
	return add_drive(t, name, l, iops, cpu);
}

static inline int add_port(struct tree *t, const char *name, int bridge,
			   double gts, unsigned width)
{
	struct model_ceil_port *p = &t->p[t->np];

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->host_bridge = bridge;
	p->link.speed_gts = gts;
	p->link.width = width;
	return (int)t->np++;
}

/* A slot nothing records (its link unknown: a drive there runs at its
 * own), supposed or given rather than listed. */
static inline int add_slot(struct tree *t, int bridge, bool assumed)
{
	int i = add_port(t, "", bridge, 0, 0);

	t->p[i].link.speed_gts = 0;
	t->p[i].link.width = 0;
	t->p[i].assumed = assumed;
	return i;
}

static inline int tree_init(struct model_ceil *m, const struct tree *t)
{
	struct model_ceil_in in = { t->r, t->n, t->p, t->np, BS };

	return model_ceil_init(m, &in);
}

static inline int near_rel(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fabs(b) + 1e-6;
}

#endif
