/* Loading a topology (live or XML) and mapping block devices to their PCI
 * function, bridges, link and NUMA locality. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <hwloc.h>

#include "topo/topo.h"
#include "topo/topo_int.h"

/* ---- sysfs, always below t->sysfs ---- */

/* First line of <root>/<rel>, newline stripped. -ENOENT without sysfs. */
static int sys_read(const struct topo *t, char *buf, size_t len,
		    const char *fmt, ...)
{
	char rel[PATH_MAX], path[PATH_MAX];
	va_list ap;
	FILE *f;
	int n, ret = 0;

	if (!t->sysfs)
		return -ENOENT;
	va_start(ap, fmt);
	n = vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	n = snprintf(path, sizeof(path), "%s/%s", t->sysfs, rel);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = ferror(f) ? -EIO : -ENODATA;
	fclose(f);
	if (!ret) {
		buf[strcspn(buf, "\n")] = '\0';
		/* sysfs pads model strings with blanks */
		for (n = (int)strlen(buf); n > 0 && buf[n - 1] == ' '; n--)
			buf[n - 1] = '\0';
	}
	return ret;
}

/* realpath of <root>/<rel> into out (PATH_MAX). */
static int sys_realpath(const struct topo *t, char *out, const char *fmt, ...)
{
	char rel[PATH_MAX], path[PATH_MAX];
	va_list ap;
	int n;

	if (!t->sysfs)
		return -ENOENT;
	va_start(ap, fmt);
	n = vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	n = snprintf(path, sizeof(path), "%s/%s", t->sysfs, rel);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	if (!realpath(path, out))
		return -errno;
	return 0;
}

static bool path_exists(const char *dir, const char *leaf)
{
	char p[PATH_MAX];
	int n = snprintf(p, sizeof(p), "%s/%s", dir, leaf);

	return n > 0 && (size_t)n < sizeof(p) && access(p, F_OK) == 0;
}

/* "16.0 GT/s PCIe" -> 16.0; "Unknown" -> -1 */
static double parse_speed(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	return end == s || v <= 0 ? -1 : v;
}

static int parse_width(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return end == s || v <= 0 || v > 64 ? -1 : (int)v;
}

static void link_unknown(struct topo_link *l)
{
	l->gbps = -1;
	l->speed_gts = l->max_speed_gts = -1;
	l->width = l->max_width = -1;
}

static void sys_link(const struct topo *t, const char *busid, struct topo_link *l)
{
	char buf[64];

	if (!busid[0])
		return;
	if (!sys_read(t, buf, sizeof(buf), "bus/pci/devices/%s/current_link_speed", busid))
		l->speed_gts = parse_speed(buf);
	if (!sys_read(t, buf, sizeof(buf), "bus/pci/devices/%s/max_link_speed", busid))
		l->max_speed_gts = parse_speed(buf);
	if (!sys_read(t, buf, sizeof(buf), "bus/pci/devices/%s/current_link_width", busid))
		l->width = parse_width(buf);
	if (!sys_read(t, buf, sizeof(buf), "bus/pci/devices/%s/max_link_width", busid))
		l->max_width = parse_width(buf);
}

/* bounded copy; cutting a long model string is fine */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = src ? strnlen(src, len - 1) : 0;

	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ---- names ---- */

/* nvme0c1n2 (one path of native NVMe multipath) -> nvme0n2 (the head the
 * user opens); any other name is its own head. */
void topo_head_name(const char *name, char *out, size_t len)
{
	unsigned subsys, ctrl, ns;
	int end = 0;

	if (sscanf(name, "nvme%uc%un%u%n", &subsys, &ctrl, &ns, &end) == 3 &&
	    name[end] == '\0')
		snprintf(out, len, "nvme%un%u", subsys, ns);
	else
		copy_str(out, len, name);
}

static void busid_str(char *out, size_t len, const struct hwloc_pcidev_attr_s *p)
{
	snprintf(out, len, "%04x:%02x:%02x.%01x", p->domain, p->bus, p->dev, p->func);
}

