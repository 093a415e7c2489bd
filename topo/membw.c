/* A node's memory write bandwidth: one thread per core of the node (of
 * the nearest node with cores, for a node without), each pinned to its
 * core's first PU, writes a buffer bound to the node. One untimed pass
 * places every page (first-touch faults would otherwise be measured);
 * then, from a common start, each thread writes its buffer in chunks
 * until the budget is spent. memset is the writer: for chunks this large
 * glibc streams them (rep stosb or non-temporal stores), which is what
 * DMA into memory competes with, not a read-modify-write of cache lines.
 * The buffers together are at least 4x the node's L3 caches, so the
 * figure is memory's, not a cache's. */
#include "topo/membw.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "topo/topo_int.h"

#define CHUNK (4ull << 20)	/* written between two looks at the clock */

struct membw_run {
	struct topo *t;
	hwloc_obj_t node;		/* whose memory */
	uint64_t budget_ns;
	/* The gate: each thread counts itself in once its buffer is placed
	 * and waits for the go; a failed start sends them home instead. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned placed;
	bool go, cancel;
	_Atomic uint64_t start_ns;	/* the common start, set by one thread */
};

struct membw_thread {
	struct membw_run *run;
	hwloc_cpuset_t cpu;		/* one PU of its core */
	uint64_t len;
	pthread_t tid;
	bool started;
	uint64_t bytes, end_ns;
	int err;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Writes the whole buffer in chunks until the budget from the common
 * start is spent; counts what it wrote. */
static void stream(struct membw_thread *th, unsigned char *buf)
{
	struct membw_run *r = th->run;
	uint64_t off = 0, start, now, expect = 0;
	int pass = 1;

	/* the first thread past the barrier starts the clock for all */
	atomic_compare_exchange_strong(&r->start_ns, &expect, mono_ns());
	start = atomic_load(&r->start_ns);
	do {
		memset(buf + off, pass, CHUNK);
		th->bytes += CHUNK;
		off += CHUNK;
		if (off + CHUNK > th->len) {
			off = 0;
			pass++;
		}
		now = mono_ns();
	} while (now - start < r->budget_ns);
	th->end_ns = now;
}

static void *membw_thread(void *arg)
{
	struct membw_thread *th = arg;
	struct membw_run *r = th->run;
	unsigned char *buf = NULL;

	if (hwloc_set_cpubind(r->t->h, th->cpu, HWLOC_CPUBIND_THREAD))
		th->err = errno ? -errno : -EINVAL;
	if (!th->err) {
		buf = hwloc_alloc_membind(r->t->h, th->len, r->node->nodeset,
					  HWLOC_MEMBIND_BIND, HWLOC_MEMBIND_BYNODESET);
		if (!buf)
			th->err = errno ? -errno : -ENOMEM;
	}
	if (buf)
		memset(buf, 0, th->len);	/* places every page */
	pthread_mutex_lock(&r->lock);
	r->placed++;
	pthread_cond_broadcast(&r->cond);
	while (!r->go && !r->cancel)
		pthread_cond_wait(&r->cond, &r->lock);
	pthread_mutex_unlock(&r->lock);
	if (buf && !th->err && !r->cancel)
		stream(th, buf);
	if (buf)
		hwloc_free(r->t->h, buf, th->len);
	return NULL;
}

/* The cores that write node's memory: its own, else the nearest node's
 * with cores. */
static hwloc_obj_t writer_node(struct topo *t, unsigned os_index, int *err)
{
	int i = topo_node_index(t, os_index);

	*err = 0;
	if (i < 0) {
		*err = -ENOENT;
		return NULL;
	}
	if (t->nodes[i].cpuless)
		i = topo_nearest_cpu_index(t, os_index);
	if (i < 0) {
		*err = -ENODEV;
		return NULL;
	}
	return t->node_obj[i];
}

/* Each thread's buffer: 4x the L3 caches of the writers' cpuset (or
 * TOPO_MEMBW_TOTAL, whichever is more; but at most a quarter of the
 * node's memory, where known) split over the threads, at least
 * TOPO_MEMBW_MIN_BUF each, a whole number of chunks. */
static uint64_t buffer_len(struct topo *t, hwloc_const_cpuset_t cpus, unsigned n,
			   uint64_t node_mem)
{
	uint64_t l3 = 0, total, each;
	hwloc_obj_t c = NULL;

	while ((c = hwloc_get_next_obj_inside_cpuset_by_type(t->h, cpus, HWLOC_OBJ_L3CACHE, c)))
		l3 += c->attr->cache.size;
	total = 4 * l3 > TOPO_MEMBW_TOTAL ? 4 * l3 : TOPO_MEMBW_TOTAL;
	if (node_mem && total > node_mem / 4)
		total = node_mem / 4;
	each = total / n;
	if (each < TOPO_MEMBW_MIN_BUF)
		each = TOPO_MEMBW_MIN_BUF;
	return (each + CHUNK - 1) / CHUNK * CHUNK;
}

/* One thread per core of cpus, each given the first PU of its core. */
static int make_threads(struct topo *t, hwloc_const_cpuset_t cpus,
			struct membw_thread **out, unsigned *n)
{
	int ncores = hwloc_get_nbobjs_inside_cpuset_by_type(t->h, cpus, HWLOC_OBJ_CORE);
	struct membw_thread *th;
	hwloc_obj_t core = NULL;
	unsigned i = 0;

