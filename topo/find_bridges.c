/* Findings about host bridges (root complexes): drives crowded under one
 * of a node's host bridges while another has free root ports (one NUMA
 * node with several root complexes: AMD EPYC or Threadripper in NPS1),
 * and drives under a host bridge whose node the firmware does not give. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "topo/topo_int.h"

/* A bounded text: what does not fit is cut. */
struct txt {
	char *s;
	size_t len, o;
};

static void put(struct txt *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct txt *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->o >= t->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->s + t->o, t->len - t->o, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->o += (size_t)n;
}

/* d is the first of devs[0..k] with its PCI function: one drive per
 * controller (its namespaces move with it). */
static bool first_of_function(const struct topo_dev *const *devs, unsigned k)
{
	unsigned j;

	for (j = 0; j < k; j++)
		if (devs[j]->has_pci && !strcmp(devs[j]->pci, devs[k]->pci))
			return false;
	return true;
}

/* The drives (by first namespace) under host bridge name. */
/* The drives under host bridge name: a count, their names in names (NULL:
 * none wanted), each one's index marked in about (NULL: none wanted). */
static unsigned drives_under(const struct topo_dev *const *devs, unsigned ndevs,
			     const char *name, struct txt *names, struct topo_finding *about)
{
	unsigned k, n = 0;

	for (k = 0; k < ndevs; k++) {
		if (!devs[k]->has_pci || strcmp(devs[k]->host_bridge, name))
			continue;
		if (about && k < 64 * TOPO_FINDING_WORDS)
			about->about[k / 64] |= 1ull << (k % 64);
		if (!first_of_function(devs, k))
			continue;
		if (names && n < 4)
			put(names, "%s%s", n ? ", " : "", devs[k]->name);
		n++;
	}
	if (names && n > 4)
		put(names, " and %u more", n - 4);
	return n;
}

static void free_ports(const struct topo_host_bridge *hb, struct txt *t)
{
	unsigned k, n = 0;

	for (k = 0; k < hb->nports; k++) {
		if (hb->ports[k].nfunctions)
			continue;
		if (n < 3)
			put(t, "%s%s", n ? ", " : "", hb->ports[k].busid);
		n++;
	}
	if (n > 3)
		put(t, " and %u more", n - 3);
}

/* A finding about host bridge hb of node (-1: none known) and the drives
 * ab marks. */
static bool emit(struct topo_finding *out, unsigned max, unsigned *n,
		 enum topo_finding_kind kind, int node, const char *hb,
		 const struct topo_finding *ab, const char *text)
{
	if (*n >= max)
		return false;
	memcpy(out[*n].about, ab->about, sizeof(ab->about));
	out[*n].kind = kind;
	out[*n].device[0] = '\0';
	out[*n].node = node;
	topo_copy_str(out[*n].host_bridge, sizeof(out[*n].host_bridge), hb);
	topo_copy_str(out[*n].text, sizeof(out[*n].text), text);
	(*n)++;
	return true;
}

/* Drives under host bridges whose node is unknown: said once per bridge,
 * and nothing is advised on it. */
static void unknown(const struct topo *t, const struct topo_dev *const *devs,
		    unsigned ndevs, struct topo_finding *out, unsigned max, unsigned *n)
{
	char buf[TOPO_FINDING_LEN], names[160];
	unsigned i, nd;

	for (i = 0; i < t->nhbs; i++) {
		const struct topo_host_bridge *hb = &t->hbs[i];
		struct txt nt = { names, sizeof(names), 0 };
		struct topo_finding ab = { 0 };

		names[0] = '\0';
		if (hb->node >= 0 || !(nd = drives_under(devs, ndevs, hb->name, &nt, &ab)))
			continue;
		snprintf(buf, sizeof(buf), "host bridge %s has no NUMA node (the firmware does not "
			 "say which node it is local to), so the locality of its %u drive%s (%s) is "
			 "unknown: iostorm bases no advice on it and suggests no slot under it",
			 hb->name, nd, nd == 1 ? "" : "s", names);
		emit(out, max, n, TOPO_FIND_UNKNOWN_LOCALITY, -1, hb->name, &ab, buf);
	}
}

/* One node's host bridges: the drives crowd one of them while another,
 * holding at least two drives fewer, has free root ports. */
