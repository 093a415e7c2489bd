/*
 * The sequential writer of iostorm fill (engine/fill.h). Its ring is set
 * up by the engine's ladder (eng_uring_ring_init: the cheapest flags the
 * kernel takes) and timed by the engine's clock (engine/clock.h).
 *
 * Why the write loop below is not a kind of the read loop
 * (engine/uring_loop_int.h): a fill runs on the caller's thread, with a
 * progress callback after each reap, outside any eng_run and its
 * controller; its IOs go in order, not at random offsets, the last one
 * shorter than the rest, each stamping its buffer's blocks before it goes
 * (a loop over the IO's 4K blocks); a failure is told by where it began,
 * not counted by errno; nothing is timed; it ends with a flush. Every one
 * of those would be a per-IO branch or a field of struct eng_worker that
 * the read loop's copies exist to keep out, for one writer that runs
 * once per device at a depth of a few large IOs, where the loop's
 * instructions per IO do not matter. It keeps its own slot stack for the
 * same reason: struct eng_worker's is the worker's, on the run's thread.
 */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/clock.h"
#include "engine/fill.h"
#include "engine/rng.h"
#include "engine/uring_int.h"

#define STAMP ENG_FILL_STAMP
#define TAG_LEN 8u
#define STAMP_LEN (sizeof(uint64_t) + TAG_LEN)

/* Buffer k's bytes, random once; each write stamps its blocks' offsets */
static void fill_random(unsigned char *buf, size_t n, uint64_t seed)
{
	struct eng_rng r;
	size_t i;

	eng_rng_init(&r, seed, 0, STAMP, STAMP);
	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t v = eng_rng_next(&r);

		memcpy(buf + i, &v, 8);
	}
}

static void stamp(unsigned char *buf, uint32_t n, uint64_t off)
{
	for (uint32_t i = 0; i < n; i += STAMP) {
		uint64_t v = off + i;

		memcpy(buf + i, &v, sizeof(v));
		memcpy(buf + i + sizeof(v), ENG_FILL_TAG, TAG_LEN);
	}
}

bool eng_fill_stamped(const void *buf, size_t n, uint64_t off)
{
	const unsigned char *b = buf;
	size_t i = 0;

	if (n < STAMP_LEN)
		return false;
	do {
		uint64_t v;

		memcpy(&v, b + i, sizeof(v));
		if (v != off + i || memcmp(b + i + sizeof(v), ENG_FILL_TAG, TAG_LEN))
			return false;
		i += STAMP;
	} while (i < n);
	return true;
}

/* What the ladder reads of a job: interrupts, no CPU of its own */
static const struct eng_job fill_job = { .mode = ENG_MODE_IRQ, .cpu = -1, .sq_cpu = -1 };

int eng_fill(int fd, uint64_t off, uint64_t len, uint32_t bs, unsigned qd, uint64_t seed,
	     eng_fill_progress_fn progress, void *arg, struct eng_fill_result *res)
{
	struct io_uring ring;
	unsigned char *bufs = NULL;
	unsigned *free_slot = NULL, nfree = 0, inflight = 0;
	uint64_t next = off, end = off + len, t0;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!len || !qd || qd > 4096 || bs < STAMP || bs % STAMP || end < off)
		return -EINVAL;
	if (posix_memalign((void **)&bufs, 4096, (size_t)bs * qd))
		return -ENOMEM;
	free_slot = malloc(qd * sizeof(*free_slot));
	if (!free_slot) {
		free(bufs);
		return -ENOMEM;
	}
	fill_random(bufs, (size_t)bs * qd, seed);
	for (unsigned k = 0; k < qd; k++)
		free_slot[nfree++] = qd - 1 - k;
	/* the ring is this thread's alone, its completions reaped only by
	 * its own waits: every rung of the ladder suits it */
	ret = eng_uring_ring_init(&ring, &fill_job, false, qd, qd);
	if (ret)
		goto out_free;
	t0 = eng_mono_ns();
	while (!ret && (next < end || inflight)) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;

		while (nfree && next < end) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			unsigned k = free_slot[--nfree];
			uint32_t n = end - next < bs ? (uint32_t)(end - next) : bs;
			unsigned char *b = bufs + (size_t)k * bs;

			stamp(b, n, next);
			io_uring_prep_write(sqe, fd, b, n, next);
			/* the slot and the length; the offset is the
			 * buffer's first stamp */
			sqe->user_data = (uint64_t)k << 32 | n;
			next += n;
			inflight++;
		}
		ret = io_uring_submit_and_wait(&ring, 1);
		if (ret < 0)
			break;
		ret = 0;
		io_uring_for_each_cqe(&ring, head, cqe) {
			unsigned k = (unsigned)(cqe->user_data >> 32);
			uint32_t n = (uint32_t)cqe->user_data;

			seen++;
			inflight--;
			free_slot[nfree++] = k;
			if (ret)
				continue;
			if (cqe->res < 0 || (uint32_t)cqe->res != n) {
				uint64_t at;

				memcpy(&at, bufs + (size_t)k * bs, sizeof(at));
				res->fail_off = at;
				ret = cqe->res < 0 ? cqe->res : -EIO;
				continue;
			}
			res->bytes += n;
		}
		io_uring_cq_advance(&ring, seen);
		if (!ret && progress && progress(arg, res->bytes))
			ret = -EINTR;
	}
	/* what is in flight after a failure or a stop is waited for: the
	 * buffers are the ring's until then */
	while (inflight) {
		struct io_uring_cqe *cqe;

		if (io_uring_wait_cqe(&ring, &cqe))
			break;
		io_uring_cqe_seen(&ring, cqe);
		inflight--;
	}
	if (!ret && fdatasync(fd))
		ret = -errno;
	res->elapsed_ns = eng_mono_ns() - t0;
	io_uring_queue_exit(&ring);
out_free:
	free(free_slot);
	free(bufs);
	return ret;
}
