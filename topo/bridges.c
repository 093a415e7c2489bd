/* Host bridges (root complexes), the root ports below each one, free or
 * holding devices, and each device's bridges up to its root port with
 * their links: the facts the ceiling model's tree is made of. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "topo/topo_int.h"

static void link_unknown(struct topo_link *l)
{
	l->gbps = -1;
	l->speed_gts = l->max_speed_gts = -1;
	l->width = l->max_width = -1;
}

static void bridge_busid(hwloc_obj_t b, char *out, size_t len)
{
	const struct hwloc_pcidev_attr_s *p = &b->attr->bridge.upstream.pci;

	snprintf(out, len, "%04x:%02x:%02x.%01x", p->domain, p->bus, p->dev, p->func);
}

/* A PCI bridge's link: hwloc's linkspeed, then what sysfs says. */
static void bridge_link(const struct topo *t, hwloc_obj_t b, const char *busid,
			struct topo_link *l)
{
	link_unknown(l);
	if (b->attr->bridge.upstream.pci.linkspeed > 0)
		l->gbps = b->attr->bridge.upstream.pci.linkspeed;
	topo_sys_link(t->sysfs, busid, l);
}

int topo_io_node(const struct topo *t, hwloc_obj_t io)
{
	hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(t->h, io);
	int i, node = -1, with = 0;

	if (!anc || hwloc_bitmap_iszero(anc->nodeset))
		return -1;
	if (hwloc_bitmap_weight(anc->nodeset) == 1)
		return hwloc_bitmap_first(anc->nodeset);
	/* DDR and HBM (or MCDRAM) under one group: the node with CPUs */
	hwloc_bitmap_foreach_begin(i, anc->nodeset) {
		int k = topo_node_index(t, (unsigned)i);

		if (k >= 0 && t->nodes[k].pus) {
			node = i;
			with++;
		}
	}
	hwloc_bitmap_foreach_end();
	return with == 1 ? node : -1;
}

static int append(char **s, const char *item)
{
	size_t a = strlen(*s), c = strlen(item);
	char *n = realloc(*s, a + c + 3);

	if (!n)
		return -ENOMEM;
	if (a) {
		memcpy(n + a, ", ", 2);
		a += 2;
	}
	memcpy(n + a, item, c + 1);
	*s = n;
	return 0;
}

/* The PCI functions anywhere below o, into p->below. */
static int functions_below(hwloc_obj_t o, struct topo_port *p)
{
	char id[TOPO_BUSID_MAX];
	hwloc_obj_t c;
	int ret;

	for (c = o->io_first_child; c; c = c->next_sibling) {
		if (c->type == HWLOC_OBJ_PCI_DEVICE) {
			topo_busid(c, id, sizeof(id));
			ret = append(&p->below, id);
			if (ret)
				return ret;
			p->nfunctions++;
		}
		ret = functions_below(c, p);
		if (ret)
			return ret;
	}
	return 0;
}

static int add_port(struct topo *t, struct topo_host_bridge *hb, hwloc_obj_t b)
{
	struct topo_port *p, *a = realloc(hb->ports, (hb->nports + 1) * sizeof(*a));

	if (!a)
		return -ENOMEM;
	hb->ports = a;
	p = memset(&a[hb->nports++], 0, sizeof(*p));
	bridge_busid(b, p->busid, sizeof(p->busid));
	bridge_link(t, b, p->busid, &p->link);
	p->below = strdup("");
	if (!p->below)
		return -ENOMEM;
	if (functions_below(b, p))
		return -ENOMEM;
	hb->nfree += !p->nfunctions;
	return 0;
}

static int port_cmp(const void *a, const void *b)
{
	return strcmp(((const struct topo_port *)a)->busid, ((const struct topo_port *)b)->busid);
}

static int hb_cmp(const void *a, const void *b)
{
	return strcmp(((const struct topo_host_bridge *)a)->name,
		      ((const struct topo_host_bridge *)b)->name);
}

