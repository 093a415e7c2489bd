/* A fill target's checks, in the order that leaves no gap between them:
 * the device is opened O_EXCL first, which the kernel refuses with EBUSY
 * while it is mounted or claimed (block/bdev.c bd_may_claim: a file
 * system, md, dm, or a partition of it in use), and from then on nothing
 * else can claim it; libblkid then probes that same descriptor, so that a
 * signature written by someone else between a probe by path and the open
 * cannot be missed. The probe reads through the page cache with buffers of
 * its own, so O_DIRECT is turned on only after it (fcntl F_SETFL may
 * change O_DIRECT on Linux: fcntl(2)). */
#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/fill/fill_target.h"
#include "cli/report/out.h"

#define NO_DATA "fill writes only a device with no data on it (wipefs lists what is there)"

/* " at byte N" of the signature found, from KEY (PTMAGIC_OFFSET or
 * SBMAGIC_OFFSET); "" where libblkid does not say */
static const char *where(blkid_probe pr, const char *key, char *buf, size_t len)
{
	const char *v = NULL;

	buf[0] = '\0';
	if (!blkid_probe_lookup_value(pr, key, &v, NULL) && v)
		snprintf(buf, len, " at byte %s", v);
	return buf;
}

/* What safeprobe found, in one line: -EINVAL */
static int say_found(const struct fill_target *t, blkid_probe pr)
{
	const char *type = NULL, *usage = NULL;
	char at[48];

	if (!blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL)) {
		cli_say("%s holds a partition table (%s)%s: " NO_DATA, t->path, type,
			where(pr, "PTMAGIC_OFFSET", at, sizeof(at)));
		return -EINVAL;
	}
	blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
	blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
	cli_say("%s holds %s %s signature%s: " NO_DATA, t->path,
		usage && !strcmp(usage, "filesystem") ? "a file system's" :
		usage && !strcmp(usage, "raid") ? "a RAID or LVM member's" : "a",
		type ? type : "unknown", where(pr, "SBMAGIC_OFFSET", at, sizeof(at)));
	return -EINVAL;
}

/* Every signature libblkid knows, on t->fd, as wipefs looks for them:
 * superblocks, with a bad checksum too (BLKID_SUBLKS_BADCSUM), and
 * partition tables with BLKID_PARTS_FORCE_GPT. Without that flag a GPT is
 * looked for only behind a valid protective MBR, and with it the probe
 * goes on to the backup header in the last sector when the primary in
 * sector 1 is gone (libblkid/src/partitions/gpt.c: is_pmbr_valid returns
 * 1 at once under the flag; probe_gpt_pt then tries GPT_PRIMARY_LBA and,
 * failing it, lastlba). 0 nothing found; -EINVAL found (said); -errno. */
static int no_signature(const struct fill_target *t)
{
	blkid_probe pr = blkid_new_probe();
	int rc;

	if (!pr) {
		cli_say("out of memory");
		return -ENOMEM;
	}
	rc = blkid_probe_set_device(pr, t->fd, 0, 0);
	if (!rc) {
		blkid_probe_enable_superblocks(pr, 1);
		blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
							      BLKID_SUBLKS_MAGIC |
							      BLKID_SUBLKS_BADCSUM);
		blkid_probe_enable_partitions(pr, 1);
		blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT);
		rc = blkid_do_safeprobe(pr);
	}
	if (rc == 0) {
		rc = say_found(t, pr);
	} else if (rc == -2) {
		cli_say("%s holds several signatures: " NO_DATA, t->path);
		rc = -EINVAL;
	} else if (rc < 0) {
		cli_say("%s: libblkid could not probe it for data", t->path);
		rc = -EIO;
	} else {
		rc = 0;
	}
	blkid_free_probe(pr);
	return rc;
}

int fill_target_stat(struct fill_target *t)
{
	int rc;

	t->fd = -1;
	t->stated = false;
	if (stat(t->path, &t->st)) {
		rc = -errno;
		cli_say("%s: %s", t->path, strerror(errno));
		return rc;
	}
	if (S_ISCHR(t->st.st_mode)) {
		cli_say("%s is a character device: fill writes through the block device "
			"(/dev/nvmeXnY for /dev/ngXnY)", t->path);
		return -EINVAL;
	}
	if (!S_ISBLK(t->st.st_mode) && !S_ISREG(t->st.st_mode)) {
		cli_say("%s is neither a block device nor a file", t->path);
		return -EINVAL;
	}
	t->stated = true;
	return 0;
}

int fill_target_twice(const struct fill_target *t, unsigned i)
{
	const struct stat *a = &t[i].st, *b;
	unsigned k;

	for (k = 0; k < i; k++) {
		if (!t[k].stated)
			continue;
		b = &t[k].st;
		if ((a->st_mode & S_IFMT) != (b->st_mode & S_IFMT))
			continue;
		if (S_ISBLK(a->st_mode) ? a->st_rdev != b->st_rdev :
					  a->st_dev != b->st_dev || a->st_ino != b->st_ino)
			continue;
		if (!strcmp(t[i].path, t[k].path))
			cli_say("%s is given twice: fill writes each target once", t[i].path);
		else
			cli_say("%s and %s are the same %s, given twice: fill writes each target "
				"once", t[k].path, t[i].path,
				S_ISBLK(a->st_mode) ? "device" : "file");
		return -EINVAL;
	}
	return 0;
}

/* The size and logical block of t, opened */
static int size_of(struct fill_target *t)
{
	int lbs = 0;

	if (S_ISREG(t->st.st_mode)) {
		t->size = (uint64_t)t->st.st_size;
		t->lbs = 4096;
		return 0;
	}
	if (ioctl(t->fd, BLKGETSIZE64, &t->size) || ioctl(t->fd, BLKSSZGET, &lbs) || lbs <= 0) {
		int rc = errno ? -errno : -EIO;

		cli_say("%s: cannot read its size: %s", t->path, strerror(-rc));
		return rc;
	}
	t->lbs = (uint32_t)lbs;
	return 0;
}

int fill_target_open(struct fill_target *t)
{
	int rc, flags = O_RDWR | O_CLOEXEC;

	/* O_EXCL without O_CREAT means "claim it" on a block device only */
	if (S_ISBLK(t->st.st_mode))
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
	rc = size_of(t);
	if (!rc)
		rc = no_signature(t);
	if (!rc) {
		int fl = fcntl(t->fd, F_GETFL);

		if (fl < 0 || fcntl(t->fd, F_SETFL, fl | O_DIRECT)) {
			rc = -errno;
			cli_say("%s: cannot write it with O_DIRECT: %s", t->path, strerror(-rc));
		}
	}
	if (rc)
		fill_target_close(t);
	return rc;
}

void fill_target_close(struct fill_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
