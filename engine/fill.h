/* iostorm fill: every block of a range written once, sequentially, with
 * large IOs at depth, through io_uring: what makes a drive's reads come
 * from flash rather than from its table of never-written blocks
 * (engine/zeroes.h). The one writer in iostorm; cli/fill decides whether
 * a target may be written. */
#ifndef ENG_FILL_H
#define ENG_FILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What eng_fill writes into each 4K block, beside its random bytes: the
 * block's own byte offset on the device in its first 8 bytes (native
 * order), then the 8 bytes ENG_FILL_TAG. The offset keeps no two blocks
 * alike; with the tag, a later fill tells the data a fill wrote from data
 * it must not overwrite (cli/fill). The offset alone would not do: the
 * stamp of block 0 would be 8 zero bytes, which is how many formats begin
 * their first block. */
#define ENG_FILL_STAMP 4096u
#define ENG_FILL_TAG "iostormf"	/* 8 bytes, no NUL written */

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

/* Whether the n bytes at buf, read from byte off of the device, are what
 * eng_fill wrote there: every 4K block of them (the first alone when n is
 * below 4K) begins with its own offset and the tag. */
bool eng_fill_stamped(const void *buf, size_t n, uint64_t off);

#endif
