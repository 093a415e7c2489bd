/* A target's settings: which disk's queue applies to it, that queue's
 * settings, its NVMe controller and PCI function. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "engine/target.h"
#include "setup/setup_int.h"

/* The sysfs folders (relative to the root) of the looked-up device and of
 * the disk whose queue it uses. */
struct where {
	char dir[PATH_MAX];
	char ddir[PATH_MAX];
};

/* A partition has no queue of its own: its disk, one level up, has. */
static int from_dir(const struct setup_at *at, struct where *w, struct setup_dev *d)
{
	char part[16], *slash;

	topo_copy_str(d->name, sizeof(d->name), setup_base(w->dir));
	strcpy(w->ddir, w->dir);
	if (!topo_sys_read(at->sys, part, sizeof(part), "%s/partition", w->dir)) {
		slash = strrchr(w->ddir, '/');
		if (!slash)
			return -ENOENT;
		*slash = '\0';
	}
	topo_copy_str(d->disk, sizeof(d->disk), setup_base(w->ddir));
	return 0;
}

/* ngXnY, the generic char device of namespace nvmeXnY, -> nvmeXnY */
static void generic_to_block(char *name, size_t len)
{
	unsigned c, n;

	if (eng_nvme_numbers(name, "ng", &c, &n))
		snprintf(name, len, "nvme%un%u", c, n);
}

/* Below a recorded root, by name: class/block has partitions too. */
static int by_name(const struct setup_at *at, const char *path, struct where *w,
		   struct setup_dev *d)
{
	char name[SETUP_NAME_MAX];
	int ret;

	topo_copy_str(name, sizeof(name), setup_base(path));
	generic_to_block(name, sizeof(name));
	if (!name[0] || name[0] == '.')
		return -ENOENT;
	ret = topo_sys_relpath(at->sys, w->dir, "class/block/%s", name);
	if (ret == -ENOENT)
		ret = topo_sys_relpath(at->sys, w->dir, "block/%s", name);
	return ret ? ret : from_dir(at, w, d);
}

static int by_devnum(const struct setup_at *at, dev_t dev, struct where *w, struct setup_dev *d)
{
	int ret = topo_sys_relpath(at->sys, w->dir, "dev/block/%u:%u", major(dev), minor(dev));

	return ret ? ret : from_dir(at, w, d);
}

/* On the live machine, by stat: the path may be a link (/dev/disk/by-id/)
 * whose name sysfs does not know. A file's queue is its file system's
 * disk's; a file system without one (tmpfs, overlay) has none. */
static int by_stat(const struct setup_at *at, const char *path, struct where *w,
		   struct setup_dev *d)
{
	char name[PATH_MAX];
	struct stat st;
	int ret;

	if (stat(path, &st))
		return -errno;
	if (S_ISBLK(st.st_mode))
		return by_devnum(at, st.st_rdev, w, d);
	if (S_ISCHR(st.st_mode)) {
		if (topo_sys_relpath(at->sys, name, "dev/char/%u:%u", major(st.st_rdev),
				   minor(st.st_rdev)))
			topo_copy_str(name, sizeof(name), path);
		if (strncmp(setup_base(name), "ng", 2))
			return -ENOTBLK;
		return by_name(at, name, w, d);
	}
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	ret = by_devnum(at, st.st_dev, w, d);
	if (ret == -ENOENT) {
		topo_copy_str(d->name, sizeof(d->name), setup_base(path));
		d->disk[0] = '\0';
		return 1;
	}
	return ret;
}

/* "[mq-deadline] none" -> mq-deadline; a queue without elevators says "none" */
static void scheduler(const struct setup_at *at, const char *ddir, struct setup_dev *d)
{
	char buf[256], *open, *close;

	if (topo_sys_read(at->sys, buf, sizeof(buf), "%s/queue/scheduler", ddir))
		return;
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		topo_copy_str(d->scheduler, sizeof(d->scheduler), open + 1);
	} else if (!strchr(buf, ' ')) {
		topo_copy_str(d->scheduler, sizeof(d->scheduler), buf);
	}
}

/* An 0/1/2-style queue flag; what is not a small number stays -1. */
static void flag(const struct setup_at *at, const char *ddir, const char *file, int *out)
{
	int v;

	if (!topo_sys_read_int(at->sys, &v, "%s/queue/%s", ddir, file) && v >= 0)
		*out = v;
}

/* The queue's settings are the disk's (ddir); the size is the looked-up
 * device's own, a partition's when it is one. */
