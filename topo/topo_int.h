/* Inside topo/: the loaded topology. Not for other modules. */
#ifndef TOPO_TOPO_INT_H
#define TOPO_TOPO_INT_H

#include <hwloc.h>

#include "topo/topo.h"

struct topo {
	hwloc_topology_t h;
	bool h_init;
	bool live;
	char *sysfs;			/* NULL: no sysfs facts */
	hwloc_bitmap_t allowed;		/* PUs placement may use */
	struct topo_dev **devs;		/* NVMe namespaces found at load */
	unsigned ndevs, devcap;
	struct topo_dev **extra;	/* devices looked up by path */
	unsigned nextra, extracap;
	struct topo_node *nodes;	/* NUMA nodes, logical order */
	hwloc_obj_t *node_obj;
	unsigned nnodes;
	uint64_t *dist;			/* nnodes x nnodes, NULL: none recorded */
};

void topo_head_name(const char *name, char *out, size_t len);
void topo_dev_free(struct topo_dev *d);

#endif
