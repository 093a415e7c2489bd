/* CPU numbers: a cpulist parsed, and the CPU a thread is bound to. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "topo/topo.h"

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int topo_cpulist_parse(const char *s, int **cpus)
{
	hwloc_bitmap_t b = hwloc_bitmap_alloc();
	int n, i, k = 0, *a;
	const char *p;

	if (!b)
		return -ENOMEM;
	/* hwloc's parser accepts trailing junk; we do not */
	for (p = s; *p; p++)
		if (!strchr("0123456789,-", *p))
			break;
	if (*p || !*s || hwloc_bitmap_list_sscanf(b, s) || hwloc_bitmap_iszero(b) ||
	    (n = hwloc_bitmap_weight(b)) < 0) {
		hwloc_bitmap_free(b);
		return -EINVAL;
	}
	a = malloc((size_t)n * sizeof(*a));
	if (!a) {
		hwloc_bitmap_free(b);
		return -ENOMEM;
	}
	hwloc_bitmap_foreach_begin(i, b)
		a[k++] = i;
	hwloc_bitmap_foreach_end();
	hwloc_bitmap_free(b);
	qsort(a, (size_t)n, sizeof(*a), cmp_int);
	*cpus = a;
	return n;
}

int topo_thread_cpu(pid_t tid, int *cpu)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	if (sched_getaffinity(tid, sizeof(set), &set))
		return -errno;
	if (CPU_COUNT(&set) != 1) {
		*cpu = -1;
		return 0;
	}
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set)) {
			*cpu = i;
			return 0;
		}
	return -EINVAL;
}
