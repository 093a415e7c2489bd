/* What iostorm fill may write: a target opened for writing only once
 * nothing on it says it holds data (cli/fill/fill_target.c), and then
 * only once a sample of its range finds no data (cli/fill/fill_data.c). */
#ifndef CLI_FILL_TARGET_H
#define CLI_FILL_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

struct fill_target {
	const char *path;
	int fd;			/* O_RDWR | O_DIRECT (| O_EXCL on a device) */
	struct stat st;		/* valid once fill_target_stat has passed */
	bool stated;
	uint64_t size;		/* bytes */
	uint32_t lbs;		/* the logical block: writes are its multiples */
	unsigned sampled, held;	/* fill_data_check's blocks read, and of
				 * them those that hold data */
};

/* Stats t->path, refusing (one line, -EINVAL: exit 2) what is neither a
 * block device nor a file (a character device: use the block device);
 * -errno (exit 1) for a path that cannot be stat'ed. */
int fill_target_stat(struct fill_target *t);
/* Whether t (stated) is a target earlier in t[0..i) gives again, by
 * another name or the same: the same device number for a device, the
 * same inode for a file. Says so (one line) and returns -EINVAL; 0 none. */
int fill_target_twice(const struct fill_target *t, unsigned i);
/* Opens t (stated) for fill: O_RDWR | O_EXCL, refusing a device that is
 * mounted or held open exclusively; then probes that descriptor with
 * libblkid, refusing a partition table (a GPT found by its backup header
 * too), a file system, a RAID/LVM member or another signature it knows;
 * then turns on O_DIRECT for the writes. -EINVAL (exit 2) for a refusal,
 * said; -errno (exit 1) for a path that cannot be opened, probed or
 * sized. */
int fill_target_open(struct fill_target *t);
void fill_target_close(struct fill_target *t);

#endif
