/* The first core with two PUs this process may use, inside a cpuset. */
#include "topo/smt.h"

#include <errno.h>

#include "topo/topo_int.h"

int topo_smt_pair(struct topo *t, const struct topo_cpuset *cpus, int *pu0, int *pu1)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc(), pus = hwloc_bitmap_alloc();
	hwloc_obj_t core = NULL;
	int a, b, err = -ENOENT;

	if (!set || !pus) {
		err = -ENOMEM;
		goto out;
	}
	if (cpus)
		topo_cpuset_to_hwloc(cpus, set);
	else
		hwloc_bitmap_copy(set, hwloc_topology_get_topology_cpuset(t->h));
	if (t->allowed)
		hwloc_bitmap_and(set, set, t->allowed);
	while ((core = hwloc_get_next_obj_by_type(t->h, HWLOC_OBJ_CORE, core))) {
		hwloc_bitmap_and(pus, core->cpuset, set);
		if (hwloc_bitmap_weight(pus) < 2)
			continue;
		a = hwloc_bitmap_first(pus);
		b = hwloc_bitmap_next(pus, a);
		*pu0 = a;
		*pu1 = b;
		err = 0;
		break;
	}
out:
	hwloc_bitmap_free(set);
	hwloc_bitmap_free(pus);
	return err;
}
