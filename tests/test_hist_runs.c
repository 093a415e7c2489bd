/* eng_hist_add_n, the loop's insert of a run of equal latencies, records
 * what n single inserts would: same buckets, count, sum, min and max, and
 * the sum of squares up to rounding. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "engine/hist.h"
#include "tests/helpers.h"

static struct eng_hist one, runs;

static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

int main(void)
{
	uint64_t x = 88172645463325252ull;
	unsigned i, k;

	eng_hist_reset(&one);
	eng_hist_reset(&runs);
	for (i = 0; i < 20000; i++) {
		/* values from 0 to beyond the last bucket, runs of 1 to 64 */
		uint64_t v = next(&x) >> (next(&x) % 64), n = 1 + next(&x) % 64;

		for (k = 0; k < n; k++)
			eng_hist_add(&one, v);
		eng_hist_add_n(&runs, v, n);
	}
	CHECK(memcmp(one.b, runs.b, sizeof(one.b)) == 0);
	CHECK(one.count == runs.count);
	CHECK(one.sum_ns == runs.sum_ns);
	CHECK(one.min_ns == runs.min_ns && one.max_ns == runs.max_ns);
	CHECKF(fabs(one.sumsq - runs.sumsq) <= 1e-9 * one.sumsq, "sumsq %g vs %g",
	       one.sumsq, runs.sumsq);
	return t_result();
}
