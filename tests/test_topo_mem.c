/* topo_mem_available: MemAvailable from hand-written meminfo files (one
 * from a kernel too old to have the line), a missing file, then the live
 * machine's. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/helpers.h"
#include "topo/topo.h"

static char fx[4096];

static int avail(const char *name, uint64_t *bytes)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", fx, name);
	return topo_mem_available(path, bytes);
}

int main(void)
{
	const char *src = getenv("IOSTORM_SRC");
	uint64_t b = 7;
	int ret;

	snprintf(fx, sizeof(fx), "%s/tests/fixtures", src && src[0] ? src : ".");
	ret = avail("meminfo-6.1", &b);
	CHECKF(ret == 0 && b == 123456ull * 1024, "6.1: %d, %" PRIu64, ret, b);
	/* failures leave the out-parameter alone */
	b = 7;
	ret = avail("meminfo-3.10", &b);
	CHECKF(ret == -ENODATA && b == 7, "3.10 (no MemAvailable): %d, %" PRIu64, ret, b);
	ret = avail("no-such-meminfo", &b);
	CHECKF(ret == -ENOENT && b == 7, "missing: %d", ret);
	ret = topo_mem_available(NULL, &b);
	CHECKF(ret == 0 && b > 0 && b != 7, "live: %d, %" PRIu64, ret, b);
	return t_result();
}
