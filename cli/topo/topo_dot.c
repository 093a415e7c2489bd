/* iostorm topo --dot: the PCIe tree as a Graphviz digraph. Each NUMA node
 * points at its host bridges, each host bridge at the bridges below it
 * (root ports, switches and their ports, from each drive's chain of
 * bridges) and the last bridge at the drive. Colours say what the
 * findings say: an orange drive is named by a finding, an orange NUMA node
 * holds more drives than its share, a red edge is a link below its
 * maximum. Every string from sysfs or an XML file is escaped. */
#include "cli/topo/topo_dot.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/words/notes_words.h"

#define C_NODE "#d6eaf8"
#define C_NOCPU "#eeeeee"
#define C_BRIDGE "#fdfefe"
#define C_DRIVE "#d5f5e3"
#define C_FINDING "#f5b041"
#define C_DEGRADED "#c0392b"

/* A host bridge or a bridge of the tree, drawn once. */
enum item_kind { IT_HOST_BRIDGE, IT_BRIDGE, IT_CONTROLLER };

struct item {
	enum item_kind kind;
	char id[TOPO_BUSID_MAX];
	char what[TOPO_NAME_MAX];	/* a controller's name */
	int parent;			/* index of the item above; -1: a NUMA node
					 * or none (node says which) */
	int node;			/* NUMA node index of a host bridge; -1 */
	bool bridge_below;		/* a bridge hangs from it: a switch */
	bool free_port;			/* a root port with nothing below */
};

struct tree {
	struct item *it;
	size_t n, cap;
};

/* s as the inside of a DOT string: quotes and backslashes escaped (so no
 * \N, \G or \L of Graphviz's own), control and non-ASCII bytes as visible
 * \xNN text. */
static void dot_esc(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\\\x%02x", *p);
		else
			fputc(*p, f);
	}
}

static void fmt_link(char *buf, size_t len, const struct topo_link *l)
{
	int n;

	if (l->speed_gts > 0 && l->width > 0)
		n = snprintf(buf, len, "%g GT/s x%d", l->speed_gts, l->width);
	else if (l->gbps > 0)
		n = snprintf(buf, len, "%.2f GB/s", l->gbps);
	else
		n = snprintf(buf, len, "link unknown");
	if (n > 0 && (size_t)n < len && l->max_speed_gts > 0 && l->max_width > 0 &&
	    (l->speed_gts < l->max_speed_gts || l->width < l->max_width))
		snprintf(buf + n, len - (size_t)n, " (max %g GT/s x%d)", l->max_speed_gts,
			 l->max_width);
}

static bool degraded(const struct topo_link *l)
{
	return l->speed_gts > 0 && l->width > 0 && l->max_speed_gts > 0 && l->max_width > 0 &&
	       (l->speed_gts < l->max_speed_gts || l->width < l->max_width);
}

/* The NUMA node (index) whose host bridge list names hb; -1 for none. */
static int node_of(struct topo *t, const char *hb)
{
	size_t len = strlen(hb);
	unsigned i;

	for (i = 0; len && i < topo_nnodes(t); i++) {
		const char *p = topo_node(t, i)->host_bridges;

		for (; p && (p = strstr(p, hb)); p += len)
			if ((p == topo_node(t, i)->host_bridges || p[-1] == ' ' || p[-1] == ',') &&
			    (!p[len] || p[len] == ',' || p[len] == ' '))
				return (int)i;
	}
	return -1;
}

/* The item of that kind and id, added with its parent if new; -ENOMEM. */
static int item(struct tree *tr, enum item_kind kind, const char *id, int parent)
{
	struct item *x;
	size_t i;

	for (i = 0; i < tr->n; i++)
		if (tr->it[i].kind == kind && !strcmp(tr->it[i].id, id))
			return (int)i;
	if (tr->n == tr->cap) {
		size_t cap = tr->cap ? 2 * tr->cap : 32;

		x = realloc(tr->it, cap * sizeof(*x));
		if (!x)
			return -ENOMEM;
		tr->it = x;
		tr->cap = cap;
	}
	x = &tr->it[tr->n];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	snprintf(x->id, sizeof(x->id), "%s", id);
	x->parent = parent;
	x->node = -1;
	if (parent >= 0 && kind == IT_BRIDGE)
		tr->it[parent].bridge_below = true;
	return (int)tr->n++;
}

