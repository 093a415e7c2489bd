/* Inside setup/'s writer: what knob.c (the session), journal.c (the
 * journal and its recovery) and knob_file.c (one queue file) share. */
#ifndef SETUP_KNOB_INT_H
#define SETUP_KNOB_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "setup/knob.h"

/* What a scheduler switch resets, put back after the scheduler, in this
 * order (an elevator's async_depth is bounded by nr_requests). */
#define SETUP_KNOB_NCOMPANIONS 2
extern const char *const setup_knob_companion[SETUP_KNOB_NCOMPANIONS];

/* A device's or a file's name: no slash, no blank, not . or .. */
bool setup_knob_plain_name(const char *s, size_t max);
/* A file below block/DISK/queue/ this code writes: a knob, a companion,
 * iosched/NAME. */
bool setup_knob_valid_file(const char *f);
/* A value a journal may hold: one line of printable text that fits. */
bool setup_knob_valid_value(const char *v);

/* <sys>/block/<disk>/queue/<file> into out (PATH_MAX). */
int setup_knob_queue_path(char *out, const char *sys, const char *disk, const char *file);
int setup_knob_read_value(const char *path, bool scheduler, char *buf, size_t len);
int setup_knob_write_value(const char *path, const char *value);
int setup_knob_put_back(const char *sys, const char *disk, const char *file, const char *old,
			bool always, bool *wrote);

/* Entries [first, s->n) into the journal, synced; created with them when
 * there is none. 0 or -errno (-EBUSY: another journal is there). */
int setup_journal_write(struct setup_knobs *s, unsigned first);
/* Everything is back: the journal goes, then its lock. */
void setup_journal_remove(struct setup_knobs *s);

#endif
