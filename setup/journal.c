/* The journal of the settings a measurement changed (setup/knob.h): written
 * and synced before the first change, read back by a recovery. The journal is text, one setting a line, so a person
 * can read what an interrupted measurement left changed:
 *
 *   iostorm settings journal 1
 *   root /sys
 *   set loop3 scheduler mq-deadline
 *   also loop3 nr_requests 64
 *   also loop3 iosched/read_expire 100
 *
 * "set" is a setting a caller changed, "also" one saved beside a
 * scheduler because switching it resets them (nr_requests, wbt_lat_usec,
 * the elevator's tunables in iosched/). A line is complete only with its
 * newline: a line cut by a crash was never followed by its change. */
#include "setup/knob.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "setup/knob_int.h"
#include "setup/setup_int.h"

#define JOURNAL_MAGIC "iostorm settings journal 1"
#define JOURNAL_MAX (64 * 1024)	/* far more than SETUP_KNOB_MAX_SAVED lines */

int setup_journal_path(char *buf, size_t len)
{
	const char *p = getenv("IOSTORM_JOURNAL");
	int n;

	if (!p || !*p)
		p = SETUP_JOURNAL_DEFAULT;
	n = snprintf(buf, len, "%s", p);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
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
	(void)mkdir(dir, 0700);	/* EEXIST mostly; a real failure shows at mkstemp */
}

/* The journal born whole: written and synced under a temporary name,
 * locked, then linked to its name, which fails when another is there. */
static int journal_create(struct setup_knobs *s, const char *text, size_t len)
{
	char tmp[PATH_MAX + 16];
	int fd, ret;

	make_dir(s->journal);
	snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", s->journal);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = flock(fd, LOCK_EX) ? -errno : 0;
	if (!ret)
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

/* Entries [first, s->n) into the journal, synced: created with them when
 * there is none. */
int setup_journal_write(struct setup_knobs *s, unsigned first)
{
	char text[JOURNAL_MAX];
	size_t len = 0;
	unsigned i;
	int n;

	if (s->fd < 0) {
		n = snprintf(text, sizeof(text), "%s\nroot %s\n", JOURNAL_MAGIC, s->sys);
		if (n < 0 || (size_t)n >= sizeof(text))
			return -ENAMETOOLONG;
		len = (size_t)n;
	}
	for (i = first; i < s->n; i++) {
		const struct setup_saved *e = &s->saved[i];

		n = snprintf(text + len, sizeof(text) - len, "%s %s %s %s\n",
			     e->primary ? "set" : "also", e->disk, e->file, e->value);
		if (n < 0 || (size_t)n >= sizeof(text) - len)
			return -ENOSPC;
		len += (size_t)n;
	}
	if (s->fd < 0)
		return journal_create(s, text, len);
	n = write_all(s->fd, text, len);
	if (!n && fsync(s->fd))
		n = -errno;
	return n;
}

/* Everything is back: the journal goes, then its lock. */
void setup_journal_remove(struct setup_knobs *s)
{
	if (s->fd >= 0) {
		unlink(s->journal);
		close(s->fd);
		s->fd = -1;
	}
	s->n = 0;
}

/* ---- recovery ---- */

/* The journal's text, from a journal that is this user's own: 0 or
 * -errno; *len its length. */
static int read_journal(int fd, char *buf, size_t cap, size_t *len)
{
	struct stat st;
	ssize_t n;
	size_t got = 0;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
		return -EPERM;
	while (got < cap) {
		n = read(fd, buf + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		got += (size_t)n;
	}
	if (got == cap)
		return -EBADMSG;
	buf[got] = '\0';
	*len = got;
	return 0;
}

/* One complete line "set|also DISK FILE VALUE", put back below root. */
static int recover_line(const char *root, char *line, int *back, unsigned *missing)
{
	char *save_p, *kind = strtok_r(line, " ", &save_p);
	char *disk = strtok_r(NULL, " ", &save_p), *file = strtok_r(NULL, " ", &save_p);
	char *value = strtok_r(NULL, "", &save_p);
	bool primary, wrote;
	int ret;

	if (!kind || !disk || !file || !value || (strcmp(kind, "set") && strcmp(kind, "also")) ||
	    !setup_knob_plain_name(disk, SETUP_NAME_MAX) || !setup_knob_valid_file(file) || !setup_knob_valid_value(value))
		return -EBADMSG;
	primary = !strcmp(kind, "set");
	/* recovery writes only what differs: a setting its session had put
	 * back before it died is not counted as put back again */
	ret = setup_knob_put_back(root, disk, file, value, false, &wrote);
	if (ret == -ENOENT || ret == -ENODEV) {
		*missing += primary;
		return 0;
	}
	if (!ret && wrote)
		*back += primary;
	return ret;
}

static int recover_text(char *text, int *back, unsigned *missing)
{
	char *line = text, *nl, *root;
	int ret = 0, r;
	unsigned no = 0;

	root = NULL;
	while ((nl = strchr(line, '\n'))) {	/* a cut last line is left out */
		*nl = '\0';
		if (no == 0 && strcmp(line, JOURNAL_MAGIC))
			return -EBADMSG;
		if (no == 1) {
			if (strncmp(line, "root /", 6))
				return -EBADMSG;
			root = line + 5;
		}
		if (no >= 2) {
			r = recover_line(root, line, back, missing);
			if (r && !ret)
				ret = r;
		}
		no++;
		line = nl + 1;
	}
	return no < 2 ? -EBADMSG : ret;
}

int setup_knobs_recover(const char *path, unsigned *missing)
{
	char own[PATH_MAX], *text;
	struct stat st;
	size_t len;
	unsigned gone = 0;
	int fd, ret, back = 0;

	if (!path) {
		ret = setup_journal_path(own, sizeof(own));
		if (ret)
			return ret;
		path = own;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	/* not there; or in a folder this user cannot read (root's 0700
	 * /run/iostorm): no journal of theirs, and none they could act on */
	if (fd < 0)
		return errno == ENOENT || errno == EACCES ? 0 : -errno;
	/* a live session holds its journal locked: it is not ours to undo */
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ret = errno == EWOULDBLOCK ? 0 : -errno;
		close(fd);
		return ret;
	}
	/* removed by its session while we waited for nothing: all was back */
	if (fstat(fd, &st) || !st.st_nlink) {
		close(fd);
		return 0;
	}
	text = malloc(JOURNAL_MAX);
	ret = text ? read_journal(fd, text, JOURNAL_MAX, &len) : -ENOMEM;
	if (!ret)
		ret = recover_text(text, &back, &gone);
	if (!ret && unlink(path) && errno != ENOENT)
		ret = -errno;
	free(text);
	close(fd);
	if (missing)
		*missing = gone;
	return ret ? ret : back;
}
