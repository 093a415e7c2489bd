/* iostorm fill: every block of a range written once, sequentially, with
 * large IOs at depth, through io_uring: what makes a drive's reads come
 * from flash rather than from its table of never-written blocks
 * (engine/zeroes.h). The one writer in iostorm; cli/fill decides whether
 * a target may be written. */
#ifndef ENG_FILL_H
#define ENG_FILL_H

#include <stdint.h>

/* Called from the filling thread after each reaped batch with the bytes
 * written so far; a nonzero return stops the fill (-EINTR). */
typedef int (*eng_fill_progress_fn)(void *arg, uint64_t done);

struct eng_fill_result {
	uint64_t bytes;		/* written and completed */
	uint64_t elapsed_ns;	/* from the first submission to the flush's end */
	uint64_t fail_off;	/* where a failed write began */
};

/* Writes [off, off + len) of fd (opened for writing, O_DIRECT: off and
 * len multiples of the logical block) in IOs of up to bs bytes, qd in
 * flight, with data no two 4K blocks of share (random, stamped with each
 * block's offset: nothing for a compressing or deduplicating drive to
 * skip), then flushes the drive's volatile cache (fdatasync). 0; -EINTR
 * stopped by progress; -EIO a short write (fail_off says where); -errno
 * of a failed write, of the ring or of the flush; -EINVAL, -ENOMEM. */
int eng_fill(int fd, uint64_t off, uint64_t len, uint32_t bs, unsigned qd, uint64_t seed,
	     eng_fill_progress_fn progress, void *arg, struct eng_fill_result *res);

#endif