static int add_host_bridge(struct topo *t, hwloc_obj_t b)
{
	struct topo_host_bridge *hb, *a = realloc(t->hbs, (t->nhbs + 1) * sizeof(*a));
	hwloc_obj_t c;
	int ret;

	if (!a)
		return -ENOMEM;
	t->hbs = a;
	hb = memset(&a[t->nhbs++], 0, sizeof(*hb));
	snprintf(hb->name, sizeof(hb->name), "%04x:%02x", b->attr->bridge.downstream.pci.domain,
		 b->attr->bridge.downstream.pci.secondary_bus);
	hb->node = topo_io_node(t, b);
	for (c = b->io_first_child; c; c = c->next_sibling) {
		if (c->type == HWLOC_OBJ_BRIDGE) {
			ret = add_port(t, hb, c);
			if (ret)
				return ret;
		} else if (c->type == HWLOC_OBJ_PCI_DEVICE) {
			hb->nfunctions++;
		}
	}
	if (hb->nports)
		qsort(hb->ports, hb->nports, sizeof(*hb->ports), port_cmp);
	return 0;
}

int topo_load_bridges(struct topo *t)
{
	hwloc_obj_t b = NULL;
	int ret;

	while ((b = hwloc_get_next_bridge(t->h, b))) {
		if (b->attr->bridge.upstream_type != HWLOC_OBJ_BRIDGE_HOST)
			continue;
		ret = add_host_bridge(t, b);
		if (ret)
			return ret;
	}
	if (t->nhbs)
		qsort(t->hbs, t->nhbs, sizeof(*t->hbs), hb_cmp);
	return 0;
}

/* What topo_load_bridges allocated, also after it failed half way. */
void topo_free_bridges(struct topo *t)
{
	unsigned i, k;

	for (i = 0; i < t->nhbs; i++) {
		for (k = 0; k < t->hbs[i].nports; k++)
			free(t->hbs[i].ports[k].below);
		free(t->hbs[i].ports);
	}
	free(t->hbs);
	t->hbs = NULL;
	t->nhbs = 0;
}

unsigned topo_host_bridges(const struct topo *t, const struct topo_host_bridge **out)
{
	*out = t->hbs;
	return t->nhbs;
}

const struct topo_host_bridge *topo_host_bridge_find(const struct topo *t, const char *name)
{
	unsigned i;

	for (i = 0; i < t->nhbs; i++)
		if (!strcmp(t->hbs[i].name, name))
			return &t->hbs[i];
	return NULL;
}

static hwloc_obj_t bridge_by_busid(struct topo *t, const char *busid)
{
	hwloc_obj_t b = NULL;
	char id[TOPO_BUSID_MAX];

	while ((b = hwloc_get_next_bridge(t->h, b))) {
		if (b->attr->bridge.upstream_type != HWLOC_OBJ_BRIDGE_PCI)
			continue;
		bridge_busid(b, id, sizeof(id));
		if (!strcmp(id, busid))
			return b;
	}
	return NULL;
}

int topo_dev_hops(struct topo *t, const struct topo_dev *d, struct topo_hop *hops,
		  unsigned max)
{
	unsigned k, n;

	if (!d->has_pci)
		return 0;
	n = d->nchain < max ? d->nchain : max;
	for (k = 0; k < n; k++) {
		struct topo_hop *h = &hops[k];
		hwloc_obj_t b = bridge_by_busid(t, d->chain[k]);

		topo_copy_str(h->busid, sizeof(h->busid), d->chain[k]);
		if (b)
			bridge_link(t, b, h->busid, &h->link);
		else
			link_unknown(&h->link);
		/* the root port is d->chain[nchain - 1]; the bridge below it is
		 * a switch's upstream port, the one below that a downstream
		 * port, and so on */
		h->switch_up = (d->nchain - 1 - k) % 2 == 1;
	}
	return (int)n;
}

bool topo_cpu_amd(const struct topo *t)
{
	hwloc_obj_t p = NULL;
	char line[256];
	bool amd = false;
	FILE *f;

	while ((p = hwloc_get_next_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, p))) {
		const char *v = hwloc_obj_get_info_by_name(p, "CPUVendor");

		if (v)
			return !strcmp(v, "AuthenticAMD");
	}
	if (!t->live)
		return false;
	f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "vendor_id", 9)) {
			amd = strstr(line, "AuthenticAMD") != NULL;
			break;
		}
	fclose(f);
	return amd;
}
