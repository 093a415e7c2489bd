/* The ceiling model's tree from a topology: per drive (one per PCI
 * function) its own link, each switch's upstream link, its host bridge and
 * its node's memory, plus its node's CPU; the free slots a drive may move
 * to: those --free-slots names, else the topology's free root ports, else
 * one assumed under each host bridge with devices. A switch's upstream link is the same wire as the
 * port above it, so it is one resource, named by the switch. */
#include "cli/plan/plan.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The resource of this kind and name, added when new (parent, node;
 * *added says so when added is not NULL). */
static int res_get(struct cli_plan *p, enum model_ceil_kind kind, const char *name,
		   int parent, int node, bool *added)
{
	struct model_ceil_res *r;
	unsigned i;

	if (added)
		*added = false;
	for (i = 0; i < p->nres; i++)
		if (p->res[i].kind == kind && !strcmp(p->res[i].name, name))
			return (int)i;
	if (p->nres == p->rescap) {
		unsigned ncap = p->rescap ? p->rescap * 2 : 32;
		void *a = realloc(p->res, ncap * sizeof(*p->res));

		if (!a)
			return -ENOMEM;
		p->res = a;
		a = realloc(p->dev, ncap * sizeof(*p->dev));
		if (!a)
			return -ENOMEM;
		p->dev = a;
		p->rescap = ncap;
	}
	r = memset(&p->res[p->nres], 0, sizeof(*r));
	p->dev[p->nres] = NULL;
	r->kind = kind;
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->parent = parent;
	r->node = node;
	r->cpu = -1;
	if (added)
		*added = true;
	return (int)p->nres++;
}

/* A link as it runs now: speed and width (sysfs), else hwloc's GB/s. */
static bool link_now(const struct topo_link *l, struct model_pcie_link *out)
{
	memset(out, 0, sizeof(*out));
	if (l->speed_gts > 0 && l->width > 0) {
		out->speed_gts = l->speed_gts;
		out->width = (unsigned)l->width;
	} else if (l->gbps > 0) {
		out->data_bytes_s = l->gbps * 1e9;
	} else {
		return false;
	}
	return true;
}

/* What a link can run at most: its maximum, else as it runs now. */
static bool link_max(const struct topo_link *l, struct model_pcie_link *out)
{
	if (l->max_speed_gts > 0 && l->max_width > 0) {
		memset(out, 0, sizeof(*out));
		out->speed_gts = l->max_speed_gts;
		out->width = (unsigned)l->max_width;
		return true;
	}
	return link_now(l, out);
}

static void note(char *buf, size_t len, unsigned *n, const char *name)
{
	size_t o = strlen(buf);

	if (*n < 6 && o < len)
		snprintf(buf + o, len - o, "%s%s", *n ? ", " : "", name);
	else if (*n == 6 && o < len)
		snprintf(buf + o, len - o, "...");
	(*n)++;
}

/* Node os's memory and, when it has CPUs, its CPU; -1 for an unknown node. */
static int memory_of(struct cli_plan *p, const struct cli_plan_figs *f, int node)
{
	char name[32];
	unsigned k;
	int m;

	if (node < 0)
		return -1;
	snprintf(name, sizeof(name), "node %d", node);
	m = res_get(p, MODEL_CEIL_MEMORY, name, -1, node, NULL);
	if (m < 0)
		return m;
	p->res[m].bytes_s = f->memory_bytes_s > 0 ? f->memory_bytes_s : 0;
	for (k = 0; k < f->nmems; k++)
		if (f->mems[k].node == (unsigned)node && f->mems[k].bytes_s > 0)
			p->res[m].bytes_s = f->mems[k].bytes_s;
	return m;
}

