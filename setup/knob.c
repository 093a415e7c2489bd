/* Block queue settings changed and put back, a session at a time, each old
 * value journaled (setup/journal.c) with its disk's identity before the
 * first change (setup/knob.h). */
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

bool setup_sysfs_redirected(const struct setup_roots *r)
{
	struct setup_at at;

	/* a root that cannot be resolved is no live one either */
	return setup_at_init(&at, r) || !at.live_sys;
}

/* ---- a session ---- */

int setup_knobs_init(struct setup_knobs *s, const struct setup_roots *r)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (setup_sysfs_redirected(r))
		return -EROFS;
	ret = setup_journal_path(s->journal, sizeof(s->journal));
	return ret ? ret : setup_boot_id(s->boot, sizeof(s->boot));
}

int setup_knob_get(const struct setup_knobs *s, const char *disk, enum setup_knob k,
		   char *buf, size_t len)
{
	char path[PATH_MAX];
	int ret;

	(void)s;
	if ((unsigned)k >= SETUP_NKNOBS || !setup_knob_plain_name(disk, SETUP_NAME_MAX))
		return -EINVAL;
	ret = setup_knob_queue_path(path, disk, setup_knob_file(k));
	return ret ? ret : setup_knob_read_value(path, k == SETUP_KNOB_SCHEDULER, buf, len);
}

static int find(const struct setup_knobs *s, const char *disk, const char *file)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->saved[i].disk, disk) && !strcmp(s->saved[i].file, file))
			return (int)i;
	return -1;
}

static const struct setup_disk_id *id_of(const struct setup_knobs *s, const char *disk)
{
	unsigned i;

	for (i = 0; i < s->ndisks; i++)
		if (!strcmp(s->disks[i].disk, disk))
			return &s->disks[i];
	return NULL;
}

/* disk is still the one the session first identified: 0, -ENOENT when
 * it is gone, -ESTALE when another disk has its name now. */
static int still_same(const struct setup_knobs *s, const char *disk)
{
	const struct setup_disk_id *was = id_of(s, disk);
	struct setup_disk_id now;
	int ret;

	if (!was)
		return -ENOENT;
	ret = setup_disk_id_read(disk, &now);
	if (ret)
		return ret;
	return setup_disk_id_diff(was, &now) == SETUP_ID_SAME ? 0 : -ESTALE;
}

/* disk's identity, read the first time the session changes something on
 * it, and checked against what it was every time after. */
static int identify(struct setup_knobs *s, const char *disk)
{
	int ret;

	if (id_of(s, disk))
		return still_same(s, disk);
	if (s->ndisks == SETUP_KNOB_MAX_SAVED)
		return -ENOSPC;
	ret = setup_disk_id_read(disk, &s->disks[s->ndisks]);
	if (!ret)
		s->ndisks++;
	return ret;
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
	ret = setup_knob_queue_path(path, disk, file);
	if (!ret)
		ret = setup_knob_read_value(path, !strcmp(file, "scheduler"), e->value, sizeof(e->value));
	if (!ret && !setup_knob_valid_value(e->value))
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

	for (i = 0; !ret && i < SETUP_KNOB_NCOMPANIONS; i++)
		ret = save(s, disk, setup_knob_companion[i], false);
	n = ret ? 0 : topo_sys_list(SETUP_LIVE_SYS, &names, "block/%s/queue/iosched", disk);
	for (i = 0; !ret && n > 0 && i < (unsigned)n; i++) {
		if (snprintf(file, sizeof(file), "iosched/%s", names[i]) < (int)sizeof(file) &&
		    setup_knob_valid_file(file))
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
	unsigned first = s->n, ndisks = s->ndisks, j, end;
	bool wrote;
	int i, ret;

	if ((unsigned)k >= SETUP_NKNOBS || !setup_knob_plain_name(disk, SETUP_NAME_MAX) ||
	    !setup_knob_valid_value(value))
		return -EINVAL;
	ret = identify(s, disk);
	if (ret)
		return ret;
	i = find(s, disk, setup_knob_file(k));
	if (i < 0) {
		ret = save(s, disk, setup_knob_file(k), true);
		if (!ret && k == SETUP_KNOB_SCHEDULER)
			ret = save_companions(s, disk);
		/* the disk and the old values are on disk before the first change */
		if (!ret)
			ret = setup_journal_write(s, first);
		if (ret) {
			s->n = first;
			s->ndisks = ndisks;
			return ret;
		}
		i = (int)first;
	}
	/* marked first: a failed store may still have done part of a
	 * scheduler switch, and putting the old value back is harmless */
	end = group_end(s, (unsigned)i);
	for (j = (unsigned)i; j < end; j++)
		s->saved[j].changed = true;
	return setup_knob_put_back(disk, setup_knob_file(k), value, true, &wrote);
}

/* Puts back entries [i, end) that were changed, each on a disk still the
 * one identified; after a write that timed out (a stalled queue) or on a
 * disk that changed, nothing more on that disk. The first -errno, and how
 * many primaries went back in *back. */
static int restore_range(struct setup_knobs *s, unsigned i, unsigned end, int *back)
{
	char skip[SETUP_NAME_MAX] = "";
	struct setup_saved *e;
	bool wrote;
	int ret = 0, r;

	for (; i < end; i++) {
		e = &s->saved[i];
		if (!e->changed || !strcmp(e->disk, skip))
			continue;
		r = still_same(s, e->disk);
		if (!r)
			r = setup_knob_put_back(e->disk, e->file, e->value, e->primary, &wrote);
		if (r == -ETIMEDOUT || r == -ESTALE)
			snprintf(skip, sizeof(skip), "%s", e->disk);
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
	i = find(s, disk, setup_knob_file(k));
	if (i < 0)
		return 0;
	ret = restore_range(s, (unsigned)i, group_end(s, (unsigned)i), &back);
	if (!ret && all_back(s))
		setup_journal_remove(s);
	return ret;
}

int setup_knobs_restore(struct setup_knobs *s)
{
	int back = 0, ret = restore_range(s, 0, s->n, &back);

	if (ret)
		return ret;
	setup_journal_remove(s);
	return back;
}

void setup_knobs_close(struct setup_knobs *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->n = 0;
	s->ndisks = 0;
	s->journaled = 0;
}
