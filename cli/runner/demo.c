/* Demo targets: created, used, removed, also after SIGINT or an error.
 *
 * Files are filled with real bytes: an unwritten or fallocated extent reads
 * as zeros without touching the disk, which would make a fast but false
 * demo. The loop devices (engine/loopdev.h) detach themselves when our
 * descriptors close, and their /dev/shm backing file is unlinked as soon
 * as it is attached, so even a SIGKILL leaves neither a loop device nor a
 * file in /dev/shm behind. */
#include "cli/runner/demo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/report/out.h"
#include "cli/runner/stop.h"
#include "engine/loopdev.h"
#include "topo/topo.h"

#define CHUNK (1u << 20)

/* Non-zero, varied bytes, so nothing in the stack can compress them away. */
static void fill(unsigned char *buf, size_t len, uint64_t seed)
{
	uint64_t x = seed | 1;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(buf + i, &x, 8);
	}
}

/* Writes size bytes to a new file; -errno, -EINTR when interrupted. */
static int write_file(const char *path, uint64_t size, unsigned char *buf)
{
	uint64_t done = 0;
	ssize_t w;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (done < size && !err) {
		size_t len = size - done < CHUNK ? (size_t)(size - done) : CHUNK;

		if (cli_runner_interrupted()) {
			err = -EINTR;
			break;
		}
		fill(buf, len, done + (uint64_t)fd * 0x9e3779b97f4a7c15ull);
		w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			err = w < 0 ? -errno : -EIO;
		else
			done += (uint64_t)w;
	}
	/* on disk, not dirty in the page cache: O_DIRECT reads then go to
	 * the device from the first IO */
	if (!err && fdatasync(fd))
		err = -errno;
	if (!err)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return err;
}

static int make_files(struct cli_demo *d, uint64_t size, unsigned char *buf,
		      int quiet)
{
	unsigned i;
	int err;

	for (i = 0; i < CLI_DEMO_FILES; i++) {
		unsigned k = d->n;

		snprintf(d->file[k], sizeof(d->file[k]), "%s/iostorm-demo-%d-%u",
			 CLI_DEMO_FILE_DIR, (int)getpid(), k);
		if (!quiet)
			cli_say("demo: writing %llu MiB to %s", (unsigned long long)(size >> 20), d->file[k]);
		err = write_file(d->file[k], size, buf);
		if (err == -EINTR)
			return err;	/* said by cli_demo_create */
		if (err) {
			cli_say("demo: cannot write %s: %s", d->file[k], strerror(-err));
			return err;
		}
		memcpy(d->path[k], d->file[k], sizeof(d->path[k]));
		d->n++;
	}
	return 0;
}

/* Loop devices where we may make them; a refusal is a note, not an error:
 * the files alone still make a demo. */
static void make_loops(struct cli_demo *d, uint64_t size, unsigned char *buf,
		       int quiet)
{
	char file[64], dev[32];
	unsigned i;
	int err;

	if (geteuid() != 0) {
		if (!quiet)
			cli_say("demo: not root: no loop devices, files only");
		return;
	}
	for (i = 0; i < CLI_DEMO_LOOPS && !cli_runner_interrupted(); i++) {
		snprintf(file, sizeof(file), "%s/iostorm-demo-%d-%u", CLI_DEMO_SHM_DIR,
			 (int)getpid(), d->n);
		err = write_file(file, size, buf);
		if (!err)
			err = eng_loopdev_attach(file, dev, sizeof(dev));
		unlink(file);
		if (err < 0) {
			if (err != -EINTR && !quiet)
				cli_say("demo: no loop device on %s: %s", file, strerror(-err));
			return;
		}
		d->loop_fd[d->n] = err;
		snprintf(d->path[d->n], sizeof(d->path[d->n]), "%s", dev);
		if (!quiet)
			cli_say("demo: %s on %s (%llu MiB, memory)", dev, file,
				(unsigned long long)(size >> 20));
		d->n++;
	}
}

int cli_demo_create(struct cli_demo *d, uint64_t size, int quiet)
{
	unsigned char *buf;
	unsigned i;
	int rc;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < CLI_DEMO_MAX; i++) {
		d->loop_fd[i] = -1;
		d->paths[i] = d->path[i];
	}
	cli_runner_signals();
	buf = malloc(CHUNK);
	if (!buf) {
		cli_say("demo: out of memory");
		return -ENOMEM;
	}
	rc = make_files(d, size, buf, quiet);
	if (!rc)
		make_loops(d, size, buf, quiet);
	free(buf);
	if ((!rc || rc == -EINTR) && cli_runner_interrupted()) {
		cli_say("demo: interrupted while creating the targets");
		rc = -EINTR;
	}
	return rc;
}

/* The kernel detaches an autoclear loop device after the last close, a
 * moment later (udev may still hold it open); wait for that, bounded, so
 * that nothing is attached any more once we exit. */
static void wait_detached(const char *dev)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int i;

	for (i = 0; i < 250 && topo_loop_attached(NULL, dev + strlen("/dev/")) > 0; i++)
		nanosleep(&ts, NULL);
}

void cli_demo_remove(struct cli_demo *d)
{
	unsigned i;

	for (i = 0; i < CLI_DEMO_MAX; i++) {
		if (d->loop_fd[i] >= 0) {
			eng_loopdev_detach(d->loop_fd[i]);
			d->loop_fd[i] = -1;
			wait_detached(d->path[i]);
		}
		if (d->file[i][0]) {
			unlink(d->file[i]);
			d->file[i][0] = '\0';
		}
	}
	d->n = 0;
}
