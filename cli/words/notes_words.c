/* Placement notes grouped by kind, with the devices' names collapsed,
 * in words (topo/ states them as kinds and facts). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/words/notes_words.h"

/* ---- what a device without PCI locality is ---- */

const char *cli_no_pci_words(enum topo_no_pci k)
{
	static const char *const words[TOPO_NO_PCI_NKINDS] = {
		[TOPO_NO_PCI_FABRICS] = "an NVMe namespace without a PCIe path (NVMe over fabrics)",
		[TOPO_NO_PCI_LOOP] = "a loop device",
		[TOPO_NO_PCI_RAM] = "a RAM disk",
		[TOPO_NO_PCI_VIRTUAL] = "a virtual block device",
		[TOPO_NO_PCI_NO_FUNCTION] = "a device with no PCI function above it",
		[TOPO_NO_PCI_FILE] = "a file on a file system without a block device (tmpfs, overlay)",
	};

	return (unsigned)k < TOPO_NO_PCI_NKINDS ? words[k] : NULL;
}

const char *cli_no_pci_named(const char *name)
{
	int k;

	for (k = 1; k < TOPO_NO_PCI_NKINDS; k++)
		if (!strcmp(name, topo_no_pci_name((enum topo_no_pci)k)))
			return cli_no_pci_words((enum topo_no_pci)k);
	return NULL;
}

/* ---- names ---- */

/* The end of the token at s: a run of digits or a run of anything else. */
static const char *tok_end(const char *s)
{
	bool digit = isdigit((unsigned char)*s);

	while (*s && !!isdigit((unsigned char)*s) == digit)
		s++;
	return s;
}

/* Natural order: digit runs by value, the rest by bytes. */
static int name_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		const char *ea = tok_end(a), *eb = tok_end(b);
		size_t la = (size_t)(ea - a), lb = (size_t)(eb - b);
		int c;

		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			unsigned long long va = strtoull(a, NULL, 10), vb = strtoull(b, NULL, 10);

			if (va != vb)
				return va < vb ? -1 : 1;
		}
		c = strncmp(a, b, la < lb ? la : lb);
		if (c || la != lb)
			return c ? c : (la < lb ? -1 : 1);
		a = ea;
		b = eb;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static int name_qcmp(const void *a, const void *b)
{
	return name_cmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether b follows a: the same but for one digit run, one more in b. *at
 * is that run's offset in a; a run of names keeps one offset, so
 * nvme0n1, nvme1n1, nvme1n2 is no run. */
static bool follows(const char *a, const char *b, size_t *at)
{
	const char *s = a, *t = b;
	bool one = false;

	while (*s && *t) {
		const char *es = tok_end(s), *et = tok_end(t);
		size_t ls = (size_t)(es - s), lt = (size_t)(et - t);

		if (ls != lt || strncmp(s, t, ls)) {
			if (one || !isdigit((unsigned char)*s) || !isdigit((unsigned char)*t) ||
			    strtoull(t, NULL, 10) != strtoull(s, NULL, 10) + 1 ||
			    (*s == '0' && ls > 1) || (*t == '0' && lt > 1))
				return false;
			one = true;
			*at = (size_t)(s - a);
		}
		s = es;
		t = et;
	}
	return one && !*s && !*t;
}

/* Appends to buf at *o, never past len. */
static void put(char *buf, size_t len, size_t *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t len, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*o >= len)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *o, len - *o, fmt, ap);
	va_end(ap);
	if (w > 0)
		*o = *o + (size_t)w < len ? *o + (size_t)w : len;
}