/* ---- device facts ---- */

static int set_locality(struct topo *t, struct topo_dev *d, hwloc_obj_t io)
{
	hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(t->h, io);
	unsigned n = 0;
	int i;

	if (!anc)
		return 0;
	d->nodes = calloc((size_t)hwloc_bitmap_weight(anc->nodeset) + 1, sizeof(*d->nodes));
	if (!d->nodes)
		return -ENOMEM;
	hwloc_bitmap_foreach_begin(i, anc->nodeset)
		d->nodes[n++] = (unsigned)i;
	hwloc_bitmap_foreach_end();
	d->nnodes = n;
	if (hwloc_bitmap_list_asprintf(&d->cpus, anc->cpuset) < 0)
		return -ENOMEM;
	d->ncores = (unsigned)hwloc_get_nbobjs_inside_cpuset_by_type(t->h, anc->cpuset, HWLOC_OBJ_CORE);
	d->npus = (unsigned)hwloc_get_nbobjs_inside_cpuset_by_type(t->h, anc->cpuset, HWLOC_OBJ_PU);
	return 0;
}

static void set_pci_path(struct topo_dev *d, hwloc_obj_t pci)
{
	hwloc_obj_t b;

	d->has_pci = true;
	d->nvme = pci->attr->pcidev.class_id == 0x0108;
	busid_str(d->pci, sizeof(d->pci), &pci->attr->pcidev);
	if (pci->attr->pcidev.linkspeed > 0)
		d->link.gbps = pci->attr->pcidev.linkspeed;
	for (b = pci->parent; b && b->type == HWLOC_OBJ_BRIDGE; b = b->parent) {
		struct hwloc_bridge_attr_s *ba = &b->attr->bridge;

		if (ba->upstream_type == HWLOC_OBJ_BRIDGE_HOST) {
			snprintf(d->host_bridge, sizeof(d->host_bridge), "%04x:%02x",
				 ba->downstream.pci.domain, ba->downstream.pci.secondary_bus);
			break;
		}
		if (d->nchain < TOPO_MAX_CHAIN)
			busid_str(d->chain[d->nchain++], TOPO_BUSID_MAX, &ba->upstream.pci);
		if (!d->port[0]) {
			busid_str(d->port, sizeof(d->port), &ba->upstream.pci);
			if (ba->upstream.pci.linkspeed > 0)
				d->port_link.gbps = ba->upstream.pci.linkspeed;
		}
	}
	if (d->nchain)
		copy_str(d->upstream, sizeof(d->upstream), d->chain[d->nchain - 1]);
	else
		copy_str(d->upstream, sizeof(d->upstream), d->host_bridge);
}

static void set_sysfs_facts(struct topo *t, struct topo_dev *d, hwloc_obj_t osdev)
{
	char buf[PATH_MAX];
	const char *s;

	if (!sys_realpath(t, buf, "class/block/%s/device", d->path_name)) {
		const char *base = strrchr(buf, '/');

		base = base ? base + 1 : buf;
		if (!strncmp(base, "nvme", 4))
			copy_str(d->controller, sizeof(d->controller), base);
	}
	if (!sys_read(t, buf, sizeof(buf), "class/block/%s/device/model", d->path_name))
		copy_str(d->model, sizeof(d->model), buf);
	if (!sys_read(t, buf, sizeof(buf), "class/block/%s/device/serial", d->path_name))
		copy_str(d->serial, sizeof(d->serial), buf);
	else if (!sys_read(t, buf, sizeof(buf), "class/block/%s/serial", d->path_name))
		copy_str(d->serial, sizeof(d->serial), buf);	/* virtio-blk */
	if (!sys_read(t, buf, sizeof(buf), "class/block/%s/device/firmware_rev", d->path_name))
		copy_str(d->firmware, sizeof(d->firmware), buf);
	if (d->has_pci) {
		sys_link(t, d->pci, &d->link);
		sys_link(t, d->port, &d->port_link);
	}
	/* an XML export keeps what udev said when it was taken */
	if (osdev) {
		if (!d->model[0] && (s = hwloc_obj_get_info_by_name(osdev, "Model")))
			copy_str(d->model, sizeof(d->model), s);
		if (!d->serial[0] && (s = hwloc_obj_get_info_by_name(osdev, "SerialNumber")))
			copy_str(d->serial, sizeof(d->serial), s);
	}
	if (!d->controller[0] && d->nvme) {
		unsigned c;

		/* nvme<ctrl>n<ns>, or nvme<subsys>c<ctrl>n<ns> for a path */
		if (sscanf(d->path_name, "nvme%*uc%un", &c) == 1 ||
		    sscanf(d->path_name, "nvme%un", &c) == 1)
			snprintf(d->controller, sizeof(d->controller), "nvme%u", c);
	}
}

