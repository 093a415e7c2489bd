/* A read target: a block device or a regular file, opened read-only. */
#ifndef ENG_TARGET_H
#define ENG_TARGET_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

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
};

/*
 * Opens path O_RDONLY (plus O_DIRECT unless buffered) and reads its size and
 * logical block size. Errors (nothing is left open):
 *   -ENOENT, -EACCES, -EPERM   from open/stat
 *   -EISDIR                     a directory
 *   -ENOTBLK                    neither a block device nor a regular file
 *   -EINVAL                     the file system refuses O_DIRECT
 *   -ENOSPC                     smaller than one logical block
 */
int eng_target_open(struct eng_target *t, const char *path, bool buffered);
void eng_target_close(struct eng_target *t);
/* Same underlying device or file (also through different paths). */
bool eng_target_same(const struct eng_target *a, const struct eng_target *b);

#endif
