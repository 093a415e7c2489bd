/* Memory write bandwidth into buffers given to it: one thread per buffer
 * writes its buffer in chunks from a common start until a budget is spent.
 * Where the buffers live and which CPU writes each is the caller's choice
 * (topo/membw.h binds them to a NUMA node); this only measures. Never
 * prints; returns 0 or -errno. */
#ifndef ENG_MEMBW_H
#define ENG_MEMBW_H

#include <stdint.h>

/* Written between two looks at the clock: each buffer's length is a
 * multiple of it. */
#define ENG_MEMBW_CHUNK (4ull << 20)
/* Each buffer's start is a multiple of it (page-aligned memory is). */
#define ENG_MEMBW_ALIGN 64

/* 1 where the writes bypass the caches (non-temporal stores, x86-64), so
 * a buffer need not outsize them; 0 where they go through the caches and
 * the buffers must. */
#if defined(__x86_64__)
#define ENG_MEMBW_BYPASS 1
#else
#define ENG_MEMBW_BYPASS 0
#endif

struct eng_membw_writer {
	unsigned char *buf;	/* the caller's: allocated and freed there;
				 * ENG_MEMBW_ALIGN-aligned */
	uint64_t len;		/* a non-zero multiple of ENG_MEMBW_CHUNK */
	/* Called on the writer's own thread before it touches buf (to pin it,
	 * say); non-zero (-errno) calls the measurement off. NULL: none. */
	int (*prepare)(void *arg);
	void *arg;
};

struct eng_membw {
	double bytes_s;		/* bytes written per second, all writers */
	uint64_t bytes;		/* written while timed */
	uint64_t ns;		/* timed: from the common start to the last
				 * writer's stop */
};

/* Each of the n writers in a thread of its own: prepare, then every page
 * of its buffer placed, untimed (first-touch faults would otherwise be
 * measured; the kernel populates them where it can, which leaves what the
 * buffer held, else a memset writes 0), then, from a common start once all
 * are placed, writes until budget_ns is spent (one chunk later at most).
 * -EINVAL: no writers, no budget, a buffer not aligned, or a length that
 * is not a non-zero multiple of the chunk; the first writer's error from
 * prepare; or the -errno of starting a thread. *out is written only on
 * success. */
int eng_membw_measure(const struct eng_membw_writer *w, unsigned n, uint64_t budget_ns,
		      struct eng_membw *out);

#endif