static struct topo_dev *dev_new(const char *name, const char *path_name)
{
	struct topo_dev *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	copy_str(d->name, sizeof(d->name), name);
	copy_str(d->path_name, sizeof(d->path_name), path_name);
	link_unknown(&d->link);
	link_unknown(&d->port_link);
	return d;
}

void topo_dev_free(struct topo_dev *d)
{
	if (!d)
		return;
	free(d->nodes);
	free(d->cpus);
	free(d);
}

static hwloc_obj_t pci_parent(hwloc_obj_t o)
{
	for (o = o->parent; o && hwloc_obj_type_is_io(o->type); o = o->parent)
		if (o->type == HWLOC_OBJ_PCI_DEVICE)
			return o;
	return NULL;
}

/* A device from hwloc's Block OS device (osdev) and/or a PCI function. */
static int dev_from_hwloc(struct topo *t, const char *name, hwloc_obj_t osdev,
			  hwloc_obj_t pci, struct topo_dev **out)
{
	struct topo_dev *d = dev_new(name, osdev ? osdev->name : name);
	int ret;

	if (!d)
		return -ENOMEM;
	if (osdev && !pci)
		pci = pci_parent(osdev);
	if (pci)
		set_pci_path(d, pci);
	else
		d->why_no_pci = "a device with no PCI function above it";
	ret = set_locality(t, d, osdev ? osdev : pci);
	if (ret) {
		topo_dev_free(d);
		return ret;
	}
	set_sysfs_facts(t, d, osdev);
	*out = d;
	return 0;
}

static int push_dev(struct topo_dev ***arr, unsigned *n, unsigned *cap,
		    struct topo_dev *d)
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

/* "nvme10n1" after "nvme9n1": digit runs compare as numbers. */
static int natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			unsigned long x = strtoul(a, (char **)&a, 10);
			unsigned long y = strtoul(b, (char **)&b, 10);

			if (x != y)
				return x < y ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static int dev_cmp(const void *pa, const void *pb)
{
	const struct topo_dev *a = *(const struct topo_dev *const *)pa;
	const struct topo_dev *b = *(const struct topo_dev *const *)pb;
	int c = strcmp(a->pci, b->pci);

	return c ? c : natcmp(a->name, b->name);
}

static struct topo_dev *find_dev(struct topo *t, const char *name)
{
	unsigned i;

	/* by the head's name or by the path hwloc shows */
	for (i = 0; i < t->ndevs; i++)
		if (!strcmp(t->devs[i]->name, name) || !strcmp(t->devs[i]->path_name, name))
			return t->devs[i];
	for (i = 0; i < t->nextra; i++)
		if (!strcmp(t->extra[i]->name, name) || !strcmp(t->extra[i]->path_name, name))
			return t->extra[i];
	return NULL;
}

