/* Native NVMe multipath: the paths of a namespace's head. hwloc shows each
 * path as a Block device under its controller's PCI function ("nvme0c1n1"
 * under nvme1's function) and leaves out the head, a virtual device. sysfs
 * lists the paths in the head's multipath/ directory, which also names a
 * path whose disk hwloc did not record. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "topo/topo_int.h"

struct cand {
	char name[TOPO_NAME_MAX];
	char pci[TOPO_BUSID_MAX];	/* "" unknown */
	char host_bridge[TOPO_BUSID_MAX];
	hwloc_obj_t io;			/* its OS device or PCI function; NULL: not in hwloc */
};

struct cands {
	struct cand *a;
	unsigned n, cap;
};

static struct cand *cand_find(const struct cands *c, const char *name)
{
	unsigned i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->a[i].name, name))
			return &c->a[i];
	return NULL;
}

static int cand_add(struct cands *c, const char *name, struct cand **out)
{
	if (c->n == c->cap) {
		unsigned ncap = c->cap ? c->cap * 2 : 4;
		struct cand *a = realloc(c->a, ncap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		c->a = a;
		c->cap = ncap;
	}
	*out = memset(&c->a[c->n++], 0, sizeof(**out));
	topo_copy_str((*out)->name, sizeof((*out)->name), name);
	return 0;
}

/* hwloc's Block devices named nvme<S>c<C>n<N> whose head is head. */
static int from_hwloc(struct topo *t, const char *head, struct cands *c)
{
	char h[TOPO_NAME_MAX];
	hwloc_obj_t o = NULL;

	while ((o = hwloc_get_next_osdev(t->h, o))) {
		struct cand *x;
		hwloc_obj_t pci;
		int ret;

		if (o->attr->osdev.type != HWLOC_OBJ_OSDEV_BLOCK || !o->name)
			continue;
		topo_head_name(o->name, h, sizeof(h));
		if (!strcmp(h, o->name) || strcmp(h, head) || cand_find(c, o->name))
			continue;
		ret = cand_add(c, o->name, &x);
		if (ret)
			return ret;
		x->io = o;
		pci = topo_pci_parent(o);
		if (pci) {
			topo_busid(pci, x->pci, sizeof(x->pci));
			topo_host_bridge(pci, x->host_bridge, sizeof(x->host_bridge));
		}
	}
	return 0;
}

/* <root>/class/block/<head>/multipath/: one link per path, to the path's
 * disk under its controller ("../../../../../pci0000:40/0000:40:00.0/
 * 0000:41:00.0/nvme/nvme1/nvme0c1n1"). Absent for a namespace that is not
 * a head, and without sysfs. */
static int from_sysfs(struct topo *t, const char *head, struct cands *c)
{
	char real[PATH_MAX];
	struct dirent *de;
	DIR *dp;
	int ret = 0;

	if (topo_sys_opendir(t->sysfs, &dp, "class/block/%s/multipath", head))
		return 0;
	while ((de = readdir(dp))) {
		struct cand *x;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= TOPO_NAME_MAX ||
		    cand_find(c, de->d_name))
			continue;
		ret = cand_add(c, de->d_name, &x);
		if (ret)
			break;
		if (topo_sys_realpath(t->sysfs, real, "class/block/%s/multipath/%s", head, de->d_name))
			continue;
		if (!topo_last_busid(real, x->pci, sizeof(x->pci))) {
			x->io = hwloc_get_pcidev_by_busidstring(t->h, x->pci);
			if (x->io)
				topo_host_bridge(x->io, x->host_bridge, sizeof(x->host_bridge));
		}
		if (!x->host_bridge[0])
			topo_root_bus(real, x->host_bridge, sizeof(x->host_bridge));
	}
	closedir(dp);
	return ret;
}

/* PCI order (stable across boots, unlike controller numbers); a path of
 * unknown function last. */
static int cand_cmp(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;
	int c;

	if (!a->pci[0] != !b->pci[0])
		return a->pci[0] ? -1 : 1;
	c = strcmp(a->pci, b->pci);
	return c ? c : topo_name_cmp(a->name, b->name);
}

/* The controller a path goes through: the kernel's "device" link of the
 * path's disk, else the C of nvme<S>c<C>n<N> (the controller's instance). */
static void path_controller(const struct topo *t, const char *name, char *out, size_t len)
{
	char real[PATH_MAX];
	unsigned s, c, n;

	if (!topo_sys_realpath(t->sysfs, real, "class/block/%s/device", name)) {
		const char *base = strrchr(real, '/');

		base = base ? base + 1 : real;
		if (!strncmp(base, "nvme", 4)) {
			topo_copy_str(out, len, base);
			return;
		}
	}
	if (sscanf(name, "nvme%uc%un%u", &s, &c, &n) == 3)
		snprintf(out, len, "nvme%u", c);
}

