/* Loading a topology (live or XML), the NVMe namespaces found in it (a
 * multipath namespace once, as its head), and the list of devices it
 * knows. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hwloc.h>

#include "topo/topo.h"
#include "topo/topo_int.h"

/* Appends d to a growing array; -ENOMEM leaves d to the caller. */
int topo_push_dev(struct topo_dev ***arr, unsigned *n, unsigned *cap, struct topo_dev *d)
{
	if (*n == *cap) {
		unsigned ncap = *cap ? *cap * 2 : 16;
		struct topo_dev **a = realloc(*arr, ncap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		*arr = a;
		*cap = ncap;
	}
	(*arr)[(*n)++] = d;
	return 0;
}

static int dev_cmp(const void *pa, const void *pb)
{
	const struct topo_dev *a = *(const struct topo_dev *const *)pa;
	const struct topo_dev *b = *(const struct topo_dev *const *)pb;
	int c = strcmp(a->pci, b->pci);

	return c ? c : topo_name_cmp(a->name, b->name);
}

static bool dev_has_name(const struct topo_dev *d, const char *name)
{
	unsigned k;

	if (!strcmp(d->name, name) || !strcmp(d->path_name, name))
		return true;
	for (k = 0; k < d->npaths; k++)
		if (!strcmp(d->paths[k].name, name))
			return true;
	return false;
}

struct topo_dev *topo_find_dev(struct topo *t, const char *name)
{
	unsigned i;

	/* by the head's name or by any of its paths */
	for (i = 0; i < t->ndevs; i++)
		if (dev_has_name(t->devs[i], name))
			return t->devs[i];
	for (i = 0; i < t->nextra; i++)
		if (dev_has_name(t->extra[i], name))
			return t->extra[i];
	return NULL;
}

static int discover_nvme(struct topo *t)
{
	hwloc_obj_t o = NULL;
	char head[TOPO_NAME_MAX];
	unsigned i;
	int ret;

	while ((o = hwloc_get_next_osdev(t->h, o))) {
		hwloc_obj_t pci;
		struct topo_dev *d;

		if (o->attr->osdev.type != HWLOC_OBJ_OSDEV_BLOCK || !o->name)
			continue;
		pci = topo_pci_parent(o);
		if (!pci || pci->attr->pcidev.class_id != 0x0108)
			continue;
		topo_head_name(o->name, head, sizeof(head));
		/* another path of a multipath head: topo_dev_find_paths */
		if (topo_find_dev(t, head))
			continue;
		ret = topo_dev_from_hwloc(t, head, o, pci, &d);
		if (ret)
			return ret;
		ret = topo_push_dev(&t->devs, &t->ndevs, &t->devcap, d);
		if (ret) {
			topo_dev_free(d);
			return ret;
		}
	}
	for (i = 0; i < t->ndevs; i++) {
		ret = topo_dev_find_paths(t, t->devs[i]);
		if (ret)
			return ret;
	}
	if (t->ndevs)
		qsort(t->devs, t->ndevs, sizeof(*t->devs), dev_cmp);
	return 0;
}

int topo_hwloc_setup(hwloc_topology_t h, const struct topo_xml *xml)
{
	/* hwloc keeps no I/O objects unless asked; keep every bridge so that
	 * a node's empty root ports (slots to move drives to) are named */
	hwloc_topology_set_io_types_filter(h, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
	hwloc_topology_set_type_filter(h, HWLOC_OBJ_BRIDGE, HWLOC_TYPE_FILTER_KEEP_ALL);
	/* We need locality, not GPU or OpenCL details: skip plugins that wake
	 * GPU drivers. libpciaccess (the pci plugin) also leaks on every load;
	 * the Linux backend reads the same PCI facts from sysfs. */
	if (!xml) {
		hwloc_topology_set_components(h, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "pci");
		hwloc_topology_set_components(h, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "opencl");
		hwloc_topology_set_components(h, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "gl");
	}
	return xml && hwloc_topology_set_xmlbuffer(h, xml->buf, xml->len) ? -EINVAL : 0;
}

int topo_load(struct topo **out, const char *xml, const char *sysfs_root)
{
	struct topo *t = calloc(1, sizeof(*t));
	struct topo_xml x = { NULL, 0 };
	int ret = -EINVAL;

	if (!t)
		return -ENOMEM;
	if (xml) {
		struct stat st;

		if (stat(xml, &st) || access(xml, R_OK)) {
			ret = -errno;
			goto fail;
		}
		if (S_ISDIR(st.st_mode)) {
			ret = -EISDIR;
			goto fail;
		}
	}
	if (!sysfs_root)
		sysfs_root = xml ? NULL : "/sys";
	if (sysfs_root && !(t->sysfs = strdup(sysfs_root))) {
		ret = -ENOMEM;
		goto fail;
	}
	t->live = !xml;
	/* an XML file: read once, loaded by hwloc in a child first (xml.c) */
	if (xml && ((ret = topo_xml_read(xml, &x)) || (ret = topo_xml_probe(&x))))
		goto fail;
	if (hwloc_topology_init(&t->h)) {
		ret = -errno ? -errno : -ENOMEM;
		goto fail;
	}
	t->h_init = true;
	if (topo_hwloc_setup(t->h, xml ? &x : NULL) || hwloc_topology_load(t->h)) {
		ret = -EINVAL;
		goto fail;
	}
	free(x.buf);
	x.buf = NULL;
	t->allowed = hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(t->h));
	if (!t->allowed) {
		ret = -ENOMEM;
		goto fail;
	}
	if (t->live) {
		/* taskset/cgroup limits: only CPUs the calling thread may use,
		 * which the workers it starts inherit. Not the whole process's
		 * union: a helper thread (a sanitizer's, a library's) may be
		 * allowed CPUs the caller is not. */
		hwloc_bitmap_t mine = hwloc_bitmap_alloc();

		if (mine && !hwloc_get_cpubind(t->h, mine, HWLOC_CPUBIND_THREAD))
			hwloc_bitmap_and(t->allowed, t->allowed, mine);
		hwloc_bitmap_free(mine);
	}
	ret = topo_load_nodes(t);
	if (ret)
		goto fail;
	ret = topo_load_bridges(t);
	if (ret)
		goto fail;
	ret = topo_load_kinds(t);
	if (ret)
		goto fail;
	ret = discover_nvme(t);
	if (ret)
		goto fail;
	*out = t;
	return 0;
fail:
	free(x.buf);
	topo_free(t);
	return ret;
}

void topo_free(struct topo *t)
{
	unsigned i;

	if (!t)
		return;
	for (i = 0; i < t->ndevs; i++)
		topo_dev_free(t->devs[i]);
	for (i = 0; i < t->nextra; i++)
		topo_dev_free(t->extra[i]);
	free(t->devs);
	free(t->extra);
	topo_free_kinds(t);
	topo_free_bridges(t);
	topo_free_nodes(t);
	hwloc_bitmap_free(t->allowed);
	if (t->h_init)
		hwloc_topology_destroy(t->h);
	free(t->sysfs);
	free(t);
}

bool topo_is_live(const struct topo *t)
{
	return t->live;
}

const char *topo_sysfs_root(const struct topo *t)
{
	return t->sysfs;
}

unsigned topo_ndevs(const struct topo *t)
{
	return t->ndevs;
}

const struct topo_dev *topo_dev(const struct topo *t, unsigned i)
{
	return i < t->ndevs ? t->devs[i] : NULL;
}

void topo_counts(const struct topo *t, unsigned *cores, unsigned *pus)
{
	*cores = (unsigned)hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_CORE);
	*pus = (unsigned)hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PU);
}

