/* The queue files a measurement changes: which they are, which names a
 * journal may hold, and one file read, written and put back
 * (setup/knob.h). */
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

static const char *const knob_file[SETUP_NKNOBS] = {
	[SETUP_KNOB_SCHEDULER] = "scheduler",
	[SETUP_KNOB_IOSTATS] = "iostats",
	[SETUP_KNOB_NOMERGES] = "nomerges",
	[SETUP_KNOB_WBT] = "wbt_lat_usec",
};

/* What a scheduler switch resets, put back after the scheduler, in this
 * order (an elevator's async_depth is bounded by nr_requests). */
const char *const setup_knob_companion[SETUP_KNOB_NCOMPANIONS] = { "nr_requests", "wbt_lat_usec" };

const char *setup_knob_file(enum setup_knob k)
{
	return (unsigned)k < SETUP_NKNOBS ? knob_file[k] : NULL;
}

/* ---- names a journal may hold ---- */

bool setup_knob_plain_name(const char *s, size_t max)
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
bool setup_knob_valid_file(const char *f)
{
	unsigned i;

	for (i = 0; i < SETUP_NKNOBS; i++)
		if (!strcmp(f, setup_knob_file((enum setup_knob)i)))
			return true;
	for (i = 0; i < SETUP_KNOB_NCOMPANIONS; i++)
		if (!strcmp(f, setup_knob_companion[i]))
			return true;
	return !strncmp(f, "iosched/", 8) && setup_knob_plain_name(f + 8, SETUP_NAME_MAX - 8);
}

bool setup_knob_valid_value(const char *v)
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

int setup_knob_queue_path(char *out, const char *sys, const char *disk, const char *file)
{
	int n = snprintf(out, PATH_MAX, "%s/block/%s/queue/%s", sys, disk, file);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/* The first line of path, trailing blanks cut; a scheduler list gives the
 * bracketed name ("[mq-deadline] none" -> "mq-deadline"). -EOVERFLOW when
 * it does not fit len, -ENODATA when empty. */
int setup_knob_read_value(const char *path, bool scheduler, char *buf, size_t len)
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

int setup_knob_write_value(const char *path, const char *value)
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
int setup_knob_put_back(const char *sys, const char *disk, const char *file, const char *old,
		    bool always, bool *wrote)
{
	char path[PATH_MAX], now[SETUP_KNOB_VALUE_MAX];
	int ret = setup_knob_queue_path(path, sys, disk, file);

	*wrote = false;
	if (ret)
		return ret;
	if (!always || !strcmp(file, "scheduler")) {
		ret = setup_knob_read_value(path, !strcmp(file, "scheduler"), now, sizeof(now));
		if (ret == -ENOENT)
			return ret;
		if (!ret && !strcmp(now, old))
			return 0;
	}
	ret = setup_knob_write_value(path, old);
	*wrote = !ret;
	return ret;
}

