/* A target path to its device: the block device under it (live), or its
 * basename among the recorded block devices (XML). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <hwloc.h>

#include "engine/target.h"
#include "topo/topo_int.h"

static bool path_exists(const char *dir, const char *leaf)
{
	char p[PATH_MAX];
	int n = snprintf(p, sizeof(p), "%s/%s", dir, leaf);

	return n > 0 && (size_t)n < sizeof(p) && access(p, F_OK) == 0;
}

/* Block device name behind a live path: the disk of a partition, the disk
 * under a file's file system, following a single-slave dm/md stack. */
/* An NVMe namespace's generic char device (/dev/ng0n1, what passthrough
 * reads) is its block device's namespace: nvme0n1. -ENODEV for any other
 * char device. */
static int live_nvme_generic(struct topo *t, const struct stat *st, char *name, size_t len)
{
	char dir[PATH_MAX], blk[TOPO_NAME_MAX];
	unsigned ctl, ns;
	const char *base;
	int ret;

	ret = topo_sys_realpath(t->sysfs, dir, "dev/char/%u:%u", major(st->st_rdev), minor(st->st_rdev));
	if (ret)
		return ret == -ENOENT ? -ENODEV : ret;
	base = strrchr(dir, '/') + 1;
	if (!eng_nvme_numbers(base, "ng", &ctl, &ns) ||
	    topo_sys_realpath(t->sysfs, dir, "class/nvme-generic/ng%un%u", ctl, ns))
		return -ENODEV;
	snprintf(blk, sizeof(blk), "nvme%un%u", ctl, ns);
	ret = topo_sys_realpath(t->sysfs, dir, "class/block/%s", blk);
	if (ret)
		return ret == -ENOENT ? -ENODEV : ret;
	topo_copy_str(name, len, blk);
	return 0;
}

static int live_block_name(struct topo *t, const char *path, char *name, size_t len)
{
	char dir[PATH_MAX];
	struct stat st;
	dev_t devt;
	int depth, ret;

	if (stat(path, &st))
		return -errno;
	if (S_ISCHR(st.st_mode))
		return live_nvme_generic(t, &st, name, len);
	devt = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	ret = topo_sys_realpath(t->sysfs, dir, "dev/block/%u:%u", major(devt), minor(devt));
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
				topo_copy_str(only, sizeof(only), de->d_name);
			}
		closedir(dp);
		if (n != 1)
			break;
		ret = topo_sys_realpath(t->sysfs, dir, "class/block/%s", only);
		if (ret)
			return ret;
	}
	topo_copy_str(name, len, strrchr(dir, '/') + 1);
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

/* A device without PCI locality; why says what it is instead. */
static int dev_without_pci(const char *name, enum topo_no_pci why, struct topo_dev **out)
{
	struct topo_dev *d = topo_dev_new(name, name);

	if (!d)
		return -ENOMEM;
	d->no_pci = why;
	*out = d;
	return 0;
}

/* Keeps d, found for path, among the devices looked up; frees it on error. */
static int keep_extra(struct topo *t, struct topo_dev *d, const char *path,
		      const struct topo_dev **out)
{
	int ret;

	topo_copy_str(d->given, sizeof(d->given), path);
	ret = topo_push_dev(&t->extra, &t->nextra, &t->extracap, d);
	if (ret) {
		topo_dev_free(d);
		return ret;
	}
	*out = d;
	return 0;
}

/* A live block device hwloc does not show: a virtual one, or one whose
 * sysfs path still names the PCI function above it. */
static int dev_from_sysfs(struct topo *t, const char *name, struct topo_dev **out)
{
	char dir[PATH_MAX], busid[TOPO_BUSID_MAX];
	hwloc_obj_t pci = NULL;

	if (topo_sys_realpath(t->sysfs, dir, "class/block/%s", name) == 0) {
		/* a multipath head hwloc has no PCIe path of: NVMe over fabrics */
		if (strstr(dir, "/devices/virtual/nvme-subsystem/"))
			return dev_without_pci(name, TOPO_NO_PCI_FABRICS, out);
		if (strstr(dir, "/devices/virtual/"))
			return dev_without_pci(name, !strncmp(name, "loop", 4) ? TOPO_NO_PCI_LOOP :
				!strncmp(name, "zram", 4) || !strncmp(name, "ram", 3) ?
				TOPO_NO_PCI_RAM : TOPO_NO_PCI_VIRTUAL, out);
		if (!topo_last_busid(dir, busid, sizeof(busid)))
			pci = hwloc_get_pcidev_by_busidstring(t->h, busid);
	}
	if (pci)
		return topo_dev_from_hwloc(t, name, NULL, pci, out);
	return dev_without_pci(name, TOPO_NO_PCI_NO_FUNCTION, out);
}

/* A file on tmpfs, overlayfs, btrfs subvolumes...: st_dev names no block
 * device; the file itself is the device, without PCI locality. */
static int lookup_nodev(struct topo *t, const char *path, const struct topo_dev **out)
{
	const char *base = strrchr(path, '/');
	struct topo_dev *d;
	int ret;

	base = base && base[1] ? base + 1 : path;
	d = topo_find_dev(t, base);
	if (d && !d->has_pci && !strcmp(d->given, path)) {
		*out = d;
		return 0;
	}
	ret = dev_without_pci(base, TOPO_NO_PCI_FILE, &d);
	return ret ? ret : keep_extra(t, d, path, out);
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

		topo_copy_str(name, sizeof(name), base ? base + 1 : path);
	}
	d = topo_find_dev(t, name);
	if (d) {
		*out = d;
		return 0;
	}
	o = find_block_osdev(t, name);
	if (o) {
		char head[TOPO_NAME_MAX];

		topo_head_name(o->name, head, sizeof(head));
		/* asked for a path by its own name: report the path */
		ret = topo_dev_from_hwloc(t, strcmp(o->name, name) ? head : name, o, NULL, &d);
		if (!ret) {
			ret = topo_dev_find_paths(t, d);
			if (ret)
				topo_dev_free(d);
		}
	} else if (t->live) {
		ret = dev_from_sysfs(t, name, &d);
	} else {
		return -ENOENT;
	}
	return ret ? ret : keep_extra(t, d, path, out);
}
