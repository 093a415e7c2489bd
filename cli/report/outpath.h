/* What an output may be: the one check every file iostorm writes passes
 * (--json, --stream, plot -o), before anything is opened for writing.
 *
 * iostorm runs as root on machines that hold data, so an output is named
 * before it is opened and is only ever one of:
 *   - a regular file (or a new one) on a file system that stores files:
 *     not a file of proc, sysfs, debugfs, efivarfs and their like, where a
 *     write is an order to the kernel;
 *   - a FIFO, /dev/null or a terminal.
 * Any other device, block or character, is refused (a /dev/sg takes
 * writes as SCSI commands, a block device holds data), and so is a
 * socket. An output is never an operand of the command (a target, a
 * report it reads) nor another output of it: both are claimed
 * (cli_outpath_claim) and compared by identity (st_dev/st_ino, st_rdev
 * for devices) or, for a file not there yet, by its resolved path.
 *
 * Symlinks on the way are followed as the kernel would with
 * fs.protected_symlinks=1, whatever the sysctl says (fs/namei.c,
 * may_follow_link): in a sticky, world-writable directory (/tmp) a link
 * is followed only when the caller or the directory's owner owns it, so
 * another user's link cannot point root's report at a victim. Elsewhere
 * links are followed as usual. */
#ifndef CLI_REPORT_OUTPATH_H
#define CLI_REPORT_OUTPATH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

enum cli_outpath_kind {
	CLI_OUTPATH_NEW,	/* not there yet: a regular file is created */
	CLI_OUTPATH_FILE,	/* a regular file */
	CLI_OUTPATH_FIFO,
	CLI_OUTPATH_NULL,	/* /dev/null */
	CLI_OUTPATH_TTY,	/* a terminal */
};

struct cli_outpath {
	enum cli_outpath_kind kind;
	/* reached through a /proc magic link (/dev/stdout, /dev/fd/N): its
	 * last steps are the kernel's, so it is opened as is, in place */
	bool magic;
	struct stat st;		/* what is there (kind != NEW) */
	/* path with every symlink resolved, each one allowed: what is
	 * opened, created or renamed over */
	char real[PATH_MAX];
	/* why it was refused, for the caller's line ("PATH: why") */
	char why[512];
};

/* Checks path as an output: resolves it into p and classifies what is
 * there. 0, or -errno with p->why filled:
 *   -EINVAL: not something an output may be (a device, a socket, a file
 *     of a kernel interface), or a path claimed already: a usage error;
 *   -EACCES: a symlink the protected_symlinks rule does not follow;
 *   -EISDIR, -ENOENT (a missing folder), -ELOOP, ...: the system's.
 * Nothing is opened, created or changed. */
int cli_outpath_check(const char *path, struct cli_outpath *p);

/* Remembers path as something no output may be: an operand the command
 * reads (what: "the target", "the input") or an output already checked
 * ("--json's file"). The strings are kept, not copied: they must outlive
 * the command (argv, option values). A path that cannot be looked at is
 * not claimed (reading it will say why). 0 or -ENOMEM. */
int cli_outpath_claim(const char *path, const char *what);
/* Every one of paths claimed as what: 0 or -ENOMEM (said). */
int cli_outpath_claim_all(char *const *paths, unsigned n, const char *what);
/* Claims an output once checked, by its resolved path too: so that a
 * second output naming a file not yet there is refused. */
int cli_outpath_claim_checked(const char *path, const char *what,
			      const struct cli_outpath *p);
/* Forgets every claim (the next command's, in one process: tests). */
void cli_outpath_forget(void);

/* Opens a checked path that is written in place (FIFO, /dev/null, a
 * terminal, a file reached through /proc) for writing, with extra flags
 * (O_NONBLOCK, O_APPEND, O_CREAT for a stream's new file), and makes sure
 * it is still what was checked: a link or a device swapped in between is
 * refused (-ELOOP, -ESTALE). fd or -errno. */
int cli_outpath_open(const struct cli_outpath *p, int flags);

#endif
