/* The journal of the settings a measurement changed (setup/knob.h), and
 * the session lock beside it: written and synced before the first
 * change, read back by a recovery (setup/recover.c). The journal is text,
 * one fact a line, so a person can read what an interrupted measurement
 * left changed:
 *
 *   iostorm settings journal 2
 *   boot 8b77d44c-fa15-4404-9f6b-a83e8a5fa819
 *   disk loop3 devices/virtual/block/loop3 7:3 diskseq 91
 *   set loop3 scheduler mq-deadline
 *   also loop3 nr_requests 64
 *   also loop3 iosched/read_expire 100
 *
 * "boot" is the boot it was written in, "disk" what identifies a disk
 * (before its first setting), "set" a setting a caller changed, "also"
 * one saved beside a scheduler because switching it resets them
 * (nr_requests, wbt_lat_usec, the elevator's tunables in iosched/).
 * Writes go to the live /sys only, so the journal names no root. A line
 * is complete only with its newline: a line cut by a crash was never
 * followed by its change. Version 1 (before the boot and disk lines)
 * named disks by name only. */
#include "setup/knob.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "setup/knob_int.h"
#include "setup/setup_int.h"

_Static_assert(SETUP_KNOB_MAX_SAVED <= 64, "setup_knobs.journaled is a 64-bit mask");

int setup_journal_path(char *buf, size_t len)
{
	const char *p = getenv("IOSTORM_JOURNAL");
	int n;

	if (!p || !*p)
		p = SETUP_JOURNAL_DEFAULT;
	n = snprintf(buf, len, "%s", p);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int setup_journal_exists(const char *path)
{
	struct stat st;

	if (!lstat(path, &st))
		return 1;
	return errno == ENOENT || errno == EACCES ? 0 : -errno;
}

/* ---- the journal file ---- */

static int write_all(int fd, const char *s, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, s, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The folder holding path, synced so the journal's name is on disk too
 * when $IOSTORM_JOURNAL is on a disk file system (/run is memory). */
static int sync_dir(const char *path)
{
	char dir[PATH_MAX], *slash;
	int fd, ret = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) && errno != EINVAL)	/* some file systems cannot */
		ret = -errno;
	close(fd);
	return ret;
}

/* /run/iostorm may not exist yet; one level is made, 0700, no more. */
static void make_dir(const char *path)
{
	char dir[PATH_MAX], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return;
	*slash = '\0';
	(void)mkdir(dir, 0700);	/* EEXIST mostly; a real failure shows at the open */
}

/* The journal born whole: written and synced under a temporary name, then
 * linked to its name, which fails when another is there. */
static int journal_create(struct setup_knobs *s, const char *text, size_t len)
{
	char tmp[PATH_MAX + 16];
	int fd, ret;

	make_dir(s->journal);
	snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", s->journal);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = write_all(fd, text, len);
	if (!ret && fsync(fd))
		ret = -errno;
	if (!ret && link(tmp, s->journal))
		ret = errno == EEXIST ? -EBUSY : -errno;
	unlink(tmp);
	if (!ret)
		ret = sync_dir(s->journal);
	if (ret) {
		if (ret != -EBUSY)
			unlink(s->journal);
		close(fd);
		return ret;
	}
	s->fd = fd;
	return 0;
}

/* The identity line of e's disk, when the journal does not hold it yet. */
static int add_disk(struct setup_knobs *s, const struct setup_saved *e, char *text,
		    size_t cap, size_t *len, unsigned long long *lines)
{
	char line[SETUP_DEVPATH_MAX + 2 * SETUP_NAME_MAX];
	unsigned i;
	int n, ret;

	for (i = 0; i < s->ndisks && strcmp(s->disks[i].disk, e->disk); i++)
		;
	if (i == s->ndisks)
		return -EINVAL;	/* setup_knob_set identifies a disk first */
	if ((s->journaled | *lines) & (1ull << i))
		return 0;
	ret = setup_disk_id_line(&s->disks[i], line, sizeof(line));
	if (ret)
		return ret;
	n = snprintf(text + *len, cap - *len, "%s\n", line);
	if (n < 0 || (size_t)n >= cap - *len)
		return -ENOSPC;
	*len += (size_t)n;
	*lines |= 1ull << i;
	return 0;
}

int setup_journal_write(struct setup_knobs *s, unsigned first)
{
	unsigned long long lines = 0;
	char *text = malloc(SETUP_JOURNAL_MAX);
	size_t len = 0;
	unsigned i;
	int n = 0;

	if (!text)
		return -ENOMEM;
	if (s->fd < 0) {
		n = snprintf(text, SETUP_JOURNAL_MAX, "%s%d\nboot %s\n", SETUP_JOURNAL_MAGIC,
			     SETUP_JOURNAL_VERSION, s->boot);
		len = (size_t)n;
		n = 0;
		s->journaled = 0;
	}
	for (i = first; !n && i < s->n; i++) {
		const struct setup_saved *e = &s->saved[i];

		n = add_disk(s, e, text, SETUP_JOURNAL_MAX, &len, &lines);
		if (n)
			break;
		n = snprintf(text + len, SETUP_JOURNAL_MAX - len, "%s %s %s %s\n",
			     e->primary ? "set" : "also", e->disk, e->file, e->value);
		if (n < 0 || (size_t)n >= SETUP_JOURNAL_MAX - len) {
			n = -ENOSPC;
			break;
		}
		len += (size_t)n;
		n = 0;
	}
	if (!n && s->fd < 0)
		n = journal_create(s, text, len);
	else if (!n)
		n = write_all(s->fd, text, len);
	if (!n && fsync(s->fd))
		n = -errno;
	if (!n)
		s->journaled |= lines;
	free(text);
	return n;
}

/* Everything is back: the journal goes. */
void setup_journal_remove(struct setup_knobs *s)
{
	if (s->fd >= 0) {
		unlink(s->journal);
		close(s->fd);
		s->fd = -1;
	}
	s->n = 0;
	s->journaled = 0;
}

/* ---- the session lock ---- */

static int lock_path(char *out, size_t len, const char *journal)
{
	int n = snprintf(out, len, "%s.lock", journal);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Who holds the lock on fd: 0 when it was let go meanwhile (or its
 * holder cannot be seen), else its pid. */
static pid_t holder_of(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	if (fcntl(fd, F_GETLK, &fl) || fl.l_type == F_UNLCK)
		return 0;
	return fl.l_pid;
}

int setup_session_lock(struct setup_lock *l, const char *path, pid_t *holder)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char lp[PATH_MAX], pid[24];
	struct stat st;
	int fd, ret = 0, n;

	l->fd = -1;
	*holder = 0;
	ret = lock_path(lp, sizeof(lp), path);
	if (ret)
		return ret;
	make_dir(lp);
	fd = open(lp, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
		ret = -EPERM;
	/* one try more when the holder let go between the two calls */
	for (n = 0; !ret && n < 2 && fcntl(fd, F_SETLK, &fl); n++) {
		if (errno != EAGAIN && errno != EACCES)
			ret = -errno;
		else if ((*holder = holder_of(fd)) || n == 1)
			ret = -EBUSY;
	}
	if (!ret) {
		/* for a person who looks; the kernel's answer is holder_of's */
		n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
		if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)n, 0) != n)
			ret = -errno;
	}
	if (ret) {
		close(fd);
		return ret;
	}
	l->fd = fd;
	return 0;
}

void setup_session_unlock(struct setup_lock *l)
{
	/* the lock file stays: unlinking it would let a second session lock
	 * a new file while a third still waits on the old one */
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
}
