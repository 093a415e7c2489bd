/* A node's memory write bandwidth: the writers are the node's cores (the
 * nearest node's with cores, for a node without), one thread each, pinned
 * to its core's first PU, writing a buffer bound to the node. Which cores,
 * how large a buffer and the binding are decided here, where the
 * topology is; the measurement itself is engine/membw.c's. Where its
 * writes bypass the caches (ENG_MEMBW_BYPASS) each buffer is
 * TOPO_MEMBW_BUF; elsewhere the buffers together are at least 4x the
 * writers' L3 caches, so the figure is memory's, not a cache's. */
#include "topo/membw.h"

#include <errno.h>
#include <stdlib.h>

#include "engine/membw.h"
#include "topo/topo_int.h"

/* What a writer's thread binds itself to, on its own thread. */
struct membw_pin {
	hwloc_topology_t h;
	hwloc_cpuset_t cpu;		/* one PU of its core */
};

static int pin_thread(void *arg)
{
	const struct membw_pin *p = arg;

	if (hwloc_set_cpubind(p->h, p->cpu, HWLOC_CPUBIND_THREAD))
		return errno ? -errno : -EINVAL;
	return 0;
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

/* Each thread's buffer: TOPO_MEMBW_BUF where the writes bypass the
 * caches; else 4x the L3 caches of the writers' cpuset (or
 * TOPO_MEMBW_TOTAL, whichever is more) split over the threads, at least
 * TOPO_MEMBW_MIN_BUF each. At most a quarter of the node's memory in all,
 * where known, and one chunk at least; a whole number of the engine's
 * chunks. */
static uint64_t buffer_len(struct topo *t, hwloc_const_cpuset_t cpus, unsigned n,
			   uint64_t node_mem)
{
	uint64_t l3 = 0, total, each;
	hwloc_obj_t c = NULL;

	if (ENG_MEMBW_BYPASS) {
		each = TOPO_MEMBW_BUF;
	} else {
		while ((c = hwloc_get_next_obj_inside_cpuset_by_type(t->h, cpus,
								     HWLOC_OBJ_L3CACHE, c)))
			l3 += c->attr->cache.size;
		total = 4 * l3 > TOPO_MEMBW_TOTAL ? 4 * l3 : TOPO_MEMBW_TOTAL;
		each = total / n > TOPO_MEMBW_MIN_BUF ? total / n : TOPO_MEMBW_MIN_BUF;
	}
	if (node_mem && each > node_mem / 4 / n)
		each = node_mem / 4 / n;
	each = each / ENG_MEMBW_CHUNK * ENG_MEMBW_CHUNK;
	return each ? each : ENG_MEMBW_CHUNK;
}

/* One pin per core of cpus, each the first PU of its core; *n of them
 * made, also on failure. */
static int make_pins(struct topo *t, hwloc_const_cpuset_t cpus, struct membw_pin *pin,
		     unsigned max, unsigned *n)
{
	hwloc_obj_t core = NULL;

	*n = 0;
	while (*n < max &&
	       (core = hwloc_get_next_obj_inside_cpuset_by_type(t->h, cpus, HWLOC_OBJ_CORE, core))) {
		pin[*n].h = t->h;
		pin[*n].cpu = hwloc_bitmap_alloc();
		if (!pin[*n].cpu)
			return -ENOMEM;
		hwloc_bitmap_and(pin[*n].cpu, core->cpuset, cpus);
		hwloc_bitmap_singlify(pin[*n].cpu);
		(*n)++;
	}
	return 0;
}

/* Writer i's buffer, bound to node; *n of them made, also on failure.
 * Bound at allocation, so its pages land on the node whichever thread
 * first touches them. */
static int make_buffers(struct topo *t, hwloc_obj_t node, struct eng_membw_writer *w,
			struct membw_pin *pin, unsigned max, uint64_t len, unsigned *n)
{
	for (*n = 0; *n < max; (*n)++) {
		w[*n].len = len;
		w[*n].prepare = pin_thread;
		w[*n].arg = &pin[*n];
		w[*n].buf = hwloc_alloc_membind(t->h, len, node->nodeset, HWLOC_MEMBIND_BIND,
						HWLOC_MEMBIND_BYNODESET);
		if (!w[*n].buf)
			return errno ? -errno : -ENOMEM;
	}
	return 0;
}

int topo_membw_measure(struct topo *t, unsigned os_index, uint64_t budget_ns,
		       struct topo_membw *out)
{
	struct eng_membw_writer *w = NULL;
	struct membw_pin *pin = NULL;
	struct eng_membw m;
	hwloc_obj_t writers;
	unsigned i, ncores, npins = 0, nbufs = 0;
	uint64_t len;
	int err, k;

	if (!t->live || !budget_ns)
		return -EINVAL;
	writers = writer_node(t, os_index, &err);
	if (err)
		return err;
	k = topo_node_index(t, os_index);
	err = hwloc_get_nbobjs_inside_cpuset_by_type(t->h, writers->cpuset, HWLOC_OBJ_CORE);
	if (err <= 0)
		return -ENODEV;
	ncores = (unsigned)err;
	pin = calloc(ncores, sizeof(*pin));
	w = calloc(ncores, sizeof(*w));
	err = pin && w ? 0 : -ENOMEM;
	if (!err)
		err = make_pins(t, writers->cpuset, pin, ncores, &npins);
	if (!err && !npins)
		err = -ENODEV;
	len = err ? 0 : buffer_len(t, writers->cpuset, npins, t->nodes[k].memory_bytes);
	if (!err)
		err = make_buffers(t, t->node_obj[k], w, pin, npins, len, &nbufs);
	if (!err)
		err = eng_membw_measure(w, npins, budget_ns, &m);
	if (!err) {
		out->bytes_s = m.bytes_s;
		out->threads = npins;
		out->buf_bytes = len;
		out->bytes = m.bytes;
		out->ns = m.ns;
	}
	for (i = 0; i < nbufs; i++)
		hwloc_free(t->h, w[i].buf, len);
	for (i = 0; i < npins; i++)
		hwloc_bitmap_free(pin[i].cpu);
	free(w);
	free(pin);
	return err;
}
