/* Placement notes in words, said once per kind: the devices a note
 * concerns are named together ("loop0-loop5") instead of one line each.
 * topo/ states each note as a kind and its facts (struct topo_note); the
 * sentences are written here, in cli/. Pure: no hwloc, no IO, so every
 * rule is unit-tested on made-up notes. */
#ifndef CLI_WORDS_NOTES_WORDS_H
#define CLI_WORDS_NOTES_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "topo/topo.h"

/* Names shown before "and N more". */
#define CLI_NAMES_SHOWN 4
/* Groups of one kind (devices with other figures) shown on its line. */
#define CLI_GROUPS_SHOWN 4
#define CLI_NOTE_LINE_LEN 600

/* What a device without PCI locality is, in words: "a loop device"; for
 * TOPO_NO_PCI_UNKNOWN, NULL. cli_no_pci_named takes topo_no_pci_name's
 * name (what findings and notes carry); an unknown name is NULL too. */
const char *cli_no_pci_words(enum topo_no_pci k);
const char *cli_no_pci_named(const char *name);

/* names as a person reads a list of them: in natural order ("nvme2n1"
 * before "nvme10n1"), each once, a run of three or more consecutive numbers
 * in one place as "loop0-loop5", "a and b", past CLI_NAMES_SHOWN items
 * "... and 20 more". Truncated to len. Returns 0 or -ENOMEM. */
int cli_names_join(const char *const *names, unsigned n, char *buf, size_t len);

/* Whether a and b say the same of the same device (by name: its index
 * may differ between calls). */
bool cli_note_same(const struct topo_note *a, const struct topo_note *b);

/* The note's kind as the JSON names it ("shared_cores"); every kind has
 * one (a static assertion beside the table). */
const char *cli_note_kind_name(enum topo_note_kind k);

/* One note alone, as a sentence, into buf. */
void cli_note_text(const struct topo_note *note, char *buf, size_t len);

/*
 * The lines to say for notes: one per kind, in the order the kinds first
 * appear. Notes of a kind with the same facts are one sentence naming
 * their devices; a kind whose devices differ in their facts (two CPU-less
 * nodes) joins its sentences with "; ". per_worker is how many places of
 * a SHARED_CORES note's nplaces each worker takes (2: the worker and its
 * SQPOLL submission thread; 0 counts as 1). Writes at most max lines;
 * returns how many, or -ENOMEM.
 */
int cli_notes_lines(const struct topo_note *notes, unsigned n, unsigned per_worker,
		     char (*lines)[CLI_NOTE_LINE_LEN], unsigned max);

#endif
