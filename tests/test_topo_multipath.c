/* topo on native NVMe multipath: the sysfs tree tests/fixtures/
 * sysfs-multipath/ recorded from the QEMU rig's multipath layout on Linux
 * 7.2, and topo-multipath.xml written to match it (the guest has no
 * lstopo): namespace nvm shared by controller nvme0 (0000:21:00.0,
 * host bridge 0000:20, node 0) and nvme1 (0000:41:00.0, host bridge 0000:40,
 * node 1), seen as the head nvme0n1 and the hidden paths nvme0c0n1 and
 * nvme0c1n1; and nva, a plain namespace nvme2n1 on node 0. The head is one
 * device with both paths, local to both nodes, counted once. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "tests/helpers.h"
#include "tests/topo_findings.h"
#include "topo/topo.h"
#include "cli/words/notes_words.h"

/* note i of n as the run says it alone (cli/words/notes_words.h) */
static const char *note_text(const struct topo_notes *n, unsigned i)
{
	static char buf[TOPO_NOTE_LEN];

	cli_note_text(&n->note[i], buf, sizeof(buf));
	return buf;
}

#define XML "topo-multipath.xml"
#define SYSFS "sysfs-multipath"

static char fx[2048];

static struct topo *load(const char *xml, const char *sysfs)
{
	char root[4096];
	struct topo *t = NULL;
	int ret;

	if (sysfs && sysfs[0] == '/')
		snprintf(root, sizeof(root), "%s", sysfs);
	else if (sysfs)
		snprintf(root, sizeof(root), "%s/%s", fx, sysfs);
	ret = topo_load(&t, xml, sysfs ? root : NULL);
	CHECKF(ret == 0, "%s: %s", xml, strerror(-ret));
	return ret ? NULL : t;
}

/* The fixture, edited: each from[i] becomes to[i] (to[i] NULL: the line
 * holding from[i] goes). Written to a temporary file, named in path. */
