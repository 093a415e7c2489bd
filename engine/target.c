/* Opening and sizing read targets. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/target.h"

static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* A device is named as the kernel names it (/dev/disk/by-id/nvme-X and
 * /dev/mapper/y become nvme0n1 and dm-0); a file by its basename. */
static void target_name(struct eng_target *t, const char *path)
{
	char *real = t->is_blk ? realpath(path, NULL) : NULL;
	const char *p = real ? real : path;
	const char *slash = strrchr(p, '/');

	copy_str(t->name, sizeof(t->name), slash && slash[1] ? slash + 1 : p);
	free(real);
}

/* The offset alignment O_DIRECT needs on this file: its file system says
 * (statx DIOALIGN, Linux 6.1+; 4096 on a 4K-sector disk), else the classic
 * 512. Buffered reads need none beyond that. */
static uint32_t target_file_align(const struct eng_target *t)
{
	struct statx stx;

	if (t->buffered || statx(t->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) ||
	    !(stx.stx_mask & STATX_DIOALIGN) || !stx.stx_dio_offset_align)
		return 512;
	return stx.stx_dio_offset_align;
}

static int target_size(struct eng_target *t, const struct stat *st)
{
	int lbs;

	if (!t->is_blk) {
		t->size = (uint64_t)st->st_size;
		t->lbs = target_file_align(t);
		return 0;
	}
	if (ioctl(t->fd, BLKGETSIZE64, &t->size) < 0)
		return -errno;
	if (ioctl(t->fd, BLKSSZGET, &lbs) < 0)
		return -errno;
	t->lbs = (uint32_t)lbs;
	return 0;
}

static int target_kind(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return -EISDIR;
	if (!S_ISBLK(st->st_mode) && !S_ISREG(st->st_mode))
		return -ENOTBLK;
	return 0;
}

/* O_NOATIME spares every read the atime check; only the owner or root may
 * ask for it, so fall back quietly. Random reads gain nothing from
 * readahead, and the kernel skips its bookkeeping when told so. */
static int target_open_fd(const char *path, bool buffered)
{
	int flags = O_RDONLY | O_CLOEXEC | (buffered ? 0 : O_DIRECT);
	int fd = open(path, flags | O_NOATIME);

	if (fd < 0 && errno == EPERM)
		fd = open(path, flags);
	if (fd < 0)
		return -errno;
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	return fd;
}

/*
 * A block device with less than one block: an NVMe namespace whose LBA
 * format carries metadata inline without PI is given capacity 0 by the
 * kernel, which cannot read it through the block layer (nvme-pci cannot
 * split the block layer's separate integrity buffer into each block:
 * drivers/nvme/host/core.c, nvme_configure_metadata and
 * nvme_init_integrity). Identify says so where the kernel lets this
 * process ask (t->lbaf); -EMEDIUMTYPE then, else -ENOSPC.
 */
static int target_no_capacity(struct eng_target *t)
{
	if (eng_nvme_lbaf_read(t->fd, &t->lbaf)) {
		memset(&t->lbaf, 0, sizeof(t->lbaf));
		return -ENOSPC;
	}
	return t->lbaf.ext && !t->lbaf.pi_type ? -EMEDIUMTYPE : -ENOSPC;
}

int eng_target_open(struct eng_target *t, const char *path, bool buffered)
{
	struct stat st;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (strlen(path) >= sizeof(t->path))
		return -ENAMETOOLONG;
	copy_str(t->path, sizeof(t->path), path);
	target_name(t, path);
	/* stat first: opening a FIFO or tty read-only could block or act */
	if (stat(path, &st) < 0)
		return -errno;
	ret = target_kind(&st);
	if (ret)
		return ret;
	t->is_blk = S_ISBLK(st.st_mode);
	target_name(t, path);
	t->buffered = buffered;
	t->dev = t->is_blk ? st.st_rdev : st.st_dev;
	t->ino = t->is_blk ? 0 : st.st_ino;
	ret = target_open_fd(path, buffered);
	if (ret < 0)
		return ret;
	t->fd = ret;
	ret = target_size(t, &st);
	if (!ret && t->size < t->lbs)
		ret = t->is_blk ? target_no_capacity(t) : -ENOSPC;
	if (ret)
		eng_target_close(t);
	return ret;
}

void eng_target_close(struct eng_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

bool eng_target_same(const struct eng_target *a, const struct eng_target *b)
{
	return a->is_blk == b->is_blk && a->dev == b->dev && a->ino == b->ino;
}