static int cpu_of(struct topo *t, struct cli_plan *p, const struct cli_plan_figs *f, int node)
{
	const struct topo_node *nd;
	char name[32];
	unsigned k;
	int i, c;

	if (node < 0 || (i = topo_nearest_cpu_node(t, (unsigned)node)) < 0 ||
	    (i = topo_node_index(t, (unsigned)i)) < 0)
		return -1;
	nd = topo_node(t, (unsigned)i);
	snprintf(name, sizeof(name), "node %u", nd->os_index);
	c = res_get(p, MODEL_CEIL_CPU, name, -1, (int)nd->os_index, NULL);
	if (c < 0)
		return c;
	p->res[c].cores = nd->cores;
	p->res[c].smt = 1;
	for (k = 0; k < f->ncpus; k++)
		if (f->cpus[k].node == nd->os_index) {
			p->res[c].ios_per_cpu_s = f->cpus[k].ios_per_cpu_s;
			p->res[c].smt = f->cpus[k].smt > 1 ? f->cpus[k].smt : 1;
		}
	return c;
}

static int bridge_res(struct cli_plan *p, const struct cli_plan_figs *f,
		      const struct topo_host_bridge *hb)
{
	int m = memory_of(p, f, hb->node), b;

	if (m < -1)
		return m;
	b = res_get(p, MODEL_CEIL_HOST_BRIDGE, hb->name, m, hb->node, NULL);
	if (b >= 0 && f->bridge_bytes_s > 0)
		p->res[b].bytes_s = f->bridge_bytes_s;
	return b;
}

/* A drive's demand: measured for it or another namespace of its function
 * (the most any did alone), else the one given for every drive; 0: none. */
static double demand(struct topo *t, const struct cli_plan_figs *f, const struct topo_dev *d)
{
	double best = 0;
	unsigned k, i;

	for (k = 0; k < f->nrates; k++)
		for (i = 0; i < topo_ndevs(t); i++) {
			const struct topo_dev *o = topo_dev(t, i);

			if (strcmp(o->pci, d->pci) || strcmp(o->name, f->rates[k].name))
				continue;
			if (f->rates[k].iops > best)
				best = f->rates[k].iops;
		}
	return best > 0 ? best : f->drive_iops > 0 ? f->drive_iops : 0;
}

static int add_drive(struct topo *t, struct cli_plan *p, const struct cli_plan_figs *f,
		     const struct topo_dev *d, const char *name, double iops)
{
	const struct topo_host_bridge *hb = topo_host_bridge_find(t, d->host_bridge);
	struct topo_hop hops[TOPO_MAX_CHAIN];
	struct model_pcie_link l;
	int n, k, parent, r, cpu;
	bool added;

	if (!hb) {
		note(p->no_bridge, sizeof(p->no_bridge), &p->nno_bridge, name);
		return 0;
	}
	parent = bridge_res(p, f, hb);
	n = topo_dev_hops(t, d, hops, TOPO_MAX_CHAIN);
	cpu = cpu_of(t, p, f, hb->node);
	if (parent < 0 || n < 0 || cpu < -1)
		return -ENOMEM;
	/* switches from the top down, each by its upstream port's link */
	for (k = n - 1; k >= 1; k--) {
		if (!hops[k].switch_up)
			continue;
		r = res_get(p, MODEL_CEIL_SWITCH, hops[k].busid, parent, hb->node, &added);
		if (r < 0)
			return r;
		if (added && !link_now(&hops[k].link, &p->res[r].link))
			p->nlinks_unknown++;
		parent = r;
	}
	/* its own link, named by the port above it: the root port when no
	 * switch is in between */
	r = res_get(p, MODEL_CEIL_LINK, n ? hops[0].busid : d->pci, parent, hb->node, &added);
	if (r < 0)
		return r;
	if (added && !link_now(&d->link, &p->res[r].link) &&
	    (!n || !link_now(&hops[0].link, &p->res[r].link)))
		p->nlinks_unknown++;
	parent = r;
	r = res_get(p, MODEL_CEIL_DRIVE, name, parent, hb->node, NULL);
	if (r < 0)
		return r;
	p->res[r].iops = iops;
	p->res[r].cpu = cpu;
	if (link_max(&d->link, &l))
		p->res[r].link = l;
	p->dev[r] = d;
	p->ndrives++;
	return 0;
}

