/* Fixtures for the engine tests: a data file under /var/tmp written with
 * real bytes (fallocate'd extents read as zeros without any IO), a loop
 * device over a /dev/shm file, and a run helper. Everything made here is
 * removed at exit, also when a check fails. */
#ifndef TESTS_ENGINE_UTIL_H
#define TESTS_ENGINE_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "engine/clock.h"
#include "engine/engine.h"
#include "tests/helpers.h"

static char tu_file[PATH_MAX];		/* data file, removed at exit */
static char tu_shm[PATH_MAX];		/* loop backing file */
static char tu_loop[64];		/* /dev/loopN */
static int tu_cleanup_set;

static inline void tu_cleanup(void)
{
	char cmd[128];

	if (tu_loop[0]) {
		snprintf(cmd, sizeof(cmd), "losetup -d %s 2>/dev/null", tu_loop);
		if (system(cmd) != 0)
			fprintf(stderr, "could not detach %s\n", tu_loop);
		tu_loop[0] = '\0';
	}
	if (tu_shm[0])
		unlink(tu_shm);
	if (tu_file[0])
		unlink(tu_file);
	tu_shm[0] = tu_file[0] = '\0';
}

static inline void tu_atexit(void)
{
	if (!tu_cleanup_set) {
		atexit(tu_cleanup);
		tu_cleanup_set = 1;
	}
}

/* Writes size bytes of non-zero data to a new file; 0 or -errno. */
static inline int tu_write_file(char *path, size_t pathlen, const char *dir,
			 uint64_t size)
{
	static char buf[1 << 20];
	uint64_t done = 0;
	int fd, ret = 0;
	size_t i;

	snprintf(path, pathlen, "%s/iostorm-test.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0) {
		ret = -errno;
		path[0] = '\0';
		return ret;
	}
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 131 + 7);
	while (done < size) {
		size_t n = size - done < sizeof(buf) ? (size_t)(size - done) : sizeof(buf);
		ssize_t w = write(fd, buf, n);

		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			break;
		}
		done += (uint64_t)w;
	}
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* A data file under /var/tmp; skips the test if it cannot be made. */
static inline const char *tu_data_file(uint64_t size)
{
	int ret;

	tu_atexit();
	ret = tu_write_file(tu_file, sizeof(tu_file), "/var/tmp", size);
	if (ret) {
		fprintf(stderr, "writing a data file under /var/tmp: %s\n", strerror(-ret));
		exit(T_EXIT_FAIL);
	}
	return tu_file;
}

/* A loop device over a /dev/shm file, or NULL with *why set. */
static inline const char *tu_loop_dev(uint64_t size, unsigned sector_size,
			       const char **why)
{
	char cmd[PATH_MAX + 128];
	FILE *p;
	size_t n;

	tu_atexit();
	if (geteuid() != 0) {
		*why = "skip: loop devices need root";
		return NULL;
	}
	if (system("command -v losetup >/dev/null 2>&1") != 0) {
		*why = "skip: losetup is not installed";
		return NULL;
	}
	if (tu_write_file(tu_shm, sizeof(tu_shm), "/dev/shm", size)) {
		*why = "skip: cannot write a file in /dev/shm";
		return NULL;
	}
	snprintf(cmd, sizeof(cmd), "losetup -f --show --direct-io=on "
		 "--sector-size %u %s 2>/dev/null", sector_size, tu_shm);
	p = popen(cmd, "r");
	if (!p || !fgets(tu_loop, sizeof(tu_loop), p)) {
		tu_loop[0] = '\0';
		if (p)
			pclose(p);
		*why = "skip: losetup is not allowed here (no loop device)";
		return NULL;
	}
	pclose(p);
	n = strcspn(tu_loop, "\n");
	tu_loop[n] = '\0';
	if (strncmp(tu_loop, "/dev/loop", 9) != 0) {
		tu_loop[0] = '\0';
		*why = "skip: losetup printed no loop device";
		return NULL;
	}
	return tu_loop;
}

static inline void tu_clock(void)
{
	if (eng_clock_init(false)) {
		fprintf(stderr, "eng_clock_init failed\n");
		exit(T_EXIT_FAIL);
	}
}

static inline struct eng_job tu_job(const struct eng_target *t, enum eng_backend b,
			     enum eng_mode m)
{
	struct eng_job j;

	memset(&j, 0, sizeof(j));
	j.target = t;
	j.op = t ? ENG_OP_READ : ENG_OP_NOP;
	j.backend = b;
	j.mode = m;
	j.bs = 4096;
	j.qd = 16;
	j.batch = 8;
	j.range_len = t ? t->size : 0;
	j.cpu = 0;
	j.sq_cpu = -1;
	j.node = -1;
	j.latency = true;
	j.seed = 1;
	return j;
}

