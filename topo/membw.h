/* A NUMA node's memory write bandwidth, measured: what a drive's DMA
 * writes into that node's memory compete for. One thread per core of the
 * node, each pinned to its core, streams writes into a buffer bound to
 * the node: the cores, the buffers and the binding are chosen here, the
 * writing and timing is engine/membw.h's. The ceiling model
 * (model/ceiling.h) takes it as the memory resource's capacity. Never
 * prints; returns 0 or -errno. */
#ifndef TOPO_MEMBW_H
#define TOPO_MEMBW_H

#include <stdint.h>

#include "topo/topo.h"

/* Each thread's buffer where the writes bypass the caches
 * (ENG_MEMBW_BYPASS); where they do not, the least the buffers hold in
 * all (or 4x the L3 caches, more) and each. A node with under 4x as much
 * memory gets a quarter of it. */
#define TOPO_MEMBW_BUF (32ull << 20)
#define TOPO_MEMBW_TOTAL (1ull << 30)
#define TOPO_MEMBW_MIN_BUF (16ull << 20)

struct topo_membw {
	double bytes_s;		/* bytes written per second, all threads */
	unsigned threads;	/* one per core of the node */
	uint64_t buf_bytes;	/* each thread's buffer */
	uint64_t bytes;		/* written while timed */
	uint64_t ns;		/* timed: from the common start to the last
				 * thread's stop */
};

/* Measures node os_index of the live topology t for about budget_ns
 * (after every page is placed, untimed). -EINVAL: t is an XML
 * export (not this machine) or budget_ns is 0; -ENOENT: no such node;
 * -ENODEV: the node has no cores of its own (its memory is then written
 * from the nearest node with cores: HBM, CXL); -ENOMEM; or the -errno of
 * binding a thread or the memory. */
int topo_membw_measure(struct topo *t, unsigned os_index, uint64_t budget_ns,
		       struct topo_membw *out);

#endif
