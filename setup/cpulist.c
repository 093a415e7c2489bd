/* cpulists as sysfs writes them ("0-3,8,10-11", and blk-mq's "0, 1, 2"),
 * through topo/cpu.h's one parser and formatter: membership, the nodes a
 * list's CPUs sit on, one spelling for both. */
#include <errno.h>
#include <string.h>

#include "setup/setup_int.h"

int setup_cpuset_read(const char *list, struct topo_cpuset *set)
{
	return topo_cpuset_parse(list, TOPO_CPULIST_SYSFS, set);
}

bool setup_cpulist_has(const char *cpulist, int cpu)
{
	struct topo_cpuset set;

	/* the whole list is checked, so a bad tail is a bad list */
	return cpulist && !setup_cpuset_read(cpulist, &set) && topo_cpuset_has(&set, cpu);
}

uint64_t setup_cpulist_nodes(const struct setup_machine *m, const char *cpulist)
{
	struct topo_cpuset set;
	uint64_t nodes = 0;
	int cpu;

	if (!m || !cpulist || setup_cpuset_read(cpulist, &set))
		return 0;
	for (cpu = topo_cpuset_next(&set, -1); cpu >= 0 && cpu < m->ncpus;
	     cpu = topo_cpuset_next(&set, cpu))
		if (m->cpu_node[cpu] >= 0 && m->cpu_node[cpu] < 64)
			nodes |= (uint64_t)1 << m->cpu_node[cpu];
	return nodes;
}
