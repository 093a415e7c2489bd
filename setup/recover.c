/* A recovery: what a journal says a dead measurement left changed, put
 * back on each disk that is still the one it names (setup/knob.h). The
 * whole journal is read and checked first (its format, its boot, every
 * line, every disk's identity now), then written. */
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

#define MAX_LINES (3 * SETUP_KNOB_MAX_SAVED + 2)

/* One "set" or "also" line. */
struct entry {
	unsigned disk;		/* index in the recovery's disks */
	const char *file, *value;
	bool primary;
};

struct parsed {
	struct entry e[2 * SETUP_KNOB_MAX_SAVED];
	unsigned n;
};

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

/* The complete lines of text (a cut last line is left out): their count
 * in *n, or -EBADMSG when there are too many. */
static int split(char *text, char **lines, unsigned *n)
{
	char *nl;

	*n = 0;
	while ((nl = strchr(text, '\n'))) {
		if (*n == MAX_LINES)
			return -EBADMSG;
		*nl = '\0';
		lines[(*n)++] = text;
		text = nl + 1;
	}
	return 0;
}

/* "iostorm settings journal N": N, or -EBADMSG. */
static int version_of(const char *line)
{
	size_t m = strlen(SETUP_JOURNAL_MAGIC);
	char *end;
	long v;

	if (strncmp(line, SETUP_JOURNAL_MAGIC, m))
		return -EBADMSG;
	v = strtol(line + m, &end, 10);
	return end == line + m || *end || v < 1 || v > 1000 ? -EBADMSG : (int)v;
}

static int disk_index(const struct setup_recovery *r, const char *disk)
{
	unsigned i;

	for (i = 0; i < r->ndisks; i++)
		if (!strcmp(r->disk[i].was.disk, disk))
			return (int)i;
	return -1;
}

/* "disk ..." into r's disks, or "set|also DISK FILE VALUE" of a disk named
 * before into p. */
static int parse_line(char *line, struct setup_recovery *r, struct parsed *p)
{
	char *save, *kind = strtok_r(line, " ", &save), *disk, *file, *value;
	struct entry *e;
	int d;

	if (kind && !strcmp(kind, "disk")) {
		if (r->ndisks == SETUP_KNOB_MAX_SAVED)
			return -EBADMSG;
		memset(&r->disk[r->ndisks], 0, sizeof(r->disk[0]));
		if (setup_disk_id_parse(strtok_r(NULL, "", &save), &r->disk[r->ndisks].was) ||
		    disk_index(r, r->disk[r->ndisks].was.disk) >= 0)
			return -EBADMSG;
		r->ndisks++;
		return 0;
	}
	disk = strtok_r(NULL, " ", &save);
	file = strtok_r(NULL, " ", &save);
	value = strtok_r(NULL, "", &save);
	if (!kind || !disk || !file || !value || (strcmp(kind, "set") && strcmp(kind, "also")) ||
	    !setup_knob_valid_file(file) || !setup_knob_valid_value(value) ||
	    p->n == sizeof(p->e) / sizeof(p->e[0]))
		return -EBADMSG;
	/* a setting of a disk the journal does not identify is never written */
	d = disk_index(r, disk);
	if (d < 0)
		return -EBADMSG;
	e = &p->e[p->n++];
	e->disk = (unsigned)d;
	e->file = file;
	e->value = value;
	e->primary = !strcmp(kind, "set");
	r->disk[d].nset += e->primary;
	return 0;
}

/* Every disk as it is now: the same one, gone, or another with its name. */
static void identify_all(struct setup_recovery *r)
{
	struct setup_recovered *d;
	unsigned i;
	int ret;

	for (i = 0; i < r->ndisks; i++) {
		d = &r->disk[i];
		ret = setup_disk_id_read(d->was.disk, &d->now);
		if (ret == -ENOENT)
			d->gone = true;
		else if (ret)
			d->err = ret;
		else
			d->diff = setup_disk_id_diff(&d->was, &d->now);
	}
}