/* The host bridge hb, hung from its NUMA node. */
static int host_bridge(struct tree *tr, struct topo *t, const char *hb)
{
	int i = item(tr, IT_HOST_BRIDGE, hb, -1);

	if (i >= 0)
		tr->it[i].node = node_of(t, hb);
	return i;
}

/* The item a drive hangs from: its host bridge, then its chain of bridges
 * from the top down; -1 when it has no host bridge. */
static int chain(struct tree *tr, struct topo *t, const struct topo_dev *d)
{
	int up, k;

	if (!d->host_bridge[0])
		return -1;
	up = host_bridge(tr, t, d->host_bridge);
	for (k = (int)d->nchain - 1; up >= 0 && k >= 0; k--)
		up = item(tr, IT_BRIDGE, d->chain[k], up);
	return up;
}

/* A multipath namespace's controllers: the one of the device's own
 * function under its chain, the others under their host bridges. Each
 * controller's item in ctl[] (-1: none). */
static int controllers(struct tree *tr, struct topo *t, const struct topo_dev *d, int *ctl)
{
	const struct topo_path *p;
	unsigned k;
	int up;

	for (k = 0; k < d->npaths; k++) {
		p = &d->paths[k];
		ctl[k] = -1;
		if (!p->pci[0])
			continue;
		if (!strcmp(p->pci, d->pci))
			up = chain(tr, t, d);
		else
			up = p->host_bridge[0] ? host_bridge(tr, t, p->host_bridge) : -1;
		if (up == -ENOMEM)
			return up;
		ctl[k] = item(tr, IT_CONTROLLER, p->pci, up);
		if (ctl[k] == -ENOMEM)
			return ctl[k];
		snprintf(tr->it[ctl[k]].what, sizeof(tr->it[ctl[k]].what), "%s",
			 p->controller[0] ? p->controller : p->name);
	}
	return 0;
}

/* Findings about where a drive sits or how it is linked; a multipath
 * namespace or a device without PCI is a fact, not a misplacement. */
static bool misplaced(enum topo_finding_kind k)
{
	return k != TOPO_FIND_MULTI_NODE && k != TOPO_FIND_NO_PCI && k != TOPO_FIND_NO_NVME;
}

/* The findings about devs[k], as "degraded link, few cores" in buf; the
 * count. */
static int findings_of(unsigned k, const struct topo_finding *fnd, int nf, char *buf,
		       size_t len)
{
	const char *kn;
	size_t o = 0;
	int j, n = 0;

	buf[0] = '\0';
	for (j = 0; j < nf; j++) {
		if (!misplaced(fnd[j].kind))
			continue;
		if (!topo_finding_about(&fnd[j], k))
			continue;
		kn = topo_finding_kind_name(fnd[j].kind);
		if (strstr(buf, kn))
			continue;
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", n ? ", " : "", kn);
		n++;
	}
	for (o = 0; buf[o]; o++)
		if (buf[o] == '_')
			buf[o] = ' ';
	return n;
}

/* The NUMA node the imbalance finding calls crowded, by OS index; -1 for
 * none. */
static int crowded(const struct topo_finding *fnd, int nf)
{
	int j;

	for (j = 0; j < nf; j++)
		if (fnd[j].kind == TOPO_FIND_IMBALANCE && fnd[j].node >= 0)
			return fnd[j].node;
	return -1;
}

