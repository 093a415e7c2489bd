/* A fill target's checks: libblkid looks for signatures (as wipefs does,
 * util-linux's blkid_do_safeprobe: superblocks and partition tables), and
 * a block device is opened O_EXCL, which the kernel refuses with EBUSY
 * while it is mounted or claimed (bdev_open: a file system, md, dm). */
#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/fill/fill_target.h"
#include "cli/out/out.h"

/* 0: nothing found; -EINVAL: a signature (said); -errno: no probe */
static int no_signature(const char *path)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *type = NULL, *usage = NULL;
	int rc;

	if (!pr) {
		cli_say("%s: libblkid cannot read it to look for data: %s", path,
			strerror(errno ? errno : EIO));
		return errno ? -errno : -EIO;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0 && !blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL)) {
		cli_say("%s holds a partition table (%s): fill writes only a device with no data on it "
			"(wipefs lists what is there)", path, type);
		rc = -EINVAL;
	} else if (rc == 0) {
		blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
		blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		cli_say("%s holds %s %s signature: fill writes only a device with no data on it "
			"(wipefs lists what is there)", path,
			usage && !strcmp(usage, "filesystem") ? "a file system's" :
			usage && !strcmp(usage, "raid") ? "a RAID or LVM member's" : "a",
			type ? type : "unknown");
		rc = -EINVAL;
	} else if (rc == -2) {
		cli_say("%s holds several signatures: fill writes only a device with no data on it "
			"(wipefs lists what is there)", path);
		rc = -EINVAL;
	} else if (rc < 0) {
		cli_say("%s: libblkid could not probe it for data", path);
		rc = -EIO;
	} else {
		rc = 0;
	}
	blkid_free_probe(pr);
	return rc;
}

int fill_target_open(struct fill_target *t)
{
	struct stat st;
	int rc, lbs = 0, flags = O_WRONLY | O_DIRECT | O_CLOEXEC;

	t->fd = -1;
	if (stat(t->path, &st)) {
		rc = -errno;
		cli_say("%s: %s", t->path, strerror(errno));
		return rc;
	}
	if (S_ISCHR(st.st_mode)) {
		cli_say("%s is a character device: fill writes through the block device "
			"(/dev/nvmeXnY for /dev/ngXnY)", t->path);
		return -EINVAL;
	}
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
		cli_say("%s is neither a block device nor a file", t->path);
		return -EINVAL;
	}
	rc = no_signature(t->path);
	if (rc)
		return rc;
	if (S_ISBLK(st.st_mode))
		flags |= O_EXCL;
	t->fd = open(t->path, flags);
	if (t->fd < 0) {
		rc = -errno;
		if (rc == -EBUSY) {
			cli_say("%s is mounted or in use (its exclusive open was refused): fill writes "
				"only a device nothing holds", t->path);
			return -EINVAL;
		}
		cli_say("%s: cannot open it to write: %s", t->path, strerror(-rc));
		return rc;
	}
	if (S_ISREG(st.st_mode)) {
		t->size = (uint64_t)st.st_size;
		t->lbs = 4096;
		return 0;
	}
	if (ioctl(t->fd, BLKGETSIZE64, &t->size) || ioctl(t->fd, BLKSSZGET, &lbs) || lbs <= 0) {
		rc = -errno;
		cli_say("%s: cannot read its size: %s", t->path, strerror(errno));
		fill_target_close(t);
		return rc ? rc : -EIO;
	}
	t->lbs = (uint32_t)lbs;
	return 0;
}

void fill_target_close(struct fill_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
