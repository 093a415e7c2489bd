/* Inside setup/'s writer: what knob.c (the session), journal.c (the
 * journal file and its lock), recover.c (a recovery), disk_id.c (what
 * identifies a disk and a boot) and knob_file.c (one queue file) share. */
#ifndef SETUP_KNOB_INT_H
#define SETUP_KNOB_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "setup/knob.h"

/* The only sysfs root written below. */
#define SETUP_LIVE_SYS "/sys"
/* The journal's first line; the number is its format's version. */
#define SETUP_JOURNAL_MAGIC "iostorm settings journal "
#define SETUP_JOURNAL_VERSION 2
#define SETUP_JOURNAL_MAX (64 * 1024)	/* far more than SETUP_KNOB_MAX_SAVED lines */

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

/* /sys/block/<disk>/queue/<file> into out (PATH_MAX). */
int setup_knob_queue_path(char *out, const char *disk, const char *file);
int setup_knob_read_value(const char *path, bool scheduler, char *buf, size_t len);
/* old into disk's file (always: even when it holds it already, but for
 * the scheduler, whose switch to itself would still freeze the queue):
 * the file opened with O_NOFOLLOW and refused (-EXDEV) when it is not a
 * sysfs file, read and written by a child process given
 * SETUP_KNOB_WRITE_MS (-ETIMEDOUT after, the child left to finish). 0
 * with *wrote, or -errno. The one way setup/ writes a queue file. */
int setup_knob_put_back(const char *disk, const char *file, const char *old, bool always,
			bool *wrote);

/* "disk NAME PATH MAJ:MIN diskseq N|-" (no newline) into buf: the
 * journal's line for id; 0 or -ENOSPC. */
int setup_disk_id_line(const struct setup_disk_id *id, char *buf, size_t len);
/* The fields after "disk " of such a line into id: 0 or -EBADMSG. */
int setup_disk_id_parse(char *fields, struct setup_disk_id *id);

/* Entries [first, s->n) into the journal, synced, each disk's identity
 * line before its first entry; created with them when there is none. 0 or
 * -errno (-EBUSY: another journal is there). */
int setup_journal_write(struct setup_knobs *s, unsigned first);
/* Everything is back: the journal goes. */
void setup_journal_remove(struct setup_knobs *s);

#endif