static void print_numa(FILE *f, struct topo *t, int busy)
{
	unsigned i;

	for (i = 0; i < topo_nnodes(t); i++) {
		const struct topo_node *nd = topo_node(t, i);

		fprintf(f, "  n%u [shape=box3d, fillcolor=\"%s\", label=\"NUMA node %u\\n", i,
			(int)nd->os_index == busy ? C_FINDING : nd->pus ? C_NODE : C_NOCPU, nd->os_index);
		if (nd->pus)
			fprintf(f, "%u cores, %u PUs (", nd->cores, nd->pus);
		else
			fprintf(f, "no CPUs (");
		dot_esc(f, nd->cpus);
		fprintf(f, ")");
		if (nd->memory_bytes >= (1ULL << 30))
			fprintf(f, "\\n%.1f GiB", (double)nd->memory_bytes / (1ULL << 30));
		else if (nd->memory_bytes)
			fprintf(f, "\\n%.0f MiB", (double)nd->memory_bytes / (1ULL << 20));
		if ((int)nd->os_index == busy)
			fprintf(f, "\\nmore drives than its share");
		fprintf(f, "\"];\n");
	}
}

static void print_items(FILE *f, const struct tree *tr)
{
	const struct item *x;
	size_t i;

	for (i = 0; i < tr->n; i++) {
		x = &tr->it[i];
		fprintf(f, "  i%zu [fillcolor=\"%s\"%s, label=\"", i, C_BRIDGE,
			x->free_port ? ", style=\"rounded,filled,dashed\"" : "");
		if (x->free_port)
			fprintf(f, "free root port\\n");
		else if (x->kind == IT_HOST_BRIDGE)
			fprintf(f, "host bridge\\n");
		else if (x->kind == IT_CONTROLLER) {
			dot_esc(f, x->what);
			fprintf(f, "\\n");
		} else if (x->bridge_below)
			fprintf(f, "switch\\n");
		else if (x->parent >= 0 && tr->it[x->parent].kind == IT_HOST_BRIDGE)
			fprintf(f, "root port\\n");
		else
			fprintf(f, "port\\n");
		dot_esc(f, x->id);
		fprintf(f, "\"%s];\n", x->kind == IT_HOST_BRIDGE ? ", shape=house" : "");
		if (x->parent >= 0)
			fprintf(f, "  i%d -> i%zu;\n", x->parent, i);
		else if (x->node >= 0)
			fprintf(f, "  n%d -> i%zu;\n", x->node, i);
	}
}

/* Drive k: its box and the edge (or edges, multipath) into it. */
static void print_drive(FILE *f, unsigned k, const struct topo_dev *d, int up,
			const int *ctl, const struct topo_finding *fnd, int nf)
{
	char link[96], why[160];
	bool bad = d->has_pci && degraded(&d->link);
	unsigned p;

	fmt_link(link, sizeof(link), &d->link);
	fprintf(f, "  d%u [fillcolor=\"%s\"%s, label=\"", k,
		findings_of(k, fnd, nf, why, sizeof(why)) ? C_FINDING : C_DRIVE,
		d->has_pci ? "" : ", style=\"rounded,filled,dashed\"");
	dot_esc(f, d->name);
	if (d->has_pci) {
		fprintf(f, "\\n");
		dot_esc(f, d->pci);
		fprintf(f, "\\n");
		dot_esc(f, link);
	} else {
		fprintf(f, "\\nno PCI: ");
		dot_esc(f, cli_no_pci_words(d->no_pci) ? cli_no_pci_words(d->no_pci) : "unknown");
	}
	if (d->model[0]) {
		fprintf(f, "\\n");
		dot_esc(f, d->model);
	}
	if (why[0]) {
		fprintf(f, "\\n! ");
		dot_esc(f, why);
	}
	fprintf(f, "\"];\n");
	for (p = 0; p < d->npaths; p++)
		if (ctl[p] >= 0)
			fprintf(f, "  i%d -> d%u;\n", ctl[p], k);
	if (!d->npaths && up >= 0)
		fprintf(f, "  i%d -> d%u%s;\n", up, k,
			bad ? " [color=\"" C_DEGRADED "\", penwidth=2.5]" : "");
}