static inline void tu_sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Waits (bounded) for every worker to stop by itself. */
static inline bool tu_wait_done(struct eng_run *r, unsigned max_ms)
{
	unsigned waited = 0;

	while (!eng_run_done(r) && waited < max_ms) {
		tu_sleep_ms(5);
		waited += 5;
	}
	return eng_run_done(r);
}

/* The figures every good result must satisfy. */
static inline void tu_check_result(const char *what, const struct eng_result *res,
			    const struct eng_job *j)
{
	const struct eng_hist *h = res->hist;

	CHECKF(res->stage == ENG_STAGE_NONE && res->err == 0,
	       "%s: stage %d err %d", what, (int)res->stage, res->err);
	CHECKF(res->ios > 0, "%s: no IOs", what);
	CHECKF(res->errors == 0, "%s: %" PRIu64 " errors", what, res->errors);
	CHECKF(res->elapsed_ns > 0, "%s: elapsed 0", what);
	CHECKF(res->calls > 0, "%s: no calls", what);
	CHECKF(res->cpu == j->cpu, "%s: cpu read back %d, pinned %d", what,
	       res->cpu, j->cpu);
	CHECKF(res->user_s >= 0 && res->sys_s >= 0, "%s: cpu time %f %f",
	       what, res->user_s, res->sys_s);
	if (j->op == ENG_OP_READ)
		CHECKF(res->bytes == res->ios * j->bs, "%s: bytes %" PRIu64
		       " for %" PRIu64 " ios", what, res->bytes, res->ios);
	else
		CHECKF(res->bytes == 0, "%s: nop bytes %" PRIu64, what, res->bytes);
	if (!j->latency) {
		CHECKF(!h, "%s: histogram without latency", what);
		return;
	}
	CHECKF(h != NULL, "%s: no histogram", what);
	if (!h)
		return;
	CHECKF(h->count == res->ios, "%s: histogram count %" PRIu64
	       " != ios %" PRIu64, what, h->count, res->ios);
	{
		uint64_t p50 = eng_hist_percentile(h, 50), p90 = eng_hist_percentile(h, 90);
		uint64_t p99 = eng_hist_percentile(h, 99), p999 = eng_hist_percentile(h, 99.9);
		uint64_t p9999 = eng_hist_percentile(h, 99.99);

		CHECKF(h->min_ns <= p50 && p50 <= p90 && p90 <= p99 &&
		       p99 <= p999 && p999 <= p9999 && p9999 <= h->max_ns,
		       "%s: percentiles out of order: min %" PRIu64 " p50 %" PRIu64
		       " p90 %" PRIu64 " p99 %" PRIu64 " p99.9 %" PRIu64
		       " p99.99 %" PRIu64 " max %" PRIu64, what, h->min_ns,
		       p50, p90, p99, p999, p9999, h->max_ns);
		CHECKF(h->max_ns > 0, "%s: max latency 0", what);
	}
}

/* Drops capability cap from this thread's effective set; threads created
 * afterwards (the workers) inherit that. 0 or -errno. */
static inline int tu_drop_cap(unsigned cap)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data) < 0)
		return -errno;
	data[cap / 32].effective &= ~(1u << (cap % 32));
	if (syscall(SYS_capset, &hdr, data) < 0)
		return -errno;
	return 0;
}

/* Creates, ramps for a moment, measures for ms, stops and joins. On a
 * loaded machine a worker (or an SQPOLL kernel thread) may not have run
 * at all in ms: the window then goes on, 10 ms at a time for up to 10 s,
 * until every worker has completed something after the measure (or has
 * stopped), so a figure checked as "some IOs" is not a scheduling race.
 * Returns eng_run_create's value; *out must be destroyed. */
static inline int tu_run(struct eng_run **out, const struct eng_job *jobs, unsigned n,
		  unsigned ramp_ms, unsigned ms)
{
	struct eng_progress p;
	uint64_t *base;
	unsigned i, waited = 0, idle;
	int ret = eng_run_create(out, jobs, n);

	if (ret)
		return ret;
	base = calloc(n, sizeof(*base));
	eng_run_start(*out);
	if (ramp_ms)
		tu_sleep_ms(ramp_ms);
	eng_run_measure(*out);
	/* ios since the start: a measured window's first IO moves it past */
	for (i = 0; base && i < n; i++)
		if (!eng_run_progress(*out, i, 1, &p))
			base[i] = p.ios;
	tu_sleep_ms(ms);
	do {
		for (idle = 0, i = 0; base && i < n; i++)
			idle += !eng_run_progress(*out, i, 1, &p) && !p.ndone &&
				p.ios <= base[i];
		if (idle)
			tu_sleep_ms(10);
		waited += 10;
	} while (idle && waited < 10000);
	free(base);
	eng_run_stop(*out);
	eng_run_join(*out);
	return 0;
}

#endif