/* Room for one more free port, zeroed; NULL when out of memory. */
static struct model_ceil_port *new_port(struct cli_plan *p)
{
	if (p->nports == p->portcap) {
		unsigned ncap = p->portcap ? p->portcap * 2 : 16;
		void *a = realloc(p->ports, ncap * sizeof(*p->ports));

		if (!a)
			return NULL;
		p->ports = a;
		p->portcap = ncap;
	}
	return memset(&p->ports[p->nports++], 0, sizeof(*p->ports));
}

/* One free slot under hb: the root port tp the topology lists, else one
 * nothing names, whose link is unknown (a drive there runs at its own).
 * With it the bridge, its node's memory and the CPU that would serve a
 * drive moved there. */
static int add_slot(struct topo *t, struct cli_plan *p, const struct cli_plan_figs *f,
		    const struct topo_host_bridge *hb, const struct topo_port *tp, bool assumed)
{
	struct model_ceil_port *port;
	int b = bridge_res(p, f, hb);

	if (b < 0 || cpu_of(t, p, f, hb->node) < -1 || !(port = new_port(p)))
		return -ENOMEM;
	port->host_bridge = b;
	port->assumed = assumed;
	if (tp) {
		snprintf(port->name, sizeof(port->name), "%s", tp->busid);
		if (!link_max(&tp->link, &port->link))
			p->nlinks_unknown++;
	}
	if (hb->node < 0)
		p->nports_unknown_node++;
	return 0;
}

/* hb's free root ports, at most max of them. */
static int listed_slots(struct topo *t, struct cli_plan *p, const struct cli_plan_figs *f,
			const struct topo_host_bridge *hb, unsigned max, unsigned *n)
{
	unsigned k;
	int ret;

	*n = 0;
	for (k = 0; k < hb->nports && *n < max; k++) {
		if (hb->ports[k].nfunctions)
			continue;
		ret = add_slot(t, p, f, hb, &hb->ports[k], false);
		if (ret)
			return ret;
		(*n)++;
	}
	return 0;
}

/* --free-slots: under each bridge named, its count; the free root ports
 * the topology lists there first (their names and links), then slots
 * nothing names. */
static int given_slots(struct topo *t, struct cli_plan *p, const struct cli_plan_figs *f)
{
	const struct cli_plan_slots *l = f->slots;
	const struct topo_host_bridge *hb;
	unsigned i, n;
	int ret;

	for (i = 0; i < l->n; i++) {
		hb = topo_host_bridge_find(t, l->v[i].bridge);
		if (!hb) {
			snprintf(p->no_such_bridge, sizeof(p->no_such_bridge), "%s", l->v[i].bridge);
			return -ENOENT;
		}
		ret = listed_slots(t, p, f, hb, l->v[i].count, &n);
		for (; !ret && n < l->v[i].count; n++)
			ret = add_slot(t, p, f, hb, NULL, false);
		if (ret)
			return ret;
	}
	return 0;
}

/* Nothing says which slots are free: one assumed under each host bridge
 * whose devices show it is there, of known node (no move goes to another). */
static int assumed_slots(struct topo *t, struct cli_plan *p, const struct cli_plan_figs *f,
			 const struct topo_host_bridge *hbs, unsigned nhb)
{
	unsigned i, k, nfunctions;
	int ret;

	for (i = 0; i < nhb; i++) {
		nfunctions = hbs[i].nfunctions;
		for (k = 0; k < hbs[i].nports; k++)
			nfunctions += hbs[i].ports[k].nfunctions;
		if (!nfunctions || hbs[i].node < 0)
			continue;
		ret = add_slot(t, p, f, &hbs[i], NULL, true);
		if (ret)
			return ret;
	}
	return 0;
}