static void crowded(const struct topo *t, unsigned os, const struct topo_dev *const *devs,
		    unsigned ndevs, bool amd, struct topo_finding *out, unsigned max,
		    unsigned *n)
{
	char buf[TOPO_FINDING_LEN], names[160];
	struct txt b = { buf, sizeof(buf), 0 };
	struct topo_finding ab = { 0 };
	unsigned i, nb = 0, total = 0, most = 0, ntarget = 0, c;
	int busiest = -1;

	for (i = 0; i < t->nhbs; i++) {
		if (t->hbs[i].node != (int)os)
			continue;
		nb++;
		c = drives_under(devs, ndevs, t->hbs[i].name, NULL, NULL);
		total += c;
		if (c > most) {
			most = c;
			busiest = (int)i;
		}
	}
	if (nb < 2 || most < 2)
		return;
	for (i = 0; i < t->nhbs; i++)
		if (t->hbs[i].node == (int)os && t->hbs[i].nfree &&
		    drives_under(devs, ndevs, t->hbs[i].name, NULL, NULL) + 2 <= most)
			ntarget++;
	if (!ntarget)
		return;
	put(&b, "node %u has %u host bridges (root complexes) and its %u drive%s sit under ",
	    os, nb, total, total == 1 ? "" : "s");
	for (i = 0, c = 0; i < t->nhbs; i++) {
		struct txt nt = { names, sizeof(names), 0 };
		unsigned k;

		names[0] = '\0';
		if (t->hbs[i].node != (int)os || !(k = drives_under(devs, ndevs, t->hbs[i].name, &nt, NULL)))
			continue;
		put(&b, "%s%s (%u: %s)", c++ ? ", " : "", t->hbs[i].name, k, names);
	}
	put(&b, ", while ");
	for (i = 0, c = 0; i < t->nhbs; i++) {
		const struct topo_host_bridge *hb = &t->hbs[i];

		if (hb->node != (int)os || !hb->nfree ||
		    drives_under(devs, ndevs, hb->name, NULL, NULL) + 2 > most)
			continue;
		put(&b, "%s%s has %u free root port%s (", c++ ? "; " : "", hb->name, hb->nfree,
		    hb->nfree == 1 ? "" : "s");
		free_ports(hb, &b);
		put(&b, ")");
	}
	put(&b, ": each host bridge has its own bandwidth to memory, so move drives from %s to "
	    "those slots ('iostorm plan' says which and what it gains)", t->hbs[busiest].name);
	if (amd)
		put(&b, "; on AMD, NPS2 or NPS4 in the firmware setup exposes the quadrants as NUMA "
		    "nodes, so placement and this report see them");
	/* about the drives of the crowded bridge: they are the ones to move */
	drives_under(devs, ndevs, t->hbs[busiest].name, NULL, &ab);
	emit(out, max, n, TOPO_FIND_ROOT_COMPLEX, (int)os, t->hbs[busiest].name, &ab, buf);
}

unsigned topo_node_free_ports(const struct topo *t, unsigned os, char *buf, size_t len)
{
	struct txt b = { buf, len, 0 };
	unsigned i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < t->nhbs; i++) {
		if (t->hbs[i].node != (int)os || !t->hbs[i].nfree)
			continue;
		put(&b, "%s", n ? ", " : "");
		free_ports(&t->hbs[i], &b);
		n += t->hbs[i].nfree;
	}
	return n;
}

bool topo_dev_locality_unknown(const struct topo *t, const struct topo_dev *d)
{
	const struct topo_host_bridge *hb;

	if (!d->has_pci || !d->host_bridge[0])
		return false;
	hb = topo_host_bridge_find(t, d->host_bridge);
	return hb && hb->node < 0;
}

/* Findings about host bridges into out (at most max); returns how many. */
unsigned topo_bridge_findings(struct topo *t, const struct topo_dev *const *devs,
			      unsigned ndevs, struct topo_finding *out, unsigned max)
{
	bool amd = topo_cpu_amd(t);
	unsigned i, n = 0;

	unknown(t, devs, ndevs, out, max, &n);
	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].pus)
			crowded(t, t->nodes[i].os_index, devs, ndevs, amd, out, max, &n);
	return n;
}
