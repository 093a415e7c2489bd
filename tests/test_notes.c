/* Placement notes said once per kind (topo/notes.c): device names
 * collapsed into ranges and short lists, one line per kind naming every
 * device, and the shared-cores note counting every worker on the cores,
 * checked on made-up notes and on a recorded two-node machine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"
#include "cli/words/notes_words.h"
#include "topo/topo.h"

static char fx[2048];

/* names joined, into a static buffer */
static const char *join(const char *const *names, unsigned n)
{
	static char buf[CLI_NOTE_LINE_LEN];

	CHECK(cli_names_join(names, n, buf, sizeof(buf)) == 0);
	return buf;
}

#define JOINS(want, ...) do {						\
	const char *const v_[] = { __VA_ARGS__ };			\
	const char *got_ = join(v_, sizeof(v_) / sizeof(v_[0]));	\
	CHECKF(!strcmp(got_, want), "got \"%s\", want \"%s\"", got_, want); \
} while (0)

static void test_names(void)
{
	const char *many[32];
	char buf[32][16];
	unsigned i;

	JOINS("loop0", "loop0");
	JOINS("loop0 and loop1", "loop1", "loop0");
	JOINS("loop0-loop5", "loop0", "loop1", "loop2", "loop3", "loop4", "loop5");
	/* given in any order, said in natural order and each once */
	JOINS("loop2-loop7", "loop7", "loop3", "loop2", "loop5", "loop4", "loop6", "loop3");
	JOINS("loop8-loop11", "loop10", "loop9", "loop11", "loop8");
	/* the controller number varies, or the namespace, never both in a run */
	JOINS("nvme0n1-nvme3n1", "nvme0n1", "nvme1n1", "nvme2n1", "nvme3n1");
	JOINS("nvme0n1-nvme0n3", "nvme0n1", "nvme0n2", "nvme0n3");
	JOINS("nvme0n1, nvme1n1, nvme1n2 and nvme2n2", "nvme0n1", "nvme1n1", "nvme1n2",
	      "nvme2n2");
	JOINS("loop1, loop3 and loop5", "loop5", "loop3", "loop1");
	JOINS("sda, sdb and sdc", "sdc", "sda", "sdb");
	JOINS("loop0-loop2 and sda", "sda", "loop0", "loop1", "loop2");
	/* leading zeros are names, not numbers */
	JOINS("d01, d02 and d03", "d01", "d02", "d03");

	/* past a handful of items: "and N more", N counting devices */
	for (i = 0; i < 28; i++) {
		/* nvme0n1-nvme3n1, nvme5n1, nvme7n1, nvme9n1, nvme11n1... */
		snprintf(buf[i], sizeof(buf[i]), "nvme%un1", i < 4 ? i : 3 + 2 * (i - 3));
		many[i] = buf[i];
	}
	JOINS("nvme0n1-nvme3n1, nvme5n1, nvme7n1, nvme9n1 and 21 more",
	      many[0], many[1], many[2], many[3], many[4], many[5], many[6], many[7],
	      many[8], many[9], many[10], many[11], many[12], many[13], many[14],
	      many[15], many[16], many[17], many[18], many[19], many[20], many[21],
	      many[22], many[23], many[24], many[25], many[26], many[27]);
	/* exactly CLI_NAMES_SHOWN items are all shown */
	JOINS("a, b, c and d", "d", "c", "b", "a");
	JOINS("a, b, c, d and 1 more", "e", "d", "c", "b", "a");
	/* a short buffer truncates, never overruns */
	{
		const char *const v[] = { "nvme0n1", "nvme9n1" };
		char small[8];

		CHECK(cli_names_join(v, 2, small, sizeof(small)) == 0);
		CHECK(!strcmp(small, "nvme0n1"));
	}
}

static struct topo_note mk(enum topo_note_kind kind, unsigned dev, const char *name)
{
	struct topo_note n;

	memset(&n, 0, sizeof(n));
	n.kind = kind;
	n.dev = dev;
	snprintf(n.name, sizeof(n.name), "%s", name);
	return n;
}

static struct topo_note no_pci(unsigned dev, const char *name, const char *what)
{
	struct topo_note n = mk(TOPO_NOTE_NO_PCI, dev, name);

	snprintf(n.what, sizeof(n.what), "%s", what);
	return n;
}

static struct topo_note shared(unsigned dev, const char *name, unsigned ncores,
			       unsigned nplaces, unsigned nfree)
{
	struct topo_note n = mk(TOPO_NOTE_SHARED_CORES, dev, name);

	snprintf(n.where, sizeof(n.where), "node 0");
	n.ncores = ncores;
	n.nplaces = nplaces;
	n.nfree = nfree;
	n.nworkers = 1;
	return n;
}