/* The free slots: given, else listed, else assumed. */
static int slots(struct topo *t, struct cli_plan *p, const struct cli_plan_figs *f)
{
	const struct topo_host_bridge *hbs;
	unsigned i, n, nhb = topo_host_bridges(t, &hbs);
	int ret;

	if (f->slots) {
		p->slots = CLI_PLAN_SLOTS_GIVEN;
		return given_slots(t, p, f);
	}
	p->slots = CLI_PLAN_SLOTS_LISTED;
	for (i = 0; i < nhb; i++) {
		ret = listed_slots(t, p, f, &hbs[i], UINT_MAX, &n);
		if (ret)
			return ret;
	}
	if (p->nports)
		return 0;
	p->slots = CLI_PLAN_SLOTS_ASSUMED;
	return assumed_slots(t, p, f, hbs, nhb);
}

/* Every NVMe function of t, one drive each. */
static int nvme_drives(struct topo *t, const struct cli_plan_figs *f, struct cli_plan *p)
{
	unsigned i;
	int ret;

	for (i = 0; i < topo_ndevs(t); i++) {
		const struct topo_dev *d = topo_dev(t, i);
		unsigned k;
		double iops;

		if (!d->has_pci)
			continue;
		for (k = 0; k < i && strcmp(topo_dev(t, k)->pci, d->pci); k++)
			;
		if (k < i)
			continue;	/* a namespace of a function already in */
		iops = demand(t, f, d);
		if (!(iops > 0)) {
			note(p->left_out, sizeof(p->left_out), &p->nleft_out, d->name);
			continue;
		}
		ret = add_drive(t, p, f, d, d->name, iops);
		if (ret)
			return ret;
	}
	return 0;
}

/* A device without a host bridge: on its own node's memory and CPU (the
 * machine's only node, or its locality's single node), else on nothing
 * shared but still counted with its demand. */
static int add_local(struct topo *t, struct cli_plan *p, const struct cli_plan_figs *f,
		     const struct topo_dev *d, const char *name, double iops)
{
	int node = topo_nnodes(t) == 1 ? (int)topo_node(t, 0)->os_index :
		   d->nnodes == 1 ? (int)d->nodes[0] : -1;
	int m = memory_of(p, f, node), cpu = cpu_of(t, p, f, node), r;

	if (m < -1 || cpu < -1)
		return -ENOMEM;
	r = res_get(p, MODEL_CEIL_DRIVE, name, m, node, NULL);
	if (r < 0)
		return r;
	p->res[r].iops = iops;
	p->res[r].cpu = cpu;
	p->dev[r] = d;
	p->ndrives++;
	return 0;
}

/* f->devs, one drive each. */
static int given_drives(struct topo *t, const struct cli_plan_figs *f, struct cli_plan *p)
{
	const struct topo_dev *d;
	double iops;
	unsigned i, k;
	int ret;

	for (i = 0; i < f->ndevs; i++) {
		d = f->devs[i];
		iops = f->drive_iops > 0 ? f->drive_iops : 0;
		for (k = 0; k < f->nrates; k++)
			if (!strcmp(f->rates[k].name, f->names[i]) && f->rates[k].iops > 0)
				iops = f->rates[k].iops;
		if (!(iops > 0)) {
			note(p->left_out, sizeof(p->left_out), &p->nleft_out, f->names[i]);
			continue;
		}
		if (d->has_pci && topo_host_bridge_find(t, d->host_bridge))
			ret = add_drive(t, p, f, d, f->names[i], iops);
		else
			ret = add_local(t, p, f, d, f->names[i], iops);
		if (ret)
			return ret;
	}
	return 0;
}

int cli_plan_build(struct topo *t, const struct cli_plan_figs *f, struct cli_plan *p)
{
	int ret;

	memset(p, 0, sizeof(*p));
	ret = f->devs ? given_drives(t, f, p) : nvme_drives(t, f, p);
	if (!ret)
		ret = slots(t, p, f);
	if (ret)
		return ret;
	p->in.res = p->res;
	p->in.nres = p->nres;
	p->in.ports = p->ports;
	p->in.nports = p->nports;
	p->in.bs = f->bs;
	return p->ndrives ? 0 : -ENODATA;
}

void cli_plan_free(struct cli_plan *p)
{
	free(p->res);
	free(p->dev);
	free(p->ports);
	memset(p, 0, sizeof(*p));
}
