/* CPU kinds on the recorded tests/fixtures/topo-cpukinds.xml: one node,
 * E cores on PUs 0-3 (IntelAtom), P cores on PUs 4-11 (IntelCore, 2 PUs
 * each), nvme0n1 local to all. topo ranks the kinds; placement takes the P
 * cores' first PUs, then the free E cores, then the P cores' second PUs;
 * a worker on an E core (placed there, or by --cpus) is a LESSER_KIND
 * note, said in words. Where hwloc cannot rank (HWLOC_CPUKINDS_RANKING=
 * none) the infos rank: LinuxCapacity, then FrequencyMaxMHz; with no
 * figure, or no cpukind at all, placement is what it always was. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/words/notes_words.h"
#include "tests/helpers.h"
#include "topo/topo.h"

static char fixture[4096];

static struct topo *load(const char *path)
{
	struct topo *t = NULL;
	int ret = topo_load(&t, path, NULL);

	CHECKF(ret == 0, "%s: %s", path, strerror(-ret));
	return ret ? NULL : t;
}

/* The fixture without the lines holding any of drop[] (NULL-ended), in a
 * file of its own (path, len): a variant of one recorded machine. */
static int variant(const char *const *drop, char *path, size_t len)
{
	FILE *in = fopen(fixture, "r"), *out;
	char line[2048];
	int fd;

	snprintf(path, len, "/tmp/iostorm-cpukinds-XXXXXX");
	fd = mkstemp(path);
	if (!in || fd < 0 || !(out = fdopen(fd, "w"))) {
		if (in)
			fclose(in);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (fgets(line, sizeof(line), in)) {
		const char *const *d;
		bool keep = true;

		for (d = drop; *d && keep; d++)
			keep = !strstr(line, *d);
		if (keep)
			fputs(line, out);
	}
	fclose(in);
	return fclose(out) ? -1 : 0;
}

#define CPUS(s, ...) do {						\
	const int want_[] = { __VA_ARGS__ };				\
	unsigned i_;							\
	for (i_ = 0; i_ < sizeof(want_) / sizeof(want_[0]); i_++)	\
		CHECKF((s)[i_].cpu == want_[i_], "line %d: slot %u on CPU %d, want %d",	\
		       __LINE__, i_, (s)[i_].cpu, want_[i_]);		\
} while (0)

static const char *const paths[] = { "nvme0n1" };

/* n workers placed locally, with their notes (the kind notes included). */
static int place(struct topo *t, unsigned n, struct topo_slot *s, struct topo_notes *notes)
{
	memset(notes, 0, sizeof(*notes));
	if (topo_place(t, TOPO_PLACE_LOCAL, paths, &n, 1, s, notes))
		return -1;
	return topo_kind_notes(t, paths, 1, s, n, false, notes);
}

/* The one note of kind k, NULL when there is none or several. */
static const struct topo_note *only(const struct topo_notes *notes, enum topo_note_kind k)
{
	const struct topo_note *found = NULL;
	unsigned i, n = 0;

	for (i = 0; i < notes->n; i++)
		if (notes->note[i].kind == k) {
			found = &notes->note[i];
			n++;
		}
	return n == 1 ? found : NULL;
}

