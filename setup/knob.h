/* Block queue settings changed for a measurement and put back: the one
 * part of setup/ that writes, and only below the live /sys (never below a
 * redirected sysfs root, which names a recorded tree). A setting's old
 * value goes into a journal file, synced, before the setting is first
 * changed, so an iostorm that dies mid-measurement
 * (SIGKILL, a crash) leaves what a later `check` needs to put it back
 * (setup_knobs_recover). The journal names each disk by what identifies
 * it (its /sys/devices path, dev_t, diskseq) and the boot it was written
 * in, so nothing is put back onto a disk that has since taken the name.
 * It lives in $IOSTORM_JOURNAL, else /run/iostorm/settings.journal: /run
 * is emptied at boot, exactly when sysfs settings go back to their
 * defaults anyway. One session at a time holds the journal's lock
 * (setup_session_lock) from its first look at the journal to its end.
 * Every write is bounded in time (SETUP_KNOB_WRITE_MS): a scheduler
 * switch on a stalled queue waits for it to drain, and the write then
 * fails with -ETIMEDOUT instead of hanging the caller. Never prints,
 * never exits; every call returns 0, a count or -errno. */
#ifndef SETUP_KNOB_H
#define SETUP_KNOB_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

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
/* How long one write to a queue file may take: a scheduler switch
 * freezes the queue and waits for its IOs in flight, which on a healthy
 * queue is milliseconds. */
#define SETUP_KNOB_WRITE_MS 5000
#define SETUP_DEVPATH_MAX 256
#define SETUP_BOOT_ID_MAX 40	/* "8b77d44c-fa15-4404-9f6b-a83e8a5fa819" */

/* What tells a disk from one that takes its name later: where it hangs
 * below /sys/devices, its device number, and its diskseq (5.15 on), which
 * no two disks share within a boot; a re-attached loop device or a
 * re-plugged drive gets a new one even where its name, path and dev_t are
 * the same as before. */
struct setup_disk_id {
	char disk[SETUP_NAME_MAX];		/* "nvme0n1" */
	char path[SETUP_DEVPATH_MAX];		/* below /sys: "devices/virtual/block/loop3" */
	unsigned major, minor;
	long long diskseq;			/* -1: the kernel has none */
};

/* Which field of two identities differs first; SETUP_ID_SAME: none. */
enum setup_id_diff { SETUP_ID_SAME, SETUP_ID_PATH, SETUP_ID_DEVT, SETUP_ID_DISKSEQ };

/* One saved file below block/DISK/queue/ and its old value. */
struct setup_saved {
	char disk[SETUP_NAME_MAX];
	char file[SETUP_NAME_MAX];	/* "scheduler", "iosched/read_expire" */
	char value[SETUP_KNOB_VALUE_MAX];
	bool primary;			/* set by setup_knob_set; false: saved
					 * beside a scheduler */
	bool changed;			/* written since it was saved */
};

/* A session of changes: what was saved, the disks it was saved on, the
 * journal that holds it. */
struct setup_knobs {
	char journal[PATH_MAX];
	char boot[SETUP_BOOT_ID_MAX];	/* this boot's id, read at init */
	int fd;				/* the journal; -1: none now */
	unsigned n, ndisks;		/* saved, identified */
	unsigned long long journaled;	/* bit i: disks[i]'s line is in the journal */
	struct setup_saved saved[SETUP_KNOB_MAX_SAVED];
	struct setup_disk_id disks[SETUP_KNOB_MAX_SAVED];
};

/* The session lock: held from before a session looks at the journal to
 * its end, by --measure and by a recovery alike. */
struct setup_lock {
	int fd;				/* -1: not held */
};

/* The file below block/DISK/queue/ a knob is: "scheduler", "wbt_lat_usec". */
const char *setup_knob_file(enum setup_knob k);

/* $IOSTORM_JOURNAL, else SETUP_JOURNAL_DEFAULT, into buf: 0 or
 * -ENAMETOOLONG. */
int setup_journal_path(char *buf, size_t len);

/* 1 when the journal at path is there, 0 when not or when this user may
 * not look (root's 0700 /run/iostorm), -errno otherwise. */
int setup_journal_exists(const char *path);

/* true when r's sysfs root (NULL: the live /sys) is a tree other than the
 * live /sys, such as a recorded one: nothing is written then. */
bool setup_sysfs_redirected(const struct setup_roots *r);

