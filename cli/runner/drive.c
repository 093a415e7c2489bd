/* What each target's drive says of a run (drive.h): the zero-read
 * sample, the SMART / Health log before and after, and their lines. */
#include "cli/runner/drive.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/report/out.h"
#include "cli/runner/stop.h"
#include "cli/opts/roots.h"
#include "engine/rng.h"
#include "setup/setup.h"

/* A sample that has not come back by then is left to finish alone: a
 * device that holds its reads (a dying drive) must not hang the command
 * before the run's own stall watch can name it. */
#define SAMPLE_WAIT_NS (CLI_ZERO_BUDGET_NS + 1000000000ull)

/* The process's accounts (drive.h says why they are not a command's). */
static struct cli_drive drives[CLI_MAX_TARGETS];
static unsigned ndrives;

/* What each Critical Warning bit means, in words (model_health_bits holds
 * the bits and their keys). */
static const struct {
	unsigned bit;
	const char *words;
} warn_words[] = {
	{ SETUP_WARN_SPARE, "available spare below its threshold" },
	{ SETUP_WARN_TEMP, "temperature beyond a threshold" },
	{ SETUP_WARN_RELIABILITY, "reliability degraded by media or internal errors" },
	{ SETUP_WARN_READ_ONLY, "media placed in read-only mode" },
	{ SETUP_WARN_BACKUP, "volatile memory backup failed" },
	{ SETUP_WARN_PMR, "persistent memory region read-only" },
};

/* One target's sample, on a thread of its own (SAMPLE_WAIT_NS). The
 * caller and the thread each hold a reference; the last one frees it. */
struct sampler {
	atomic_int refs;
	int fd;				/* a dup, or the block device of a
					 * passthrough target; the thread's */
	uint64_t off, len, seed;
	uint32_t bs;
	int ret;
	struct eng_zero_sample zs;
	pthread_t th;
	bool started;
};

static void sampler_put(struct sampler *s)
{
	if (atomic_fetch_sub(&s->refs, 1) == 1)
		free(s);
}

static void *sample_main(void *arg)
{
	struct sampler *s = arg;

	s->ret = eng_zero_sample(s->fd, s->off, s->len, s->bs, CLI_ZERO_BLOCKS, s->seed,
				 CLI_ZERO_BUDGET_NS, &s->zs);
	close(s->fd);
	sampler_put(s);
	return NULL;
}

/* The fd a sample reads: the target's own (dup'd, so the thread may
 * outlive the target), or for NVMe passthrough, whose fd is the char
 * device, the namespace's block device. -errno when none. */
static int sample_fd(const struct eng_target *t)
{
	char dev[80];
	int fd;

	if (!t->passthru) {
		fd = fcntl(t->fd, F_DUPFD_CLOEXEC, 0);
		return fd < 0 ? -errno : fd;
	}
	snprintf(dev, sizeof(dev), "/dev/%s", t->name);
	fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static struct sampler *sample_start(const struct cli_opts *o, const struct eng_target *t,
				    unsigned i)
{
	struct sampler *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->fd = sample_fd(t);
	if (s->fd < 0) {
		free(s);
		return NULL;
	}
	s->off = o->range_off;
	s->len = o->range_len ? o->range_len : t->size - o->range_off;
	s->bs = o->bs;
	/* the run's own seed, apart from every worker's (eng_rng_seed) */
	s->seed = eng_rng_seed(o->seed, CLI_MAX_TARGETS * 1024u + i);
	atomic_init(&s->refs, 2);
	if (pthread_create(&s->th, NULL, sample_main, s)) {
		close(s->fd);
		free(s);
		return NULL;
	}
	s->started = true;
	return s;
}

/* The thread's figures into d, or none when it had not come back by
 * deadline (CLOCK_REALTIME) or failed. */
static void sample_finish(struct sampler *s, const struct timespec *deadline, struct cli_drive *d)
{
	d->zero_pct = -1;
	if (!s)
		return;
	if (pthread_timedjoin_np(s->th, NULL, deadline)) {
		pthread_detach(s->th);
		sampler_put(s);
		return;
	}
	if (!s->ret) {
		d->zs = s->zs;
		d->zero_pct = eng_zero_pct(&s->zs);
	}
	sampler_put(s);
}

const struct cli_drive *cli_drive_find(const char *path)
{
	unsigned i;

	for (i = 0; path && i < ndrives; i++)
		if (!strcmp(drives[i].path, path))
			return &drives[i];
	return NULL;
}

/* A new account for path; NULL when it has one already: a command that
 * opens its targets again (check --measure, for each setting) keeps the
 * first sample and log, and says their lines once. */
static struct cli_drive *new_slot(const char *path)
{
	return cli_drive_find(path) || ndrives == CLI_MAX_TARGETS ? NULL : &drives[ndrives++];
}

/* The drive under t (setup/'s reader finds the controller and DLFEAT),
 * and its log. */
static void read_drive(const struct eng_target *t, struct cli_drive *d)
{
	struct setup_dev sd;

	d->dealloc_read = -1;
	if (setup_dev_read(cli_roots(), t->path, &sd))
		return;
	d->dealloc_read = sd.dealloc_read;
	d->nvme = sd.nvme;
	snprintf(d->ctrl, sizeof(d->ctrl), "%s", sd.controller);
	setup_dev_free(&sd);
	if (!d->ctrl[0])
		return;
	d->health_err = setup_health_read(d->ctrl, &d->before);
	d->has_before = !d->health_err;
}

void cli_drive_warn_words(char *buf, size_t len, unsigned w)
{
	size_t at = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(warn_words) / sizeof(warn_words[0]) && at < len; i++)
		if (w & warn_words[i].bit)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "; " : "",
					       warn_words[i].words);
}

