/* Every row of ../shared/topologies/README.md's NVMe table, read through
 * topo_load + topo_lookup on the real lstopo exports: bus id, local NUMA
 * nodes, local PUs, local core and PU counts, link GB/s; plus each file's
 * node count and NVMe count. Skips when ../shared is absent. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/helpers.h"
#include "topo/topo.h"

struct row {
	const char *file, *dev, *pci, *nodes, *pus;
	unsigned cores, npus;
	double gbps;		/* -1: not recorded */
};

/* The README's "Expected NVMe mapping (hwloc 2.9)" table, row by row. */
static const struct row rows[] = {
	{ "2socket-epyc7401-8numa-1nvme.xml", "nvme0n1", "0000:01:00.0", "0", "0-5,48-53", 6, 12, 3.94 },
	{ "2socket-epyc7402-2numa-1nvme.xml", "nvme0n1", "0000:21:00.0", "0", "0-23,48-71", 24, 48, 3.94 },
	{ "2socket-xeon8480-snc4-8numa-1nvme-multipath.xml", "nvme0c0n1", "0000:4b:00.0", "3", "42-55,154-167", 14, 28, 7.88 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme0n1", "0001:83:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme0n2", "0001:83:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme1n1", "0001:84:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme1n2", "0001:84:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme2n1", "0001:85:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme2n2", "0001:85:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme3n1", "0001:86:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme3n2", "0001:86:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme4n1", "0001:87:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme4n2", "0001:87:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme5n1", "0001:88:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme5n2", "0001:88:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme6n1", "0001:89:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme6n2", "0001:89:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme7n1", "0001:8b:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme7n2", "0001:8b:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme8n1", "0001:8c:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme8n2", "0001:8c:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme9n1", "0001:8d:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme9n2", "0001:8d:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme10n1", "0001:8e:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme10n2", "0001:8e:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme11n1", "0001:8f:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme11n2", "0001:8f:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme12n1", "0001:91:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme12n2", "0001:91:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme13n1", "0001:92:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme13n2", "0001:92:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme14n1", "0001:93:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme14n2", "0001:93:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme15n1", "0001:94:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", "nvme15n2", "0001:94:00.0", "1", "24-47,120-143", 24, 48, -1 },
	{ "2socket-xeonmax9462-hbmflat-16numa-1nvme.xml", "nvme0n1", "0000:49:00.0", "3,11", "24-31,88-95", 8, 16, 7.88 },
	{ "2socket-xeon8259cl-awsg4dn-2numa-3nvme.xml", "nvme0n1", "0000:a0:00.0", "0", "0-23,48-71", 24, 48, 3.94 },
	{ "2socket-xeon8259cl-awsg4dn-2numa-3nvme.xml", "nvme1n1", "0000:bf:00.0", "0", "0-23,48-71", 24, 48, 7.88 },
	{ "2socket-xeon8259cl-awsg4dn-2numa-3nvme.xml", "nvme2n1", "0000:bf:00.1", "0", "0-23,48-71", 24, 48, 7.88 },
	{ "2socket-power9-lassen-2numa-1nvme.xml", "nvme0n1", "0000:01:00.0", "0", "8-87", 20, 80, 7.88 },
	{ "1socket-knl64c-snc4flat-8numa-1nvme.xml", "nvme0n1", "0000:01:00.0", "0,4", "0-15,64-79,128-143,192-207", 16, 64, 3.94 },
};

struct summary {
	const char *file;
	unsigned nnodes;
	const char *node_os;	/* P# of the NUMA nodes */
	unsigned nvme;		/* namespaces discovered */
};

static const struct summary sums[] = {
	{ "2socket-epyc7401-8numa-1nvme.xml", 8, "0-7", 1 },
	{ "2socket-epyc7402-2numa-1nvme.xml", 2, "0,1", 1 },
	{ "2socket-xeon8480-snc4-8numa-1nvme-multipath.xml", 8, "0-7", 1 },
	{ "4socket-mi300a-4numa-16nvme-32ns.xml", 4, "0-3", 32 },
	{ "2socket-xeonmax9462-hbmflat-16numa-1nvme.xml", 16, "0-15", 1 },
	{ "2socket-xeon8259cl-awsg4dn-2numa-3nvme.xml", 2, "0,1", 3 },
	{ "2socket-power9-lassen-2numa-1nvme.xml", 2, "0,8", 1 },
	{ "1socket-knl64c-snc4flat-8numa-1nvme.xml", 8, "0-7", 1 },
};

static void node_list(const unsigned *n, unsigned cnt, char *buf, size_t len)
{
	size_t o = 0;
	unsigned i, j;

	buf[0] = '\0';
	/* compress runs so "0-7" and "3,11" both compare as written */
	for (i = 0; i < cnt && o < len; i = j) {
		for (j = i + 1; j < cnt && n[j] == n[j - 1] + 1; j++)
			;
		if (j - i > 2)
			o += (size_t)snprintf(buf + o, len - o, "%s%u-%u", o ? "," : "", n[i], n[j - 1]);
		else
			for (; i < j && o < len; i++)
				o += (size_t)snprintf(buf + o, len - o, "%s%u", o ? "," : "", n[i]);
	}
}

static void check_row(struct topo *t, const struct row *r)
{
	const struct topo_dev *d = NULL;
	char nodes[128];
	int ret = topo_lookup(t, r->dev, &d);

	CHECKF(ret == 0, "%s: lookup %s: %d", r->file, r->dev, ret);
	if (ret)
		return;
	CHECKF(!strcmp(d->pci, r->pci), "%s %s: pci %s, want %s", r->file, r->dev, d->pci, r->pci);
	CHECKF(d->nvme && d->has_pci, "%s %s: not seen as NVMe on PCI", r->file, r->dev);
	node_list(d->nodes, d->nnodes, nodes, sizeof(nodes));
	CHECKF(!strcmp(nodes, r->nodes), "%s %s: nodes %s, want %s", r->file, r->dev, nodes, r->nodes);
	CHECKF(d->cpus && !strcmp(d->cpus, r->pus), "%s %s: cpus %s, want %s", r->file, r->dev,
	       d->cpus ? d->cpus : "(null)", r->pus);
	CHECKF(d->ncores == r->cores, "%s %s: %u cores, want %u", r->file, r->dev, d->ncores, r->cores);
	CHECKF(d->npus == r->npus, "%s %s: %u PUs, want %u", r->file, r->dev, d->npus, r->npus);
	if (r->gbps < 0)
		CHECKF(d->link.gbps < 0, "%s %s: gbps %g, want unknown", r->file, r->dev, d->link.gbps);
	else
		CHECKF(fabs(d->link.gbps - r->gbps) < 0.01, "%s %s: gbps %g, want %g", r->file,
		       r->dev, d->link.gbps, r->gbps);
	/* an XML export has no sysfs: the rest of the link is unknown */
	CHECK(d->link.speed_gts < 0 && d->link.width < 0 && d->link.max_width < 0);
	CHECKF(d->host_bridge[0] != '\0', "%s %s: no host bridge", r->file, r->dev);
}

static void check_file(const char *dir, const struct summary *s)
{
	char path[8192], nodes[128];
	unsigned os[64], i, n;
	struct topo *t = NULL;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, s->file);
	ret = topo_load(&t, path, NULL);
	CHECKF(ret == 0, "%s: topo_load: %s", s->file, strerror(-ret));
	if (ret)
		return;
	CHECK(!topo_is_live(t));
	n = topo_nnodes(t);
	CHECKF(n == s->nnodes, "%s: %u nodes, want %u", s->file, n, s->nnodes);
	for (i = 0; i < n && i < 64; i++)
		os[i] = topo_node(t, i)->os_index;
	node_list(os, n < 64 ? n : 64, nodes, sizeof(nodes));
	CHECKF(!strcmp(nodes, s->node_os), "%s: nodes %s, want %s", s->file, nodes, s->node_os);
	CHECKF(topo_ndevs(t) == s->nvme, "%s: %u NVMe, want %u", s->file, topo_ndevs(t), s->nvme);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(rows[i].file, s->file))
			check_row(t, &rows[i]);
	/* discovered devices are the rows' devices, no more */
	for (i = 0; i < topo_ndevs(t); i++) {
		const struct topo_dev *d = topo_dev(t, i);
		unsigned k;
		bool found = false;

		for (k = 0; k < sizeof(rows) / sizeof(rows[0]) && !found; k++)
			found = !strcmp(rows[k].file, s->file) &&
				(!strcmp(rows[k].dev, d->name) || !strcmp(rows[k].dev, d->path_name));
		CHECKF(found, "%s: unexpected device %s", s->file, d->name);
	}
	topo_free(t);
}

