/* libFuzzer: an lstopo XML export. The input is the file: hwloc parses it
 * through topo_load, then our code walks it as the commands do: nodes,
 * devices, lookups by name (a multipath path finds its head), findings,
 * placement under each policy, and the topo command itself (text and JSON
 * into /dev/null). Never a crash, a leak, a device that its own name does
 * not find, or a finding without text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/opts/opts.h"
#include "cli/words/findings_words.h"
#include "topo/topo.h"
#include "tests/fuzz/fuzz.h"

#define MAX_DEVS 8	/* placed at once; enough for every finding */
#define WORKERS 3	/* per device: more than a small node has cores */

static void nodes(const struct topo *t)
{
	unsigned i, cores, pus;

	topo_counts(t, &cores, &pus);
	for (i = 0; i < topo_nnodes(t); i++) {
		const struct topo_node *nd = topo_node(t, i);
		int near = topo_nearest_cpu_node(t, nd->os_index);

		if (!nd->cpus || !nd->host_bridges)
			fuzz_fail("node %u without cpus or host bridges", nd->os_index);
		if (near >= 0 && topo_node_index(t, (unsigned)near) < 0)
			fuzz_fail("nearest node %d of %u is no node", near, nd->os_index);
	}
}

/* Every device by its name, its /dev path and its paths' names. */
static void lookups(struct topo *t)
{
	const struct topo_dev *d, *x;
	char dev[TOPO_NAME_MAX + 8];
	unsigned i, k;

	for (i = 0; i < topo_ndevs(t); i++) {
		d = topo_dev(t, i);
		snprintf(dev, sizeof(dev), "/dev/%s", d->name);
		if (topo_lookup(t, dev, &x) || x != d)
			fuzz_fail("%s does not find itself", dev);
		for (k = 0; k < d->npaths; k++)
			if (topo_lookup(t, d->paths[k].name, &x))
				fuzz_fail("path %s of %s not found", d->paths[k].name, d->name);
	}
	if (topo_lookup(t, "/dev/no-such-device", &x) != -ENOENT)
		fuzz_fail("a missing device was found");
}

static void findings(struct topo *t)
{
	const struct topo_dev *devs[MAX_DEVS];
	struct topo_finding *f = NULL;
	unsigned n = 0, i;
	int nf, j;

	for (i = 0; i < topo_ndevs(t) && n < MAX_DEVS; i++)
		devs[n++] = topo_dev(t, i);
	nf = topo_findings(t, devs, n, &f);
	if (nf < 0)
		fuzz_fail("topo_findings: %d", nf);
	for (j = 0; j < nf; j++)
		if (!cli_topo_has_words(f[j].kind) || !strcmp(topo_finding_kind_name(f[j].kind), "?"))
			fuzz_fail("finding %d is empty or of no kind", j);
	free(f);
}

static void place(struct topo *t)
{
	static const enum topo_policy pols[] = {
		TOPO_PLACE_LOCAL, TOPO_PLACE_REMOTE, TOPO_PLACE_NONE,
	};
	struct topo_slot slots[MAX_DEVS * WORKERS];
	const char *paths[MAX_DEVS];
	unsigned nw[MAX_DEVS], n = 0, i, p;
	struct topo_notes notes;
	int rc;

	for (i = 0; i < topo_ndevs(t) && n < MAX_DEVS; i++) {
		paths[n] = topo_dev(t, i)->name;
		nw[n++] = WORKERS;
	}
	for (p = 0; p < sizeof(pols) / sizeof(pols[0]); p++) {
		memset(&notes, 0, sizeof(notes));
		rc = topo_place(t, pols[p], paths, nw, n, slots, &notes);
		if (rc && rc != -ENODEV)
			fuzz_fail("topo_place(%s): %d", topo_policy_name(pols[p]), rc);
		for (i = 0; !rc && i < n * WORKERS; i++)
			if (slots[i].dev >= n)
				fuzz_fail("slot %u on device %u of %u", i, slots[i].dev, n);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], *argv[] = { "topo", "--topology", path, "--json", "/dev/null", NULL };
	struct topo *t = NULL;
	int fd;

	fd = fuzz_file(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	if (!topo_load(&t, path, NULL)) {
		nodes(t);
		lookups(t);
		findings(t);
		place(t);
		topo_free(t);
		/* what 'iostorm topo --topology FILE' prints, on a file hwloc
		 * takes. Its exit status is not checked: a file that keeps
		 * hwloc busy for about XML_CPU_US (topo/xml.c) may pass one
		 * load's probe and not the next. */
		cli_verb_topo.run(5, argv);
	}
	close(fd);
	return 0;
}
