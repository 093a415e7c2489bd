/* Inside topo/: the loaded topology and the helpers its files share. Not
 * for other modules. */
#ifndef TOPO_TOPO_INT_H
#define TOPO_TOPO_INT_H

#include <hwloc.h>

#include "topo/cpu_int.h"
#include "topo/sysfs.h"
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
	struct topo_host_bridge *hbs;	/* bridges.c, in bus order */
	unsigned nhbs;
	struct topo_cpukind *kinds;	/* kinds.c, rank order */
	unsigned nkinds;
	enum topo_kind_basis kind_basis;
};

/* names.c */
void topo_head_name(const char *name, char *out, size_t len);
int topo_last_busid(const char *path, char *out, size_t len);
int topo_root_bus(const char *path, char *out, size_t len);


/* dev.c */
struct topo_dev *topo_dev_new(const char *name, const char *path_name);
void topo_dev_free(struct topo_dev *d);
hwloc_obj_t topo_pci_parent(hwloc_obj_t o);
int topo_dev_from_hwloc(struct topo *t, const char *name, hwloc_obj_t osdev,
			hwloc_obj_t pci, struct topo_dev **out);
int topo_dev_from_path(struct topo *t, const char *name, const char *path_name,
		       hwloc_obj_t osdev, hwloc_obj_t pci, struct topo_dev **out);
void topo_busid(hwloc_obj_t pci, char *out, size_t len);
void topo_host_bridge(hwloc_obj_t pci, char *out, size_t len);
int topo_dev_set_locality(struct topo *t, struct topo_dev *d, hwloc_const_cpuset_t cpus,
			  hwloc_const_nodeset_t nodes);

/* paths.c */
int topo_dev_find_paths(struct topo *t, struct topo_dev *d);
bool topo_paths_span_nodes(const struct topo_dev *d);

/* topo.c */
struct topo_dev *topo_find_dev(struct topo *t, const char *name);
int topo_push_dev(struct topo_dev ***arr, unsigned *n, unsigned *cap, struct topo_dev *d);

/* nodes.c */
int topo_load_nodes(struct topo *t);
void topo_free_nodes(struct topo *t);
int topo_nearest_cpu_index(const struct topo *t, unsigned os_index);

/* bridges.c */
int topo_load_bridges(struct topo *t);
void topo_free_bridges(struct topo *t);
/* The NUMA node a host bridge (or any I/O object) is local to: the one
 * node of its non-I/O ancestor, else the one of them with CPUs; -1 when
 * that is not one node (the firmware gave none: hwloc hangs it from the
 * machine). */
int topo_io_node(const struct topo *t, hwloc_obj_t io);

/* kinds.c */
int topo_load_kinds(struct topo *t);
void topo_free_kinds(struct topo *t);

/* find_bridges.c: the root-complex and unknown-locality findings about
 * devs, at most max into out; returns how many. */
unsigned topo_bridge_findings(struct topo *t, const struct topo_dev *const *devs,
			      unsigned ndevs, struct topo_finding *out, unsigned max);
/* Host bridge hb's free root ports as a finding names them: how many, and
 * the first three's bus ids. */
void topo_free_ports(const struct topo_host_bridge *hb, struct topo_finding_hb *out);
/* Whether d sits under a host bridge whose node is unknown. */
bool topo_dev_locality_unknown(const struct topo *t, const struct topo_dev *d);

/* xml.c: an XML export in memory, '\0' included in len (hwloc's int) */
struct topo_xml {
	char *buf;
	int len;
};
/* Reads path whole. 0, -errno of open/read, -EFBIG or -ENOMEM. */
int topo_xml_read(const char *path, struct topo_xml *x);
/* Whether hwloc loads x, tried in a child process. 0, -EINVAL (refused,
 * or hwloc crashed on it), -ENOMEM or the -errno of fork. */
int topo_xml_probe(const struct topo_xml *x);
/* topo.c: filters and components of a topology to load from x (NULL: the
 * live machine). 0, or -EINVAL when hwloc refuses the buffer. */
int topo_hwloc_setup(hwloc_topology_t h, const struct topo_xml *x);

#endif
