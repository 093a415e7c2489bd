/* Block queue settings changed and put back, with a journal written first
 * (setup/knob.h). The journal is text, one setting a line, so a person
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

#include "setup/setup_int.h"

#define JOURNAL_MAGIC "iostorm settings journal 1"
#define JOURNAL_MAX (64 * 1024)	/* far more than SETUP_KNOB_MAX_SAVED lines */

static const char *const knob_file[SETUP_NKNOBS] = {
	[SETUP_KNOB_SCHEDULER] = "scheduler",
	[SETUP_KNOB_IOSTATS] = "iostats",
	[SETUP_KNOB_NOMERGES] = "nomerges",
	[SETUP_KNOB_WBT] = "wbt_lat_usec",
};

/* What a scheduler switch resets, put back after the scheduler, in this
 * order (an elevator's async_depth is bounded by nr_requests). */
static const char *const companion_file[] = { "nr_requests", "wbt_lat_usec" };

const char *setup_knob_file(enum setup_knob k)
{
	return (unsigned)k < SETUP_NKNOBS ? knob_file[k] : NULL;
}

int setup_journal_path(char *buf, size_t len)
{
	const char *p = getenv("IOSTORM_JOURNAL");
	int n;

	if (!p || !*p)
		p = SETUP_JOURNAL_DEFAULT;
	n = snprintf(buf, len, "%s", p);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* ---- names a journal may hold ---- */

static bool plain_name(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n >= max || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (*s == '/' || *s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

/* A journal names only files below block/DISK/queue/ that this code
 * writes, so a damaged or foreign journal cannot steer a write anywhere
 * else below the root. */
static bool valid_file(const char *f)
{
	unsigned i;

	for (i = 0; i < SETUP_NKNOBS; i++)
		if (!strcmp(f, knob_file[i]))
			return true;
	for (i = 0; i < sizeof(companion_file) / sizeof(companion_file[0]); i++)
		if (!strcmp(f, companion_file[i]))
			return true;
	return !strncmp(f, "iosched/", 8) && plain_name(f + 8, SETUP_NAME_MAX - 8);
}

static bool valid_value(const char *v)
{
	size_t n = strlen(v);

	if (!n || n >= SETUP_KNOB_VALUE_MAX)
		return false;
	for (; *v; v++)
		if (*v < ' ' || *v == 0x7f)
			return false;
	return true;
}

/* ---- one sysfs file ---- */

static int queue_path(char *out, const char *sys, const char *disk, const char *file)
{
	int n = snprintf(out, PATH_MAX, "%s/block/%s/queue/%s", sys, disk, file);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/* The first line of path, trailing blanks cut; a scheduler list gives the
 * bracketed name ("[mq-deadline] none" -> "mq-deadline"). -EOVERFLOW when
 * it does not fit len, -ENODATA when empty. */
static int read_value(const char *path, bool scheduler, char *buf, size_t len)
{
	char line[512], *p, *end;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, line, sizeof(line) - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return (int)n;
	line[n] = '\0';
	line[strcspn(line, "\n")] = '\0';
	p = scheduler ? strchr(line, '[') : NULL;
	end = p ? strchr(p, ']') : NULL;
	if (p && end) {
		p++;
		*end = '\0';
	} else {
		p = line;
	}
	for (end = p + strlen(p); end > p && end[-1] == ' '; end--)
		end[-1] = '\0';
	if (!*p)
		return -ENODATA;
	if (strlen(p) >= len)
		return -EOVERFLOW;
	memcpy(buf, p, strlen(p) + 1);
	return 0;
}

static int write_value(const char *path, const char *value)
{
	char line[SETUP_KNOB_VALUE_MAX + 1];
	int n = snprintf(line, sizeof(line), "%s\n", value), fd, ret = 0;

	if (n < 0 || (size_t)n >= sizeof(line))
		return -EOVERFLOW;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* sysfs takes a store in one write or refuses it whole */
	if (write(fd, line, (size_t)n) != n)
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* Writes old into file unless it already holds it: a companion that the
 * switch back left as it was needs no write (and some refuse one). */
static int put_back(const char *sys, const char *disk, const char *file, const char *old,
		    bool always, bool *wrote)
{
	char path[PATH_MAX], now[SETUP_KNOB_VALUE_MAX];
	int ret = queue_path(path, sys, disk, file);

	*wrote = false;
	if (ret)
		return ret;
	if (!always || !strcmp(file, "scheduler")) {
		ret = read_value(path, !strcmp(file, "scheduler"), now, sizeof(now));
		if (ret == -ENOENT)
			return ret;
		if (!ret && !strcmp(now, old))
			return 0;
	}
	ret = write_value(path, old);
	*wrote = !ret;
	return ret;
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
static int journal_write(struct setup_knobs *s, unsigned first)
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
static void journal_remove(struct setup_knobs *s)
{
	if (s->fd >= 0) {
		unlink(s->journal);
		close(s->fd);
		s->fd = -1;
	}
	s->n = 0;
}

/* ---- a session ---- */

int setup_knobs_init(struct setup_knobs *s, const struct setup_roots *r)
{
	struct setup_at at;
	int ret;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	ret = setup_at_init(&at, r);
	if (ret)
		return ret;
	/* absolute, so a recovery started in another folder writes here too */
	if (!realpath(at.sys, s->sys))
		return -errno;
	return setup_journal_path(s->journal, sizeof(s->journal));
}

int setup_knob_get(const struct setup_knobs *s, const char *disk, enum setup_knob k,
		   char *buf, size_t len)
{
	char path[PATH_MAX];
	int ret;

	if ((unsigned)k >= SETUP_NKNOBS || !plain_name(disk, SETUP_NAME_MAX))
		return -EINVAL;
	ret = queue_path(path, s->sys, disk, knob_file[k]);
	return ret ? ret : read_value(path, k == SETUP_KNOB_SCHEDULER, buf, len);
}

static int find(const struct setup_knobs *s, const char *disk, const char *file)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->saved[i].disk, disk) && !strcmp(s->saved[i].file, file))
			return (int)i;
	return -1;
}

/* Adds file's value now; a companion that cannot be read (no wbt on this
 * queue), is empty or cannot be written is left out, a primary not. */
static int save(struct setup_knobs *s, const char *disk, const char *file, bool primary)
{
	struct setup_saved *e;
	char path[PATH_MAX];
	struct stat st;
	int ret;

	if (find(s, disk, file) >= 0)
		return 0;
	if (s->n == SETUP_KNOB_MAX_SAVED)
		return -ENOSPC;
	e = &s->saved[s->n];
	memset(e, 0, sizeof(*e));
	snprintf(e->disk, sizeof(e->disk), "%s", disk);
	if (snprintf(e->file, sizeof(e->file), "%s", file) >= (int)sizeof(e->file))
		return primary ? -ENAMETOOLONG : 0;
	ret = queue_path(path, s->sys, disk, file);
	if (!ret)
		ret = read_value(path, !strcmp(file, "scheduler"), e->value, sizeof(e->value));
	if (!ret && !valid_value(e->value))
		ret = -EOVERFLOW;
	if (!ret && !primary && (stat(path, &st) || !(st.st_mode & S_IWUSR)))
		return 0;
	if (ret)
		return primary ? ret : 0;
	e->primary = primary;
	s->n++;
	return 0;
}

/* The scheduler's companions, after it: nr_requests, wbt_lat_usec, then
 * the elevator's tunables by name. */
static int save_companions(struct setup_knobs *s, const char *disk)
{
	char (*names)[SETUP_NAME_MAX] = NULL, file[SETUP_NAME_MAX];
	unsigned i;
	int n, ret = 0;

	for (i = 0; !ret && i < sizeof(companion_file) / sizeof(companion_file[0]); i++)
		ret = save(s, disk, companion_file[i], false);
	n = ret ? 0 : setup_list(s->sys, &names, "block/%s/queue/iosched", disk);
	for (i = 0; !ret && n > 0 && i < (unsigned)n; i++) {
		if (snprintf(file, sizeof(file), "iosched/%s", names[i]) < (int)sizeof(file) &&
		    valid_file(file))
			ret = save(s, disk, file, false);
	}
	free(names);
	return ret;
}

/* The entries of the primary at i: it and the companions saved after it. */
static unsigned group_end(const struct setup_knobs *s, unsigned i)
{
	unsigned j = i + 1;

	while (j < s->n && !s->saved[j].primary)
		j++;
	return j;
}

int setup_knob_set(struct setup_knobs *s, const char *disk, enum setup_knob k,
		   const char *value)
{
	char path[PATH_MAX];
	unsigned first = s->n, j, end;
	int i, ret;

	if ((unsigned)k >= SETUP_NKNOBS || !plain_name(disk, SETUP_NAME_MAX) ||
	    !valid_value(value))
		return -EINVAL;
	ret = queue_path(path, s->sys, disk, knob_file[k]);
	if (ret)
		return ret;
	i = find(s, disk, knob_file[k]);
	if (i < 0) {
		ret = save(s, disk, knob_file[k], true);
		if (!ret && k == SETUP_KNOB_SCHEDULER)
			ret = save_companions(s, disk);
		/* the old values are on disk before the first change */
		if (!ret)
			ret = journal_write(s, first);
		if (ret) {
			s->n = first;
			return ret;
		}
		i = (int)first;
	}
	/* marked first: a failed store may still have done part of a
	 * scheduler switch, and putting the old value back is harmless */
	end = group_end(s, (unsigned)i);
	for (j = (unsigned)i; j < end; j++)
		s->saved[j].changed = true;
	return write_value(path, value);
}

/* Puts back entries [i, end) that were changed: the first -errno, and how
 * many primaries went back in *back. */
static int restore_range(struct setup_knobs *s, unsigned i, unsigned end, int *back)
{
	struct setup_saved *e;
	bool wrote;
	int ret = 0, r;

	for (; i < end; i++) {
		e = &s->saved[i];
		if (!e->changed)
			continue;
		r = put_back(s->sys, e->disk, e->file, e->value, e->primary, &wrote);
		if (r && !ret)
			ret = r;
		if (!r) {
			e->changed = false;
			*back += e->primary;
		}
	}
	return ret;
}

static bool all_back(const struct setup_knobs *s)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (s->saved[i].changed)
			return false;
	return true;
}

int setup_knob_restore(struct setup_knobs *s, const char *disk, enum setup_knob k)
{
	int i, back = 0, ret;

	if ((unsigned)k >= SETUP_NKNOBS)
		return -EINVAL;
	i = find(s, disk, knob_file[k]);
	if (i < 0)
		return 0;
	ret = restore_range(s, (unsigned)i, group_end(s, (unsigned)i), &back);
	if (!ret && all_back(s))
		journal_remove(s);
	return ret;
}

int setup_knobs_restore(struct setup_knobs *s)
{
	int back = 0, ret = restore_range(s, 0, s->n, &back);

	if (ret)
		return ret;
	journal_remove(s);
	return back;
}

void setup_knobs_close(struct setup_knobs *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
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
	    !plain_name(disk, SETUP_NAME_MAX) || !valid_file(file) || !valid_value(value))
		return -EBADMSG;
	primary = !strcmp(kind, "set");
	/* recovery writes only what differs: a setting its session had put
	 * back before it died is not counted as put back again */
	ret = put_back(root, disk, file, value, false, &wrote);
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