static void say_zeros(const struct cli_drive *d, const struct eng_target *t)
{
	if (!model_zero_high(d->zero_pct))
		return;
	if (t->is_blk)
		cli_say("%s: %.0f%% of %u sampled blocks read as zeros (never written or trimmed%s): the drive may answer them without reading flash, so IOPS can be above what written data gives. `iostorm fill` writes them.",
			d->name, d->zero_pct, d->zs.sampled,
			d->dealloc_read == 1 ? "; the namespace says such blocks read as zeros" : "");
	else
		cli_say("%s: %.0f%% of %u sampled blocks read as zeros (holes never written, or data of zeros): the file system may answer them without reading the disk, so IOPS can be above what written data gives. `iostorm fill` writes them.",
			d->name, d->zero_pct, d->zs.sampled);
}

static void say_health_before(const struct cli_drive *d)
{
	static bool said_access;
	char w[256];

	if (d->has_before && (d->before.critical_warning & SETUP_WARN_ALL)) {
		cli_drive_warn_words(w, sizeof(w), d->before.critical_warning);
		cli_say("%s: the drive reports a critical warning before the run (%s, 0x%02x): measuring anyway",
			d->name, w, d->before.critical_warning);
	}
	if (!d->ctrl[0] || d->has_before || said_access)
		return;
	said_access = true;
	if (d->health_err == -EACCES || d->health_err == -EPERM)
		cli_say("%s: the drive's SMART / Health log is not read: asking /dev/%s needs root (CAP_SYS_ADMIN)",
			d->name, d->ctrl);
	else
		cli_say("%s: the drive's SMART / Health log is not read: /dev/%s: %s", d->name, d->ctrl,
			strerror(-d->health_err));
}

void cli_drive_before(const struct cli_opts *o, const struct eng_target *const *t, unsigned n)
{
	struct sampler *s[CLI_MAX_TARGETS] = { NULL };
	struct cli_drive *d[CLI_MAX_TARGETS] = { NULL };
	struct timespec deadline;
	unsigned i;

	/* the sample is the command's first read of its targets: a stop
	 * request from then on is the run's (stopped before its window), not
	 * the default end of the process */
	cli_runner_signals();
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += (time_t)(SAMPLE_WAIT_NS / 1000000000ull);
	deadline.tv_nsec += (long)(SAMPLE_WAIT_NS % 1000000000ull);
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	for (i = 0; i < n && i < CLI_MAX_TARGETS; i++) {
		d[i] = new_slot(t[i]->path);
		if (!d[i])
			continue;
		memset(d[i], 0, sizeof(*d[i]));
		snprintf(d[i]->path, sizeof(d[i]->path), "%s", t[i]->path);
		snprintf(d[i]->name, sizeof(d[i]->name), "%s", t[i]->name);
		s[i] = o->zero_sample ? sample_start(o, t[i], i) : NULL;
	}
	/* the log is read while the samples run: both before any IO of the run */
	for (i = 0; i < n && i < CLI_MAX_TARGETS; i++)
		if (d[i])
			read_drive(t[i], d[i]);
	for (i = 0; i < n && i < CLI_MAX_TARGETS; i++) {
		if (!d[i])
			continue;
		sample_finish(s[i], &deadline, d[i]);
		say_zeros(d[i], t[i]);
		say_health_before(d[i]);
	}
}

bool cli_drive_change(const struct cli_drive *d, struct model_health_change *c)
{
	memset(c, 0, sizeof(*c));
	return d && d->has_before && d->has_after && model_health_change(&d->before, &d->after, c);
}

void cli_drive_moved_words(char *buf, size_t len, const char *name,
			   const struct model_health_change *c)
{
	char parts[640], w[256];
	size_t at = 0, n = sizeof(parts);

	parts[0] = parts[1] = '\0';
#define PART(...) \
	do { \
		if (at < n) \
			at += (size_t)snprintf(parts + at, n - at, __VA_ARGS__); \
	} while (0)
	if (c->throttled_s || c->tmt_count[0] || c->tmt_count[1])
		PART("; throttled %u s (TMT1: %u transitions, %u s; TMT2: %u, %u s)", c->throttled_s,
		     c->tmt_count[0], c->tmt_s[0], c->tmt_count[1], c->tmt_s[1]);
	if (c->warn_temp_min || c->crit_temp_min)
		PART("; %u min above its warning temperature, %u above its critical one",
		     c->warn_temp_min, c->crit_temp_min);
	if (c->media_errors)
		PART("; %llu media and data integrity errors", (unsigned long long)c->media_errors);
	if (c->error_log_entries)
		PART("; %llu new error log entries", (unsigned long long)c->error_log_entries);
	if (c->warn_new) {
		cli_drive_warn_words(w, sizeof(w), c->warn_new);
		PART("; a new critical warning: %s", w);
	}
	if (c->temp_c_before != INT32_MIN && c->temp_c_after != INT32_MIN)
		PART("; %d C before, %d C after", c->temp_c_before, c->temp_c_after);
#undef PART
	snprintf(buf, len, "%s: the drive's own log moved during the run: %s", name, parts + 2);
}

void cli_drive_after(const struct eng_target *const *t, unsigned n)
{
	struct model_health_change c;
	struct setup_health h;
	struct cli_drive *d;
	char line[1024];
	unsigned i;

	for (i = 0; t && i < n; i++) {
		d = (struct cli_drive *)cli_drive_find(t[i]->path);
		if (!d || !d->has_before || setup_health_read(d->ctrl, &h))
			continue;
		if (model_health_change(d->has_after ? &d->after : &d->before, &h, &c)) {
			cli_drive_moved_words(line, sizeof(line), d->name, &c);
			cli_say("%s", line);
		}
		d->after = h;
		d->has_after = true;
	}
}
