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

static int cmp_nqn(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* dir/name/subsysnqn's first line into buf: 0 or -errno. */
static int read_nqn(const char *dir, const char *name, char *buf, size_t len)
{
	char path[4096];
	FILE *f;
	int rc = 0;

	if (snprintf(path, sizeof(path), "%s/%s/subsysnqn", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		rc = -ENODATA;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return rc ? rc : buf[0] ? 0 : -ENODATA;
}

int topo_subsys_nqns(const char *sysfs_root, char (*nqn)[TOPO_NQN_LEN], unsigned max)
{
	char dir[4096];
	struct dirent *e;
	unsigned n = 0, i;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/class/nvme-subsystem", sysfs_root ? sysfs_root : "/sys");
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d)) && n < max) {
		if (e->d_name[0] == '.' || read_nqn(dir, e->d_name, nqn[n], TOPO_NQN_LEN))
			continue;
		for (i = 0; i < n && strcmp(nqn[i], nqn[n]); i++)
			;
		n += i == n;	/* two subsystems with one NQN: once */
	}
	closedir(d);
	qsort(nqn, n, sizeof(*nqn), cmp_nqn);
	return (int)n;
}
