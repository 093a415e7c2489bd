/* A native NVMe multipath head's paths. The head (nvmeXnY, under the
 * subsystem's folder) has a bio-based queue: IO reaches a blk-mq queue only
 * on a hidden path (nvmeXcYnZ, under its controller), so the scheduler,
 * nr_requests, the hardware queues and their interrupts are the paths'.
 * Which path an IO takes is the subsystem's iopolicy. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "setup/setup_int.h"

/* The subsystem's iopolicy, in the folder above the head's. */
static void iopolicy(const struct setup_at *at, const char *ddir, struct setup_dev *d)
{
	char up[PATH_MAX], *slash;

	topo_copy_str(up, sizeof(up), ddir);
	slash = strrchr(up, '/');
	if (!slash)
		return;
	*slash = '\0';
	topo_sys_read(at->sys, d->iopolicy, sizeof(d->iopolicy), "%s/iopolicy", up);
}

/* Before 6.14 a head has no multipath/ folder: its paths are the hidden
 * disks that carry its numbers, nvme<subsystem>c<controller>n<namespace>.
 * A head is the disk whose device is its subsystem, not a controller. */
static int paths_by_name(const struct setup_at *at, const char *ddir, const char *disk,
			 char (**out)[SETUP_NAME_MAX])
{
	char (*names)[SETUP_NAME_MAX] = NULL, real[PATH_MAX];
	unsigned s, n, ps, pc, pn;
	int nn, i, k = 0, end = 0;

	if (sscanf(disk, "nvme%un%u%n", &s, &n, &end) != 2 || disk[end] ||
	    topo_sys_relpath(at->sys, real, "%s/device", ddir) ||
	    strncmp(setup_base(real), "nvme-subsys", 11))
		return 0;
	nn = topo_sys_list(at->sys, &names, "class/block");
	if (nn == -ENOENT)
		nn = topo_sys_list(at->sys, &names, "block");
	if (nn <= 0)
		return nn == -ENOMEM ? nn : 0;
	for (i = 0; i < nn; i++) {
		end = 0;
		if (sscanf(names[i], "nvme%uc%un%u%n", &ps, &pc, &pn, &end) == 3 && !names[i][end] &&
		    ps == s && pn == n)
			memmove(names[k++], names[i], SETUP_NAME_MAX);
	}
	if (!k) {
		free(names);
		names = NULL;
	}
	*out = names;
	return k;
}

int setup_paths_list(const struct setup_at *at, const char *ddir, const char *disk,
		     char (**out)[SETUP_NAME_MAX])
{
	int np = topo_sys_list(at->sys, out, "%s/multipath", ddir);

	return np > 0 || np == -ENOMEM ? np : paths_by_name(at, ddir, disk, out);
}

int setup_paths_read(const struct setup_at *at, const char *ddir, struct setup_dev *d)
{
	char (*names)[SETUP_NAME_MAX] = NULL;
	struct setup_at byname;
	unsigned s, c, n;
	int np, i, end, ret = 0;

	np = setup_paths_list(at, ddir, d->disk, &names);
	if (np <= 0)
		return np == -ENOMEM ? np : 0;	/* not a head */
	d->paths = calloc((size_t)np, sizeof(*d->paths));
	if (!d->paths) {
		free(names);
		return -ENOMEM;
	}
	iopolicy(at, ddir, d);
	/* by name below any root: the live /sys lists a path in class/block */
	byname = *at;
	byname.live_sys = 0;
	for (i = 0; i < np && !ret; i++) {
		end = 0;
		if (sscanf(names[i], "nvme%uc%un%u%n", &s, &c, &n, &end) != 3 || names[i][end])
			continue;
		ret = setup_dev_read_at(&byname, names[i], &d->paths[d->npaths]);
		if (!ret)
			d->npaths++;
		else if (ret != -ENOMEM)
			ret = 0;	/* gone since it was listed: left out */
	}
	free(names);
	return ret;
}