/* Native multipath: hwloc shows the path nvme0c0n1; the user opens the
 * head nvme0n1. Both names find the same device. */
static void check_multipath(const char *dir)
{
	char path[8192];
	const struct topo_dev *a = NULL, *b = NULL;
	struct topo *t = NULL;

	snprintf(path, sizeof(path), "%s/2socket-xeon8480-snc4-8numa-1nvme-multipath.xml", dir);
	if (topo_load(&t, path, NULL)) {
		CHECK(0);
		return;
	}
	CHECK(topo_lookup(t, "/dev/nvme0n1", &a) == 0);
	CHECK(topo_lookup(t, "nvme0c0n1", &b) == 0);
	CHECK(a && a == b);
	CHECK(a && !strcmp(a->name, "nvme0n1") && !strcmp(a->path_name, "nvme0c0n1"));
	CHECK(topo_lookup(t, "/dev/nvme9n1", &a) == -ENOENT);
	topo_free(t);
}

static struct topo *load(const char *dir, const char *file)
{
	char path[8192];
	struct topo *t = NULL;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	CHECKF(topo_load(&t, path, NULL) == 0, "%s", file);
	return t;
}

/* Placement on real machines: memory on the DDR node beside HBM, cores
 * before SMT siblings, remote = the other socket. */