/* Every free root port, under its host bridge (one of the tree's). */
static int free_ports(struct tree *tr, struct topo *t)
{
	const struct topo_host_bridge *hbs;
	unsigned n = topo_host_bridges(t, &hbs), i, k;
	int hb, x;

	for (i = 0; i < n; i++) {
		if (!hbs[i].nfree)
			continue;
		hb = host_bridge(tr, t, hbs[i].name);
		if (hb < 0)
			return hb;
		for (k = 0; k < hbs[i].nports; k++) {
			if (hbs[i].ports[k].nfunctions)
				continue;
			x = item(tr, IT_BRIDGE, hbs[i].ports[k].busid, hb);
			if (x < 0)
				return x;
			tr->it[x].free_port = true;
		}
	}
	return 0;
}

static int find_item(const struct tree *tr, enum item_kind kind, const char *id)
{
	size_t i;

	for (i = 0; id && i < tr->n; i++)
		if (tr->it[i].kind == kind && !strcmp(tr->it[i].id, id))
			return (int)i;
	return -1;
}

static int find_drive(const struct topo_dev *const *devs, unsigned ndevs, const char *name)
{
	unsigned k;

	for (k = 0; name && k < ndevs; k++)
		if (!strcmp(devs[k]->name, name))
			return (int)k;
	return -1;
}

/* Move i's slot where no bus id names it (--free-slots, or assumed): a
 * dashed box of its own under its host bridge, each move its own slot;
 * then the start of the move's arrow to it. */
static void print_slot(FILE *f, const struct tree *tr, const struct cli_dot_move *mv,
		       unsigned i, int d)
{
	int hb = find_item(tr, IT_HOST_BRIDGE, mv->host_bridge);

	fprintf(f, "  s%u [label=\"free slot under ", i);
	dot_esc(f, mv->host_bridge);
	fprintf(f, "%s\", style=\"rounded,dashed\"];\n", mv->assumed ? "\\n(assumed)" : "");
	if (hb >= 0)
		fprintf(f, "  i%d -> s%u [style=dashed];\n", hb, i);
	fprintf(f, "  d%d -> s%u", d, i);
}

/* The binding resource outlined, the moves drawn. */
static void print_plan(FILE *f, struct topo *t, const struct tree *tr,
		       const struct topo_dev *const *devs, unsigned ndevs,
		       const struct cli_dot_plan *pl)
{
	const char *kind = pl->binding_kind ? pl->binding_kind : "";
	const char *out = "color=\"" C_DEGRADED "\", penwidth=3.5";
	int x = -1, d;
	unsigned i;

	if (!strcmp(kind, "memory") || !strcmp(kind, "cpu")) {
		x = pl->binding_node >= 0 ? topo_node_index(t, (unsigned)pl->binding_node) : -1;
		if (x >= 0)
			fprintf(f, "  n%d [%s, xlabel=\"%s binds\"];\n", x, out, kind);
	} else if (!strcmp(kind, "host_bridge")) {
		x = find_item(tr, IT_HOST_BRIDGE, pl->binding);
	} else if (!strcmp(kind, "link") || !strcmp(kind, "switch")) {
		x = find_item(tr, IT_BRIDGE, pl->binding);
		if (x < 0)	/* a drive's own link without a port above it */
			x = find_item(tr, IT_CONTROLLER, pl->binding);
	}
	if (x >= 0 && strcmp(kind, "memory") && strcmp(kind, "cpu"))
		fprintf(f, "  i%d [%s, xlabel=\"binds\"];\n", x, out);
	for (i = 0; i < pl->nmoves; i++) {
		d = find_drive(devs, ndevs, pl->moves[i].drive);
		if (d < 0)
			continue;
		x = pl->moves[i].port[0] ? find_item(tr, IT_BRIDGE, pl->moves[i].port) : -1;
		if (x >= 0)
			fprintf(f, "  d%d -> i%d", d, x);
		else
			print_slot(f, tr, &pl->moves[i], i, d);
		fprintf(f, " [style=dashed, color=\"#2e86c1\", fontcolor=\"#2e86c1\", "
			   "arrowhead=normal, constraint=false, label=\"move %u: %.0f IOPS\"];\n",
			i + 1, pl->moves[i].ceiling_after);
	}
}