/* d's PCI facts become those of path x (hwloc knows its function), keeping
 * d's name and target: the head shows its first path in PCI order, whatever
 * order hwloc listed the paths in. */
static int rebase(struct topo *t, struct topo_dev *d, const struct cand *x)
{
	hwloc_obj_t osdev = x->io->type == HWLOC_OBJ_OS_DEVICE ? x->io : NULL;
	hwloc_obj_t pci = osdev ? topo_pci_parent(osdev) : x->io;
	struct topo_dev *n;
	int ret;

	ret = topo_dev_from_path(t, d->name, x->name, osdev, pci, &n);
	if (ret)
		return ret;
	topo_copy_str(n->given, sizeof(n->given), d->given);
	free(d->nodes);
	free(d->cpus);
	*d = *n;
	free(n);		/* its nodes and cpus are d's now */
	return 0;
}

static void fill_path(const struct topo *t, struct topo_path *p, const struct cand *x,
		      hwloc_obj_t anc)
{
	int i;

	topo_copy_str(p->name, sizeof(p->name), x->name);
	topo_copy_str(p->pci, sizeof(p->pci), x->pci);
	topo_copy_str(p->host_bridge, sizeof(p->host_bridge), x->host_bridge);
	path_controller(t, x->name, p->controller, sizeof(p->controller));
	if (!anc)
		return;
	hwloc_bitmap_foreach_begin(i, anc->nodeset)
		if (p->nnodes < TOPO_MAX_PATH_NODES)
			p->nodes[p->nnodes++] = (unsigned)i;
	hwloc_bitmap_foreach_end();
}

/* d's paths, when d is a multipath head: d->paths, d->iopolicy, d's PCI
 * facts those of its first path in PCI order, and d's locality widened to
 * every path's. A namespace that is no head keeps npaths 0 and its own
 * facts. */
int topo_dev_find_paths(struct topo *t, struct topo_dev *d)
{
	struct cands c = { 0 };
	hwloc_bitmap_t cpus = hwloc_bitmap_alloc(), nodes = hwloc_bitmap_alloc();
	bool located = false;
	char buf[64];
	unsigned i;
	int ret = -ENOMEM;

	if (!cpus || !nodes)
		goto out;
	ret = from_hwloc(t, d->name, &c);
	if (!ret)
		ret = from_sysfs(t, d->name, &c);
	if (ret || !c.n)
		goto out;
	qsort(c.a, c.n, sizeof(*c.a), cand_cmp);
	for (i = 0; i < c.n && !c.a[i].io; i++)
		;
	if (i < c.n && strcmp(c.a[i].name, d->path_name)) {
		ret = rebase(t, d, &c.a[i]);
		if (ret)
			goto out;
	}
	d->npaths = 0;
	for (i = 0; i < c.n; i++) {
		hwloc_obj_t anc = c.a[i].io ? hwloc_get_non_io_ancestor_obj(t->h, c.a[i].io) : NULL;

		/* every path counts for locality, even one past TOPO_MAX_PATHS */
		if (anc) {
			hwloc_bitmap_or(cpus, cpus, anc->cpuset);
			hwloc_bitmap_or(nodes, nodes, anc->nodeset);
			located = true;
		}
		if (d->npaths < TOPO_MAX_PATHS)
			fill_path(t, &d->paths[d->npaths++], &c.a[i], anc);
	}
	if (!topo_sys_read(t->sysfs, buf, sizeof(buf), "class/block/%s/device/iopolicy", d->name))
		topo_copy_str(d->iopolicy, sizeof(d->iopolicy), buf);
	ret = located ? topo_dev_set_locality(t, d, cpus, nodes) : 0;
out:
	free(c.a);
	hwloc_bitmap_free(cpus);
	hwloc_bitmap_free(nodes);
	return ret;
}

/* Whether d's paths go through controllers local to different nodes. */
bool topo_paths_span_nodes(const struct topo_dev *d)
{
	const struct topo_path *a = &d->paths[0];
	unsigned k;

	for (k = 1; k < d->npaths; k++) {
		const struct topo_path *b = &d->paths[k];

		if (a->nnodes && b->nnodes && (a->nnodes != b->nnodes ||
		    memcmp(a->nodes, b->nodes, a->nnodes * sizeof(a->nodes[0]))))
			return true;
	}
	return false;
}
