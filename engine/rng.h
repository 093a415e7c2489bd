/* Per-worker offset generator: xoshiro256** seeded by splitmix64, mapped to
 * a block index with Lemire's multiply-shift (no division per IO). */
#ifndef ENG_RNG_H
#define ENG_RNG_H

#include <stdint.h>

struct eng_rng {
	uint64_t s[4];
	uint64_t base;		/* first byte of the range */
	uint64_t nblocks;	/* blocks of bs bytes in the range */
	uint32_t bs_shift;	/* log2(bs) */
};

/* Worker idx's seed, hashed from a run's: seed + idx * constant would give
 * neighbouring workers generator states that are shifted copies of each
 * other (eng_rng_init's seeding steps by the same constant). */
uint64_t eng_rng_seed(uint64_t seed, unsigned idx);

/* bs must be a power of two and range_len >= bs. Returns 0 or -EINVAL. */
int eng_rng_init(struct eng_rng *r, uint64_t seed, uint64_t range_off,
		 uint64_t range_len, uint32_t bs);

static inline uint64_t eng_rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t eng_rng_next(struct eng_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = eng_rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = eng_rng_rotl(s[3], 45);
	return out;
}

/* Uniform, bs-aligned byte offset inside the range. */
static inline uint64_t eng_rng_offset(struct eng_rng *r)
{
	__extension__ typedef unsigned __int128 u128;
	uint64_t blk = (uint64_t)(((u128)eng_rng_next(r) * r->nblocks) >> 64);

	return r->base + (blk << r->bs_shift);
}

#endif
