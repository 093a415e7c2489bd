/* A target's facts beyond its block queue: whether its PCIe link may
 * enter a low-power state when idle (ASPM), and the blk-cgroup controllers
 * that limit its disk for the process that reads them (io.max, io.latency,
 * io.cost), its own cgroup and every ancestor's: a limit anywhere up the
 * tree applies; on cgroup v1 (and a hybrid host's blkio), its own
 * cgroup's blkio.throttle files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "setup/setup_int.h"

static void aspm(const struct setup_at *at, struct setup_dev *d)
{
	int v;

	if (!d->pci[0])
		return;
	if (!topo_sys_read_int(at->sys, &v, "bus/pci/devices/%s/link/l1_aspm", d->pci) && v >= 0)
		d->l1_aspm = v ? 1 : 0;
	if (!topo_sys_read_int(at->sys, &v, "bus/pci/devices/%s/link/l0s_aspm", d->pci) && v >= 0)
		d->l0s_aspm = v ? 1 : 0;
}

/* The process's cgroups (<proc>/self/cgroup): the path of the v1
 * hierarchy that holds the blkio controller ("7:blkio:/user.slice", where
 * the controllers field is a comma list) into v1, and the v2 path ("0::/")
 * into v2; "" where the file has no such line. A hybrid host has both, and
 * then blkio is v1's: a controller sits in one hierarchy at a time. 0, or
 * the -errno of the open. */
static int own_cgroups(const struct setup_at *at, char *v1, char *v2, size_t len)
{
	char line[512], *ctl, *path, *tok, *save = NULL;
	FILE *f;
	int ret = topo_sys_fopen(at->proc, &f, "self/cgroup");

	if (ret)
		return ret;
	v1[0] = v2[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		ctl = strchr(line, ':');
		path = ctl ? strchr(ctl + 1, ':') : NULL;
		if (!path || path[1] != '/')
			continue;
		*ctl++ = '\0';
		*path++ = '\0';
		if (!strcmp(line, "0") && !ctl[0]) {
			topo_copy_str(v2, len, path);
			continue;
		}
		for (tok = strtok_r(ctl, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			if (!strcmp(tok, "blkio"))
				topo_copy_str(v1, len, path);
	}
	fclose(f);
	return 0;
}

/* The value of key=V in a "MAJ:MIN k=v k=v" line; -1 for "max" or none. */
static int64_t field(const char *line, const char *key)
{
	size_t n = strlen(key);
	const char *p = line;
	int64_t v;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[n] == '=') {
			char word[32];

			topo_copy_str(word, sizeof(word), p + n + 1);
			word[strcspn(word, " ")] = '\0';
			return topo_parse_i64(word, &v) ? -1 : v;
		}
		p += n;
	}
	return -1;
}

/* Where cgroup v2 and v1's blkio hierarchy are mounted below the sysfs
 * root: systemd's places, and RHEL 7/8's and Debian's hybrid layouts'. */
#define CG_V2 "fs/cgroup"
#define CG_V1 "fs/cgroup/blkio"

/* The line of file <sys>/<mnt><cg>/<file> for device devt ("259:0"),
 * into out; 0 or -errno (-ENOENT: no line for it). */
static int dev_line(const struct setup_at *at, const char *mnt, const char *cg, const char *file,
		    const char *devt, char *out, size_t len)
{
	char line[512];
	size_t n = strlen(devt);
	FILE *f;
	int ret = topo_sys_fopen(at->sys, &f, "%s%s/%s", mnt, strcmp(cg, "/") ? cg : "", file);

	if (ret)
		return ret;
	ret = -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, devt, n) || line[n] != ' ')
			continue;
		line[strcspn(line, "\n")] = '\0';
		topo_copy_str(out, len, line);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/* Keeps the lowest limit; 1 when v is it now. */
static int lowest(int64_t *have, int64_t v)
{
	if (v < 0 || (*have >= 0 && v >= *have))
		return 0;
	*have = v;
	return 1;
}