/* How many of lines[0..n) hold s. */
static unsigned lines_with(char (*lines)[CLI_NOTE_LINE_LEN], int n, const char *s)
{
	unsigned c = 0;
	int i;

	for (i = 0; i < n; i++)
		c += strstr(lines[i], s) != NULL;
	return c;
}

static void test_lines_loops(void)
{
	struct topo_note v[12];
	char lines[TOPO_NOTE_NKINDS][CLI_NOTE_LINE_LEN];
	char name[16];
	unsigned i, k = 0;
	int n;

	/* what placement says of six loop devices on two cores: the order
	 * topo_place finds them in, a no-PCI note each, then a shared-cores
	 * note for each device placed once the cores ran out */
	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "loop%u", i);
		v[k++] = no_pci(i, name, "loop");
		if (i >= 2)
			v[k++] = shared(i, name, 2, 6, 0);
	}
	n = cli_notes_lines(v, k, 1, lines, TOPO_NOTE_NKINDS);
	CHECKF(n == 2, "%d lines", n);
	if (n != 2)
		return;
	CHECKF(!strcmp(lines[0], "loop0-loop5 are each a loop device, without PCI "
		       "locality: their workers are spread over the machine"), "%s", lines[0]);
	CHECKF(!strcmp(lines[1], "node 0 has 2 cores for 6 workers: loop2-loop5 share "
		       "cores (SMT siblings first, then doubling up)"), "%s", lines[1]);

	/* under SQPOLL each worker's submission thread is a place too: two
	 * workers on two devices take four places, not "2 workers" each */
	v[0] = no_pci(0, "loop0", "loop");
	v[1] = no_pci(1, "loop1", "loop");
	v[2] = shared(1, "loop1", 2, 4, 0);
	v[2].nworkers = 2;
	n = cli_notes_lines(v, 3, 2, lines, TOPO_NOTE_NKINDS);
	CHECKF(n == 2 && !strcmp(lines[1], "node 0 has 2 cores for 2 workers and their "
				 "submission threads: loop1 shares cores (SMT siblings "
				 "first, then doubling up)"), "%d: %s", n, n > 1 ? lines[1] : "");
	/* a note alone keeps the device's own count */
	cli_note_text(&v[2], lines[0], sizeof(lines[0]));
	CHECKF(!strcmp(lines[0], "loop1: node 0 has 0 free cores for 2 workers: sharing cores "
		       "(SMT siblings first, then doubling up)"), "%s", lines[0]);
	cli_note_text(&v[0], lines[0], sizeof(lines[0]));
	CHECKF(!strcmp(lines[0], "loop0 is a loop device, without PCI locality: its workers "
		       "are spread over the machine"), "%s", lines[0]);
}

static void test_lines_kinds(void)
{
	struct topo_note v[16];
	char lines[TOPO_NOTE_NKINDS][CLI_NOTE_LINE_LEN];
	unsigned k = 0;
	int n;

	/* one line per kind, whatever the mix; facts that differ within a
	 * kind are sentences of one line */
	v[k++] = no_pci(0, "loop0", "loop");
	v[k++] = mk(TOPO_NOTE_CPULESS, 1, "nvme0n1");
	v[k - 1].node = 2, v[k - 1].to = 0;
	v[k++] = no_pci(2, "f1", "file");
	v[k++] = mk(TOPO_NOTE_CPULESS, 3, "nvme1n1");
	v[k - 1].node = 2, v[k - 1].to = 0;
	v[k++] = mk(TOPO_NOTE_CPULESS, 4, "nvme2n1");
	v[k - 1].node = 3, v[k - 1].to = 1;
	v[k++] = no_pci(5, "loop1", "loop");
	n = cli_notes_lines(v, k, 1, lines, TOPO_NOTE_NKINDS);
	CHECKF(n == 2, "%d lines", n);
	if (n != 2)
		return;
	CHECKF(!strcmp(lines[0], "loop0 and loop1 are each a loop device, without PCI locality: "
		       "their workers are spread over the machine; f1 is a file on a file system "
		       "without a block device (tmpfs, overlay), without PCI locality: its "
		       "workers are spread "
		       "over the machine"), "%s", lines[0]);
	CHECKF(!strcmp(lines[1], "nvme0n1 and nvme1n1 are local to CPU-less node 2: placed on "
		       "nearest node 0; nvme2n1 is local to CPU-less node 3: placed on nearest "
		       "node 1"), "%s", lines[1]);

	/* max caps the lines; nothing at all is no line */
	CHECK(cli_notes_lines(v, k, 1, lines, 1) == 1);
	CHECK(cli_notes_lines(v, 0, 1, lines, TOPO_NOTE_NKINDS) == 0);
}

