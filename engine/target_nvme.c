/* Opening an NVMe namespace for passthrough: from the block device's or
 * the char device's name to the other, then the char device itself. */
#include <errno.h>
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine/nvme_cmd.h"
#include "engine/target.h"
#include "topo/sysfs.h"

#define NVME_ADMIN_IDENTIFY 0x06
#define NVME_ID_CNS_NS 0x00

bool eng_nvme_numbers(const char *name, const char *prefix, unsigned *ctl, unsigned *ns)
{
	int end = 0;

	if (strncmp(name, prefix, strlen(prefix)))
		return false;
	name += strlen(prefix);
	return sscanf(name, "%un%u%n", ctl, ns, &end) == 2 && !name[end];
}

/* One unsigned number from block/NAME/ATTR below root: 0 or -errno,
 * -ENODEV where sysfs has no such file or no such number. */
static int sysfs_u64(const char *root, const char *name, const char *attr, uint64_t *v)
{
	int64_t n;
	int ret = topo_sys_read_i64(root, &n, "block/%s/%s", name, attr);

	if (ret == -ENOENT || ret == -EINVAL || ret == -ENODATA || (!ret && n < 0))
		return -ENODEV;
	if (!ret)
		*v = (uint64_t)n;
	return ret;
}

static int sysfs_dev(const char *root, const char *name, dev_t *dev)
{
	char buf[32];
	unsigned maj, min;
	int end = 0, ret = topo_sys_read(root, buf, sizeof(buf), "block/%s/dev", name);

	if (ret == -ENOENT || ret == -ENODATA)
		return -ENODEV;
	if (ret)
		return ret;
	if (sscanf(buf, "%u:%u%n", &maj, &min, &end) != 2 || buf[end])
		return -ENODEV;
	*dev = makedev(maj, min);
	return 0;
}

/* The block device's name and the char device's path, from either. */
static int nvme_names(struct eng_target *t, const char *path, const struct stat *st)
{
	char *real = realpath(path, NULL);
	const char *base;
	unsigned ctl, ns;
	int ret = -ENODEV;

	if (!real)
		return -errno;
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	if (S_ISBLK(st->st_mode) && eng_nvme_numbers(base, "nvme", &ctl, &ns))
		ret = 0;
	else if (S_ISCHR(st->st_mode) && eng_nvme_numbers(base, "ng", &ctl, &ns))
		ret = 0;
	free(real);
	if (ret)
		return ret;
	snprintf(t->name, sizeof(t->name), "nvme%un%u", ctl, ns);
	snprintf(t->chr, sizeof(t->chr), "/dev/ng%un%u", ctl, ns);
	return 0;
}

int eng_nvme_lbaf_read(int fd, struct eng_nvme_lbaf *f)
{
	uint8_t *id = calloc(1, ENG_NVME_ID_NS_BYTES);
	struct nvme_admin_cmd c;
	int nsid, ret;

	if (!id)
		return -ENOMEM;
	nsid = ioctl(fd, NVME_IOCTL_ID);
	ret = nsid > 0 ? 0 : nsid < 0 ? -errno : -ENOTTY;
	memset(&c, 0, sizeof(c));
	c.opcode = NVME_ADMIN_IDENTIFY;
	c.nsid = (uint32_t)nsid;
	c.cdw10 = NVME_ID_CNS_NS;
	c.addr = (uint64_t)(uintptr_t)id;
	c.data_len = ENG_NVME_ID_NS_BYTES;
	c.timeout_ms = 2000;
	if (!ret && (ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c)) != 0)
		ret = ret < 0 ? -errno : -EPROTO;	/* > 0: the drive's error status */
	if (!ret)
		ret = eng_nvme_lbaf_decode(id, f);
	free(id);
	return ret;
}

static int nvme_describe(struct eng_target *t, const char *root)
{
	uint64_t sectors, lbs, kb;
	int ret = sysfs_dev(root, t->name, &t->dev);

	if (!ret)
		ret = sysfs_u64(root, t->name, "size", &sectors);
	if (!ret)
		ret = sysfs_u64(root, t->name, "queue/logical_block_size", &lbs);
	if (ret)
		return ret;
	if (lbs < 512 || lbs > 65536 || (lbs & (lbs - 1)))
		return -ENODEV;
	t->size = sectors * 512;	/* sysfs counts 512-byte sectors */
	t->lbs = (uint32_t)lbs;
	t->lba_shift = (uint32_t)__builtin_ctz(t->lbs);
	/* passthrough is never split: a command past this fails each time */
	if (!sysfs_u64(root, t->name, "queue/max_hw_sectors_kb", &kb) && kb && kb <= UINT32_MAX / 1024)
		t->max_io = (uint32_t)(kb * 1024);
	return t->size < t->lbs ? -ENOSPC : 0;
}

/*
 * The namespace's LBA format, by Identify through the char device (an
 * admin command: CAP_SYS_ADMIN before Linux 6.2, as passthrough reads
 * themselves then are; since, Identify is allowed to whoever may open
 * the device, drivers/nvme/host/ioctl.c, nvme_cmd_allowed). With
 * metadata inline and no PI the kernel gives the block device no capacity
 * (drivers/nvme/host/core.c, nvme_init_integrity refuses the format and
 * nvme_update_ns_info_block sets capacity 0), but the namespace has its
 * NSZE blocks all the same. described: nvme_describe's 0 or -ENOSPC.
 * Returns 0 or -errno; the format unknown (Identify refused) is no error
 * where sysfs gave a size.
 */
static int nvme_format(struct eng_target *t, int described)
{
	int ret = eng_nvme_lbaf_read(t->fd, &t->lbaf);

	if (ret)
		memset(&t->lbaf, 0, sizeof(t->lbaf));
	if (!described)
		return 0;
	if (ret || !t->lbaf.ms || t->lbaf.data_bytes != t->lbs || !t->lbaf.blocks ||
	    t->lbaf.blocks > UINT64_MAX >> t->lba_shift)
		return -ENOSPC;
	t->size = t->lbaf.blocks << t->lba_shift;
	return 0;
}

int eng_target_open_nvme(struct eng_target *t, const char *path, const char *sysfs_root)
{
	struct stat st;
	int ret, nsid;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (strlen(path) >= sizeof(t->path))
		return -ENAMETOOLONG;
	memcpy(t->path, path, strlen(path) + 1);
	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	ret = nvme_names(t, path, &st);
	if (!ret)
		ret = nvme_describe(t, sysfs_root ? sysfs_root : "/sys");
	/* no capacity: the LBA format may say why, and give the size */
	if (ret && ret != -ENOSPC)
		return ret;
	t->is_blk = true;
	t->passthru = true;
	t->fd = open(t->chr, O_RDONLY | O_CLOEXEC);
	if (t->fd < 0)
		return -errno;
	nsid = ioctl(t->fd, NVME_IOCTL_ID);
	if (nsid <= 0) {
		ret = nsid < 0 ? -errno : -ENOTTY;
		eng_target_close(t);
		return ret == -EINVAL ? -ENOTTY : ret;
	}
	t->nsid = (uint32_t)nsid;
	ret = nvme_format(t, ret);
	if (ret)
		eng_target_close(t);
	return ret;
}
