/* A target's facts beyond its block queue: whether its PCIe link may
 * enter a low-power state when idle (ASPM), and the blk-cgroup controllers
 * that limit its disk for the process that reads them (io.max, io.latency,
 * io.cost), its own cgroup and every ancestor's: a limit anywhere up the
 * tree applies. cgroup v2 only. */
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

/* The v2 line of <proc>/self/cgroup, "0::/user.slice/...", into out. */
static int own_cgroup(const struct setup_at *at, char *out, size_t len)
{
	char line[512];
	FILE *f;
	int ret = topo_sys_fopen(at->proc, &f, "self/cgroup");

	if (ret)
		return ret;
	ret = -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::/", 4))
			continue;
		line[strcspn(line, "\n")] = '\0';
		topo_copy_str(out, len, line + 3);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
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

/* The line of file <sys>/fs/cgroup<cg>/<file> for device devt ("259:0"),
 * into out; 0 or -errno (-ENOENT: no line for it). */
static int dev_line(const struct setup_at *at, const char *cg, const char *file, const char *devt,
		    char *out, size_t len)
{
	char line[512];
	size_t n = strlen(devt);
	FILE *f;
	int ret = topo_sys_fopen(at->sys, &f, "fs/cgroup%s/%s", strcmp(cg, "/") ? cg : "", file);

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

/* io.max and io.latency of cg and every ancestor; io.cost.qos of the root. */
static void cgroup_limits(const struct setup_at *at, const char *ddir, struct setup_dev *d)
{
	char devt[32], cg[256], line[512], *slash;
	int known = 0;

	if (topo_sys_read(at->sys, devt, sizeof(devt), "%s/dev", ddir) ||
	    own_cgroup(at, cg, sizeof(cg)))
		return;
	topo_copy_str(d->cgroup, sizeof(d->cgroup), cg);
	topo_copy_str(d->devt, sizeof(d->devt), devt);
	for (;;) {
		int r = dev_line(at, cg, "io.max", devt, line, sizeof(line));

		known |= r == 0 || r == -ENOENT;
		if (!r && (lowest(&d->cg_riops, field(line, "riops")) |
			   lowest(&d->cg_rbps, field(line, "rbps"))))
			topo_copy_str(d->cg_max_at, sizeof(d->cg_max_at), cg);
		if (!dev_line(at, cg, "io.latency", devt, line, sizeof(line)) &&
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
	if (!dev_line(at, "/", "io.cost.qos", devt, line, sizeof(line)))
		d->cg_iocost = field(line, "enable") == 1;
	else if (known)
		d->cg_iocost = 0;
}

void setup_dev_extra(const struct setup_at *at, const char *ddir, struct setup_dev *d)
{
	aspm(at, d);
	cgroup_limits(at, ddir, d);
}