static int variant(char *path, size_t len, const char *const *from,
		   const char *const *to, unsigned n)
{
	char src[4096], line[1024];
	FILE *in, *out;
	unsigned i;
	int fd;

	snprintf(src, sizeof(src), "%s/%s", fx, XML);
	snprintf(path, len, "%s/iostorm-mp-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	in = fopen(src, "re");
	out = fdopen(fd, "w");
	if (!in || !out) {
		if (in)
			fclose(in);
		if (out)
			fclose(out);
		else
			close(fd);
		unlink(path);
		return -EIO;
	}
	while (fgets(line, sizeof(line), in)) {
		bool drop = false;

		for (i = 0; i < n; i++) {
			char *p = strstr(line, from[i]), tail[1024];

			if (!p)
				continue;
			if (!to[i]) {
				drop = true;
				break;
			}
			snprintf(tail, sizeof(tail), "%s", p + strlen(from[i]));
			snprintf(p, sizeof(line) - (size_t)(p - line), "%s%s", to[i], tail);
		}
		if (!drop)
			fputs(line, out);
	}
	fclose(in);
	return fclose(out) ? -EIO : 0;
}

static bool path_is(const struct topo_path *p, const char *name, const char *ctrl,
		    const char *pci, const char *hb, unsigned node)
{
	bool ok = !strcmp(p->name, name) && !strcmp(p->controller, ctrl) &&
		!strcmp(p->pci, pci) && !strcmp(p->host_bridge, hb) &&
		p->nnodes == 1 && p->nodes[0] == node;

	if (!ok)
		fprintf(stderr, "path %s %s %s %s nnodes %u node %u, want %s %s %s %s node %u\n",
			p->name, p->controller, p->pci, p->host_bridge, p->nnodes,
			p->nnodes ? p->nodes[0] : 99, name, ctrl, pci, hb, node);
	return ok;
}

/* The recorded guest: one head with both paths, a plain drive without. */
static void test_recorded(void)
{
	char xml[4096];
	struct topo *t;
	const struct topo_dev *d, *x = NULL;
	struct topo_finding *f = NULL;
	const struct topo_finding *m;
	int n;

	snprintf(xml, sizeof(xml), "%s/%s", fx, XML);
	t = load(xml, SYSFS);
	if (!t)
		return;
	CHECKF(topo_ndevs(t) == 2, "%u devices", topo_ndevs(t));
	d = topo_dev(t, 0);
	CHECK(!strcmp(d->name, "nvme0n1") && !strcmp(d->path_name, "nvme0c0n1"));
	CHECK(!strcmp(d->pci, "0000:21:00.0") && !strcmp(d->host_bridge, "0000:20"));
	CHECK(!strcmp(d->controller, "nvme0") && !strcmp(d->model, "QEMU NVMe Ctrl") &&
	      !strcmp(d->serial, "nvm"));
	CHECK(d->link.speed_gts == 2.5 && d->link.width == 1);
	CHECKF(d->npaths == 2, "%u paths", d->npaths);
	CHECK(path_is(&d->paths[0], "nvme0c0n1", "nvme0", "0000:21:00.0", "0000:20", 0));
	CHECK(path_is(&d->paths[1], "nvme0c1n1", "nvme1", "0000:41:00.0", "0000:40", 1));
	/* local to both paths' nodes */
	CHECK(d->nnodes == 2 && d->nodes[0] == 0 && d->nodes[1] == 1);
	CHECK(d->cpus && !strcmp(d->cpus, "0-1") && d->ncores == 2 && d->npus == 2);
	CHECK(!strcmp(d->iopolicy, "numa"));

	d = topo_dev(t, 1);
	CHECK(!strcmp(d->name, "nvme2n1") && !strcmp(d->path_name, "nvme2n1"));
	CHECK(d->npaths == 0 && !d->iopolicy[0] && !strcmp(d->controller, "nvme2"));
	CHECK(d->nnodes == 1 && d->nodes[0] == 0 && !strcmp(d->cpus, "0"));

	/* the head and any path name the same device */
	d = topo_dev(t, 0);
	CHECK(topo_lookup(t, "/dev/nvme0n1", &x) == 0 && x == d);
	CHECK(topo_lookup(t, "nvme0c0n1", &x) == 0 && x == d);
	CHECK(topo_lookup(t, "nvme0c1n1", &x) == 0 && x == d);
	CHECK(topo_ndevs(t) == 2);

	/* once, on both nodes: no imbalance (1.5 of 2 drives on node 0), no
	 * "1 core for 2 drives"; multi_node says why it is fine */
	n = all_findings(t, &f);
	CHECK(n >= 0);
	CHECK(!find(f, n, TOPO_FIND_IMBALANCE, NULL) && !find(f, n, TOPO_FIND_FEW_CORES, NULL));
	m = find(f, n, TOPO_FIND_MULTI_NODE, "nvme0n1");
	CHECKF(m && strstr(said(m), "paths on nodes 0,1") &&
	       strstr(said(m), "nvme0 0000:21:00.0 node 0, nvme1 0000:41:00.0 node 1") &&
	       strstr(said(m), "with iopolicy numa each IO") && strstr(said(m), "nothing to move"),
	       "%s", m ? said(m) : "none");
	CHECK(!find(f, n, TOPO_FIND_MULTI_NODE, "nvme2n1"));
	free(f);
	topo_free(t);
}

/* Placement: local is every path's node; remote has nowhere to go. */
static void test_place(void)
{
	const char *paths[] = { "/dev/nvme0n1", "/dev/nvme2n1" };
	unsigned nw[] = { 2, 1 };
	struct topo_notes notes = { 0 };
	struct topo_slot s[3];
	char xml[4096];
	struct topo *t;

	snprintf(xml, sizeof(xml), "%s/%s", fx, XML);
	t = load(xml, SYSFS);
	if (!t)
		return;
	CHECK(topo_place(t, TOPO_PLACE_LOCAL, paths, nw, 1, s, &notes) == 0);
	CHECKF(s[0].cpu == 0 && s[0].node == 0 && s[1].cpu == 1 && s[1].node == 1,
	       "cpu %d node %d, cpu %d node %d", s[0].cpu, s[0].node, s[1].cpu, s[1].node);
	CHECKF(notes.n == 1 && strstr(note_text(&notes, 0), "nvme0n1: paths on nodes 0,1: workers "
				      "spread over their cores"), "%s", notes.n ? note_text(&notes, 0) : "none");

	memset(&notes, 0, sizeof(notes));
	CHECK(topo_place(t, TOPO_PLACE_REMOTE, paths, nw, 1, s, &notes) == 0);
	CHECKF(notes.n == 1 && strstr(note_text(&notes, 0), "nvme0n1 has a path local to every node "
				      "with CPUs: remote placement is local here"),
	       "%s", notes.n ? note_text(&notes, 0) : "none");

	/* the plain drive stays on its node; remote is node 1 */
	CHECK(topo_place(t, TOPO_PLACE_LOCAL, paths + 1, nw + 1, 1, s, NULL) == 0);
	CHECK(s[0].cpu == 0 && s[0].node == 0);
	CHECK(topo_place(t, TOPO_PLACE_REMOTE, paths + 1, nw + 1, 1, s, NULL) == 0);
	CHECK(s[0].cpu == 1 && s[0].node == 1);
	topo_free(t);
}

/* Another boot, another numbering: node 1's controller on a lower bus
 * (0000:11:00.0) than node 0's. The head takes the path first in PCI order
 * whatever order hwloc lists them in; without sysfs the controller comes
 * from the path's name and the iopolicy is unknown. */
static void test_renumbered(void)
{
	static const char *const from[] = { "0000:[40-41]", "0000:[41-41]", "0000:40:00.0",
					    "0000:41:00.0" };
	static const char *const to[] = { "0000:[10-11]", "0000:[11-11]", "0000:10:00.0",
					  "0000:11:00.0" };
	struct topo_finding *f = NULL;
	const struct topo_finding *m;
	const struct topo_dev *d;
	struct topo *t;
	char xml[4096];
	int n;

	CHECK(variant(xml, sizeof(xml), from, to, 4) == 0);
	t = load(xml, NULL);
	unlink(xml);
	if (!t)
		return;
	CHECK(topo_ndevs(t) == 2);
	d = topo_dev(t, 0);
	CHECKF(!strcmp(d->name, "nvme0n1") && !strcmp(d->path_name, "nvme0c1n1") &&
	       !strcmp(d->pci, "0000:11:00.0") && !strcmp(d->host_bridge, "0000:10"),
	       "%s %s %s %s", d->name, d->path_name, d->pci, d->host_bridge);
	CHECK(d->npaths == 2 && !d->iopolicy[0]);
	CHECK(path_is(&d->paths[0], "nvme0c1n1", "nvme1", "0000:11:00.0", "0000:10", 1));
	CHECK(path_is(&d->paths[1], "nvme0c0n1", "nvme0", "0000:21:00.0", "0000:20", 0));
	CHECK(d->nnodes == 2 && !strcmp(d->cpus, "0-1"));
	CHECK(!strcmp(topo_dev(t, 1)->name, "nvme2n1") && topo_dev(t, 1)->npaths == 0);
	n = all_findings(t, &f);
	m = find(f, n, TOPO_FIND_MULTI_NODE, "nvme0n1");
	CHECKF(m && strstr(said(m), "iopolicy numa (the kernel's default)"), "%s",
	       m ? said(m) : "none");
	free(f);
	topo_free(t);
}

/* A path sysfs lists but hwloc recorded no disk for (here nvme0c0n1's line
 * taken out of the export): found in the head's multipath/ directory, with
 * its function's locality from hwloc, and first in PCI order. */
static void test_sysfs_only_path(void)
{
	static const char *const from[] = { "name=\"nvme0c0n1\"" };
	static const char *const to[] = { NULL };
	const struct topo_dev *d;
	struct topo *t;
	char xml[4096];

	CHECK(variant(xml, sizeof(xml), from, to, 1) == 0);
	t = load(xml, SYSFS);
	unlink(xml);
	if (!t)
		return;
	CHECK(topo_ndevs(t) == 2);
	d = topo_dev(t, 0);
	/* the head shows its first path in PCI order, also one hwloc had no disk of */
	CHECKF(!strcmp(d->name, "nvme0n1") && !strcmp(d->path_name, "nvme0c0n1") &&
	       !strcmp(d->pci, "0000:21:00.0") && !strcmp(d->controller, "nvme0"),
	       "%s %s %s %s", d->name, d->path_name, d->pci, d->controller);
	CHECK(d->link.speed_gts == 2.5 && !strcmp(d->model, "QEMU NVMe Ctrl"));
	CHECKF(d->npaths == 2, "%u paths", d->npaths);
	CHECK(path_is(&d->paths[0], "nvme0c0n1", "nvme0", "0000:21:00.0", "0000:20", 0));
	CHECK(path_is(&d->paths[1], "nvme0c1n1", "nvme1", "0000:41:00.0", "0000:40", 1));
	CHECK(d->nnodes == 2 && !strcmp(d->cpus, "0-1"));
	topo_free(t);
}

/* iopolicy round-robin (a copy of the tree with the subsystem's policy
 * changed): IOs take every path whatever the CPU's node, so the finding
 * says how to go back to numa. */
static void test_round_robin(void)
{
	char dir[1024], cmd[4096], xml[4096], root[2048], file[4096];
	struct topo_notes notes = { 0 };
	const char *paths[] = { "nvme0n1" };
	unsigned nw[] = { 2 };
	struct topo_slot s[2];
	struct topo_finding *f = NULL;
	const struct topo_finding *m;
	struct topo *t;
	FILE *pol;
	int n;

	snprintf(dir, sizeof(dir), "%s/iostorm-mp-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		CHECK(0);
		return;
	}
	snprintf(cmd, sizeof(cmd), "cp -a '%s/%s' '%s/'", fx, SYSFS, dir);
	snprintf(root, sizeof(root), "%s/%s", dir, SYSFS);
	snprintf(file, sizeof(file), "%s/devices/virtual/nvme-subsystem/nvme-subsys0/iopolicy", root);
	CHECK(system(cmd) == 0);
	pol = fopen(file, "we");
	CHECK(pol && fputs("round-robin\n", pol) >= 0);
	if (pol)
		CHECK(fclose(pol) == 0);
	snprintf(xml, sizeof(xml), "%s/%s", fx, XML);
	t = load(xml, root);
	if (t) {
		CHECK(!strcmp(topo_dev(t, 0)->iopolicy, "round-robin"));
		n = all_findings(t, &f);
		m = find(f, n, TOPO_FIND_MULTI_NODE, "nvme0n1");
		CHECKF(m && strstr(said(m), "with iopolicy round-robin its IOs take every path") &&
		       strstr(said(m), "echo numa > /sys/block/nvme0n1/device/iopolicy"),
		       "%s", m ? said(m) : "none");
		free(f);
		CHECK(topo_place(t, TOPO_PLACE_LOCAL, paths, nw, 1, s, &notes) == 0);
		CHECK(s[0].cpu == 0 && s[1].cpu == 1);
		CHECKF(notes.n == 1 && strstr(note_text(&notes, 0), "iopolicy round-robin: IOs take every "
					      "path"), "%s", notes.n ? note_text(&notes, 0) : "none");
		topo_free(t);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/* `iostorm topo --json -`: a paths array per device, empty for a plain one. */
static void test_json(void)
{
	const char *bin = getenv("IOSTORM");
	json_t *j, *devs, *p, *q;
	json_error_t err;
	char cmd[8192];
	FILE *pp;

	if (!bin || !bin[0]) {
		printf("IOSTORM not set: the JSON check is skipped\n");
		return;
	}
	snprintf(cmd, sizeof(cmd), "IOSTORM_SYSFS_ROOT='%s/%s' '%s' topo --topology '%s/%s' "
		 "--json -", fx, SYSFS, bin, fx, XML);
	pp = popen(cmd, "r");
	if (!pp) {
		CHECK(0);
		return;
	}
	j = json_loadf(pp, 0, &err);
	CHECK(pclose(pp) == 0);
	CHECKF(j != NULL, "%s", err.text);
	if (!j)
		return;
	devs = json_object_get(j, "devices");
	CHECK(json_array_size(devs) == 2);
	p = json_object_get(json_array_get(devs, 0), "paths");
	CHECK(json_array_size(p) == 2);
	q = json_array_get(p, 1);
	CHECK(!strcmp(json_string_value(json_object_get(q, "name")), "nvme0c1n1"));
	CHECK(!strcmp(json_string_value(json_object_get(q, "controller")), "nvme1"));
	CHECK(!strcmp(json_string_value(json_object_get(q, "pci")), "0000:41:00.0"));
	CHECK(!strcmp(json_string_value(json_object_get(q, "host_bridge")), "0000:40"));
	CHECK(json_array_size(json_object_get(q, "numa_nodes")) == 1 &&
	      json_integer_value(json_array_get(json_object_get(q, "numa_nodes"), 0)) == 1);
	CHECK(json_array_size(json_object_get(json_array_get(devs, 0), "numa_nodes")) == 2);
	CHECK(!strcmp(json_string_value(json_object_get(json_array_get(devs, 0), "iopolicy")),
		      "numa"));
	p = json_object_get(json_array_get(devs, 1), "paths");
	CHECK(json_is_array(p) && json_array_size(p) == 0);
	CHECK(json_is_null(json_object_get(json_array_get(devs, 1), "iopolicy")));
	/* node 1 lists the head too */
	q = json_object_get(json_array_get(json_object_get(j, "nodes"), 1), "devices");
	CHECK(json_array_size(q) == 1 && !strcmp(json_string_value(json_array_get(q, 0)), "nvme0n1"));
	json_decref(j);
}

int main(void)
{
	const char *src = getenv("IOSTORM_SRC");

	snprintf(fx, sizeof(fx), "%s/tests/fixtures", src && src[0] ? src : ".");
	/* the recorded tree is what these tests read, never the host's */
	unsetenv("IOSTORM_SYSFS_ROOT");
	test_recorded();
	test_place();
	test_renumbered();
	test_sysfs_only_path();
	test_round_robin();
	test_json();
	return t_result();
}