static int discover_nvme(struct topo *t)
{
	hwloc_obj_t o = NULL;
	char head[TOPO_NAME_MAX];
	int ret;

	while ((o = hwloc_get_next_osdev(t->h, o))) {
		hwloc_obj_t pci;
		struct topo_dev *d;

		if (o->attr->osdev.type != HWLOC_OBJ_OSDEV_BLOCK || !o->name)
			continue;
		pci = pci_parent(o);
		if (!pci || pci->attr->pcidev.class_id != 0x0108)
			continue;
		topo_head_name(o->name, head, sizeof(head));
		/* a second path of the same multipath head: keep the first */
		if (find_dev(t, head))
			continue;
		ret = dev_from_hwloc(t, head, o, pci, &d);
		if (ret)
			return ret;
		ret = push_dev(&t->devs, &t->ndevs, &t->devcap, d);
		if (ret) {
			topo_dev_free(d);
			return ret;
		}
	}
	if (t->ndevs)
		qsort(t->devs, t->ndevs, sizeof(*t->devs), dev_cmp);
	return 0;
}

/* ---- nodes ---- */

static int append(char **s, const char *sep, const char *item)
{
	size_t a = strlen(*s), b = strlen(sep), c = strlen(item);
	char *n = realloc(*s, a + b + c + 1);

	if (!n)
		return -ENOMEM;
	memcpy(n + a, sep, b);
	memcpy(n + a + b, item, c + 1);
	*s = n;
	return 0;
}

static int node_host_bridges(struct topo *t, struct topo_node *nd)
{
	hwloc_obj_t b = NULL;

	nd->host_bridges = strdup("");
	if (!nd->host_bridges)
		return -ENOMEM;
	while ((b = hwloc_get_next_bridge(t->h, b))) {
		hwloc_obj_t anc;
		char id[TOPO_BUSID_MAX];

		if (b->attr->bridge.upstream_type != HWLOC_OBJ_BRIDGE_HOST)
			continue;
		anc = hwloc_get_non_io_ancestor_obj(t->h, b);
		if (!anc || !hwloc_bitmap_isset(anc->nodeset, nd->os_index))
			continue;
		snprintf(id, sizeof(id), "%04x:%02x",
			 b->attr->bridge.downstream.pci.domain,
			 b->attr->bridge.downstream.pci.secondary_bus);
		if (strstr(nd->host_bridges, id))
			continue;
		if (append(&nd->host_bridges, nd->host_bridges[0] ? ", " : "", id))
			return -ENOMEM;
	}
	return 0;
}

static int node_cmp(const void *a, const void *b)
{
	unsigned x = (*(const hwloc_obj_t *)a)->os_index;
	unsigned y = (*(const hwloc_obj_t *)b)->os_index;

	return (x > y) - (x < y);
}

/*
 * hwloc gives a NUMA node the cpuset of the object it hangs from, so an HBM,
 * MCDRAM or CXL node without CPUs of its own looks local to its neighbours'
 * cores. Linux says which nodes own CPUs; an XML export does not, so there a
 * node is CPU-less when another node's cpuset lies inside its own and is
 * smaller, or is the same and has a lower OS index (firmware numbers the
 * nodes with CPUs first).
 */
static bool node_cpuless(const struct topo *t, unsigned i)
{
	hwloc_obj_t o = t->node_obj[i];
	char buf[64];
	unsigned j;

	if (hwloc_bitmap_iszero(o->cpuset))
		return true;
	if (t->live && t->sysfs &&
	    !sys_read(t, buf, sizeof(buf), "devices/system/node/node%u/cpulist", o->os_index))
		return buf[0] == '\0';
	for (j = 0; j < t->nnodes; j++) {
		hwloc_obj_t m = t->node_obj[j];

		if (j == i || !hwloc_bitmap_isincluded(m->cpuset, o->cpuset) ||
		    hwloc_bitmap_iszero(m->cpuset))
			continue;
		if (!hwloc_bitmap_isequal(m->cpuset, o->cpuset) || m->os_index < o->os_index)
			return true;
	}
	return false;
}