int cli_names_join(const char *const *names, unsigned n, char *buf, size_t len)
{
	const char **v;
	unsigned i, m = 0, items = 0, shown = 0;
	size_t o = 0;

	if (len)
		buf[0] = '\0';
	if (!n)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	memcpy(v, names, n * sizeof(*v));
	qsort(v, n, sizeof(*v), name_qcmp);
	for (i = 0; i < n; i++)
		if (!m || strcmp(v[m - 1], v[i]))
			v[m++] = v[i];
	/* first pass counts the items, the second writes them */
	for (int pass = 0; pass < 2; pass++) {
		for (i = 0; i < m;) {
			unsigned j = i + 1;
			size_t at = 0, at2;

			if (j < m && follows(v[i], v[j], &at))
				while (j < m && follows(v[j - 1], v[j], &at2) && at2 == at)
					j++;
			if (j - i < 3)
				j = i + 1;
			if (pass) {
				if (shown == CLI_NAMES_SHOWN && items > CLI_NAMES_SHOWN) {
					put(buf, len, &o, " and %u more", m - i);
					break;
				}
				if (shown)
					put(buf, len, &o, "%s", shown + 1 == items ? " and " : ", ");
				if (j - i > 1)
					put(buf, len, &o, "%s-%s", v[i], v[j - 1]);
				else
					put(buf, len, &o, "%s", v[i]);
				shown++;
			} else {
				items++;
			}
			i = j;
		}
	}
	free(v);
	return 0;
}

/* ---- sentences ---- */

static const char SHARING[] = "SMT siblings first, then doubling up";

/* How a LESSER_KIND note's kind differs from the best: by core type where
 * both are known and differ, else by the figures that ranked them. */
static bool types_differ(const struct topo_note *nt)
{
	return nt->where[0] && nt->best[0] && strcmp(nt->where, nt->best);
}

static void kind_figures(const struct topo_note *nt, char *buf, size_t len)
{
	if (types_differ(nt)) {
		snprintf(buf, len, "%s, not %s", nt->where, nt->best);
		return;
	}
	switch (nt->basis) {
	case TOPO_KIND_CAPACITY:
		snprintf(buf, len, "capacity %u against %u", nt->value, nt->best_value);
		return;
	case TOPO_KIND_FREQUENCY:
		snprintf(buf, len, "up to %u MHz against %u", nt->value, nt->best_value);
		return;
	case TOPO_KIND_EFFICIENCY:
	case TOPO_KIND_UNRANKED:
		break;
	}
	snprintf(buf, len, "hwloc efficiency %u against %u", nt->value, nt->best_value);
}

/* A LESSER_KIND note: how many of the devices' workers sit on a lesser
 * kind, which CPUs, and why (the user's --cpus, or no better core free). */
static void lesser_sentence(const struct topo_note *nt, const char *devs, bool many,
			    char *buf, size_t len)
{
	/* kinds told apart by frequency alone are favoured cores (Turbo
	 * Boost Max 3.0), not efficiency cores */
	const char *noun = nt->basis == TOPO_KIND_FREQUENCY && !types_differ(nt) ?
		"lower-frequency core" : "efficiency core";
	const char *pos = many ? "their" : "its";
	bool one = nt->nworkers == 1;
	char fig[2 * TOPO_KIND_NAME + 96], who[64];

	kind_figures(nt, fig, sizeof(fig));
	/* "its worker", "its 2 workers", "1 of its 5 workers" */
	if (nt->nworkers == nt->nplaces && one)
		snprintf(who, sizeof(who), "%s worker", pos);
	else if (nt->nworkers == nt->nplaces)
		snprintf(who, sizeof(who), "%s %u workers", pos, nt->nworkers);
	else
		snprintf(who, sizeof(who), "%u of %s %u workers", nt->nworkers, pos, nt->nplaces);
	snprintf(buf, len, "%s: %s%s %s %s%s%s (CPU%s %s: %s): %s%s", devs,
		 nt->given ? "--cpus puts " : "", who, nt->given ? "on" :
		 one ? "is on" : "are on", !one ? "" : *noun == 'e' ? "an " : "a ", noun,
		 one ? "" : "s", one ? "" : "s", nt->what, fig,
		 nt->given ? "a worker there drives fewer IOPS than one on the most "
			     "performant kind" :
			     "no core of the most performant kind was left free for ",
		 nt->given ? "" : one ? "it" : "them");
}

/* The sentence for devs (their names joined, ndev of them) and the facts
 * of note, their kind's. */