static int dot_draw(FILE *f, struct topo *t, const char *source,
		    const struct topo_dev *const *devs, unsigned ndevs,
		    const struct topo_finding *fnd, int nf, const struct cli_dot_plan *pl)
{
	struct tree tr = { NULL, 0, 0 };
	int *up = calloc(ndevs ? ndevs : 1, sizeof(*up));
	int (*ctl)[TOPO_MAX_PATHS] = calloc(ndevs ? ndevs : 1, sizeof(*ctl));
	unsigned i, k, cores = 0, pus = 0;
	int rc = -ENOMEM;

	if (!up || !ctl)
		goto out;
	/* host bridges of every node, also those without a drive */
	for (i = 0; i < topo_nnodes(t); i++) {
		char hbs[256], *s, *save = NULL;

		snprintf(hbs, sizeof(hbs), "%s", topo_node(t, i)->host_bridges);
		for (s = strtok_r(hbs, ", ", &save); s; s = strtok_r(NULL, ", ", &save))
			if (host_bridge(&tr, t, s) == -ENOMEM)
				goto out;
	}
	for (k = 0; k < ndevs; k++) {
		up[k] = devs[k]->has_pci && !devs[k]->npaths ? chain(&tr, t, devs[k]) : -1;
		if (up[k] == -ENOMEM || controllers(&tr, t, devs[k], ctl[k]))
			goto out;
	}
	if (pl && free_ports(&tr, t))
		goto out;
	topo_counts(t, &cores, &pus);
	fprintf(f, "digraph iostorm_%s {\n  graph [label=\"%s", pl ? "plan" : "topo",
		pl ? "plan for the PCIe tree of " : "PCIe tree of ");
	dot_esc(f, source ? source : "this machine");
	fprintf(f, " (%u NUMA node%s, %u cores, %u PUs)\\n", topo_nnodes(t),
		topo_nnodes(t) == 1 ? "" : "s", cores, pus);
	if (pl) {
		fprintf(f, "predicted %.0f IOPS; ", pl->predicted);
		dot_esc(f, pl->binding_text ? pl->binding_text : "");
		fprintf(f, "\\nred outline: the binding resource; dashed box: a free root "
			   "port, or a free slot no bus id names (--free-slots, or assumed); "
			   "blue arrow: a move and the ceiling after it");
	} else {
		fprintf(f, "orange: a drive a finding names, or a node with more drives than "
			   "its share; red edge: a link below its maximum");
	}
	fprintf(f, "\", labelloc=t, fontname=\"sans\", fontsize=12, rankdir=TB];\n"
		   "  node [shape=box, style=\"rounded,filled\", fontname=\"sans\", fontsize=10];\n"
		   "  edge [arrowhead=none, fontname=\"sans\", fontsize=10];\n");
	print_numa(f, t, crowded(fnd, nf));
	print_items(f, &tr);
	for (k = 0; k < ndevs; k++)
		print_drive(f, k, devs[k], up[k], ctl[k], fnd, nf);
	if (pl)
		print_plan(f, t, &tr, devs, ndevs, pl);
	fprintf(f, "}\n");
	rc = 0;
out:
	free(tr.it);
	free(up);
	free(ctl);
	return rc;
}

int cli_topo_dot(FILE *f, struct topo *t, const char *source,
		 const struct topo_dev *const *devs, unsigned ndevs,
		 const struct topo_finding *fnd, int nf)
{
	return dot_draw(f, t, source, devs, ndevs, fnd, nf, NULL);
}

int cli_topo_dot_plan(FILE *f, struct topo *t, const char *source,
		      const struct topo_dev *const *devs, unsigned ndevs,
		      const struct cli_dot_plan *plan)
{
	return dot_draw(f, t, source, devs, ndevs, NULL, 0, plan);
}