/* A v1 blkio.throttle file's limit for devt ("MAJ:MIN VALUE"): the
 * value, or -1 for none (a limit of 0 is none: tg_set_conf stores it as
 * no limit, and the file then shows no line); *known when the file was
 * read. */
static int64_t v1_limit(const struct setup_at *at, const char *cg, const char *file,
			const char *devt, int *known)
{
	char line[512];
	int64_t v;
	int r = dev_line(at, CG_V1, cg, file, devt, line, sizeof(line));

	*known |= r == 0 || r == -ENOENT;
	if (r || topo_parse_i64(line + strlen(devt) + 1, &v) || v <= 0)
		return -1;
	return v;
}

/* cgroup v1: blk-throttle's legacy files set the same read limits as
 * io.max (throtl_legacy_files, block/blk-throttle.c), but a v1 hierarchy
 * is flat: only on the default hierarchy does a group queue below its
 * parent (throtl_pd_init), so only the process's own group binds. v1 has
 * no io.latency and no io.cost (both are cgroup v2 files alone). */
static void cgroup_v1(const struct setup_at *at, const char *cg, struct setup_dev *d)
{
	int known = 0;

	d->cg_v1 = true;
	d->cg_riops = v1_limit(at, cg, "blkio.throttle.read_iops_device", d->devt, &known);
	d->cg_rbps = v1_limit(at, cg, "blkio.throttle.read_bps_device", d->devt, &known);
	if (d->cg_riops >= 0 || d->cg_rbps >= 0)
		topo_copy_str(d->cg_max_at, sizeof(d->cg_max_at), cg);
	if (known)
		d->cg_iocost = 0;
}

/* cgroup v2: io.max and io.latency of cg and every ancestor; io.cost.qos
 * of the root. */
static void cgroup_v2(const struct setup_at *at, const char *cgroup, struct setup_dev *d)
{
	char cg[256], line[512], *slash;
	const char *devt = d->devt;
	int known = 0;

	topo_copy_str(cg, sizeof(cg), cgroup);
	for (;;) {
		int r = dev_line(at, CG_V2, cg, "io.max", devt, line, sizeof(line));

		known |= r == 0 || r == -ENOENT;
		if (!r && (lowest(&d->cg_riops, field(line, "riops")) |
			   lowest(&d->cg_rbps, field(line, "rbps"))))
			topo_copy_str(d->cg_max_at, sizeof(d->cg_max_at), cg);
		if (!dev_line(at, CG_V2, cg, "io.latency", devt, line, sizeof(line)) &&
		    lowest(&d->cg_latency_us, field(line, "target")))
			topo_copy_str(d->cg_latency_at, sizeof(d->cg_latency_at), cg);
		if (!strcmp(cg, "/"))
			break;
		slash = strrchr(cg, '/');
		if (slash == cg)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	if (!dev_line(at, CG_V2, "/", "io.cost.qos", devt, line, sizeof(line)))
		d->cg_iocost = field(line, "enable") == 1;
	else if (known)
		d->cg_iocost = 0;
}

/* The limits on the disk (ddir) for the process's cgroup: v1's blkio
 * where the blkio controller is on a v1 hierarchy (a v1 or hybrid host),
 * else v2's. */
static void cgroup_limits(const struct setup_at *at, const char *ddir, struct setup_dev *d)
{
	char devt[32], v1[256], v2[256];

	if (topo_sys_read(at->sys, devt, sizeof(devt), "%s/dev", ddir) ||
	    own_cgroups(at, v1, v2, sizeof(v1)) || (!v1[0] && !v2[0]))
		return;
	topo_copy_str(d->devt, sizeof(d->devt), devt);
	topo_copy_str(d->cgroup, sizeof(d->cgroup), v1[0] ? v1 : v2);
	if (v1[0])
		cgroup_v1(at, v1, d);
	else
		cgroup_v2(at, v2, d);
}

void setup_dev_extra(const struct setup_at *at, const char *ddir, struct setup_dev *d)
{
	aspm(at, d);
	cgroup_limits(at, ddir, d);
}
