/* Memory write bandwidth: one thread per buffer. Every page is placed
 * first, untimed; then, from a common start, each thread writes its buffer
 * in chunks until the budget is spent. On x86-64 the writer is
 * non-temporal stores (SSE2, in every x86-64): they go to memory past the
 * caches, as a drive's DMA does, so the figure is memory's whatever the
 * buffer's size against the caches. glibc's memset streams only past a
 * threshold taken from the cache sizes (where the L3 is reported large,
 * never for a 4 MiB chunk); it is the writer elsewhere, where the caller
 * sizes the buffers past the caches (ENG_MEMBW_BYPASS). */
#include "engine/membw.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "engine/clock.h"

#if ENG_MEMBW_BYPASS
#include <emmintrin.h>
#endif

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14 */
#endif

struct membw_run {
	uint64_t budget_ns;
	/* The gate: each thread counts itself in once its buffer is placed
	 * and waits for the go; a failed start or prepare sends them home
	 * instead. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned placed;
	bool go, cancel;
	_Atomic uint64_t start_ns;	/* the common start, set by one thread */
};

struct membw_thread {
	struct membw_run *run;
	const struct eng_membw_writer *w;
	pthread_t tid;
	bool started;
	uint64_t bytes, end_ns;
	int err;
};

/* One chunk of byte v at p (ENG_MEMBW_ALIGN-aligned), past the caches
 * where the machine can. */
static void fill(unsigned char *p, int v)
{
#if ENG_MEMBW_BYPASS
	__m128i x = _mm_set1_epi8((char)v);
	unsigned char *end = p + ENG_MEMBW_CHUNK;

	for (; p < end; p += 64) {
		_mm_stream_si128((__m128i *)(void *)p, x);
		_mm_stream_si128((__m128i *)(void *)(p + 16), x);
		_mm_stream_si128((__m128i *)(void *)(p + 32), x);
		_mm_stream_si128((__m128i *)(void *)(p + 48), x);
	}
	_mm_sfence();	/* the chunk is out of the write-combining buffers */
#else
	memset(p, v, ENG_MEMBW_CHUNK);
#endif
}

/* Writes the whole buffer in chunks until the budget from the common
 * start is spent; counts what it wrote. */
static void stream(struct membw_thread *th)
{
	struct membw_run *r = th->run;
	unsigned char *buf = th->w->buf;
	uint64_t off = 0, start, now, expect = 0;
	int pass = 1;

	/* the first thread past the gate starts the clock for all */
	atomic_compare_exchange_strong(&r->start_ns, &expect, eng_mono_ns());
	start = atomic_load(&r->start_ns);
	do {
		fill(buf + off, pass);
		th->bytes += ENG_MEMBW_CHUNK;
		off += ENG_MEMBW_CHUNK;
		if (off + ENG_MEMBW_CHUNK > th->w->len) {
			off = 0;
			pass++;
		}
		now = eng_mono_ns();
	} while (now - start < r->budget_ns);
	th->end_ns = now;
}

/* Places every page of the buffer before the clock starts. The kernel
 * faults them in itself where it can (MADV_POPULATE_WRITE, huge pages
 * asked for first: a GiB in 4 KiB faults costs seconds on a VM, and under
 * ThreadSanitizer a memset of it costs minutes of shadow updates); a
 * buffer that is not page-aligned, or an older kernel, gets an untimed
 * memset instead. The advice is only advice: its failure is not one. */
static void place(const struct eng_membw_writer *w)
{
	(void)madvise(w->buf, w->len, MADV_HUGEPAGE);
	if (madvise(w->buf, w->len, MADV_POPULATE_WRITE))
		memset(w->buf, 0, w->len);
}

static void *membw_thread(void *arg)
{
	struct membw_thread *th = arg;
	struct membw_run *r = th->run;
	bool go;

	if (th->w->prepare)
		th->err = th->w->prepare(th->w->arg);
	if (!th->err)
		place(th->w);
	pthread_mutex_lock(&r->lock);
	r->placed++;
	r->cancel |= th->err != 0;	/* the others need not write for nothing */
	pthread_cond_broadcast(&r->cond);
	while (!r->go && !r->cancel)
		pthread_cond_wait(&r->cond, &r->lock);
	/* read under the lock: a cancel lets threads out before the caller
	 * has written its last word to the gate */
	go = r->go && !r->cancel;
	pthread_mutex_unlock(&r->lock);
	if (go && !th->err)
		stream(th);
	return NULL;
}

static void sum_up(const struct membw_run *r, const struct membw_thread *th,
		   unsigned n, struct eng_membw *out)
{
	uint64_t end = 0, start = atomic_load(&r->start_ns);
	unsigned i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		out->bytes += th[i].bytes;
		end = th[i].end_ns > end ? th[i].end_ns : end;
	}
	out->ns = end > start ? end - start : 0;
	out->bytes_s = out->ns ? (double)out->bytes * 1e9 / (double)out->ns : 0.0;
}

static bool writers_valid(const struct eng_membw_writer *w, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (!w[i].buf || (uintptr_t)w[i].buf % ENG_MEMBW_ALIGN || !w[i].len ||
		    w[i].len % ENG_MEMBW_CHUNK)
			return false;
	return n > 0;
}

int eng_membw_measure(const struct eng_membw_writer *w, unsigned n, uint64_t budget_ns,
		      struct eng_membw *out)
{
	struct membw_run r = { .budget_ns = budget_ns,
			       .lock = PTHREAD_MUTEX_INITIALIZER,
			       .cond = PTHREAD_COND_INITIALIZER };
	struct membw_thread *th;
	unsigned i;
	int err = 0;

	if (!budget_ns || !writers_valid(w, n))
		return -EINVAL;
	th = calloc(n, sizeof(*th));
	if (!th)
		return -ENOMEM;
	for (i = 0; i < n && !err; i++) {
		th[i].run = &r;
		th[i].w = &w[i];
		err = -pthread_create(&th[i].tid, NULL, membw_thread, &th[i]);
		th[i].started = !err;
	}
	/* all placed: go together; a thread that did not start: all go home */
	pthread_mutex_lock(&r.lock);
	while (!err && r.placed < n)
		pthread_cond_wait(&r.cond, &r.lock);
	r.cancel |= err != 0;
	r.go = !r.cancel;
	pthread_cond_broadcast(&r.cond);
	pthread_mutex_unlock(&r.lock);
	for (i = 0; i < n; i++)
		if (th[i].started)
			pthread_join(th[i].tid, NULL);
	for (i = 0; i < n && !err; i++)
		err = th[i].err;
	if (!err)
		sum_up(&r, th, n, out);
	free(th);
	return err;
}
