/* NUMA nodes: their cores, memory, host bridges and distances, which of
 * them own no CPUs, and the nearest node with CPUs. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "topo/topo_int.h"

static int append(char **s, const char *sep, const char *item)
{
	size_t a = strlen(*s), b = strlen(sep), c = strlen(item);
	char *n = realloc(*s, a + b + c + 1);

	if (!n)
		return -ENOMEM;
	memcpy(n + a, sep, b);
	memcpy(n + a + b, item, c + 1);
	*s = n;
	return 0;
}

static int node_host_bridges(struct topo *t, struct topo_node *nd)
{
	hwloc_obj_t b = NULL;

	nd->host_bridges = strdup("");
	if (!nd->host_bridges)
		return -ENOMEM;
	while ((b = hwloc_get_next_bridge(t->h, b))) {
		char id[TOPO_BUSID_MAX];

		if (b->attr->bridge.upstream_type != HWLOC_OBJ_BRIDGE_HOST)
			continue;
		/* one of unknown locality is no node's (docs/topo.md) */
		if (topo_io_node(t, b) != (int)nd->os_index)
			continue;
		snprintf(id, sizeof(id), "%04x:%02x",
			 b->attr->bridge.downstream.pci.domain,
			 b->attr->bridge.downstream.pci.secondary_bus);
		if (strstr(nd->host_bridges, id))
			continue;
		if (append(&nd->host_bridges, nd->host_bridges[0] ? ", " : "", id))
			return -ENOMEM;
	}
	return 0;
}

static int node_cmp(const void *a, const void *b)
{
	unsigned x = (*(const hwloc_obj_t *)a)->os_index;
	unsigned y = (*(const hwloc_obj_t *)b)->os_index;

	return (x > y) - (x < y);
}

/*
 * hwloc gives a NUMA node the cpuset of the object it hangs from, so an HBM,
 * MCDRAM or CXL node without CPUs of its own looks local to its neighbours'
 * cores. Linux says which nodes own CPUs; an XML export does not, so there a
 * node is CPU-less when another node's cpuset lies inside its own and is
 * smaller, or is the same and has a lower OS index (firmware numbers the
 * nodes with CPUs first).
 */
static bool node_cpuless(const struct topo *t, unsigned i)
{
	hwloc_obj_t o = t->node_obj[i];
	char buf[64];
	unsigned j;

	if (hwloc_bitmap_iszero(o->cpuset))
		return true;
	if (t->live && t->sysfs &&
	    !topo_sys_read(t->sysfs, buf, sizeof(buf), "devices/system/node/node%u/cpulist", o->os_index))
		return buf[0] == '\0';
	for (j = 0; j < t->nnodes; j++) {
		hwloc_obj_t m = t->node_obj[j];

		if (j == i || !hwloc_bitmap_isincluded(m->cpuset, o->cpuset) ||
		    hwloc_bitmap_iszero(m->cpuset))
			continue;
		if (!hwloc_bitmap_isequal(m->cpuset, o->cpuset) || m->os_index < o->os_index)
			return true;
	}
	return false;
}

