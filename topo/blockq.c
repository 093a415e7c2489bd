/* Facts of a block device: its request queue (found by device number), a
 * loop device's backing file and the disk under it. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "topo/sysfs.h"
#include "topo/topo.h"

/* queue/io_poll of dev/block/MAJ:MIN[/..]: 1, 0 or -errno. */
static int read_io_poll(const char *root, dev_t dev, const char *up)
{
	char buf[16];
	int ret;

	ret = topo_sys_read(root, buf, sizeof(buf), "dev/block/%u:%u%s/queue/io_poll",
			    major(dev), minor(dev), up);
	if (ret)
		return ret;
	if (!strcmp(buf, "0") || !strcmp(buf, "1"))
		return buf[0] == '1';
	return -EINVAL;
}

/* By device number, not name: the path a user gives may be a symlink
 * (/dev/disk/by-id/...) whose name sysfs does not know. A partition has no
 * queue of its own: its disk's, one level up, is the one that polls. */
int topo_io_poll(const char *sysfs_root, dev_t dev)
{
	const char *root = sysfs_root ? sysfs_root : "/sys";
	int ret;

	ret = read_io_poll(root, dev, "");
	if (ret == -ENOENT)
		ret = read_io_poll(root, dev, "/..");
	return ret;
}

int topo_loop_attached(const char *sysfs_root, const char *name)
{
	char buf[8];
	int ret;

	/* loop/ exists only while a backing file is attached: what it says
	 * (a path, cut to fit buf) does not matter */
	ret = topo_sys_read(sysfs_root ? sysfs_root : "/sys", buf, sizeof(buf), "block/%s/loop/backing_file", name);
	if (ret == -ENOENT)
		return 0;
	return ret == 0 || ret == -ENODATA ? 1 : ret;
}

/* A partition's folder sits inside its disk's (dev/block/MAJ:MIN links
 * to .../sda/sda1): the disk is one level up. */
int topo_disk_of(dev_t dev, char *out, size_t len)
{
	char path[PATH_MAX], part[16], *slash;

	if (!major(dev) ||
	    topo_sys_realpath("/sys", path, "dev/block/%u:%u", major(dev), minor(dev))) {
		if ((size_t)snprintf(out, len, "dev %u:%u", major(dev), minor(dev)) >= len)
			return -ENAMETOOLONG;
		return 0;
	}
	if (topo_sys_read("/sys", part, sizeof(part), "dev/block/%u:%u/partition", major(dev),
			  minor(dev)) == 0 && (slash = strrchr(path, '/')))
		*slash = '\0';
	slash = strrchr(path, '/');
	if (!slash || (size_t)snprintf(out, len, "%s", slash + 1) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* The file's own folder is stat'ed, not the file: a run's own loop
 * devices (cli/runner/demo.c) sit on files already unlinked, which sysfs
 * names with " (deleted)" after them, and a file lives on its folder's
 * file system. */
int topo_loop_backing(const char *sysfs_root, const char *name, dev_t *fs)
{
	char file[PATH_MAX], *slash;
	struct stat st;
	int ret;

	ret = topo_sys_read(sysfs_root ? sysfs_root : "/sys", file, sizeof(file),
			    "block/%s/loop/backing_file", name);
	if (ret)
		return ret;
	slash = strrchr(file, '/');
	if (!slash || file[0] != '/')
		return -EINVAL;
	slash[slash == file] = '\0';
	if (stat(file, &st))
		return -errno;
	*fs = st.st_dev;
	return 0;
}
