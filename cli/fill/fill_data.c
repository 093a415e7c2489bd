/* A fill target's data check (fill_data.h). No signature is no proof of
 * no data: a raw database device or an image written with dd has none. So
 * fill reads a sample of the range it is about to write, with the sampler
 * run uses for never-written blocks (engine/zeroes.c), and writes only
 * where every sampled block reads as never written, or as a fill's own
 * (so that a drive is filled again without a second word). The sample is
 * random, so it finds data spread over a share p of the range with
 * probability 1 - (1 - p)^1024: 99.4% at p = 0.5%. */
#include <errno.h>
#include <string.h>

#include "cli/fill/fill_data.h"
#include "cli/report/out.h"
#include "cli/opts/roots.h"
#include "engine/fill.h"
#include "engine/zeroes.h"
#include "setup/setup.h"

/* Whether t's namespace reads a deallocated block as FFh (DLFEAT bits 2:0
 * = 2, read by setup/ with Identify Namespace); else, and where it cannot
 * be read (not NVMe, not root, a file), a deallocated block reads as
 * zeros. */
static bool reads_ones(const struct fill_target *t)
{
	struct setup_dev d;
	bool ones;

	if (!S_ISBLK(t->st.st_mode) || setup_dev_read(cli_roots(), t->path, &d))
		return false;
	ones = d.dealloc_read == 2;
	setup_dev_free(&d);
	return ones;
}

/* The block the sample reads: 4K, the stamp's unit, or the logical block
 * where that is larger; a range below 4K is read in logical blocks */
static uint32_t sample_bs(const struct fill_target *t, uint64_t len)
{
	uint32_t bs = t->lbs > ENG_FILL_STAMP ? t->lbs : ENG_FILL_STAMP;

	return len < bs ? t->lbs : bs;
}

int fill_data_check(struct fill_target *t, uint64_t off, uint64_t len, uint64_t seed,
		    bool overwrite)
{
	struct eng_zero_sample s;
	bool ones = reads_ones(t);
	int rc;

	rc = eng_zero_sample(t->fd, off, len, sample_bs(t, len), FILL_SAMPLE_BLOCKS, seed,
			     UINT64_MAX, &s);
	if (rc) {
		cli_say("%s: cannot read it to look for data: %s", t->path, strerror(-rc));
		return rc;
	}
	t->sampled = s.sampled;
	t->held = eng_zero_held(&s, ones);
	if (!t->held || overwrite)
		return 0;
	cli_say("%s: %u of %u sampled blocks hold data (they read neither as never-written "
		"blocks, %s, nor as an earlier fill's): fill writes over data only with "
		"--overwrite-data beside --yes-destroy-data", t->path, t->held, t->sampled,
		ones ? "all FFh on this namespace" : "all zeros");
	return -EINVAL;
}
