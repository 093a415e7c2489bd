/* A read target: a block device or a regular file, opened read-only. */
#ifndef ENG_TARGET_H
#define ENG_TARGET_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * An NVMe namespace's LBA format, as Identify Namespace gives it (NVMe
 * Base/NVM Command Set: FLBAS, DPS, LBAF[n]; eng_nvme_lbaf_decode). A
 * namespace formatted with metadata (ms > 0) moves ms bytes with each
 * block: inline after its data (extended LBA, FLBAS bit 4), or through a
 * separate buffer the command's metadata pointer (MPTR) names. Its
 * protection information (PI, pi_type 1-3) is an 8-byte tuple (16-bit
 * guard) inside that metadata.
 */
struct eng_nvme_lbaf {
	bool known;		/* false: not asked (not passthrough) or no answer */
	uint8_t index;		/* the format in use (FLBAS bits 3:0, 6:5) */
	uint8_t pi_type;	/* DPS bits 2:0: 0 none, 1, 2, 3 */
	bool ext;		/* metadata inline, after each block's data */
	bool pi_first;		/* DPS bit 3: PI in the first 8 metadata bytes */
	uint16_t ms;		/* metadata bytes per block */
	uint16_t pi_bytes;	/* PI tuple bytes: 8 with PI, else 0 */
	uint32_t data_bytes;	/* 2^LBADS */
	uint64_t blocks;	/* NSZE */
};

struct eng_target {
	char path[PATH_MAX];	/* as given */
	char name[64];		/* short name: "nvme0n1", "loop3", file basename */
	int fd;
	bool is_blk;
	bool buffered;		/* opened without O_DIRECT */
	uint64_t size;		/* bytes */
	uint32_t lbs;		/* logical block size (512 for files) */
	dev_t dev;		/* identity: st_rdev for devices, st_dev for files */
	ino_t ino;		/* 0 for devices */
	/* NVMe passthrough (eng_target_open_nvme): fd is the namespace's
	 * generic char device, the rest describes its block device */
	bool passthru;
	uint32_t nsid;		/* namespace ID, from the char device */
	uint32_t lba_shift;	/* log2(lbs) */
	uint32_t max_io;	/* bytes one command may carry (the queue's
				 * max_hw_sectors_kb); 0: not known */
	char chr[64];		/* "/dev/ng0n1"; set before it is opened */
	/* its LBA format (Identify Namespace through the char device); a
	 * block device's only where the kernel gave it no capacity */
	struct eng_nvme_lbaf lbaf;
	/* passthrough reads with PRACT set (the caller's --pi-act): the
	 * controller checks the PI and strips it (engine/nvme_cmd.h) */
	bool pi_act;
};

/*
 * Opens path O_RDONLY (plus O_DIRECT unless buffered) and reads its size and
 * logical block size. Errors (nothing is left open):
 *   -ENOENT, -EACCES, -EPERM   from open/stat
 *   -EISDIR                     a directory
 *   -ENOTBLK                    neither a block device nor a regular file
 *   -EINVAL                     the file system refuses O_DIRECT
 *   -ENOSPC                     smaller than one logical block
 *   -EMEDIUMTYPE                an NVMe namespace whose LBA format the
 *                               block layer cannot read (metadata inline,
 *                               no PI: the kernel gives it capacity 0);
 *                               t->lbaf says which, where Identify answered
 */
int eng_target_open(struct eng_target *t, const char *path, bool buffered);
/*
 * An NVMe namespace for passthrough: path is its generic char device
 * /dev/ngXnY, or its block device /dev/nvmeXnY (a multipath head too, or
 * any link to either), which maps to the char device of the same numbers.
 * The target is named after the block device and carries its identity,
 * size and logical block size (sysfs), so topology and settings see the
 * drive; fd is the char device, and nsid its namespace (NVME_IOCTL_ID).
 * Those facts are read below sysfs_root (NULL: the live /sys), the
 * caller's root, through topo/sysfs.h, the one sysfs reader; its LBA
 * format (t->lbaf) by Identify Namespace through the char device. A
 * namespace the block layer gave no capacity (extended LBA without PI)
 * takes its size from Identify's NSZE.
 * Errors (nothing is left open):
 *   -ENOENT, -EACCES, -EPERM   from stat/open of path or of t->chr (the
 *                               char device: missing before Linux 5.13,
 *                               root-only by default)
 *   -EISDIR                     a directory
 *   -ENODEV                     not an NVMe namespace (no nvmeXnY/ngXnY)
 *   -ENOTTY                     the char device is no NVMe namespace
 *   -ENOSPC                     smaller than one logical block
 */
int eng_target_open_nvme(struct eng_target *t, const char *path, const char *sysfs_root);

/* A namespace's name, prefix "nvme" (block device nvme3n1) or "ng" (its
 * generic char device ng3n1), nothing after: true and its controller (or
 * subsystem) and namespace numbers; *ctl and *ns may be written even when
 * false. */
bool eng_nvme_numbers(const char *name, const char *prefix, unsigned *ctl, unsigned *ns);

/* The LBA format of the namespace behind fd (its block or char device),
 * by NVME_IOCTL_ID and admin Identify Namespace: 0, -errno of either
 * (-EACCES: an admin command needs CAP_SYS_ADMIN before Linux 6.2), or
 * -EPROTO for an answer that is no LBA format. */
int eng_nvme_lbaf_read(int fd, struct eng_nvme_lbaf *f);

void eng_target_close(struct eng_target *t);
/* Same underlying device or file (also through different paths). */
bool eng_target_same(const struct eng_target *a, const struct eng_target *b);

#endif