static int load_nodes(struct topo *t)
{
	int n = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_NUMANODE);
	struct hwloc_distances_s *dist = NULL;
	unsigned nr = 1, i, j;
	int ret;

	if (n <= 0)
		return -EINVAL;
	t->nodes = calloc((size_t)n, sizeof(*t->nodes));
	t->node_obj = calloc((size_t)n, sizeof(*t->node_obj));
	if (!t->nodes || !t->node_obj)
		return -ENOMEM;
	t->nnodes = (unsigned)n;
	for (i = 0; i < t->nnodes; i++)
		t->node_obj[i] = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_NUMANODE, i);
	/* reports list nodes by OS index (DDR 0-7 before HBM 8-15) */
	qsort(t->node_obj, t->nnodes, sizeof(*t->node_obj), node_cmp);
	for (i = 0; i < t->nnodes; i++) {
		hwloc_obj_t o = t->node_obj[i];
		struct topo_node *nd = &t->nodes[i];

		nd->os_index = o->os_index;
		nd->cpuless = node_cpuless(t, i);
		if (!nd->cpuless) {
			nd->cores = (unsigned)hwloc_get_nbobjs_inside_cpuset_by_type(t->h, o->cpuset, HWLOC_OBJ_CORE);
			nd->pus = (unsigned)hwloc_get_nbobjs_inside_cpuset_by_type(t->h, o->cpuset, HWLOC_OBJ_PU);
		}
		nd->memory_bytes = o->attr->numanode.local_memory;
		if (hwloc_bitmap_list_asprintf(&nd->cpus, o->cpuset) < 0)
			return -ENOMEM;
		ret = node_host_bridges(t, nd);
		if (ret)
			return ret;
	}
	/* the first NUMA distance matrix hwloc has, latency preferred */
	if (hwloc_distances_get_by_type(t->h, HWLOC_OBJ_NUMANODE, &nr, &dist,
					HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) || !nr) {
		nr = 1;
		if (hwloc_distances_get_by_type(t->h, HWLOC_OBJ_NUMANODE, &nr, &dist, 0, 0) || !nr)
			return 0;
	}
	t->dist = calloc((size_t)t->nnodes * t->nnodes, sizeof(*t->dist));
	if (!t->dist) {
		hwloc_distances_release(t->h, dist);
		return -ENOMEM;
	}
	for (i = 0; i < t->nnodes; i++)
		for (j = 0; j < t->nnodes; j++) {
			hwloc_uint64_t a = 0, b = 0;

			if (!hwloc_distances_obj_pair_values(dist, t->node_obj[i], t->node_obj[j], &a, &b))
				t->dist[i * t->nnodes + j] = a;
		}
	hwloc_distances_release(t->h, dist);
	return 0;
}

/* ---- public ---- */

int topo_load(struct topo **out, const char *xml, const char *sysfs_root)
{
	struct topo *t = calloc(1, sizeof(*t));
	const char *env = getenv("IOSTORM_SYSFS_ROOT");
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
		sysfs_root = env && env[0] ? env : xml ? NULL : "/sys";
	if (sysfs_root && !(t->sysfs = strdup(sysfs_root))) {
		ret = -ENOMEM;
		goto fail;
	}
	t->live = !xml;
	if (hwloc_topology_init(&t->h)) {
		ret = -errno ? -errno : -ENOMEM;
		goto fail;
	}
	t->h_init = true;
	/* hwloc keeps no I/O objects unless asked; keep every bridge so that
	 * a node's empty root ports (slots to move drives to) are named */
	hwloc_topology_set_io_types_filter(t->h, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
	hwloc_topology_set_type_filter(t->h, HWLOC_OBJ_BRIDGE, HWLOC_TYPE_FILTER_KEEP_ALL);
	/* We need locality, not GPU or OpenCL details: skip plugins that wake
	 * GPU drivers. libpciaccess (the pci plugin) also leaks on every load;
	 * the Linux backend reads the same PCI facts from sysfs. */
	if (!xml) {
		hwloc_topology_set_components(t->h, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "pci");
		hwloc_topology_set_components(t->h, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "opencl");
		hwloc_topology_set_components(t->h, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "gl");
	}
	if (xml && hwloc_topology_set_xml(t->h, xml)) {
		ret = -EINVAL;
		goto fail;
	}
	if (hwloc_topology_load(t->h)) {
		ret = -EINVAL;
		goto fail;
	}
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
	ret = load_nodes(t);
	if (ret)
		goto fail;
	ret = discover_nvme(t);
	if (ret)
		goto fail;
	*out = t;
	return 0;
fail:
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
	for (i = 0; t->nodes && i < t->nnodes; i++) {
		free(t->nodes[i].cpus);
		free(t->nodes[i].host_bridges);
	}
	free(t->nodes);
	free(t->node_obj);
	free(t->dist);
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

unsigned topo_nnodes(const struct topo *t)
{
	return t->nnodes;
}

const struct topo_node *topo_node(const struct topo *t, unsigned i)
{
	return i < t->nnodes ? &t->nodes[i] : NULL;
}

int topo_node_index(const struct topo *t, unsigned os_index)
{
	unsigned i;

	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].os_index == os_index)
			return (int)i;
	return -ENOENT;
}

