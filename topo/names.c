/* Names: the multipath head a block device belongs to, and the PCI facts a
 * sysfs device path spells out. (Bounded copies and natural order are
 * topo/sysfs.h's: topo_copy_str, topo_name_cmp.) */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "topo/topo_int.h"

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

/* The last component of a sysfs device path that is a PCI bus id: the
 * function nearest the device. -ENOENT: none (a virtual device). */
int topo_last_busid(const char *path, char *out, size_t len)
{
	const char *p, *last = NULL;
	size_t n = 0;

	for (p = path; *p; p += strcspn(p, "/")) {
		unsigned a, b, c, e;
		int end = 0;

		p += strspn(p, "/");
		if (sscanf(p, "%x:%x:%x.%x%n", &a, &b, &c, &e, &end) == 4 &&
		    (p[end] == '/' || !p[end])) {
			last = p;
			n = (size_t)end;
		}
	}
	if (!last || n >= len)
		return -ENOENT;
	memcpy(out, last, n);
	out[n] = '\0';
	return 0;
}

/* The root bus a sysfs device path starts from ("/devices/pci0000:40/..."):
 * "0000:40", which names its host bridge. -ENOENT: not under a PCI root. */
int topo_root_bus(const char *path, char *out, size_t len)
{
	const char *p = strstr(path, "/devices/pci");
	unsigned dom, bus;
	int end = 0;

	if (!p || sscanf(p + 12, "%4x:%2x%n", &dom, &bus, &end) != 2 || p[12 + end] != '/')
		return -ENOENT;
	snprintf(out, len, "%04x:%02x", dom, bus);
	return 0;
}
