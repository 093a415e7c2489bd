/* What identifies a disk and a boot (setup/knob.h): read from the live
 * /sys and /proc, compared, and written to and read from a journal line. */
#include "setup/knob.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "setup/knob_int.h"
#include "setup/setup_int.h"

/* 8-4-4-4-12 hex digits, as the kernel prints a UUID */
static bool uuid_text(const char *s)
{
	size_t i;

	if (strlen(s) != 36)
		return false;
	for (i = 0; i < 36; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != '-' : !strchr("0123456789abcdef", s[i]))
			return false;
	}
	return true;
}

int setup_boot_id(char *buf, size_t len)
{
	char id[64];
	int ret = topo_sys_read("/proc", id, sizeof(id), "sys/kernel/random/boot_id");

	if (ret)
		return ret;
	if (!uuid_text(id))
		return -EBADMSG;
	if (strlen(id) >= len)
		return -EOVERFLOW;
	strcpy(buf, id);
	return 0;
}

/* A path below /sys a journal may name: devices/..., one plain name a
 * component, nothing that could climb out. */
static bool valid_path(const char *p)
{
	char copy[SETUP_DEVPATH_MAX], *c, *save;

	if (strncmp(p, "devices/", 8) || strlen(p) >= sizeof(copy))
		return false;
	strcpy(copy, p);
	for (c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save))
		if (!setup_knob_plain_name(c, SETUP_NAME_MAX))
			return false;
	return true;
}

int setup_disk_id_read(const char *disk, struct setup_disk_id *id)
{
	char path[PATH_MAX], dev[32];
	struct setup_disk_id d;
	int64_t seq;
	int ret;

	if (!setup_knob_plain_name(disk, sizeof(d.disk)))
		return -EINVAL;
	memset(&d, 0, sizeof(d));
	strcpy(d.disk, disk);
	ret = topo_sys_relpath(SETUP_LIVE_SYS, path, "block/%s", disk);
	if (ret)
		return ret;
	if (strlen(path) >= sizeof(d.path) || !valid_path(path))
		return -ENAMETOOLONG;
	strcpy(d.path, path);
	ret = topo_sys_read(SETUP_LIVE_SYS, dev, sizeof(dev), "block/%s/dev", disk);
	if (ret)
		return ret;
	if (sscanf(dev, "%u:%u", &d.major, &d.minor) != 2)
		return -EBADMSG;
	ret = topo_sys_read_i64(SETUP_LIVE_SYS, &seq, "block/%s/diskseq", disk);
	if (ret && ret != -ENOENT)
		return ret;
	d.diskseq = ret ? -1 : (long long)seq;
	*id = d;
	return 0;
}

enum setup_id_diff setup_disk_id_diff(const struct setup_disk_id *was,
				      const struct setup_disk_id *now)
{
	if (strcmp(was->path, now->path))
		return SETUP_ID_PATH;
	if (was->major != now->major || was->minor != now->minor)
		return SETUP_ID_DEVT;
	if (was->diskseq != now->diskseq)
		return SETUP_ID_DISKSEQ;
	return SETUP_ID_SAME;
}

int setup_disk_id_line(const struct setup_disk_id *id, char *buf, size_t len)
{
	char seq[24] = "-";
	int n;

	if (id->diskseq >= 0)
		snprintf(seq, sizeof(seq), "%lld", id->diskseq);
	n = snprintf(buf, len, "disk %s %s %u:%u diskseq %s", id->disk, id->path, id->major,
		     id->minor, seq);
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

/* "NAME PATH MAJ:MIN diskseq N|-" */
int setup_disk_id_parse(char *fields, struct setup_disk_id *id)
{
	char *save = NULL, *name, *path, *devt, *key, *seq, *end;
	struct setup_disk_id d;
	int used = 0;

	if (!fields)
		return -EBADMSG;
	name = strtok_r(fields, " ", &save);
	path = strtok_r(NULL, " ", &save);
	devt = strtok_r(NULL, " ", &save);
	key = strtok_r(NULL, " ", &save);
	seq = strtok_r(NULL, " ", &save);
	if (!name || !path || !devt || !key || !seq || strtok_r(NULL, " ", &save) ||
	    strcmp(key, "diskseq") || !setup_knob_plain_name(name, sizeof(d.disk)) ||
	    !valid_path(path))
		return -EBADMSG;
	memset(&d, 0, sizeof(d));
	strcpy(d.disk, name);
	strcpy(d.path, path);
	if (sscanf(devt, "%u:%u%n", &d.major, &d.minor, &used) != 2 || devt[used])
		return -EBADMSG;
	if (!strcmp(seq, "-")) {
		d.diskseq = -1;
	} else {
		errno = 0;
		d.diskseq = strtoll(seq, &end, 10);
		if (errno || end == seq || *end || d.diskseq < 0)
			return -EBADMSG;
	}
	*id = d;
	return 0;
}