static void queue(const struct setup_at *at, const struct where *w, struct setup_dev *d)
{
	const char *ddir = w->ddir;
	int64_t v;

	if (!topo_sys_read_i64(at->sys, &v, "%s/size", w->dir) && v >= 0 && v <= INT64_MAX / 512)
		d->capacity_bytes = v * 512;	/* sysfs counts 512-byte sectors */
	flag(at, ddir, "logical_block_size", &d->logical_block_size);
	if (d->logical_block_size == 0)
		d->logical_block_size = -1;
	scheduler(at, ddir, d);
	flag(at, ddir, "iostats", &d->iostats);
	flag(at, ddir, "iostats_passthrough", &d->iostats_passthrough);
	flag(at, ddir, "rq_affinity", &d->rq_affinity);
	flag(at, ddir, "read_ahead_kb", &d->read_ahead_kb);
	flag(at, ddir, "nomerges", &d->nomerges);
	flag(at, ddir, "io_poll", &d->io_poll);
	flag(at, ddir, "rotational", &d->rotational);
	/* 0 is wbt switched off, a fact; a queue without wbt has no file */
	if (!topo_sys_read_i64(at->sys, &v, "%s/queue/wbt_lat_usec", ddir) && v >= 0)
		d->wbt_lat_usec = v;
	if (!topo_sys_read_i64(at->sys, &v, "%s/queue/nr_requests", ddir) && v > 0)
		d->nr_requests = v;
}

/* The controller of a namespace: its device link ("nvme0"), or for a
 * multipath head (whose device is the subsystem) its first path's. */
static void controller(const struct setup_at *at, const char *ddir, struct setup_dev *d)
{
	char (*paths)[SETUP_NAME_MAX] = NULL, real[PATH_MAX];
	unsigned s, c, n;
	int end = 0, np;

	/* a namespace, or a multipath head's hidden path nvmeXcYnZ */
	if ((sscanf(d->disk, "nvme%un%u%n", &s, &n, &end) != 2 || d->disk[end]) &&
	    (end = 0, sscanf(d->disk, "nvme%uc%un%u%n", &s, &c, &n, &end) != 3 || d->disk[end]))
		return;
	if (!topo_sys_relpath(at->sys, real, "%s/device", ddir) &&
	    sscanf(setup_base(real), "nvme%u%n", &c, &end) == 1 && !setup_base(real)[end]) {
		topo_copy_str(d->controller, sizeof(d->controller), setup_base(real));
		return;
	}
	np = setup_paths_list(at, ddir, d->disk, &paths);
	if (np > 0 && sscanf(paths[0], "nvme%uc%un%u", &s, &c, &n) == 3)
		snprintf(d->controller, sizeof(d->controller), "nvme%u", c);
	free(paths);
}

/* "0000:01:00.0" */
static int is_bdf(const char *s)
{
	unsigned dom, bus, dev, fn;
	int end = 0;

	return strlen(s) == 12 &&
	       sscanf(s, "%4x:%2x:%2x.%1x%n", &dom, &bus, &dev, &fn, &end) == 4 && !s[end];
}

/* The last PCI function on the sysfs path of dir, the one that carries
 * it, into pci; the one right above it (its port: a root port or a
 * switch's downstream port, topo_dev's port) into port, "" when the
 * function sits right under its host bridge. */
static void pci_of(const char *dir, char *pci, char *port, size_t len)
{
	char copy[PATH_MAX], *tok, *save = NULL;

	topo_copy_str(copy, sizeof(copy), dir);
	for (tok = strtok_r(copy, "/", &save); tok; tok = strtok_r(NULL, "/", &save))
		if (is_bdf(tok)) {
			topo_copy_str(port, len, pci);
			topo_copy_str(pci, len, tok);
		}
}

/* The function's link and its port's maximum, by topo's reader: the same
 * read the topology's degraded-link finding judges. */
static void link_of(const struct setup_at *at, const char *port, struct setup_dev *d)
{
	struct topo_link l = { -1, -1, -1, -1, -1 }, p = l;

	topo_sys_link(at->sys, d->pci, &l);
	d->link_gts = l.speed_gts;
	d->link_max_gts = l.max_speed_gts;
	d->link_width = l.width;
	d->link_max_width = l.max_width;
	topo_sys_link(at->sys, port, &p);
	d->port_max_gts = p.max_speed_gts;
	d->port_max_width = p.max_width;
}

/* pm_qos_latency_tolerance_us: a number, or "any" or "auto", which nvme
 * both reads as no limit (nvme_set_latency_tolerance: U64_MAX). The
 * kernel shows the file only for a controller with APST
 * (nvme_init_identify: dev_pm_qos_expose_latency_tolerance when
 * apst_enabled), so its absence on a controller that is there is a fact. */
static void apst(const struct setup_at *at, struct setup_dev *d)
{
	char buf[32], real[PATH_MAX];
	int64_t v;
	int ret;

	ret = topo_sys_read(at->sys, buf, sizeof(buf), "class/nvme/%s/power/pm_qos_latency_tolerance_us",
			 d->controller);
	if (ret == -ENOENT) {
		if (!topo_sys_relpath(at->sys, real, "class/nvme/%s/power", d->controller))
			d->apst_supported = 0;
		return;
	}
	if (ret)
		return;
	d->apst_supported = 1;
	if (!strcmp(buf, "any") || !strcmp(buf, "auto"))
		d->apst_latency_us = INT64_MAX;
	else if (!topo_parse_i64(buf, &v) && v >= 0)
		d->apst_latency_us = v;
}

