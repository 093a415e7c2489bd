/* Offset generator: range, alignment, uniformity, seeding, worker seeds,
 * bad input. */
#include "engine/rng.h"
#include "tests/helpers.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static void check_range(uint64_t off, uint64_t len, uint32_t bs)
{
	struct eng_rng r;
	uint64_t lo = UINT64_MAX, hi = 0, o, last;
	int i, bad = 0;

	CHECKF(eng_rng_init(&r, 42, off, len, bs) == 0, "off %" PRIu64
	       " len %" PRIu64 " bs %u", off, len, bs);
	CHECK(r.nblocks == len / bs);
	last = off + (len / bs - 1) * bs;
	for (i = 0; i < 200000; i++) {
		o = eng_rng_offset(&r);
		if (o < off || o > off + len - bs || (o - off) % bs)
			bad++;
		lo = o < lo ? o : lo;
		hi = o > hi ? o : hi;
	}
	CHECKF(!bad, "off %" PRIu64 " len %" PRIu64 " bs %u: %d offsets "
	       "outside the range or misaligned", off, len, bs, bad);
	/* small ranges must be covered end to end */
	if (len / bs <= 1000)
		CHECKF(lo == off && hi == last, "off %" PRIu64 " len %" PRIu64
		       " bs %u: saw [%" PRIu64 ", %" PRIu64 "]", off, len, bs,
		       lo, hi);
}

static void test_ranges(void)
{
	check_range(0, 1ull << 30, 4096);
	check_range(1ull << 20, 10ull << 20, 4096);
	check_range(0, 4096 * 10 + 123, 4096);	/* not a multiple of bs */
	check_range(4096, 4096, 4096);		/* nblocks = 1 */
	check_range(0, 8191, 4096);		/* nblocks = 1, ragged */
	check_range(512, 512 * 3, 512);
	check_range(0, 1ull << 20, 1u << 20);
	check_range(1ull << 40, 7ull << 40, 4096); /* 7 TiB device */
	check_range(0, UINT64_MAX / 2, 1);
	check_range(12345, 777, 1);		/* unaligned base, bs 1 */
}

/* 64 equal bins, 1M samples, fixed seed: chi-square with 63 degrees of
 * freedom has mean 63 and stddev ~11; 150 is far in the tail, so only a
 * biased mapping fails. */
static void test_uniform(void)
{
	enum { BINS = 64, N = 1000000 };
	static uint64_t cnt[BINS];
	const uint32_t bs = 4096;
	const uint64_t nblocks = BINS * 1000;
	double chi = 0, exp_n = (double)N / BINS;
	struct eng_rng r;
	int i;

	CHECK(eng_rng_init(&r, 7, 0, nblocks * bs, bs) == 0);
	for (i = 0; i < N; i++)
		cnt[(eng_rng_offset(&r) / bs) / (nblocks / BINS)]++;
	for (i = 0; i < BINS; i++)
		chi += ((double)cnt[i] - exp_n) * ((double)cnt[i] - exp_n) /
		       exp_n;
	CHECKF(chi < 150.0, "chi-square %.1f over %d bins", chi, BINS);

	/* and the low block bits, which a bad multiply-shift would skew */
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < N; i++)
		cnt[(eng_rng_offset(&r) / bs) % BINS]++;
	chi = 0;
	for (i = 0; i < BINS; i++)
		chi += ((double)cnt[i] - exp_n) * ((double)cnt[i] - exp_n) /
		       exp_n;
	CHECKF(chi < 150.0, "chi-square of low bits %.1f", chi);
}

static void test_seeds(void)
{
	struct eng_rng a, b, c;
	int i, same_ab = 0, same_ac = 0;

	CHECK(eng_rng_init(&a, 1, 0, 1ull << 40, 4096) == 0);
	CHECK(eng_rng_init(&b, 2, 0, 1ull << 40, 4096) == 0);
	CHECK(eng_rng_init(&c, 1, 0, 1ull << 40, 4096) == 0);
	for (i = 0; i < 1000; i++) {
		uint64_t x = eng_rng_offset(&a), y = eng_rng_offset(&b);

		same_ab += x == y;
		same_ac += x == eng_rng_offset(&c);
	}
	CHECKF(same_ab < 5, "seeds 1 and 2 agree on %d of 1000", same_ab);
	CHECKF(same_ac == 1000, "seed 1 twice agrees on %d of 1000", same_ac);
	/* seed 0 must still give a live state */
	CHECK(eng_rng_init(&a, 0, 0, 1ull << 40, 4096) == 0);
	CHECK(a.s[0] | a.s[1] | a.s[2] | a.s[3]);
	CHECK(eng_rng_offset(&a) != eng_rng_offset(&a) ||
	      eng_rng_offset(&a) != eng_rng_offset(&a));
}

/* eng_rng_seed gives the workers the seeds the CLI gave them before it
 * moved here (values of the CLI's own job_seed at a38280d), so a run with
 * --seed N reads the same offsets as before; neighbours differ widely. */
static void test_worker_seeds(void)
{
	static const struct { uint64_t seed; unsigned idx; uint64_t want; } v[] = {
		{ 0, 0, 0x8209b480faed1b10ull },
		{ 0, 1, 0x6c23aacca1387409ull },
		{ 0, 1023, 0x537d0cc84a555c4full },
		{ 1, 0, 0x01d60447fea35413ull },
		{ 1, 7, 0x615d79e51f28fa7full },
		{ 42, 1, 0x34cdc529004b4d22ull },
		{ 42, 1023, 0x65f1beaa5ae575f3ull },
		{ UINT64_MAX, 0, 0x6db45502152ea596ull },
		{ UINT64_MAX, 7, 0x0ae0f5b2f5a94347ull },
	};
	unsigned i, bits;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		CHECKF(eng_rng_seed(v[i].seed, v[i].idx) == v[i].want,
		       "eng_rng_seed(%" PRIu64 ", %u) = %#" PRIx64 ", want %#" PRIx64,
		       v[i].seed, v[i].idx, eng_rng_seed(v[i].seed, v[i].idx), v[i].want);
	for (i = 0; i < 64; i++) {
		bits = (unsigned)__builtin_popcountll(eng_rng_seed(5, i) ^ eng_rng_seed(5, i + 1));
		CHECKF(bits > 12 && bits < 52, "workers %u and %u: seeds differ in %u bits",
		       i, i + 1, bits);
	}
}

static void test_bad_input(void)
{
	struct eng_rng r, before;

	memset(&r, 0xab, sizeof(r));
	before = r;
	CHECK(eng_rng_init(&r, 1, 0, 1 << 20, 0) == -EINVAL);
	CHECK(eng_rng_init(&r, 1, 0, 1 << 20, 3000) == -EINVAL);
	CHECK(eng_rng_init(&r, 1, 0, 4095, 4096) == -EINVAL);
	CHECK(eng_rng_init(&r, 1, 0, 0, 4096) == -EINVAL);
	CHECK(eng_rng_init(&r, 1, UINT64_MAX - 4096, 8192, 4096) == -EINVAL);
	CHECK(eng_rng_init(NULL, 1, 0, 8192, 4096) == -EINVAL);
	/* out-parameters are written only on success */
	CHECK(!memcmp(&r, &before, sizeof(r)));
}

int main(void)
{
	test_ranges();
	test_uniform();
	test_seeds();
	test_worker_seeds();
	test_bad_input();
	return t_result();
}
