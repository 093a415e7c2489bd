/* Findings: what is wrong with where the drives sit, and what to do. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/pcie.h"
#include "topo/topo.h"
#include "topo/topo_int.h"

struct fl {
	struct topo_finding *a;
	unsigned n, cap;
	int err;
	const struct topo_dev *const *devs;	/* what the findings are about */
	unsigned ndevs;
};

static void mark(struct topo_finding *x, unsigned i)
{
	if (i < 64 * TOPO_FINDING_WORDS)
		x->about[i / 64] |= 1ull << (i % 64);
}

/* What a finding is about, beside its sentence: a device, a node (-1:
 * none), a host bridge (NULL: none). Drawings and reports read these. */
struct about {
	const char *dev;
	int node;
	const char *hb;
};

#define NOTHING ((struct about){ NULL, -1, NULL })

static void add(struct fl *f, enum topo_finding_kind kind, struct about a,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void add(struct fl *f, enum topo_finding_kind kind, struct about a,
		const char *fmt, ...)
{
	struct topo_finding *x;
	va_list ap;

	if (f->err)
		return;
	if (f->n == f->cap) {
		unsigned ncap = f->cap ? f->cap * 2 : 8;

		x = realloc(f->a, ncap * sizeof(*x));
		if (!x) {
			f->err = -ENOMEM;
			return;
		}
		f->a = x;
		f->cap = ncap;
	}
	x = &f->a[f->n++];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	snprintf(x->device, sizeof(x->device), "%s", a.dev ? a.dev : "");
	x->node = a.node;
	snprintf(x->host_bridge, sizeof(x->host_bridge), "%s", a.hb ? a.hb : "");
	for (unsigned i = 0; a.dev && i < f->ndevs; i++)
		if (!strcmp(f->devs[i]->name, a.dev))
			mark(x, i);
	va_start(ap, fmt);
	vsnprintf(x->text, sizeof(x->text), fmt, ap);
	va_end(ap);
}

/* A drive's finding: the drive, its node where it has one, its host bridge. */
static struct about drive(const struct topo_dev *d)
{
	return (struct about){ d->name, d->nnodes == 1 ? (int)d->nodes[0] : -1,
			       d->host_bridge };
}

const char *topo_finding_kind_name(enum topo_finding_kind k)
{
	switch (k) {
	case TOPO_FIND_NO_NVME:
		return "no_nvme";
	case TOPO_FIND_IMBALANCE:
		return "imbalance";
	case TOPO_FIND_ROOT_COMPLEX:
		return "root_complex";
	case TOPO_FIND_UNKNOWN_LOCALITY:
		return "unknown_locality";
	case TOPO_FIND_DEGRADED_LINK:
		return "degraded_link";
	case TOPO_FIND_CPULESS_NODE:
		return "cpuless_node";
	case TOPO_FIND_MULTI_NODE:
		return "multi_node";
	case TOPO_FIND_FEW_CORES:
		return "few_cores";
	case TOPO_FIND_NO_PCI:
		return "no_pci";
	}
	return "?";
}

static bool node_has_cpus(const struct topo *t, unsigned os)
{
	int i = topo_node_index(t, os);

	return i >= 0 && topo_node(t, (unsigned)i)->pus > 0;
}

/* The nodes with CPUs a device's workers run on, as node indexes: its own
 * nodes that have CPUs, else the nearest node with CPUs. */
static unsigned cpu_nodes(const struct topo *t, const struct topo_dev *d, int *idx, unsigned max)
{
	unsigned k, n = 0;
	int near;

	for (k = 0; k < d->nnodes && n < max; k++)
		if (node_has_cpus(t, d->nodes[k]))
			idx[n++] = topo_node_index(t, d->nodes[k]);
	if (!n && d->nnodes && max && (near = topo_nearest_cpu_index(t, d->nodes[0])) >= 0)
		idx[n++] = near;
	return n;
}

static bool has_function(const struct topo_dev *d, const char *busid)
{
	unsigned k;

	if (!strcmp(d->pci, busid))
		return true;
	for (k = 0; k < d->npaths; k++)
		if (d->paths[k].pci[0] && !strcmp(d->paths[k].pci, busid))
			return true;
	return false;
}

/* Namespaces of one controller are one drive: it moves as a whole. So are
 * the namespaces of one multipath subsystem, which share controllers. */
static bool same_drive(const struct topo_dev *a, const struct topo_dev *b)
{
	unsigned k;

	if (!a->has_pci || !b->has_pci)
		return false;
	if (has_function(a, b->pci))
		return true;
	for (k = 0; k < b->npaths; k++)
		if (b->paths[k].pci[0] && has_function(a, b->paths[k].pci))
			return true;
	return false;
}

static bool same_drive_before(const struct topo_dev *const *devs, unsigned k)
{
	unsigned j;

	for (j = 0; j < k; j++)
		if (same_drive(devs[j], devs[k]))
			return true;
	return false;
}

static void imbalance(const struct topo *t, const struct topo_dev *const *devs,
		      unsigned ndevs, struct fl *f)
{
	unsigned nn = topo_nnodes(t), i, k, ncpu = 0, located = 0;
	double *have = calloc(nn ? nn : 1, sizeof(*have)), cores = 0;
	int *idx = calloc(nn ? nn : 1, sizeof(*idx));
	int over = -1, under = -1;
	double excess = 0, deficit = 0;

	if (!have || !idx) {
		f->err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nn; i++)
		if (topo_node(t, i)->pus) {
			ncpu++;
			cores += topo_node(t, i)->cores ? topo_node(t, i)->cores : topo_node(t, i)->pus;
		}
	for (k = 0; k < ndevs; k++) {
		/* unknown locality is no node's: nothing rests on it */
		unsigned n = devs[k]->has_pci && !same_drive_before(devs, k) &&
			!topo_dev_locality_unknown(t, devs[k]) ?
			cpu_nodes(t, devs[k], idx, nn) : 0;

		for (i = 0; i < n; i++)
			have[idx[i]] += 1.0 / n;
		located += n > 0;
	}
	if (ncpu < 2 || located < 2)
		goto out;
	for (i = 0; i < nn; i++) {
		const struct topo_node *nd = topo_node(t, i);
		double ideal;

		if (!nd->pus)
			continue;
		ideal = located * (nd->cores ? nd->cores : nd->pus) / cores;
		if (over < 0 || have[i] - ideal > excess) {
			over = (int)i;
			excess = have[i] - ideal;
		}
		if (under < 0 || ideal - have[i] > deficit) {
			under = (int)i;
			deficit = ideal - have[i];
		}
	}
	if (excess >= 1 - 1e-9 && deficit >= 1 - 1e-9) {
		const struct topo_node *o = topo_node(t, (unsigned)over);
		const struct topo_node *u = topo_node(t, (unsigned)under);
		int move = (int)floor(fmin(excess, deficit) + 1e-9);
		char uhave[32], ports[160], fp[200];
		unsigned nfree = topo_node_free_ports(t, u->os_index, ports, sizeof(ports));
		struct about crowd = { NULL, (int)o->os_index, NULL };

		if (have[under] < 1e-9)
			snprintf(uhave, sizeof(uhave), "none");
		else
			snprintf(uhave, sizeof(uhave), "%g", have[under]);
		if (nfree)
			snprintf(fp, sizeof(fp), " (free root port%s: %s)", nfree == 1 ? "" : "s",
				 ports);
		else
			snprintf(fp, sizeof(fp), " (no free root port under them in the topology)");
		if (u->host_bridges[0])
			add(f, TOPO_FIND_IMBALANCE, crowd,
			    "node %u hosts %g of %u drives and node %u %s: move %d drive%s to slots "
			    "under node %u's host bridges %s%s", o->os_index, have[over], located,
			    u->os_index, uhave, move, move == 1 ? "" : "s", u->os_index,
			    u->host_bridges, fp);
		else
			add(f, TOPO_FIND_IMBALANCE, crowd,
			    "node %u hosts %g of %u drives and node %u %s: move %d drive%s to slots "
			    "local to node %u (no host bridge of node %u is in the topology)",
			    o->os_index, have[over], located, u->os_index, uhave, move,
			    move == 1 ? "" : "s", u->os_index, u->os_index);
	}
out:
	free(have);
	free(idx);
}

/* Host bridges: topo/find_bridges.c. */
static void bridges(struct topo *t, const struct topo_dev *const *devs, unsigned ndevs,
		    struct fl *f)
{
	unsigned max = t->nhbs + t->nnodes, n, i;
	struct topo_finding *b = calloc(max ? max : 1, sizeof(*b));

	if (!b) {
		f->err = -ENOMEM;
		return;
	}
	for (i = 0; i < max; i++)
		b[i].node = -1;
	n = topo_bridge_findings(t, devs, ndevs, b, max);
	for (i = 0; i < n; i++) {
		add(f, b[i].kind, (struct about){ NULL, b[i].node, b[i].host_bridge }, "%s",
		    b[i].text);
		if (!f->err)
			memcpy(f->a[f->n - 1].about, b[i].about, sizeof(b[i].about));
	}
	free(b);
}

static void fmt_link(char *buf, size_t len, double gts, int w)
{
	snprintf(buf, len, "%g GT/s x%d", gts, w);
}

/* model_pcie_judge's one rule, check's link finding's too. */
static void degraded(const struct topo_dev *d, struct fl *f)
{
	const struct topo_link *l = &d->link, *p = &d->port_link;
	struct model_pcie_ends e = { l->speed_gts, l->max_speed_gts, p->max_speed_gts, l->width,
				     l->max_width, p->max_width };
	enum model_pcie_train tr;
	char cur[32], max[32];
	double want_s;
	int want_w;

	tr = model_pcie_judge(&e, &want_s, &want_w);
	if (tr == MODEL_PCIE_FULL)
		return;
	fmt_link(cur, sizeof(cur), l->speed_gts, l->width);
	fmt_link(max, sizeof(max), l->max_speed_gts, l->max_width);
	if (tr == MODEL_PCIE_DEGRADED)
		add(f, TOPO_FIND_DEGRADED_LINK, drive(d),
		    "%s's link runs at %s but the drive and its port (%s) both support %g GT/s x%d: "
		    "reseat the drive, check the riser, cable or adapter, and look for PCIe errors "
		    "in dmesg", d->name, cur, d->port[0] ? d->port : "unknown", want_s, want_w);
	else
		add(f, TOPO_FIND_DEGRADED_LINK, drive(d),
		    "%s's link runs at %s but the drive can do %s: its slot (port %s, max %g GT/s x%d) "
		    "limits it; move it to a slot that supports %s", d->name, cur, max,
		    d->port[0] ? d->port : "unknown", p->max_speed_gts, p->max_width, max);
}

static void join_nodes(const struct topo_dev *d, char *buf, size_t len)
{
	size_t o = 0;
	unsigned k;

	buf[0] = '\0';
	for (k = 0; k < d->nnodes && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%s%u", k ? "," : "", d->nodes[k]);
}

/* "nvme0 0000:21:00.0 node 0, nvme1 0000:41:00.0 node 1" */
static void join_paths(const struct topo_dev *d, char *buf, size_t len)
{
	size_t o = 0;
	unsigned k, i;

	buf[0] = '\0';
	for (k = 0; k < d->npaths && o < len; k++) {
		const struct topo_path *p = &d->paths[k];

		o += (size_t)snprintf(buf + o, len - o, "%s%s %s node%s ", k ? ", " : "",
				      p->controller[0] ? p->controller : p->name,
				      p->pci[0] ? p->pci : "(bus unknown)", p->nnodes > 1 ? "s" : "");
		for (i = 0; i < p->nnodes && o < len; i++)
			o += (size_t)snprintf(buf + o, len - o, "%s%u", i ? "," : "", p->nodes[i]);
		if (!p->nnodes && o < len)
			o += (size_t)snprintf(buf + o, len - o, "unknown");
	}
}

/* A namespace reached through controllers on different nodes: where its
 * IO goes depends on the subsystem's iopolicy, not on where it sits. */
static void multipath(const struct topo_dev *d, struct fl *f)
{
	char nodes[128], paths[192];

	join_nodes(d, nodes, sizeof(nodes));
	join_paths(d, paths, sizeof(paths));
	if (!d->iopolicy[0] || !strcmp(d->iopolicy, "numa"))
		add(f, TOPO_FIND_MULTI_NODE, drive(d),
		    "%s is one namespace with paths on nodes %s (%s): with iopolicy numa%s each "
		    "IO takes the path of its CPU's node, so its workers are spread over the cores "
		    "of nodes %s; nothing to move", d->name, nodes, paths,
		    d->iopolicy[0] ? "" : " (the kernel's default)", nodes);
	else
		add(f, TOPO_FIND_MULTI_NODE, drive(d),
		    "%s is one namespace with paths on nodes %s (%s), and with iopolicy %s its IOs "
		    "take every path whatever node their CPU is on, so some cross the "
		    "interconnect: for local IO, echo numa > /sys/block/%s/device/iopolicy",
		    d->name, nodes, paths, d->iopolicy, d->name);
}

static void locality(const struct topo *t, const struct topo_dev *d, struct fl *f)
{
	char nodes[128];
	unsigned k, with = 0;
	int near;

	if (!d->has_pci) {
		add(f, TOPO_FIND_NO_PCI, (struct about){ d->name, -1, NULL },
		    "%s is %s, without a PCI device: iostorm spreads its workers over the whole "
		    "machine", d->name, d->why_no_pci ? d->why_no_pci : "a device");
		return;
	}
	/* said once for its host bridge (unknown_locality) */
	if (!d->nnodes || topo_dev_locality_unknown(t, d))
		return;
	join_nodes(d, nodes, sizeof(nodes));
	for (k = 0; k < d->nnodes; k++)
		with += node_has_cpus(t, d->nodes[k]);
	if (with > 1 && topo_paths_span_nodes(d)) {
		multipath(d, f);
	} else if (!with) {
		near = topo_nearest_cpu_node(t, d->nodes[0]);
		add(f, TOPO_FIND_CPULESS_NODE, drive(d),
		    "%s is local to CPU-less node%s %s: its workers run on the nearest node %d and "
		    "every IO crosses the interconnect; move it to a slot under a node with cores",
		    d->name, d->nnodes > 1 ? "s" : "", nodes, near);
	} else if (d->nnodes > 1 && with == 1) {
		add(f, TOPO_FIND_MULTI_NODE, drive(d),
		    "%s is local to nodes %s at once, and only one of them has CPUs of its own "
		    "(the others are HBM or far memory): its workers and their memory go to that "
		    "node; nothing to move", d->name, nodes);
	} else if (d->nnodes > 1) {
		add(f, TOPO_FIND_MULTI_NODE, drive(d),
		    "%s is local to nodes %s at once (hwloc cannot tell which is nearer): its "
		    "workers are spread over their cores; measure with saturate before moving it",
		    d->name, nodes);
	}
}

/* One core per drive at QDn: group drives by the CPUs they are local to. */
static void few_cores(const struct topo *t, const struct topo_dev *const *devs,
		      unsigned ndevs, struct fl *f)
{
	bool *done = calloc(ndevs ? ndevs : 1, sizeof(*done));
	unsigned i, j;

	if (!done) {
		f->err = -ENOMEM;
		return;
	}
	for (i = 0; i < ndevs; i++) {
		const struct topo_dev *d = devs[i];
		char names[160];
		unsigned n = 0, cores = d->ncores;
		size_t o = 0;

		if (done[i] || !d->has_pci || !d->cpus || !d->nnodes)
			continue;
		if (!cores) {
			int idx = topo_nearest_cpu_index(t, d->nodes[0]);

			cores = idx >= 0 ? topo_node(t, (unsigned)idx)->cores : 0;
		}
		struct topo_finding grp = { 0 };

		names[0] = '\0';
		for (j = i; j < ndevs; j++) {
			if (done[j] || !devs[j]->cpus || strcmp(devs[j]->cpus, d->cpus))
				continue;
			done[j] = true;
			mark(&grp, j);	/* every namespace of the group, named or not */
			if (same_drive_before(devs, j))
				continue;
			n++;
			if (n <= 4 && o < sizeof(names))
				o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s",
						      n > 1 ? ", " : "", devs[j]->name);
		}
		if (n > 4 && o < sizeof(names))
			snprintf(names + o, sizeof(names) - o, " and %u more", n - 4);
		if (cores && n > cores)
			add(f, TOPO_FIND_FEW_CORES,
			    n == 1 ? drive(d) : (struct about){ NULL, drive(d).node, NULL },
			    "%u cores (CPUs %s) are local to %u drives (%s): at one core per drive "
			    "at QDn the cores will limit IOPS before the drives do; move drives to "
			    "another node or measure with saturate", cores, d->cpus[0] ? d->cpus : "none",
			    n, names);
		if (cores && n > cores && !f->err)
			memcpy(f->a[f->n - 1].about, grp.about, sizeof(grp.about));
	}
	free(done);
}

int topo_findings(struct topo *t, const struct topo_dev *const *devs,
		  unsigned ndevs, struct topo_finding **out)
{
	struct fl f = { .devs = devs, .ndevs = ndevs };
	unsigned i;

	if (!topo_ndevs(t))
		add(&f, TOPO_FIND_NO_NVME, NOTHING, "no NVMe drive %s: nothing for iostorm to "
		    "place; give targets by path (files, loop devices) to measure those",
		    topo_is_live(t) ? "on this machine" : "in this topology");
	imbalance(t, devs, ndevs, &f);
	bridges(t, devs, ndevs, &f);
	for (i = 0; i < ndevs; i++) {
		degraded(devs[i], &f);
		locality(t, devs[i], &f);
	}
	few_cores(t, devs, ndevs, &f);
	if (f.err) {
		free(f.a);
		return f.err;
	}
	*out = f.a;
	return (int)f.n;
}
