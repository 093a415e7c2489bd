/* Never-written blocks, found before a run: a drive answers a read of a
 * deallocated block from its mapping table, without reading flash, so a
 * range that was never written (or was trimmed) can read faster than
 * written data. eng_zero_sample reads a few hundred blocks of the run's
 * range, spread at random, and counts those that are all zeros. It runs
 * before the first measured IO, never in the loop. */
#ifndef ENG_ZEROES_H
#define ENG_ZEROES_H

#include <stdint.h>

struct eng_zero_sample {
	unsigned sampled;	/* blocks read */
	unsigned zero;		/* of them, all zeros */
	uint64_t elapsed_ns;	/* the sampling's own time */
};

/* Reads up to n blocks of bs bytes (a power of two, a multiple of 512)
 * at random bs-aligned offsets of [off, off + len) through fd (opened
 * O_DIRECT or not), seeded by seed; stops early once budget_ns has
 * passed, with the blocks read so far. 0, or -errno of the first failed
 * read (-EIO a short one), or -EINVAL; -ENOMEM. */
int eng_zero_sample(int fd, uint64_t off, uint64_t len, uint32_t bs, unsigned n, uint64_t seed,
		    uint64_t budget_ns, struct eng_zero_sample *out);

/* The share of sampled blocks that read as zeros, 0-100; -1 none read. */
double eng_zero_pct(const struct eng_zero_sample *s);

#endif
