/* Memory facts of the live machine (or of a recorded /proc/meminfo). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "topo/topo.h"

int topo_mem_available(const char *meminfo, uint64_t *bytes)
{
	char line[256];
	uint64_t kib;
	FILE *f = fopen(meminfo ? meminfo : "/proc/meminfo", "re");
	int ret = -ENODATA;

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		/* the kernel always writes the unit as "kB", meaning KiB */
		if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kib) == 1) {
			*bytes = kib * 1024;
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}
