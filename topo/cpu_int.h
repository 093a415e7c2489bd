/* Inside topo/ only: the set to and from hwloc's bitmap, where topo
 * places threads with hwloc and keeps sets everywhere else (topo/cpu.h),
 * and a set's cpulist of any length. Apart from topo_int.h so that cpu.c
 * needs hwloc alone, not the topology's internals (no cpu <-> topo include
 * circle). */
#ifndef TOPO_CPU_INT_H
#define TOPO_CPU_INT_H

#include <hwloc.h>

#include "topo/cpu.h"

/* The set and hwloc's bitmap, both ways. from_hwloc: 0, or -ERANGE for a
 * PU at or above TOPO_CPUSET_MAX (no Linux has one). */
int topo_cpuset_from_hwloc(hwloc_const_bitmap_t b, struct topo_cpuset *s);
void topo_cpuset_to_hwloc(const struct topo_cpuset *s, hwloc_bitmap_t b);
/* The set's cpulist, malloc'd, into *out: 0 or -ENOMEM. */
int topo_cpuset_asprintf(const struct topo_cpuset *s, char **out);

#endif
