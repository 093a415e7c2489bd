/* Facts of a block device: its request queue (found by device number), a
 * loop device's backing file. */
#include <errno.h>
#include <string.h>
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
