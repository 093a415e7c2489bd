/* eng_zero_sample on O_DIRECT files under /var/tmp: a sparse file (never
 * written) reads 100% zeros, a written one 0%, one with every other block
 * written about half; the time budget stops it early; a range past the
 * file's end fails with -EIO, bad block sizes with -EINVAL. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/zeroes.h"
#include "tests/helpers.h"

#define BS 4096u
#define BLOCKS 256u

static char path[] = "/var/tmp/iostorm-zeroes.XXXXXX";

/* fill: 0 none written (sparse), 1 all, 2 every other block */
static int make(int fill)
{
	static unsigned char blk[BS];
	int fd = open(path, O_RDWR | O_TRUNC);

	if (fd < 0 || ftruncate(fd, (off_t)BS * BLOCKS))
		return -1;
	for (unsigned k = 0; fill && k < BLOCKS; k++) {
		if (fill == 2 && k % 2)
			continue;
		for (unsigned i = 0; i < BS; i++)
			blk[i] = (unsigned char)(k + i * 7 + 1);
		/* a written block may begin and end in zeros */
		memset(blk, 0, 512);
		blk[BS - 1] = 0;
		if (pwrite(fd, blk, BS, (off_t)k * BS) != BS)
			return -1;
	}
	fsync(fd);
	close(fd);
	return open(path, O_RDONLY | O_DIRECT);
}

int main(void)
{
	struct eng_zero_sample s;
	int fd = mkstemp(path);

	if (fd < 0)
		SKIP("skip: no /var/tmp to write");
	close(fd);

	fd = make(0);
	CHECK(fd >= 0);
	CHECK(eng_zero_sample(fd, 0, (uint64_t)BS * BLOCKS, BS, 300, 1, UINT64_MAX, &s) == 0);
	CHECK(s.sampled == 300 && s.zero == 300 && eng_zero_pct(&s) == 100);
	close(fd);

	fd = make(1);
	CHECK(eng_zero_sample(fd, 0, (uint64_t)BS * BLOCKS, BS, 300, 2, UINT64_MAX, &s) == 0);
	CHECK(s.sampled == 300 && s.zero == 0 && eng_zero_pct(&s) == 0);
	close(fd);

	/* every other block: a binomial share around 50 (sd 2.9 at 300) */
	fd = make(2);
	CHECK(eng_zero_sample(fd, 0, (uint64_t)BS * BLOCKS, BS, 300, 3, UINT64_MAX, &s) == 0);
	CHECKF(s.sampled == 300 && s.zero > 105 && s.zero < 195, "%u of %u", s.zero, s.sampled);
	/* only the written half of a range that starts on a written block
	 * and is one block long: 0 */
	CHECK(eng_zero_sample(fd, 0, BS, BS, 20, 4, UINT64_MAX, &s) == 0);
	CHECK(s.sampled == 20 && s.zero == 0);
	CHECK(eng_zero_sample(fd, BS, BS, BS, 20, 4, UINT64_MAX, &s) == 0);
	CHECK(s.sampled == 20 && s.zero == 20);

	/* a spent budget stops after the first block */
	CHECK(eng_zero_sample(fd, 0, (uint64_t)BS * BLOCKS, BS, 300, 5, 0, &s) == 0);
	CHECK(s.sampled == 1);

	/* past the end of the file: a short read */
	CHECK(eng_zero_sample(fd, (uint64_t)BS * BLOCKS, BS, BS, 5, 6, UINT64_MAX, &s) == -EIO);
	CHECK(s.sampled == 0 && eng_zero_pct(&s) == -1);
	CHECK(eng_zero_sample(fd, 0, BS, 3000, 5, 6, UINT64_MAX, &s) == -EINVAL);
	CHECK(eng_zero_sample(fd, 0, BS, 256, 5, 6, UINT64_MAX, &s) == -EINVAL);
	CHECK(eng_zero_sample(fd, 0, 100, BS, 5, 6, UINT64_MAX, &s) == -EINVAL);
	close(fd);
	unlink(path);
	return t_result();
}
