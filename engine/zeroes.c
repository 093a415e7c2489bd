/* Never-written blocks, sampled before a run (engine/zeroes.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/fill.h"
#include "engine/rng.h"
#include "engine/zeroes.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool all_of(const unsigned char *b, size_t n, unsigned char v)
{
	return b[0] == v && !memcmp(b, b + 1, n - 1);
}

int eng_zero_sample(int fd, uint64_t off, uint64_t len, uint32_t bs, unsigned n, uint64_t seed,
		    uint64_t budget_ns, struct eng_zero_sample *out)
{
	struct eng_rng rng;
	uint64_t t0 = mono_ns();
	void *buf;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (bs < 512 || (bs & (bs - 1)) || len < bs || eng_rng_init(&rng, seed, off, len, bs))
		return -EINVAL;
	/* O_DIRECT wants the buffer aligned to the logical block; a page
	 * covers every block size a drive has */
	if (posix_memalign(&buf, bs > 4096 ? bs : 4096, bs))
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		uint64_t at = eng_rng_offset(&rng);
		ssize_t r = pread(fd, buf, bs, (off_t)at);

		if (r < 0 || (size_t)r != bs) {
			ret = r < 0 ? -errno : -EIO;
			break;
		}
		out->sampled++;
		if (all_of(buf, bs, 0))
			out->zero++;
		else if (all_of(buf, bs, 0xff))
			out->ones++;
		else if (eng_fill_stamped(buf, bs, at))
			out->stamped++;
		if (mono_ns() - t0 >= budget_ns)
			break;
	}
	out->elapsed_ns = mono_ns() - t0;
	free(buf);
	return ret;
}

double eng_zero_pct(const struct eng_zero_sample *s)
{
	return s->sampled ? 100.0 * s->zero / s->sampled : -1;
}

unsigned eng_zero_held(const struct eng_zero_sample *s, bool ones_dealloc)
{
	return s->sampled - s->zero - s->stamped - (ones_dealloc ? s->ones : 0);
}