static void check_place(const char *dir)
{
	const char *paths[] = { "nvme0n1" };
	static struct topo_slot s[30];
	unsigned nw[] = { 2 }, i;
	struct topo *t;

	if ((t = load(dir, "2socket-xeonmax9462-hbmflat-16numa-1nvme.xml"))) {
		CHECK(topo_place(t, TOPO_PLACE_LOCAL, paths, nw, 1, s, NULL) == 0);
		CHECKF(s[0].cpu == 24 && s[1].cpu == 25 && s[0].node == 3 && s[1].node == 3,
		       "xeonmax: cpu %d/%d node %d/%d", s[0].cpu, s[1].cpu, s[0].node, s[1].node);
		CHECK(topo_node(t, (unsigned)topo_node_index(t, 11))->cpuless);
		CHECK(topo_nearest_cpu_node(t, 11) == 3);
		topo_free(t);
	}
	if ((t = load(dir, "1socket-knl64c-snc4flat-8numa-1nvme.xml"))) {
		CHECK(topo_place(t, TOPO_PLACE_LOCAL, paths, nw, 1, s, NULL) == 0);
		CHECK(s[0].node == 0 && s[1].node == 0 && s[0].cpu == 0 && s[1].cpu == 1);
		topo_free(t);
	}
	if ((t = load(dir, "2socket-xeon8259cl-awsg4dn-2numa-3nvme.xml"))) {
		nw[0] = 30;
		CHECK(topo_place(t, TOPO_PLACE_LOCAL, paths, nw, 1, s, NULL) == 0);
		/* 24 cores 0-23 first, then their siblings 48.. */
		for (i = 0; i < 24; i++)
			CHECKF(s[i].cpu == (int)i && s[i].node == 0, "aws slot %u: cpu %d", i, s[i].cpu);
		for (i = 24; i < 30; i++)
			CHECKF(s[i].cpu == (int)i + 24, "aws slot %u: cpu %d", i, s[i].cpu);
		nw[0] = 2;
		CHECK(topo_place(t, TOPO_PLACE_REMOTE, paths, nw, 1, s, NULL) == 0);
		CHECK(s[0].cpu == 24 && s[1].cpu == 25 && s[0].node == 1);
		topo_free(t);
	}
	if ((t = load(dir, "2socket-power9-lassen-2numa-1nvme.xml"))) {
		/* SMT4: one PU per core first: 8, 12, 16 */
		nw[0] = 3;
		CHECK(topo_place(t, TOPO_PLACE_LOCAL, paths, nw, 1, s, NULL) == 0);
		CHECKF(s[0].cpu == 8 && s[1].cpu == 12 && s[2].cpu == 16 && s[0].node == 0,
		       "power9: %d %d %d", s[0].cpu, s[1].cpu, s[2].cpu);
		CHECK(topo_place(t, TOPO_PLACE_REMOTE, paths, nw, 1, s, NULL) == 0);
		CHECK(s[0].node == 8 && s[0].cpu == 96);
		topo_free(t);
	}
}

int main(void)
{
	const char *src = getenv("IOSTORM_SRC");
	char dir[2048];
	unsigned i;

	snprintf(dir, sizeof(dir), "%s/../shared/topologies", src && src[0] ? src : ".");
	if (access(dir, R_OK | X_OK))
		SKIP("skip: ../shared/topologies is absent (the real lstopo exports live outside the repo)");
	for (i = 0; i < sizeof(sums) / sizeof(sums[0]); i++)
		check_file(dir, &sums[i]);
	check_multipath(dir);
	check_place(dir);
	return t_result();
}
