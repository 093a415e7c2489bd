/* The queue files a measurement changes: which they are, which names a
 * journal may hold, and one file read, written and put back
 * (setup/knob.h). A write goes only to a sysfs file of the live /sys,
 * opened without following a link, and is bounded in time. */
#include "setup/knob.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
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

#define SYSFS_MAGIC_NUMBER 0x62656572	/* linux/magic.h's SYSFS_MAGIC */

int setup_knob_queue_path(char *out, const char *disk, const char *file)
{
	int n = snprintf(out, PATH_MAX, "%s/block/%s/queue/%s", SETUP_LIVE_SYS, disk, file);

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

/* value into path, in this process: never through a link (a link put in
 * place of a queue file could lead the write to another device's), and
 * only into a sysfs file (a tree mounted over /sys is not written). */
static int store(const char *path, const char *value)
{
	char line[SETUP_KNOB_VALUE_MAX + 1];
	int n = snprintf(line, sizeof(line), "%s\n", value), fd, ret = 0;
	struct statfs fs;

	if (n < 0 || (size_t)n >= sizeof(line))
		return -EOVERFLOW;
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstatfs(fd, &fs))
		ret = -errno;
	else if (fs.f_type != SYSFS_MAGIC_NUMBER)
		ret = -EXDEV;
	/* sysfs takes a store in one write or refuses it whole */
	if (!ret && write(fd, line, (size_t)n) != n)
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

struct put {
	const char *path, *value;
	bool scheduler;
	bool always;		/* written even when it already holds value */
};

/* 1 when written, 0 when it held the value already, or -errno */
static int put(const struct put *p)
{
	char now[SETUP_KNOB_VALUE_MAX];
	int ret;

	if (!p->always) {
		ret = setup_knob_read_value(p->path, p->scheduler, now, sizeof(now));
		if (ret == -ENOENT)
			return ret;
		if (!ret && !strcmp(now, p->value))
			return 0;
	}
	ret = store(p->path, p->value);
	return ret ? ret : 1;
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* The child's answer within SETUP_KNOB_WRITE_MS: 1 when it came, 0 when
 * not, -errno. */
static int await_answer(int fd)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	struct timespec t0;
	long left;
	int n;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		left = SETUP_KNOB_WRITE_MS - ms_since(&t0);
		if (left <= 0)
			return 0;
		n = poll(&pf, 1, (int)left);
		if (n >= 0)
			return n > 0;
		if (errno != EINTR)
			return -errno;
	}
}

/*
 * put(p) in a child process, given SETUP_KNOB_WRITE_MS. A scheduler
 * switch freezes the queue and waits, uninterruptibly, for its IOs in
 * flight: on a stalled queue, forever. The caller then gets -ETIMEDOUT
 * and goes on; the child, sent SIGKILL, ends when the kernel lets it
 * (its write done or abandoned) and is reaped by init if we are gone. A
 * child rather than a thread: a process whose thread sleeps in the kernel
 * cannot finish exiting. It inherits no session lock (a POSIX record
 * lock) and does nothing but put and _exit.
 */
static int bounded_put(const struct put *p)
{
	int fd[2], r = -EIO, got;
	pid_t pid;

	if (pipe2(fd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(fd[0]);
		close(fd[1]);
		return r;
	}
	if (!pid) {
		/* nothing else of ours held open while the kernel holds it: a
		 * pipe our caller reads ends when we do */
		close(fd[0]);
		close(STDIN_FILENO);
		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		r = put(p);
		_exit(write(fd[1], &r, sizeof(r)) == sizeof(r) ? 0 : 1);
	}
	close(fd[1]);
	got = await_answer(fd[0]);
	if (got > 0 && read(fd[0], &r, sizeof(r)) != sizeof(r))
		r = -EIO;	/* the child died without an answer */
	if (got <= 0) {
		r = got < 0 ? got : -ETIMEDOUT;
		kill(pid, SIGKILL);
		/* reaped now if it is already gone, else left to init */
		waitpid(pid, NULL, WNOHANG);
	} else {
		waitpid(pid, NULL, 0);
	}
	close(fd[0]);
	return r;
}

/* Writes old into file unless it already holds it: a companion that the
 * switch back left as it was needs no write (and some refuse one). The
 * one way this code writes a queue file. */
int setup_knob_put_back(const char *disk, const char *file, const char *old, bool always,
			bool *wrote)
{
	char path[PATH_MAX];
	struct put p = { .path = path, .value = old };
	int ret = setup_knob_queue_path(path, disk, file);

	*wrote = false;
	if (ret)
		return ret;
	p.scheduler = !strcmp(file, "scheduler");
	/* a scheduler is read first even when always: writing the one in
	 * place would still freeze the queue */
	p.always = always && !p.scheduler;
	ret = bounded_put(&p);
	if (ret < 0)
		return ret;
	*wrote = ret == 1;
	return 0;
}
