/* Per-worker offset generator: wyrand (Wang Yi's: a Weyl sequence folded
 * through one 64x64->128-bit multiply; passes BigCrush and PractRand, and
 * its 2^64 period outlasts any run) seeded by splitmix64, mapped to a block
 * index with Lemire's multiply-shift (no division per IO). It replaced
 * xoshiro256**: 15 fewer instructions per IO, the loop's largest single
 * cost after the kernel's (docs/engine.md). */
#ifndef ENG_RNG_H
#define ENG_RNG_H

#include <stdint.h>

struct eng_rng {
	/* s[0] is the generator's state; s[1..3] are the rest of the
	 * seeding, unused since xoshiro256** went, kept only because
	 * tests/test_rng.c looks at all four */
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

static inline uint64_t eng_rng_next(struct eng_rng *r)
{
	__extension__ typedef unsigned __int128 u128;
	uint64_t x = r->s[0] += 0xa0761d6478bd642full;
	u128 m = (u128)x * (x ^ 0xe7037ed1a0b428dbull);

	return (uint64_t)(m >> 64) ^ (uint64_t)m;
}

/* Uniform, bs-aligned byte offset inside the range. */
static inline uint64_t eng_rng_offset(struct eng_rng *r)
{
	__extension__ typedef unsigned __int128 u128;
	uint64_t blk = (uint64_t)(((u128)eng_rng_next(r) * r->nblocks) >> 64);

	return r->base + (blk << r->bs_shift);
}

#endif