static void hardware(const struct setup_at *at, const char *ddir, struct setup_dev *d)
{
	char real[PATH_MAX], port[sizeof(d->pci)] = "";

	controller(at, ddir, d);
	d->nvme = d->controller[0] != '\0';
	if (d->nvme) {
		setup_nvme_lbaf(at, ddir, d);
		if (!topo_sys_relpath(at->sys, real, "class/nvme/%s", d->controller))
			pci_of(real, d->pci, port, sizeof(d->pci));
		topo_sys_node(at->sys, &d->numa_node, "class/nvme/%s", d->controller);
		apst(at, d);
		setup_nvme_power(at, d);
		setup_nvme_dlfeat(at, d);
	} else {
		pci_of(ddir, d->pci, port, sizeof(d->pci));
	}
	/* never device/serial: it identifies the drive */
	topo_sys_read(at->sys, d->model, sizeof(d->model), "%s/device/model", ddir);
	if (topo_sys_read(at->sys, d->firmware, sizeof(d->firmware), "%s/device/firmware_rev", ddir))
		topo_sys_read(at->sys, d->firmware, sizeof(d->firmware), "%s/device/rev", ddir);
	if (!d->pci[0])
		return;
	if (d->numa_node < 0)
		topo_sys_node(at->sys, &d->numa_node, "bus/pci/devices/%s", d->pci);
	topo_sys_read(at->sys, d->iommu_type, sizeof(d->iommu_type),
		   "bus/pci/devices/%s/iommu_group/type", d->pci);
	link_of(at, port, d);
}

static void unknown(struct setup_dev *d)
{
	memset(d, 0, sizeof(*d));
	d->capacity_bytes = -1;
	d->logical_block_size = -1;
	d->iostats = d->nomerges = d->io_poll = d->rotational = -1;
	d->iostats_passthrough = d->rq_affinity = d->read_ahead_kb = -1;
	d->wbt_lat_usec = d->nr_requests = -1;
	d->numa_node = -1;
	d->link_gts = d->link_max_gts = -1;
	d->link_width = d->link_max_width = -1;
	d->port_max_gts = -1;
	d->port_max_width = -1;
	d->apst_latency_us = -1;
	d->apst_supported = -1;
	d->power_state = d->apst_enabled = d->dealloc_read = -1;
	d->lbaf_index = d->lbaf_data_bytes = d->lbaf_ms = d->lbaf_ext = d->lbaf_pi_type = -1;
	d->l1_aspm = d->l0s_aspm = -1;
	d->cg_riops = d->cg_rbps = d->cg_latency_us = -1;
	d->cg_iocost = -1;
}

int setup_dev_read_at(const struct setup_at *at, const char *path, struct setup_dev *out)
{
	struct setup_dev d;
	struct where *w;
	int ret;

	w = malloc(sizeof(*w));
	if (!w)
		return -ENOMEM;
	unknown(&d);
	ret = at->live_sys ? by_stat(at, path, w, &d) : by_name(at, path, w, &d);
	if (ret == 0) {
		queue(at, w, &d);
		hardware(at, w->ddir, &d);
		setup_dev_extra(at, w->ddir, &d);
		ret = setup_hwq_read(at, w->ddir, d.controller, &d);
		if (!ret)
			ret = setup_paths_read(at, w->ddir, &d);
	} else if (ret > 0) {
		ret = 0;	/* a file with no disk below it: nothing more to read */
	}
	free(w);
	if (ret) {
		setup_dev_free(&d);
		return ret;
	}
	*out = d;
	return 0;
}

int setup_dev_read(const struct setup_roots *r, const char *path, struct setup_dev *out)
{
	struct setup_at at;
	int ret;

	if (!path || !out)
		return -EINVAL;
	ret = setup_at_init(&at, r);
	return ret ? ret : setup_dev_read_at(&at, path, out);
}

void setup_dev_free(struct setup_dev *d)
{
	unsigned p;

	if (!d)
		return;
	for (p = 0; p < d->npaths; p++)
		setup_dev_free(&d->paths[p]);
	free(d->paths);
	d->paths = NULL;
	d->npaths = 0;
	free(d->hwq);
	d->hwq = NULL;
	d->nhwq = d->nirq_queues = 0;
}

int setup_nvme_list(const struct setup_roots *r, char (**out)[SETUP_NAME_MAX])
{
	char (*names)[SETUP_NAME_MAX] = NULL;
	struct setup_at at;
	unsigned c, ns;
	int n, i, k = 0, end;

	if (!out)
		return -EINVAL;
	n = setup_at_init(&at, r);
	if (n)
		return n;
	n = topo_sys_list(at.sys, &names, "block");
	if (n < 0)
		return n;
	/* nvmeXcYnZ, a multipath head's hidden path, does not match */
	for (i = 0; i < n; i++) {
		end = 0;
		if (sscanf(names[i], "nvme%un%u%n", &c, &ns, &end) == 2 && !names[i][end])
			memmove(names[k++], names[i], SETUP_NAME_MAX);
	}
	if (!k) {
		free(names);
		names = NULL;
	}
	*out = names;
	return k;
}