int topo_nearest_cpu_node(const struct topo *t, unsigned os_index)
{
	int from = topo_node_index(t, os_index), best = -1;
	uint64_t bestd = UINT64_MAX;
	unsigned j;

	if (from < 0)
		return from;
	if (t->nodes[from].pus)
		return (int)os_index;
	for (j = 0; j < t->nnodes; j++) {
		uint64_t d;

		if (!t->nodes[j].pus)
			continue;
		d = t->dist ? t->dist[(unsigned)from * t->nnodes + j] : 0;
		if (best < 0 || (t->dist && d && d < bestd)) {
			best = (int)j;
			bestd = d ? d : UINT64_MAX;
		}
	}
	return best < 0 ? -ENOENT : (int)t->nodes[best].os_index;
}

/* Block device name behind a live path: the disk of a partition, the disk
 * under a file's file system, following a single-slave dm/md stack. */
static int live_block_name(struct topo *t, const char *path, char *name, size_t len)
{
	char dir[PATH_MAX];
	struct stat st;
	dev_t devt;
	int depth, ret;

	if (stat(path, &st))
		return -errno;
	devt = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	ret = sys_realpath(t, dir, "dev/block/%u:%u", major(devt), minor(devt));
	if (ret)
		return ret == -ENOENT ? -ENODEV : ret;
	for (depth = 0; depth < 8; depth++) {
		char slaves[PATH_MAX], only[NAME_MAX + 1] = "";
		struct dirent *de;
		unsigned n = 0;
		DIR *dp;

		if (path_exists(dir, "partition"))
			*strrchr(dir, '/') = '\0';
		if (snprintf(slaves, sizeof(slaves), "%s/slaves", dir) >= (int)sizeof(slaves))
			break;
		dp = opendir(slaves);
		if (!dp)
			break;
		while ((de = readdir(dp)))
			if (de->d_name[0] != '.') {
				n++;
				copy_str(only, sizeof(only), de->d_name);
			}
		closedir(dp);
		if (n != 1)
			break;
		ret = sys_realpath(t, dir, "class/block/%s", only);
		if (ret)
			return ret;
	}
	copy_str(name, len, strrchr(dir, '/') + 1);
	return 0;
}

static hwloc_obj_t find_block_osdev(struct topo *t, const char *name)
{
	hwloc_obj_t o = NULL, head_match = NULL;
	char head[TOPO_NAME_MAX];

	while ((o = hwloc_get_next_osdev(t->h, o))) {
		if (o->attr->osdev.type != HWLOC_OBJ_OSDEV_BLOCK || !o->name)
			continue;
		if (!strcmp(o->name, name))
			return o;
		topo_head_name(o->name, head, sizeof(head));
		if (!head_match && !strcmp(head, name))
			head_match = o;
	}
	return head_match;
}

/* A live block device hwloc does not show: a virtual one, or one whose
 * sysfs path still names the PCI function above it. */
