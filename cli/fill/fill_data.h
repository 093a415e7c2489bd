/* Whether a fill target's range holds data, by a sample of its blocks
 * (cli/fill/fill_data.c): the second check, after the signatures. */
#ifndef CLI_FILL_DATA_H
#define CLI_FILL_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/fill/fill_target.h"

#define FILL_SAMPLE_BLOCKS 1024u	/* blocks read per target */

/* Reads FILL_SAMPLE_BLOCKS blocks at random over [off, off + len) of t
 * (open) into t->sampled, and counts into t->held those that hold data
 * (eng_zero_held: neither what the drive reads from a deallocated block
 * nor an earlier fill's). With any, unless overwrite, says how many in one
 * line and returns -EINVAL (exit 2). 0 none, or overwrite; -errno of a
 * failed read (said, exit 1). */
int fill_data_check(struct fill_target *t, uint64_t off, uint64_t len, uint64_t seed,
		    bool overwrite);

#endif