int topo_load_nodes(struct topo *t)
{
	int n = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_NUMANODE);
	struct hwloc_distances_s *dist = NULL;
	unsigned nr = 1, i, j;
	int ret;

	if (n <= 0)
		return -EINVAL;
	t->nodes = calloc((size_t)n, sizeof(*t->nodes));
	t->node_obj = calloc((size_t)n, sizeof(*t->node_obj));
	if (!t->nodes || !t->node_obj)
		return -ENOMEM;
	t->nnodes = (unsigned)n;
	for (i = 0; i < t->nnodes; i++)
		t->node_obj[i] = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_NUMANODE, i);
	/* reports list nodes by OS index (DDR 0-7 before HBM 8-15) */
	qsort(t->node_obj, t->nnodes, sizeof(*t->node_obj), node_cmp);
	for (i = 0; i < t->nnodes; i++) {
		hwloc_obj_t o = t->node_obj[i];
		struct topo_node *nd = &t->nodes[i];

		nd->os_index = o->os_index;
		nd->cpuless = node_cpuless(t, i);
		if (!nd->cpuless) {
			nd->cores = (unsigned)hwloc_get_nbobjs_inside_cpuset_by_type(t->h, o->cpuset, HWLOC_OBJ_CORE);
			nd->pus = (unsigned)hwloc_get_nbobjs_inside_cpuset_by_type(t->h, o->cpuset, HWLOC_OBJ_PU);
		}
		nd->memory_bytes = o->attr->numanode.local_memory;
		ret = topo_cpuset_from_hwloc(o->cpuset, &nd->cpuset);
		if (!ret)
			ret = topo_cpuset_asprintf(&nd->cpuset, &nd->cpus);
		if (ret)
			return ret;
	}
	/* after every node: a host bridge's node is the one with CPUs */
	for (i = 0; i < t->nnodes; i++) {
		ret = node_host_bridges(t, &t->nodes[i]);
		if (ret)
			return ret;
	}
	/* the first NUMA distance matrix hwloc has, latency preferred */
	if (hwloc_distances_get_by_type(t->h, HWLOC_OBJ_NUMANODE, &nr, &dist,
					HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) || !nr) {
		nr = 1;
		if (hwloc_distances_get_by_type(t->h, HWLOC_OBJ_NUMANODE, &nr, &dist, 0, 0) || !nr)
			return 0;
	}
	t->dist = calloc((size_t)t->nnodes * t->nnodes, sizeof(*t->dist));
	if (!t->dist) {
		hwloc_distances_release(t->h, dist);
		return -ENOMEM;
	}
	for (i = 0; i < t->nnodes; i++)
		for (j = 0; j < t->nnodes; j++) {
			hwloc_uint64_t a = 0, b = 0;

			if (!hwloc_distances_obj_pair_values(dist, t->node_obj[i], t->node_obj[j], &a, &b))
				t->dist[i * t->nnodes + j] = a;
		}
	hwloc_distances_release(t->h, dist);
	return 0;
}

/* What topo_load_nodes allocated, also after it failed half way. */
void topo_free_nodes(struct topo *t)
{
	unsigned i;

	for (i = 0; t->nodes && i < t->nnodes; i++) {
		free(t->nodes[i].cpus);
		free(t->nodes[i].host_bridges);
	}
	free(t->nodes);
	free(t->node_obj);
	free(t->dist);
}

unsigned topo_nnodes(const struct topo *t)
{
	return t->nnodes;
}

const struct topo_node *topo_node(const struct topo *t, unsigned i)
{
	return i < t->nnodes ? &t->nodes[i] : NULL;
}

int topo_node_index(const struct topo *t, unsigned os_index)
{
	unsigned i;

	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].os_index == os_index)
			return (int)i;
	return -ENOENT;
}

int topo_nearest_cpu_node(const struct topo *t, unsigned os_index)
{
	int from = topo_node_index(t, os_index), best = -1;
	uint64_t bestd = UINT64_MAX;
	unsigned j;

	if (from < 0)
		return from;
	if (t->nodes[from].pus)
		return (int)os_index;
	for (j = 0; j < t->nnodes; j++) {
		uint64_t d;

		if (!t->nodes[j].pus)
			continue;
		d = t->dist ? t->dist[(unsigned)from * t->nnodes + j] : 0;
		if (best < 0 || (t->dist && d && d < bestd)) {
			best = (int)j;
			bestd = d ? d : UINT64_MAX;
		}
	}
	return best < 0 ? -ENOENT : (int)t->nodes[best].os_index;
}

/* Index of the node with CPUs nearest to node os_index, -ENOENT: none. */
int topo_nearest_cpu_index(const struct topo *t, unsigned os_index)
{
	int near = topo_nearest_cpu_node(t, os_index);

	return near < 0 ? -ENOENT : topo_node_index(t, (unsigned)near);
}
