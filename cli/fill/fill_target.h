/* What iostorm fill may write: a target opened for writing only once
 * nothing on it says it holds data (cli/fill/fill_target.c). */
#ifndef CLI_FILL_TARGET_H
#define CLI_FILL_TARGET_H

#include <stdint.h>

struct fill_target {
	const char *path;
	int fd;			/* O_WRONLY | O_DIRECT (| O_EXCL on a device) */
	uint64_t size;		/* bytes */
	uint32_t lbs;		/* the logical block: writes are its multiples */
};

/* Opens t->path for fill, refusing (one line each, -EINVAL: exit 2) a
 * character device, a device that holds a partition table, a file
 * system, a RAID/LVM or another signature libblkid knows, and a device
 * that is mounted or held open exclusively (O_EXCL); -errno (exit 1) for
 * a path that cannot be opened or sized. */
int fill_target_open(struct fill_target *t);
void fill_target_close(struct fill_target *t);

#endif
