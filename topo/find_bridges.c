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

/* The drives under host bridge name: a count, the first four's names in
 * names (NULL: none wanted), each one's index marked in about (NULL: none
 * wanted). */
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
	return n;
}

void topo_free_ports(const struct topo_host_bridge *hb, struct topo_finding_hb *out)
{
	struct txt t = { out->list, sizeof(out->list), 0 };
	unsigned k, n = 0;

	out->list[0] = '\0';
	topo_copy_str(out->name, sizeof(out->name), hb->name);
	for (k = 0; k < hb->nports; k++) {
		if (hb->ports[k].nfunctions)
			continue;
		if (n < 3)
			put(&t, "%s%s", n ? ", " : "", hb->ports[k].busid);
		n++;
	}
	out->n = n;
}

/* A finding about host bridge hb of node (-1: none known) and the drives
 * ab marks; NULL when out is full. */
static struct topo_finding *emit(struct topo_finding *out, unsigned max, unsigned *n,
				 enum topo_finding_kind kind, int node, const char *hb,
				 const struct topo_finding *ab)
{
	struct topo_finding *x;

	if (*n >= max)
		return NULL;
	x = &out[(*n)++];
	memset(x, 0, sizeof(*x));
	memcpy(x->about, ab->about, sizeof(ab->about));
	x->kind = kind;
	x->node = node;
	topo_copy_str(x->host_bridge, sizeof(x->host_bridge), hb);
	return x;
}

/* Drives under host bridges whose node is unknown: said once per bridge,
 * and nothing is advised on it. */
static void unknown(const struct topo *t, const struct topo_dev *const *devs,
		    unsigned ndevs, struct topo_finding *out, unsigned max, unsigned *n)
{
	struct topo_finding ab, *x;
	char names[TOPO_FINDING_LIST];
	unsigned i, nd;

	for (i = 0; i < t->nhbs; i++) {
		const struct topo_host_bridge *hb = &t->hbs[i];
		struct txt nt = { names, sizeof(names), 0 };

		memset(&ab, 0, sizeof(ab));
		names[0] = '\0';
		if (hb->node >= 0 || !(nd = drives_under(devs, ndevs, hb->name, &nt, &ab)))
			continue;
		if (!(x = emit(out, max, n, TOPO_FIND_UNKNOWN_LOCALITY, -1, hb->name, &ab)))
			continue;
		x->num[0] = nd;
		topo_copy_str(x->names, sizeof(x->names), names);
	}
}

/* One node's host bridges: the drives crowd one of them while another,
 * holding at least two drives fewer, has free root ports. */
static void crowded(const struct topo *t, unsigned os, const struct topo_dev *const *devs,
		    unsigned ndevs, bool amd, struct topo_finding *out, unsigned max,
		    unsigned *n)
{
	struct topo_finding ab, *x;
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
	/* about the drives of the crowded bridge: they are the ones to move */
	memset(&ab, 0, sizeof(ab));
	drives_under(devs, ndevs, t->hbs[busiest].name, NULL, &ab);
	if (!(x = emit(out, max, n, TOPO_FIND_ROOT_COMPLEX, (int)os, t->hbs[busiest].name, &ab)))
		return;
	x->num[0] = nb;
	x->num[1] = total;
	x->num[2] = amd;
	/* the bridges with drives, then those with free ports to move them to */
	for (i = 0; i < t->nhbs && x->nhbs < TOPO_FINDING_HBS; i++) {
		struct topo_finding_hb *h = &x->hbs[x->nhbs];
		struct txt nt = { h->list, sizeof(h->list), 0 };

		if (t->hbs[i].node != (int)os ||
		    !(h->n = drives_under(devs, ndevs, t->hbs[i].name, &nt, NULL)))
			continue;
		topo_copy_str(h->name, sizeof(h->name), t->hbs[i].name);
		x->nhbs++;
	}
	x->ncrowded = x->nhbs;
	for (i = 0; i < t->nhbs && x->nhbs < TOPO_FINDING_HBS; i++) {
		const struct topo_host_bridge *hb = &t->hbs[i];

		if (hb->node != (int)os || !hb->nfree ||
		    drives_under(devs, ndevs, hb->name, NULL, NULL) + 2 > most)
			continue;
		topo_free_ports(hb, &x->hbs[x->nhbs++]);
	}
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