static int dev_from_sysfs(struct topo *t, const char *name, struct topo_dev **out)
{
	char dir[PATH_MAX], *p, *last = NULL;
	struct topo_dev *d;
	hwloc_obj_t pci = NULL;

	if (sys_realpath(t, dir, "class/block/%s", name) == 0) {
		if (strstr(dir, "/devices/virtual/")) {
			d = dev_new(name, name);
			if (!d)
				return -ENOMEM;
			d->why_no_pci = !strncmp(name, "loop", 4) ? "a loop device" :
				!strncmp(name, "zram", 4) || !strncmp(name, "ram", 3) ?
				"a RAM disk" : "a virtual block device";
			*out = d;
			return 0;
		}
		/* the last path component that looks like a PCI bus id */
		for (p = strtok(dir, "/"); p; p = strtok(NULL, "/")) {
			unsigned a, b, c, e;
			int end = 0;

			if (sscanf(p, "%x:%x:%x.%x%n", &a, &b, &c, &e, &end) == 4 && !p[end])
				last = p;
		}
		if (last)
			pci = hwloc_get_pcidev_by_busidstring(t->h, last);
	}
	if (pci)
		return dev_from_hwloc(t, name, NULL, pci, out);
	d = dev_new(name, name);
	if (!d)
		return -ENOMEM;
	d->why_no_pci = "a device with no PCI function above it";
	*out = d;
	return 0;
}

/* A file on tmpfs, overlayfs, btrfs subvolumes...: st_dev names no block
 * device; the file itself is the device, without PCI locality. */
static int lookup_nodev(struct topo *t, const char *path, const struct topo_dev **out)
{
	const char *base = strrchr(path, '/');
	struct topo_dev *d;
	int ret;

	base = base && base[1] ? base + 1 : path;
	d = find_dev(t, base);
	if (d && !d->has_pci && !strcmp(d->given, path)) {
		*out = d;
		return 0;
	}
	d = dev_new(base, base);
	if (!d)
		return -ENOMEM;
	d->why_no_pci = "a file on a file system without a block device (tmpfs, overlay)";
	copy_str(d->given, sizeof(d->given), path);
	ret = push_dev(&t->extra, &t->nextra, &t->extracap, d);
	if (ret) {
		topo_dev_free(d);
		return ret;
	}
	*out = d;
	return 0;
}

int topo_lookup(struct topo *t, const char *path, const struct topo_dev **out)
{
	char name[TOPO_NAME_MAX];
	struct topo_dev *d;
	hwloc_obj_t o;
	int ret;

	if (t->live) {
		ret = live_block_name(t, path, name, sizeof(name));
		if (ret == -ENODEV)
			return lookup_nodev(t, path, out);
		if (ret)
			return ret;
	} else {
		const char *base = strrchr(path, '/');

		copy_str(name, sizeof(name), base ? base + 1 : path);
	}
	d = find_dev(t, name);
	if (d) {
		*out = d;
		return 0;
	}
	o = find_block_osdev(t, name);
	if (o) {
		char head[TOPO_NAME_MAX];

		topo_head_name(o->name, head, sizeof(head));
		/* asked for a path by its own name: report the path */
		ret = dev_from_hwloc(t, strcmp(o->name, name) ? head : name, o, NULL, &d);
	} else if (t->live) {
		ret = dev_from_sysfs(t, name, &d);
	} else {
		return -ENOENT;
	}
	if (ret)
		return ret;
	copy_str(d->given, sizeof(d->given), path);
	ret = push_dev(&t->extra, &t->nextra, &t->extracap, d);
	if (ret) {
		topo_dev_free(d);
		return ret;
	}
	*out = d;
	return 0;
}

int topo_thread_cpu(pid_t tid, int *cpu)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	if (sched_getaffinity(tid, sizeof(set), &set))
		return -errno;
	if (CPU_COUNT(&set) != 1) {
		*cpu = -1;
		return 0;
	}
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set)) {
			*cpu = i;
			return 0;
		}
	return -EINVAL;
}
