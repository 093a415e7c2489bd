/* Names: bounded copies and the multipath head a block device belongs to. */
#include <stdio.h>
#include <string.h>

#include "topo/topo_int.h"

/* bounded copy; cutting a long model string is fine */
void topo_copy_str(char *dst, size_t len, const char *src)
{
	size_t n = src ? strnlen(src, len - 1) : 0;

	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

/* nvme0c1n2 (one path of native NVMe multipath) -> nvme0n2 (the head the
 * user opens); any other name is its own head. */
void topo_head_name(const char *name, char *out, size_t len)
{
	unsigned subsys, ctrl, ns;
	int end = 0;

	if (sscanf(name, "nvme%uc%un%u%n", &subsys, &ctrl, &ns, &end) == 3 &&
	    name[end] == '\0')
		snprintf(out, len, "nvme%un%u", subsys, ns);
	else
		topo_copy_str(out, len, name);
}
