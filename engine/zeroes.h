/* Never-written blocks, found before a run: a drive answers a read of a
 * deallocated block from its mapping table, without reading flash, so a
 * range that was never written (or was trimmed) can read faster than
 * written data. eng_zero_sample reads a few hundred blocks of the run's
 * range, spread at random, and counts those that are all zeros. It runs
 * before the first measured IO, never in the loop. iostorm fill samples
 * its range the same way before writing, to find data it must not write
 * over: a block that is neither what a deallocated block reads as (all
 * zeros, or all FFh on a namespace whose DLFEAT says so) nor what an
 * earlier fill wrote (engine/fill.h's stamp) holds data. */
#ifndef ENG_ZEROES_H
#define ENG_ZEROES_H

#include <stdbool.h>
#include <stdint.h>

struct eng_zero_sample {
	unsigned sampled;	/* blocks read */
	unsigned zero;		/* of them, all zeros */
	unsigned ones;		/* all FFh bytes */
	unsigned stamped;	/* eng_fill's data (eng_fill_stamped) */
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

/* Of the sampled blocks, those that hold data: neither zeros, nor FFh
 * where ones_dealloc (the namespace reads deallocated blocks as FFh),
 * nor eng_fill's. Zeros never count as data: they are what every drive
 * reads after a Write Zeroes, whatever its DLFEAT, and hold nothing a
 * fill could lose. */
unsigned eng_zero_held(const struct eng_zero_sample *s, bool ones_dealloc);

#endif