/* The words of notes' lines, joined, into buf. */
static void words(const struct topo_notes *notes, char *buf, size_t len)
{
	char (*lines)[CLI_NOTE_LINE_LEN] = calloc(TOPO_NOTE_NKINDS, sizeof(*lines));
	int nl = lines ? cli_notes_lines(notes->note, notes->n, 1, lines, TOPO_NOTE_NKINDS) : -1;
	size_t o = 0;
	int i;

	buf[0] = '\0';
	CHECK(nl >= 0);
	for (i = 0; i < nl && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s\n", lines[i]);
	free(lines);
}

static void check_kinds(struct topo *t)
{
	const struct topo_cpukind *k;
	unsigned n = topo_cpukinds(t, &k);

	CHECKF(n == 2, "%u kinds", n);
	CHECK(topo_cpukind_basis(t) == TOPO_KIND_EFFICIENCY);
	if (n != 2)
		return;
	/* most performant first, whatever hwloc's order */
	CHECKF(!strcmp(k[0].core_type, "IntelCore") && !strcmp(k[0].cpus, "4-11"),
	       "first kind %s on %s", k[0].core_type, k[0].cpus);
	CHECK(k[0].rank == 0 && k[0].efficiency == 1 && k[0].cores == 4 && k[0].pus == 8);
	CHECK(k[0].freq_max_mhz == 4900 && k[0].capacity == 1024);
	CHECKF(!strcmp(k[1].core_type, "IntelAtom") && !strcmp(k[1].cpus, "0-3"),
	       "second kind %s on %s", k[1].core_type, k[1].cpus);
	CHECK(k[1].rank == 1 && k[1].efficiency == 0 && k[1].cores == 4 && k[1].pus == 4);
	CHECK(topo_cpu_kind(t, 0) == 1 && topo_cpu_kind(t, 11) == 0 && topo_cpu_kind(t, 12) == -1);
	CHECK(topo_cpu_lesser(t, 3) && !topo_cpu_lesser(t, 4) && !topo_cpu_lesser(t, 12));
}

static void check_placement(struct topo *t)
{
	struct topo_notes *notes = calloc(1, sizeof(*notes));
	const struct topo_note *nt;
	struct topo_slot s[12];
	char text[2048];

	if (!notes)
		return;
	/* four workers: the P cores' first PUs, though CPU 0 comes first */
	CHECK(place(t, 4, s, notes) == 0);
	CPUS(s, 4, 6, 8, 10);
	CHECKF(!only(notes, TOPO_NOTE_LESSER_KIND), "a kind note for workers on P cores");
	/* the fifth: a free E core before a busy P core's second PU */
	CHECK(place(t, 5, s, notes) == 0);
	CPUS(s, 4, 6, 8, 10, 0);
	nt = only(notes, TOPO_NOTE_LESSER_KIND);
	CHECK(nt != NULL);
	if (nt) {
		CHECKF(!strcmp(nt->what, "0"), "CPUs %s", nt->what);
		CHECK(!strcmp(nt->where, "IntelAtom") && !strcmp(nt->best, "IntelCore"));
		CHECK(nt->nworkers == 1 && nt->nplaces == 5 && !nt->given);
		CHECK(nt->basis == TOPO_KIND_EFFICIENCY && nt->value == 0 && nt->best_value == 1);
		CHECK(!strcmp(nt->name, "nvme0n1"));
	}
	words(notes, text, sizeof(text));
	CHECKF(strstr(text, "nvme0n1: 1 of its 5 workers is on an efficiency core (CPU 0: "
			    "IntelAtom, not IntelCore): no core of the most performant kind "
			    "was left free for it"), "said: %s", text);
	/* nine: every E core, then a P core's second PU */
	CHECK(place(t, 9, s, notes) == 0);
	CPUS(s, 4, 6, 8, 10, 0, 1, 2, 3, 5);
	nt = only(notes, TOPO_NOTE_LESSER_KIND);
	CHECK(nt && !strcmp(nt->what, "0-3") && nt->nworkers == 4 && nt->nplaces == 9);
	free(notes);
}

/* --cpus on E cores: the user's choice, named as such. */
static void check_given(struct topo *t)
{
	struct topo_notes *notes = calloc(1, sizeof(*notes));
	struct topo_slot s[3] = { { 0, -1, 0 }, { 1, -1, 0 }, { 4, -1, 0 } };
	const struct topo_note *nt;
	char text[2048];

	if (!notes)
		return;
	CHECK(topo_kind_notes(t, paths, 1, s, 3, true, notes) == 0);
	nt = only(notes, TOPO_NOTE_LESSER_KIND);
	CHECK(nt && nt->given && nt->nworkers == 2 && nt->nplaces == 3 && !strcmp(nt->what, "0-1"));
	words(notes, text, sizeof(text));
	CHECKF(strstr(text, "nvme0n1: --cpus puts 2 of its 3 workers on efficiency cores "
			    "(CPUs 0-1: IntelAtom, not IntelCore)"), "said: %s", text);
	/* P cores only: nothing to say */
	memset(notes, 0, sizeof(*notes));
	s[0].cpu = 5;
	s[1].cpu = 11;
	CHECK(topo_kind_notes(t, paths, 1, s, 3, true, notes) == 0);
	CHECK(notes->n == 0);
	/* a path the topology does not hold: its lookup's error */
	CHECK(topo_kind_notes(t, (const char *const[]){ "nvme9n1" }, 1, s, 3, true, notes) ==
	      -ENOENT);
	free(notes);
}

/* hwloc unable to rank: LinuxCapacity ranks, then FrequencyMaxMHz; with
 * neither the kinds are unranked and placement is the plain one. */
static void check_fallbacks(void)
{
	static const char *const no_cap[] = { "\"LinuxCapacity\"", "\"CoreType\"", NULL };
	static const char *const no_figures[] = { "\"LinuxCapacity\"", "\"CoreType\"",
						  "\"FrequencyMaxMHz\"", NULL };
	static const char *const no_kinds[] = { "<cpukind", "</cpukind>", "\"CoreType\"",
						"\"FrequencyMaxMHz\"", "\"LinuxCapacity\"", NULL };
	struct topo_notes *notes = calloc(1, sizeof(*notes));
	struct topo_slot s[5];
	char path[64], text[2048];
	struct topo *t;

	if (!notes)
		return;
	setenv("HWLOC_CPUKINDS_RANKING", "none", 1);
	t = load(fixture);
	if (t) {
		CHECK(topo_cpukind_basis(t) == TOPO_KIND_CAPACITY);
		CHECK(place(t, 5, s, notes) == 0);
		CPUS(s, 4, 6, 8, 10, 0);
		CHECK(only(notes, TOPO_NOTE_LESSER_KIND) &&
		      only(notes, TOPO_NOTE_LESSER_KIND)->value == 602);
		topo_free(t);
	}
	CHECK(variant(no_cap, path, sizeof(path)) == 0);
	t = load(path);
	unlink(path);
	if (t) {
		CHECK(topo_cpukind_basis(t) == TOPO_KIND_FREQUENCY);
		CHECK(place(t, 5, s, notes) == 0);
		CPUS(s, 4, 6, 8, 10, 0);
		words(notes, text, sizeof(text));
		CHECKF(strstr(text, "1 of its 5 workers is on a lower-frequency core (CPU 0: up to "
				    "3800 MHz against 4900)"), "said: %s", text);
		topo_free(t);
	}
	CHECK(variant(no_figures, path, sizeof(path)) == 0);
	t = load(path);
	unlink(path);
	if (t) {
		const struct topo_cpukind *k;

		CHECK(topo_cpukinds(t, &k) == 2 && topo_cpukind_basis(t) == TOPO_KIND_UNRANKED);
		CHECK(!topo_cpu_lesser(t, 0));
		CHECK(place(t, 5, s, notes) == 0);
		CPUS(s, 0, 1, 2, 3, 4);
		CHECK(!only(notes, TOPO_NOTE_LESSER_KIND));
		topo_free(t);
	}
	unsetenv("HWLOC_CPUKINDS_RANKING");
	/* no cpukind recorded (every older export): as before kinds */
	CHECK(variant(no_kinds, path, sizeof(path)) == 0);
	t = load(path);
	unlink(path);
	if (t) {
		const struct topo_cpukind *k;

		CHECK(topo_cpukinds(t, &k) == 0 && topo_cpukind_basis(t) == TOPO_KIND_UNRANKED);
		CHECK(place(t, 5, s, notes) == 0);
		CPUS(s, 0, 1, 2, 3, 4);
		CHECK(notes->n == 0);
		topo_free(t);
	}
	free(notes);
}

int main(void)
{
	const char *src = getenv("IOSTORM_SRC");
	struct topo *t;

	snprintf(fixture, sizeof(fixture), "%s/tests/fixtures/topo-cpukinds.xml",
		 src ? src : ".");
	t = load(fixture);
	if (!t)
		return t_result();
	check_kinds(t);
	check_placement(t);
	check_given(t);
	topo_free(t);
	check_fallbacks();
	return t_result();
}