	if (ncores <= 0)
		return -ENODEV;
	th = calloc((size_t)ncores, sizeof(*th));
	if (!th)
		return -ENOMEM;
	while (i < (unsigned)ncores &&
	       (core = hwloc_get_next_obj_inside_cpuset_by_type(t->h, cpus, HWLOC_OBJ_CORE, core))) {
		th[i].cpu = hwloc_bitmap_alloc();
		if (!th[i].cpu) {
			*out = th;
			*n = i;
			return -ENOMEM;
		}
		hwloc_bitmap_and(th[i].cpu, core->cpuset, cpus);
		hwloc_bitmap_singlify(th[i].cpu);
		i++;
	}
	*out = th;
	*n = i;
	return 0;
}

static void sum_up(const struct membw_run *r, const struct membw_thread *th,
		   unsigned n, struct topo_membw *out)
{
	uint64_t end = 0, start = atomic_load(&r->start_ns);
	unsigned i;

	memset(out, 0, sizeof(*out));
	out->threads = n;
	out->buf_bytes = n ? th[0].len : 0;
	for (i = 0; i < n; i++) {
		out->bytes += th[i].bytes;
		end = th[i].end_ns > end ? th[i].end_ns : end;
	}
	out->ns = end > start ? end - start : 0;
	out->bytes_s = out->ns ? (double)out->bytes * 1e9 / (double)out->ns : 0.0;
}

int topo_membw_measure(struct topo *t, unsigned os_index, uint64_t budget_ns,
		       struct topo_membw *out)
{
	struct membw_run r = { .t = t, .budget_ns = budget_ns,
			       .lock = PTHREAD_MUTEX_INITIALIZER,
			       .cond = PTHREAD_COND_INITIALIZER };
	struct membw_thread *th = NULL;
	hwloc_obj_t writers;
	unsigned i, n = 0;
	int err;

	if (!t->live || !budget_ns)
		return -EINVAL;
	writers = writer_node(t, os_index, &err);
	if (err)
		return err;
	r.node = t->node_obj[topo_node_index(t, os_index)];
	err = make_threads(t, writers->cpuset, &th, &n);
	if (err)
		goto out;
	for (i = 0; i < n; i++) {
		th[i].run = &r;
		th[i].len = buffer_len(t, writers->cpuset, n,
				       t->nodes[topo_node_index(t, os_index)].memory_bytes);
	}
	for (i = 0; i < n && !err; i++) {
		err = -pthread_create(&th[i].tid, NULL, membw_thread, &th[i]);
		th[i].started = !err;
	}
	/* all placed: go together; a thread that did not start: all go home */
	pthread_mutex_lock(&r.lock);
	while (!err && r.placed < n)
		pthread_cond_wait(&r.cond, &r.lock);
	r.go = !err;
	r.cancel = err != 0;
	pthread_cond_broadcast(&r.cond);
	pthread_mutex_unlock(&r.lock);
	for (i = 0; i < n; i++)
		if (th[i].started)
			pthread_join(th[i].tid, NULL);
	for (i = 0; i < n && !err; i++)
		err = th[i].err;
	if (!err)
		sum_up(&r, th, n, out);
out:
	for (i = 0; th && i < n; i++)
		hwloc_bitmap_free(th[i].cpu);
	free(th);
	return err;
}
