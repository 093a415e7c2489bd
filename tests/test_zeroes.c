/* eng_zero_sample on O_DIRECT files under /var/tmp: a sparse file (never
 * written) reads 100% zeros, a written one 0%, one with every other block
 * written about half; the time budget stops it early; a range past the
 * file's end fails with -EIO, bad block sizes with -EINVAL. What fill asks
 * of it (eng_zero_held): a file of FFh bytes holds data unless the drive
 * reads deallocated blocks as FFh; what eng_fill wrote holds none, at any
 * sample size, but the same blocks moved elsewhere, or with the tag gone,
 * do; a written block 0 that begins with 8 zero bytes (its offset) is
 * data. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/fill.h"
#include "engine/zeroes.h"
#include "tests/helpers.h"

#define BS 4096u
#define BLOCKS 256u

static char path[] = "/var/tmp/iostorm-zeroes.XXXXXX";

/* fill: 0 none written (sparse), 1 all, 2 every other block, 3 all FFh */
static int make(int fill)
{
	static unsigned char blk[BS];
	int fd = open(path, O_RDWR | O_TRUNC);

	if (fd < 0 || ftruncate(fd, (off_t)BS * BLOCKS))
		return -1;
	for (unsigned k = 0; fill && k < BLOCKS; k++) {
		if (fill == 2 && k % 2)
			continue;
		if (fill == 3) {
			memset(blk, 0xff, BS);
			if (pwrite(fd, blk, BS, (off_t)k * BS) != BS)
				return -1;
			continue;
		}
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

/* The file written whole by eng_fill, opened O_DIRECT for reading */
static int make_filled(void)
{
	struct eng_fill_result r;
	int fd = open(path, O_RDWR | O_TRUNC), rc;

	if (fd < 0 || ftruncate(fd, (off_t)BS * BLOCKS))
		return -1;
	rc = eng_fill(fd, 0, (uint64_t)BS * BLOCKS, 64 * 1024, 4, 9, NULL, NULL, &r);
	close(fd);
	return rc ? -1 : open(path, O_RDONLY | O_DIRECT);
}

/* eng_fill_stamped on a buffer stamped by hand as eng_fill stamps it */
static void test_stamp(void)
{
	static unsigned char b[2 * BS];
	uint64_t at = 5 * BS, v;

	memset(b, 0x5a, sizeof(b));
	for (unsigned i = 0; i < 2; i++) {
		v = at + i * BS;
		memcpy(b + i * BS, &v, 8);
		memcpy(b + i * BS + 8, ENG_FILL_TAG, 8);
	}
	CHECK(eng_fill_stamped(b, sizeof(b), at));
	CHECK(!eng_fill_stamped(b, sizeof(b), at + BS));	/* read elsewhere */
	CHECK(eng_fill_stamped(b, 512, at));		/* a sample below 4K */
	CHECK(!eng_fill_stamped(b, 8, at));		/* too short for a stamp */
	b[2 * BS - BS + 9] ^= 1;			/* the second block's tag */
	CHECK(!eng_fill_stamped(b, sizeof(b), at));
	CHECK(eng_fill_stamped(b, BS, at));
	memset(b, 0, 16);				/* block 0: offset 0, no tag */
	CHECK(!eng_fill_stamped(b, BS, 0));
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
	CHECK(eng_zero_held(&s, false) == 0 && eng_zero_held(&s, true) == 0);
	close(fd);

	/* written: data, every block; block 0 begins with 8 zero bytes, which
	 * is its offset, and is data all the same */
	fd = make(1);
	CHECK(eng_zero_sample(fd, 0, (uint64_t)BS * BLOCKS, BS, 300, 2, UINT64_MAX, &s) == 0);
	CHECK(s.sampled == 300 && s.zero == 0 && eng_zero_pct(&s) == 0);
	CHECK(s.ones == 0 && s.stamped == 0 && eng_zero_held(&s, false) == 300);
	CHECK(eng_zero_sample(fd, 0, BS, BS, 20, 2, UINT64_MAX, &s) == 0);
	CHECK(s.sampled == 20 && eng_zero_held(&s, false) == 20);
	close(fd);

	/* FFh: data, unless that is what the drive reads from a deallocated block */
	fd = make(3);
	CHECK(fd >= 0);
	CHECK(eng_zero_sample(fd, 0, (uint64_t)BS * BLOCKS, BS, 300, 7, UINT64_MAX, &s) == 0);
	CHECK(s.sampled == 300 && s.zero == 0 && s.ones == 300 && s.stamped == 0);
	CHECK(eng_zero_held(&s, false) == 300 && eng_zero_held(&s, true) == 0);
	close(fd);

	/* eng_fill's data: none held, in 4K samples, 16K ones, 512-byte ones
	 * (the first of block 3, where its stamp is) */
	fd = make_filled();
	CHECK(fd >= 0);
	CHECK(eng_zero_sample(fd, 0, (uint64_t)BS * BLOCKS, BS, 300, 8, UINT64_MAX, &s) == 0);
	CHECK(s.sampled == 300 && s.stamped == 300 && eng_zero_held(&s, false) == 0);
	CHECK(eng_zero_sample(fd, 0, (uint64_t)BS * BLOCKS, 4 * BS, 100, 8, UINT64_MAX, &s) == 0);
	CHECK(s.sampled == 100 && s.stamped == 100);
	CHECK(eng_zero_sample(fd, 3 * BS, 512, 512, 10, 8, UINT64_MAX, &s) == 0);
	CHECK(s.sampled == 10 && s.stamped == 10);
	/* 512-byte samples that fall inside a 4K block carry no stamp */
	CHECK(eng_zero_sample(fd, 512, 512, 512, 10, 8, UINT64_MAX, &s) == 0);
	CHECK(s.sampled == 10 && s.stamped == 0 && eng_zero_held(&s, false) == 10);
	close(fd);
	test_stamp();

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
