/* Block queue settings changed for a measurement and put back: the one
 * part of setup/ that writes. A setting's old value goes into a journal
 * file, synced, before the setting is first changed, so an iostorm that
 * dies mid-measurement (SIGKILL, a crash, a power cut of the process
 * alone) leaves what the next start needs to put it back
 * (setup_knobs_recover). The journal lives in $IOSTORM_JOURNAL, else
 * /run/iostorm/settings.journal: /run is emptied at boot, exactly when
 * sysfs settings go back to their defaults anyway. Its owner holds an
 * exclusive flock on it for as long as it exists, which is how a recovery
 * tells a live measurement's journal from a dead one's. Never prints,
 * never exits; every call returns 0, a count or -errno. */
#ifndef SETUP_KNOB_H
#define SETUP_KNOB_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "setup/setup.h"

enum setup_knob {
	SETUP_KNOB_SCHEDULER,	/* queue/scheduler */
	SETUP_KNOB_IOSTATS,	/* queue/iostats */
	SETUP_KNOB_NOMERGES,	/* queue/nomerges */
	SETUP_KNOB_WBT,		/* queue/wbt_lat_usec */
	SETUP_NKNOBS
};

#define SETUP_JOURNAL_DEFAULT "/run/iostorm/settings.journal"
#define SETUP_KNOB_VALUE_MAX 64
/* What one measurement may have saved at once: a scheduler also saves
 * what switching it resets (nr_requests, wbt_lat_usec, the elevator's
 * iosched/ tunables, about a dozen for bfq). */
#define SETUP_KNOB_MAX_SAVED 64

/* One saved file below block/DISK/queue/ and its old value. */
struct setup_saved {
	char disk[SETUP_NAME_MAX];
	char file[SETUP_NAME_MAX];	/* "scheduler", "iosched/read_expire" */
	char value[SETUP_KNOB_VALUE_MAX];
	bool primary;			/* set by setup_knob_set; false: saved
					 * beside a scheduler */
	bool changed;			/* written since it was saved */
};

/* A session of changes: what was saved, the journal that holds it. */
struct setup_knobs {
	char sys[PATH_MAX];		/* the sysfs root written below */
	char journal[PATH_MAX];
	int fd;				/* the journal, locked; -1: none now */
	unsigned n;
	struct setup_saved saved[SETUP_KNOB_MAX_SAVED];
};

/* The file below block/DISK/queue/ a knob is: "scheduler", "wbt_lat_usec". */
const char *setup_knob_file(enum setup_knob k);

/* $IOSTORM_JOURNAL, else SETUP_JOURNAL_DEFAULT, into buf: 0 or
 * -ENAMETOOLONG. */
int setup_journal_path(char *buf, size_t len);

/* A session below r's sysfs root (struct setup_roots' rules), with the
 * journal of setup_journal_path. Nothing is written yet. 0 or -errno. */
int setup_knobs_init(struct setup_knobs *s, const struct setup_roots *r);

/* The knob's value now on disk ("mq-deadline" for "[mq-deadline] none"):
 * 0 or -errno (-EOVERFLOW: longer than len). */
int setup_knob_get(const struct setup_knobs *s, const char *disk, enum setup_knob k,
		   char *buf, size_t len);

/*
 * Sets the knob to value. The first time a session changes it, its old
 * value (and for the scheduler, those of nr_requests, wbt_lat_usec and
 * iosched/ which a switch resets) is appended to the journal and synced
 * before anything is written; the journal is created then, locked. 0 or
 * -errno: -EBUSY when another journal is there (a live measurement, or
 * one whose recovery failed), -ENOSPC when the session is full, the
 * write's -errno (-EINVAL: the kernel refuses the value).
 */
int setup_knob_set(struct setup_knobs *s, const char *disk, enum setup_knob k,
		   const char *value);

/* Puts back what setup_knob_set changed on disk's knob (the scheduler's
 * companions after it); nothing when it changed nothing. Once everything
 * the session saved is back, the journal is removed. 0 or the first
 * -errno (every file is still tried; the journal then stays). */
int setup_knob_restore(struct setup_knobs *s, const char *disk, enum setup_knob k);

/* Puts back everything the session changed, in the order it was saved,
 * and removes the journal: the count of primary knobs put back, or the
 * first -errno (all are tried; the journal then stays for the next
 * start). */
int setup_knobs_restore(struct setup_knobs *s);

/* Closes the journal without putting anything back: what is still
 * changed stays in it for setup_knobs_recover. */
void setup_knobs_close(struct setup_knobs *s);

/*
 * Puts back what the journal at path (NULL: setup_journal_path) says a
 * dead session left changed, then removes it. Returns the count of
 * primary knobs put back (0: no journal, one a live session holds, or
 * one in a folder this user cannot read: root's /run/iostorm), or
 * -errno with the journal left in place: -EPERM for a journal that is not
 * this user's own or that others may write, -EBADMSG for one that is not
 * a journal, the first failed write's (every line is still tried). A
 * device that is gone (-ENOENT) took its settings with it: not a failure.
 * *missing (may be NULL) gets how many lines named a device that is gone.
 */
int setup_knobs_recover(const char *path, unsigned *missing);

#endif