static void sentence(const struct topo_note *nt, const char *devs, unsigned ndev,
		     unsigned per_worker, char *buf, size_t len)
{
	bool many = ndev > 1;
	const char *what;
	unsigned workers;

	switch (nt->kind) {
	case TOPO_NOTE_NO_PCI:
		what = cli_no_pci_named(nt->what);
		snprintf(buf, len, "%s %s %s, without PCI locality: %s workers are spread "
			 "over the machine", devs, many ? "are each" : "is", what ? what : "a device",
			 many ? "their" : "its");
		return;
	case TOPO_NOTE_CPULESS:
		snprintf(buf, len, "%s %s local to CPU-less node %u: placed on nearest node %u",
			 devs, many ? "are" : "is", nt->node, nt->to);
		return;
	case TOPO_NOTE_PATHS_NUMA:
		snprintf(buf, len, "%s: paths on nodes %s: workers spread over their cores, each "
			 "IO takes the path of its worker's node (iopolicy numa)", devs, nt->what);
		return;
	case TOPO_NOTE_PATHS_SPREAD:
		snprintf(buf, len, "%s: paths on nodes %s, iopolicy %s: IOs take every path "
			 "whatever the worker's node, so some cross the interconnect", devs,
			 nt->what, nt->where);
		return;
	case TOPO_NOTE_REMOTE_EVERY_PATH:
		snprintf(buf, len, "%s %s a path local to every node with CPUs: remote placement "
			 "is local here", devs, many ? "each have" : "has");
		return;
	case TOPO_NOTE_REMOTE_NO_OTHER:
		snprintf(buf, len, "%s: no other node with CPUs: remote placement is local here",
			 devs);
		return;
	case TOPO_NOTE_REMOTE_ON:
		snprintf(buf, len, "%s: remote placement on node %u (%s)", devs, nt->node,
			 nt->dist ? "farthest by hwloc distances" : "no distances recorded: another node");
		return;
	case TOPO_NOTE_NOT_ALLOWED:
		snprintf(buf, len, "%s: none of %s CPUs (%s) is allowed to this process: spread "
			 "over %s", devs, many ? "their" : "its", nt->what, nt->where);
		return;
	case TOPO_NOTE_SHARED_CORES:
		/* the cores against every worker placed there: a device that
		 * found none free shares them with earlier devices' workers,
		 * which "0 free cores" alone does not say */
		per_worker = per_worker ? per_worker : 1;
		workers = nt->nplaces / per_worker;
		snprintf(buf, len, "%s has %u core%s for %u worker%s%s: %s share%s cores (%s)",
			 nt->where, nt->ncores, nt->ncores == 1 ? "" : "s", workers,
			 workers == 1 ? "" : "s",
			 per_worker > 1 ? (workers == 1 ? " and its submission thread" :
					   " and their submission threads") : "",
			 devs, many ? "" : "s", SHARING);
		return;
	case TOPO_NOTE_LESSER_KIND:
		lesser_sentence(nt, devs, many, buf, len);
		return;
	case TOPO_NOTE_NKINDS:
		break;
	}
	snprintf(buf, len, "%s: ?", devs);
}

const char *cli_note_kind_name(enum topo_note_kind k)
{
	static const char *const names[TOPO_NOTE_NKINDS] = {
		[TOPO_NOTE_NO_PCI] = "no_pci", [TOPO_NOTE_CPULESS] = "cpuless_node",
		[TOPO_NOTE_PATHS_NUMA] = "paths_numa", [TOPO_NOTE_PATHS_SPREAD] = "paths_spread",
		[TOPO_NOTE_REMOTE_EVERY_PATH] = "remote_every_path",
		[TOPO_NOTE_REMOTE_NO_OTHER] = "remote_no_other", [TOPO_NOTE_REMOTE_ON] = "remote",
		[TOPO_NOTE_NOT_ALLOWED] = "not_allowed", [TOPO_NOTE_SHARED_CORES] = "shared_cores",
		[TOPO_NOTE_LESSER_KIND] = "lesser_kind",
	};
	_Static_assert(TOPO_NOTE_LESSER_KIND + 1 == TOPO_NOTE_NKINDS, "a name for every kind");

	return (unsigned)k < TOPO_NOTE_NKINDS && names[k] ? names[k] : "?";
}