/* More groups of one kind than CLI_GROUPS_SHOWN: the rest are still named. */
static void test_lines_many_groups(void)
{
	struct topo_note v[8];
	char lines[TOPO_NOTE_NKINDS][CLI_NOTE_LINE_LEN];
	char name[16];
	unsigned i;
	int n;

	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "nvme%un1", i);
		v[i] = mk(TOPO_NOTE_REMOTE_ON, i, name);
		v[i].node = i;
		v[i].dist = true;
	}
	n = cli_notes_lines(v, 8, 1, lines, TOPO_NOTE_NKINDS);
	CHECKF(n == 1, "%d lines", n);
	CHECKF(n == 1 && strstr(lines[0], "nvme3n1: remote placement on node 3") &&
	       !strstr(lines[0], "node 4") &&
	       strstr(lines[0], "; likewise, with other figures, nvme4n1-nvme7n1"),
	       "%s", n ? lines[0] : "");
}

/* topo_place's notes on a recorded machine: node 0 has two cores (four
 * PUs) and two drives of three workers each. */
static void test_place(void)
{
	char xml[4096];
	struct topo *t = NULL;
	const char *paths[] = { "nvme0n1", "/dev/nvme1n1" };
	unsigned nw[] = { 3, 3 };
	struct topo_slot s[6];
	struct topo_notes *notes = calloc(1, sizeof(*notes));
	char lines[TOPO_NOTE_NKINDS][CLI_NOTE_LINE_LEN];
	int ret, n;

	snprintf(xml, sizeof(xml), "%s/topo-2node-imbalance.xml", fx);
	ret = topo_load(&t, xml, NULL);
	CHECKF(ret == 0, "%s: %s", xml, strerror(-ret));
	if (ret || !notes) {
		free(notes);
		return;
	}
	CHECK(topo_place(t, TOPO_PLACE_LOCAL, paths, nw, 2, s, notes) == 0);
	CHECKF(notes->n == 2, "%u notes", notes->n);
	if (notes->n == 2) {
		const struct topo_note *a = &notes->note[0], *b = &notes->note[1];

		CHECK(a->kind == TOPO_NOTE_SHARED_CORES && a->dev == 0 &&
		      !strcmp(a->name, "nvme0n1") && a->nfree == 2 && a->nworkers == 3);
		CHECK(b->kind == TOPO_NOTE_SHARED_CORES && b->dev == 1 &&
		      !strcmp(b->name, "nvme1n1") && b->nfree == 0 && b->nworkers == 3);
		/* the facts of the set are every device's: two cores, six workers */
		CHECKF(a->ncores == 2 && a->nplaces == 6 && b->ncores == 2 && b->nplaces == 6,
		       "%u/%u %u/%u", a->ncores, a->nplaces, b->ncores, b->nplaces);
		CHECK(!strcmp(a->where, "node 0") && !strcmp(b->where, "node 0"));
	}
	n = cli_notes_lines(notes->note, notes->n, 1, lines, TOPO_NOTE_NKINDS);
	CHECKF(n == 1 && !strcmp(lines[0], "node 0 has 2 cores for 6 workers: nvme0n1 and "
				 "nvme1n1 share cores (SMT siblings first, then doubling up)"),
	       "%d: %s", n, n > 0 ? lines[0] : "");
	CHECK(lines_with(lines, n, "nvme") == 1);
	free(notes);
	topo_free(t);
}

/* Every kind has its own JSON name (cli_note_kind_name). */
static void test_kind_names(void)
{
	unsigned i, j;

	for (i = 0; i < TOPO_NOTE_NKINDS; i++) {
		const char *a = cli_note_kind_name((enum topo_note_kind)i);

		CHECKF(strcmp(a, "?"), "kind %u has no name", i);
		for (j = 0; j < i; j++)
			CHECKF(strcmp(a, cli_note_kind_name((enum topo_note_kind)j)),
			       "kinds %u and %u are both %s", j, i, a);
	}
	CHECK(!strcmp(cli_note_kind_name(TOPO_NOTE_SHARED_CORES), "shared_cores"));
	CHECK(!strcmp(cli_note_kind_name(TOPO_NOTE_NKINDS), "?"));
}

int main(void)
{
	const char *src = getenv("IOSTORM_SRC");

	snprintf(fx, sizeof(fx), "%s/tests/fixtures", src && src[0] ? src : ".");
	unsetenv("IOSTORM_SYSFS_ROOT");
	test_names();
	test_lines_loops();
	test_lines_kinds();
	test_lines_many_groups();
	test_place();
	test_kind_names();
	return t_result();
}
