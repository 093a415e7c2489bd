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

struct eng_membw_writer {
	unsigned char *buf;	/* the caller's: allocated and freed there */
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

/* Each of the n writers in a thread of its own: prepare, then every page of
 * its buffer placed, untimed (first-touch faults would otherwise be
 * measured; the kernel populates them where it can, which leaves what the
 * buffer held, else a memset writes 0), then, from a common start once all are placed,
 * writes until budget_ns is spent (one chunk later at most). -EINVAL: no
 * writers, no budget, or a length that is not a non-zero multiple of the
 * chunk; the first writer's error from prepare; or the -errno of starting a
 * thread. *out is written only on success. */
int eng_membw_measure(const struct eng_membw_writer *w, unsigned n, uint64_t budget_ns,
		      struct eng_membw *out);

#endif