void cli_note_text(const struct topo_note *nt, char *buf, size_t len)
{
	/* alone, a device's own count says more than the machine's */
	if (nt->kind == TOPO_NOTE_SHARED_CORES)
		snprintf(buf, len, "%s: %s has %u free core%s for %u worker%s: sharing cores (%s)",
			 nt->name, nt->where, nt->nfree, nt->nfree == 1 ? "" : "s", nt->nworkers,
			 nt->nworkers == 1 ? "" : "s", SHARING);
	else
		sentence(nt, nt->name, 1, 1, buf, len);
}

/* ---- grouping ---- */

/* Whether a and b say the same thing, of perhaps different devices. */
static bool same_facts(const struct topo_note *a, const struct topo_note *b)
{
	if (a->kind != b->kind || strcmp(a->what, b->what) || strcmp(a->where, b->where))
		return false;
	switch (a->kind) {
	case TOPO_NOTE_CPULESS:
		return a->node == b->node && a->to == b->to;
	case TOPO_NOTE_REMOTE_ON:
		return a->node == b->node && a->dist == b->dist;
	case TOPO_NOTE_SHARED_CORES:
		/* nfree and nworkers are each device's own */
		return a->ncores == b->ncores && a->nplaces == b->nplaces;
	case TOPO_NOTE_LESSER_KIND:
		return !strcmp(a->best, b->best) && a->basis == b->basis &&
			a->value == b->value && a->best_value == b->best_value &&
			a->nworkers == b->nworkers && a->nplaces == b->nplaces &&
			a->given == b->given;
	default:
		return true;
	}
}

bool cli_note_same(const struct topo_note *a, const struct topo_note *b)
{
	return !strcmp(a->name, b->name) && same_facts(a, b);
}

/* The line of kind, whose first note is notes[first]; marks every note it
 * says in done. names has room for 2 * n: a group's names go after n, the
 * devices of the groups past CLI_GROUPS_SHOWN gather before it. */
static int kind_line(const struct topo_note *notes, unsigned n, unsigned first,
		     unsigned per_worker, bool *done, const char **names, char *line)
{
	char devs[CLI_NOTE_LINE_LEN], s[CLI_NOTE_LINE_LEN];
	const char **grp = names + n;
	unsigned i, j, groups = 0, nrest = 0;
	size_t o = 0;
	int ret;

	line[0] = '\0';
	for (i = first; i < n; i++) {
		unsigned k = 0;

		if (done[i] || notes[i].kind != notes[first].kind)
			continue;
		for (j = i; j < n; j++)
			if (!done[j] && same_facts(&notes[i], &notes[j])) {
				done[j] = true;
				grp[k++] = notes[j].name;
			}
		if (groups == CLI_GROUPS_SHOWN) {
			/* named all the same, so no device goes unsaid */
			memcpy(names + nrest, grp, k * sizeof(*grp));
			nrest += k;
			continue;
		}
		ret = cli_names_join(grp, k, devs, sizeof(devs));
		if (ret)
			return ret;
		sentence(&notes[i], devs, k, per_worker, s, sizeof(s));
		put(line, CLI_NOTE_LINE_LEN, &o, "%s%s", groups ? "; " : "", s);
		groups++;
	}
	if (nrest) {
		ret = cli_names_join(names, nrest, devs, sizeof(devs));
		if (ret)
			return ret;
		put(line, CLI_NOTE_LINE_LEN, &o, "; likewise, with other figures, %s", devs);
	}
	return 0;
}

int cli_notes_lines(const struct topo_note *notes, unsigned n, unsigned per_worker,
		     char (*lines)[CLI_NOTE_LINE_LEN], unsigned max)
{
	bool *done = calloc(n ? n : 1, sizeof(*done));
	const char **names = calloc(n ? 2 * (size_t)n : 1, sizeof(*names));
	unsigned i, nl = 0;
	int ret = 0;

	if (!done || !names)
		ret = -ENOMEM;
	for (i = 0; !ret && i < n && nl < max; i++) {
		if (done[i])
			continue;
		ret = kind_line(notes, n, i, per_worker, done, names, lines[nl]);
		nl += !ret;
	}
	free(names);
	free(done);
	return ret ? ret : (int)nl;
}