/* Takes the session lock of the journal at path (its name with ".lock",
 * created 0600, its folder 0700 when missing) without waiting: 0, or
 * -EBUSY with the holder's pid in *holder (0 when it cannot be seen, as
 * from another pid namespace), -EPERM for a lock file that is not this
 * user's own, -errno. A POSIX record lock: the kernel drops it when its
 * process dies, and a child forked for a write does not inherit it. */
int setup_session_lock(struct setup_lock *l, const char *path, pid_t *holder);
void setup_session_unlock(struct setup_lock *l);

/* This boot's id (/proc/sys/kernel/random/boot_id): 0 or -errno. */
int setup_boot_id(char *buf, size_t len);
/* disk's identity now, from the live /sys: 0, -ENOENT when it is gone, or
 * -errno. */
int setup_disk_id_read(const char *disk, struct setup_disk_id *id);
enum setup_id_diff setup_disk_id_diff(const struct setup_disk_id *was,
				      const struct setup_disk_id *now);

/* A session below the live /sys, with the journal of setup_journal_path.
 * Nothing is written yet. 0, -EROFS when r (the roots the caller reads
 * facts below) redirects sysfs, or -errno. */
int setup_knobs_init(struct setup_knobs *s, const struct setup_roots *r);

/* The knob's value now on disk ("mq-deadline" for "[mq-deadline] none"):
 * 0 or -errno (-EOVERFLOW: longer than len). */
int setup_knob_get(const struct setup_knobs *s, const char *disk, enum setup_knob k,
		   char *buf, size_t len);

/*
 * Sets the knob to value. The first time a session changes it, the disk's
 * identity and its old value (and for the scheduler, those of
 * nr_requests, wbt_lat_usec and iosched/ which a switch resets) are
 * appended to the journal and synced before anything is written; the
 * journal is created then. 0 or -errno: -EBUSY when another journal is
 * there, -ENOSPC when the session is full, -ESTALE when the disk is no
 * longer the one first identified, the write's -errno (-EINVAL: the
 * kernel refuses the value; -ETIMEDOUT: it did not take it in time).
 */
int setup_knob_set(struct setup_knobs *s, const char *disk, enum setup_knob k,
		   const char *value);

/* Puts back what setup_knob_set changed on disk's knob (the scheduler's
 * companions after it); nothing when it changed nothing. Once everything
 * the session saved is back, the journal is removed. 0 or the first
 * -errno (every file is still tried, but none more on a disk whose write
 * timed out or that changed; the journal then stays). */
int setup_knob_restore(struct setup_knobs *s, const char *disk, enum setup_knob k);

/* Puts back everything the session changed, in the order it was saved,
 * and removes the journal: the count of primary knobs put back, or the
 * first -errno (all are tried; the journal then stays). */
int setup_knobs_restore(struct setup_knobs *s);

/* Closes the journal without putting anything back: what is still
 * changed stays in it for setup_knobs_recover. */
void setup_knobs_close(struct setup_knobs *s);

/* What a recovery did with one disk the journal names. */
struct setup_recovered {
	struct setup_disk_id was;	/* as the journal names it */
	struct setup_disk_id now;	/* as it is now (diff != SAME) */
	enum setup_id_diff diff;	/* SAME: the same disk, put back */
	bool gone;			/* no disk has the name now */
	unsigned nset;			/* primary settings the journal holds */
	unsigned back;			/* of them, written back now */
	int err;			/* the first write's failure, 0 none */
};

struct setup_recovery {
	char boot[SETUP_BOOT_ID_MAX];	/* the journal's boot */
	bool other_boot;		/* not this one: nothing applied, the
					 * journal removed (the settings went
					 * back to their defaults at that boot) */
	int version;			/* the journal's format; an older one
					 * names disks by name only: nothing
					 * applied, the journal kept */
	unsigned ndisks;
	struct setup_recovered disk[SETUP_KNOB_MAX_SAVED];
};

/*
 * Puts back what the journal at path says a dead session left changed, on
 * each disk that is still the one it names; the caller holds the session
 * lock. Every field (the format, the boot id, each disk's identity) is
 * checked before anything is written. Returns the count of primary
 * settings put back (0 too when there is no journal, or one in a folder
 * this user cannot read), with what happened per disk in *r; the journal
 * is removed when nothing in it is left to put back. -errno with the
 * journal kept: -EPERM for a journal that is not this user's own or that
 * others may write, -EBADMSG for one that is not a journal,
 * -EPROTONOSUPPORT for an older format, -EROFS when roots redirect sysfs
 * (setup_sysfs_redirected), the first failed write's (every other disk is
 * still tried: r says which).
 */
int setup_knobs_recover(const char *path, const struct setup_roots *roots,
			struct setup_recovery *r);

#endif
