/* Findings: what is wrong with where the drives sit, stated as values
 * (cli/words/findings_words.c says them and what to do). */
#include <errno.h>
#include <math.h>
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

/* What a finding is about, beside its values: a device, a node (-1:
 * none), a host bridge (NULL: none). Drawings and reports read these. */
struct about {
	const char *dev;
	int node;
	const char *hb;
};

#define NOTHING ((struct about){ NULL, -1, NULL })

/* A new finding of kind about a, its values zeroed; NULL when out of
 * memory (f->err says so). */
static struct topo_finding *add(struct fl *f, enum topo_finding_kind kind, struct about a)
{
	struct topo_finding *x;

	if (f->err)
		return NULL;
	if (f->n == f->cap) {
		unsigned ncap = f->cap ? f->cap * 2 : 8;

		x = realloc(f->a, ncap * sizeof(*x));
		if (!x) {
			f->err = -ENOMEM;
			return NULL;
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
	return x;
}

static void set(char *to, size_t len, const char *s)
{
	snprintf(to, len, "%s", s ? s : "");
}

#define SET(field, s) set(field, sizeof(field), s)

/* A drive's finding: the drive, its node where it has one, its host bridge. */
static struct about drive(const struct topo_dev *d)
{
	return (struct about){ d->name, d->nnodes == 1 ? (int)d->nodes[0] : -1,
			       d->host_bridge };
}

const char *topo_no_pci_name(enum topo_no_pci k)
{
	static const char *const names[TOPO_NO_PCI_NKINDS] = {
		[TOPO_NO_PCI_UNKNOWN] = "",
		[TOPO_NO_PCI_FABRICS] = "fabrics",
		[TOPO_NO_PCI_LOOP] = "loop",
		[TOPO_NO_PCI_RAM] = "ram",
		[TOPO_NO_PCI_VIRTUAL] = "virtual",
		[TOPO_NO_PCI_NO_FUNCTION] = "no_function",
		[TOPO_NO_PCI_FILE] = "file",
	};

	return (unsigned)k < TOPO_NO_PCI_NKINDS ? names[k] : "";
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
	case TOPO_FIND_NKINDS:
		break;
	}
	return "?";
}

const char *const *topo_finding_num_names(enum topo_finding_kind k)
{
	static const char *const names[TOPO_FIND_NKINDS][TOPO_FINDING_NUMS + 1] = {
		[TOPO_FIND_NO_NVME] = { NULL },
		[TOPO_FIND_IMBALANCE] = { "node", "drives", "located_drives", "under_node",
					  "under_drives", "move", "free_ports" },
		[TOPO_FIND_ROOT_COMPLEX] = { "host_bridges", "drives", "amd" },
		[TOPO_FIND_UNKNOWN_LOCALITY] = { "drives" },
		[TOPO_FIND_DEGRADED_LINK] = { "gts", "width", "max_gts", "max_width",
					      "port_max_gts", "port_max_width", "want_gts",
					      "want_width" },
		[TOPO_FIND_CPULESS_NODE] = { "nodes", "nearest_node" },
		[TOPO_FIND_MULTI_NODE] = { "nodes", "paths" },
		[TOPO_FIND_FEW_CORES] = { "cores", "drives" },
		[TOPO_FIND_NO_PCI] = { NULL },
	};

	return (unsigned)k < TOPO_FIND_NKINDS ? names[k] : names[TOPO_FIND_NO_NVME];
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

/* The first three free root ports of each of node os's host bridges with
 * some, into x's hbs (n: how many it has); returns how many in all. */
static unsigned free_ports_of(const struct topo *t, unsigned os, struct topo_finding *x)
{
	unsigned i, n = 0;

	for (i = 0; i < t->nhbs && x->nhbs < TOPO_FINDING_HBS; i++) {
		if (t->hbs[i].node != (int)os || !t->hbs[i].nfree)
			continue;
		topo_free_ports(&t->hbs[i], &x->hbs[x->nhbs++]);
		n += t->hbs[i].nfree;
	}
	return n;
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
		struct about crowd = { NULL, (int)o->os_index, NULL };
		struct topo_finding *x = add(f, TOPO_FIND_IMBALANCE, crowd);

		if (!x)
			goto out;
		x->form = u->host_bridges[0] ? TOPO_FORM_PLAIN : TOPO_FORM_NO_BRIDGE;
		x->num[0] = o->os_index;
		x->num[1] = have[over];
		x->num[2] = located;
		x->num[3] = u->os_index;
		x->num[4] = have[under] < 1e-9 ? 0 : have[under];
		x->num[5] = floor(fmin(excess, deficit) + 1e-9);
		x->num[6] = free_ports_of(t, u->os_index, x);
		SET(x->what, u->host_bridges);
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
		struct topo_finding *x = add(f, b[i].kind,
					     (struct about){ NULL, b[i].node, b[i].host_bridge });

		if (x)
			*x = b[i];
	}
	free(b);
}

/* model_pcie_judge's one rule, check's link finding's too. */
static void degraded(const struct topo_dev *d, struct fl *f)
{
	const struct topo_link *l = &d->link, *p = &d->port_link;
	struct model_pcie_ends e = { l->speed_gts, l->max_speed_gts, p->max_speed_gts, l->width,
				     l->max_width, p->max_width };
	enum model_pcie_train tr;
	struct topo_finding *x;
	double want_s;
	int want_w;

	tr = model_pcie_judge(&e, &want_s, &want_w);
	if (tr == MODEL_PCIE_FULL || !(x = add(f, TOPO_FIND_DEGRADED_LINK, drive(d))))
		return;
	x->form = tr == MODEL_PCIE_SLOT ? TOPO_FORM_SLOT : TOPO_FORM_PLAIN;
	x->num[0] = l->speed_gts;
	x->num[1] = l->width;
	x->num[2] = l->max_speed_gts;
	x->num[3] = l->max_width;
	x->num[4] = p->max_speed_gts;
	x->num[5] = p->max_width;
	x->num[6] = want_s;
	x->num[7] = want_w;
	SET(x->names, d->name);
	SET(x->what, d->port);
}

static void join_nodes(const struct topo_dev *d, char *buf, size_t len)
{
	size_t o = 0;
	unsigned k;

	buf[0] = '\0';
	for (k = 0; k < d->nnodes && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%s%u", k ? "," : "", d->nodes[k]);
}

/* The paths of d: each one's controller (else its name), function and
 * nodes. */
static void paths_of(const struct topo_dev *d, struct topo_finding *x)
{
	unsigned k;

	x->num[1] = d->npaths;
	for (k = 0; k < d->npaths && k < TOPO_FINDING_PATHS; k++) {
		const struct topo_path *p = &d->paths[k];
		struct topo_finding_path *to = &x->paths[x->npaths++];
		size_t o = 0;
		unsigned i;

		SET(to->name, p->controller[0] ? p->controller : p->name);
		SET(to->pci, p->pci);
		for (i = 0; i < p->nnodes && o < sizeof(to->nodes); i++)
			o += (size_t)snprintf(to->nodes + o, sizeof(to->nodes) - o, "%s%u",
					      i ? "," : "", p->nodes[i]);
		to->nnodes = p->nnodes;
	}
}

/* A namespace reached through controllers on different nodes: where its
 * IO goes depends on the subsystem's iopolicy, not on where it sits. */
static void multipath(const struct topo_dev *d, struct fl *f)
{
	struct topo_finding *x = add(f, TOPO_FIND_MULTI_NODE, drive(d));

	if (!x)
		return;
	/* iopolicy numa, or not known: the kernel's default */
	x->form = !d->iopolicy[0] || !strcmp(d->iopolicy, "numa") ? TOPO_FORM_PATHS_NUMA :
		  TOPO_FORM_PATHS_OTHER;
	SET(x->names, d->name);
	join_nodes(d, x->what, sizeof(x->what));
	x->num[0] = d->nnodes;
	paths_of(d, x);
	SET(x->iopolicy, d->iopolicy);
}

static void locality(const struct topo *t, const struct topo_dev *d, struct fl *f)
{
	struct topo_finding *x;
	unsigned k, with = 0;

	if (!d->has_pci) {
		if ((x = add(f, TOPO_FIND_NO_PCI, (struct about){ d->name, -1, NULL }))) {
			SET(x->names, d->name);
			SET(x->what, topo_no_pci_name(d->no_pci));
		}
		return;
	}
	/* said once for its host bridge (unknown_locality) */
	if (!d->nnodes || topo_dev_locality_unknown(t, d))
		return;
	for (k = 0; k < d->nnodes; k++)
		with += node_has_cpus(t, d->nodes[k]);
	if (with > 1 && topo_paths_span_nodes(d)) {
		multipath(d, f);
		return;
	}
	if (with && d->nnodes < 2)
		return;
	if (!(x = add(f, with ? TOPO_FIND_MULTI_NODE : TOPO_FIND_CPULESS_NODE, drive(d))))
		return;
	if (with == 1)
		x->form = TOPO_FORM_ONE_WITH_CPUS;
	SET(x->names, d->name);
	join_nodes(d, x->what, sizeof(x->what));
	x->num[0] = d->nnodes;
	/* a CPU-less node's drive: the nearest node its workers run on */
	if (!with)
		x->num[1] = topo_nearest_cpu_node(t, d->nodes[0]);
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
		struct topo_finding *x;
		uint64_t grp[TOPO_FINDING_WORDS] = { 0 };

		names[0] = '\0';
		for (j = i; j < ndevs; j++) {
			if (done[j] || !devs[j]->cpus || strcmp(devs[j]->cpus, d->cpus))
				continue;
			done[j] = true;
			/* every namespace of the group, named or not */
			if (j < 64 * TOPO_FINDING_WORDS)
				grp[j / 64] |= 1ull << (j % 64);
			if (same_drive_before(devs, j))
				continue;
			n++;
			if (n <= 4 && o < sizeof(names))
				o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s",
						      n > 1 ? ", " : "", devs[j]->name);
		}
		if (!cores || n <= cores ||
		    !(x = add(f, TOPO_FIND_FEW_CORES,
			      n == 1 ? drive(d) : (struct about){ NULL, drive(d).node, NULL })))
			continue;
		memcpy(x->about, grp, sizeof(grp));
		x->num[0] = cores;
		x->num[1] = n;
		SET(x->names, names);
		SET(x->what, d->cpus);
	}
	free(done);
}

int topo_findings(struct topo *t, const struct topo_dev *const *devs,
		  unsigned ndevs, struct topo_finding **out)
{
	struct fl f = { .devs = devs, .ndevs = ndevs };
	struct topo_finding *x;
	unsigned i;

	if (!topo_ndevs(t) && (x = add(&f, TOPO_FIND_NO_NVME, NOTHING)))
		x->form = topo_is_live(t) ? TOPO_FORM_LIVE : TOPO_FORM_PLAIN;
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
