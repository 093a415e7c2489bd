/* The NVMe subsystems' NQNs of this machine, from
 * /sys/class/nvme-subsystem/<name>/subsysnqn: an NVMe-oF array's
 * subsystem is the same NQN on every host attached to it, so a cluster
 * report can tell which hosts share one (iostorm-mpi). */
#include "topo/topo.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/sysfs.h"

static int cmp_nqn(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* class/nvme-subsystem/name/subsysnqn's first line into buf: 0 or -errno. */
static int read_nqn(const char *root, const char *name, char *buf, size_t len)
{
	int rc = topo_sys_read(root, buf, len, "class/nvme-subsystem/%s/subsysnqn", name);

	return rc ? rc : buf[0] ? 0 : -ENODATA;
}

int topo_subsys_nqns(const char *sysfs_root, char (*nqn)[TOPO_NQN_LEN], unsigned max)
{
	const char *root = sysfs_root ? sysfs_root : "/sys";
	struct dirent *e;
	unsigned n = 0, i;
	DIR *d;
	int rc;

	rc = topo_sys_opendir(root, &d, "class/nvme-subsystem");
	if (rc)
		return rc == -ENOENT ? 0 : rc;
	while ((e = readdir(d)) && n < max) {
		if (e->d_name[0] == '.' || read_nqn(root, e->d_name, nqn[n], TOPO_NQN_LEN))
			continue;
		for (i = 0; i < n && strcmp(nqn[i], nqn[n]); i++)
			;
		n += i == n;	/* two subsystems with one NQN: once */
	}
	closedir(d);
	qsort(nqn, n, sizeof(*nqn), cmp_nqn);
	return (int)n;
}
