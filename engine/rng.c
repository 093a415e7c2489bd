/* Offset generator setup; the per-IO path is inline in rng.h. */
#include "engine/rng.h"

#include <errno.h>

/* splitmix64's finaliser: every input bit reaches every output bit. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* splitmix64 spreads any seed, 0 included, over the state (any value of
 * it is a good start for wyrand). */
static uint64_t splitmix64(uint64_t *x)
{
	return mix64(*x += 0x9e3779b97f4a7c15ull);
}

/* Hashed, not stepped: see rng.h. */
uint64_t eng_rng_seed(uint64_t seed, unsigned idx)
{
	return mix64(seed ^ (0xd1b54a32d192ed03ull * ((uint64_t)idx + 1)));
}

int eng_rng_init(struct eng_rng *r, uint64_t seed, uint64_t range_off,
		 uint64_t range_len, uint32_t bs)
{
	struct eng_rng n;
	int i;

	if (!r || !bs || (bs & (bs - 1)) || range_len < bs ||
	    range_off > UINT64_MAX - range_len)
		return -EINVAL;
	for (i = 0; i < 4; i++)
		n.s[i] = splitmix64(&seed);
	n.base = range_off;
	n.nblocks = range_len / bs;
	n.bs_shift = (uint32_t)__builtin_ctz(bs);
	*r = n;
	return 0;
}