/* Puts back p's lines on the disks still the ones named, checking each
 * again right before its write; nothing more on a disk after a write that
 * timed out. The count of primaries written. */
static int put_back_all(struct setup_recovery *r, const struct parsed *p)
{
	struct setup_recovered *d;
	struct setup_disk_id now;
	unsigned i;
	bool wrote;
	int ret, back = 0;

	for (i = 0; i < p->n; i++) {
		d = &r->disk[p->e[i].disk];
		if (d->gone || d->err || d->diff != SETUP_ID_SAME)
			continue;
		ret = setup_disk_id_read(d->was.disk, &now);
		if (!ret && setup_disk_id_diff(&d->was, &now) != SETUP_ID_SAME) {
			d->now = now;
			d->diff = setup_disk_id_diff(&d->was, &now);
			continue;
		}
		if (!ret)
			ret = setup_knob_put_back(d->was.disk, p->e[i].file, p->e[i].value, false,
						  &wrote);
		/* a disk that went away took its settings with it */
		if (ret == -ENOENT || ret == -ENODEV) {
			d->gone = true;
			continue;
		}
		if (ret) {
			d->err = ret;
			continue;
		}
		d->back += p->e[i].primary && wrote;
		back += p->e[i].primary && wrote;
	}
	return back;
}

/* The journal's text checked whole, then put back. */
static int recover_text(char *text, struct setup_recovery *r, const char *path)
{
	char *lines[MAX_LINES], boot[SETUP_BOOT_ID_MAX];
	struct parsed *p;
	unsigned n, i;
	int ret, back;

	ret = split(text, lines, &n);
	if (!ret && n < 2)
		ret = -EBADMSG;
	if (ret)
		return ret;
	r->version = version_of(lines[0]);
	if (r->version < 0)
		return r->version;
	if (r->version != SETUP_JOURNAL_VERSION)
		return r->version < SETUP_JOURNAL_VERSION ? -EPROTONOSUPPORT : -EBADMSG;
	if (strncmp(lines[1], "boot ", 5) || strlen(lines[1] + 5) >= sizeof(r->boot))
		return -EBADMSG;
	strcpy(r->boot, lines[1] + 5);
	ret = setup_boot_id(boot, sizeof(boot));
	if (ret)
		return ret;
	/* every setting went back to its default when that boot ended */
	if (strcmp(boot, r->boot)) {
		r->other_boot = true;
		return unlink(path) && errno != ENOENT ? -errno : 0;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (i = 2; !ret && i < n; i++)
		ret = parse_line(lines[i], r, p);
	if (!ret) {
		identify_all(r);
		back = put_back_all(r, p);
		for (i = 0; !ret && i < r->ndisks; i++)
			ret = r->disk[i].err;
		if (!ret && unlink(path) && errno != ENOENT)
			ret = -errno;
	}
	free(p);
	return ret ? ret : back;
}

int setup_knobs_recover(const char *path, const struct setup_roots *roots,
			struct setup_recovery *r)
{
	struct stat st;
	char *text;
	size_t len;
	int fd, ret;

	memset(r, 0, sizeof(*r));
	if (setup_sysfs_redirected(roots))
		return -EROFS;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	/* not there; or in a folder this user cannot read (root's 0700
	 * /run/iostorm): no journal of theirs, and none they could act on */
	if (fd < 0)
		return errno == ENOENT || errno == EACCES ? 0 : -errno;
	/* removed by its session meanwhile: all was back */
	if (fstat(fd, &st) || !st.st_nlink) {
		close(fd);
		return 0;
	}
	text = malloc(SETUP_JOURNAL_MAX);
	ret = text ? read_journal(fd, text, SETUP_JOURNAL_MAX, &len) : -ENOMEM;
	if (!ret)
		ret = recover_text(text, r, path);
	free(text);
	close(fd);
	return ret;
}
