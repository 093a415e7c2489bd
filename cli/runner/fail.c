/* A run's failures, each said in one line naming the target and, where we
 * know it, the fix. */
#include "cli/runner/runner_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/report/out.h"
#include "cli/runner/limits.h"

const char *cli_runner_job_name(const struct runctx *c, unsigned i)
{
	return c->spec->targets ? c->spec->targets[i / c->per]->name : "nop";
}

static void mode_refused(enum eng_mode m)
{
	switch (m) {
	case ENG_MODE_HYBRID:
		cli_say("kernel refuses IORING_SETUP_HYBRID_IOPOLL: hybrid polling needs Linux 6.13 or newer");
		break;
	case ENG_MODE_SQPOLL:
		cli_say("kernel refuses IORING_SETUP_SQPOLL: SQ polling needs Linux 5.1 or newer (5.11 without root)");
		break;
	default:
		cli_say("kernel refuses IORING_SETUP_IOPOLL: polled completion needs Linux 5.1 or newer");
	}
}

void cli_runner_io_failed(const struct runctx *c, const char *name, int err)
{
	bool polled = c->mode == ENG_MODE_POLL || c->mode == ENG_MODE_HYBRID;

	if (err == -EOPNOTSUPP && polled && !strncmp(name, "nvme", 4))
		cli_say("%s has no poll queues: load the nvme driver with poll_queues=N", name);
	else if (err == -EOPNOTSUPP && polled)
		cli_say("%s has no poll queues (queue/io_poll is 0): polled completion needs an NVMe drive with poll queues",
		    name);
	else
		cli_say("%s: IO failed: %s", name, strerror(-err));
}

static void setup_failed(const struct runctx *c, unsigned i, int err)
{
	const char *name = cli_runner_job_name(c, i);

	if (c->spec->backend == ENG_BACKEND_LIBAIO)
		cli_say("%s: io_setup failed: %s (see /proc/sys/fs/aio-max-nr)", name, strerror(-err));
	else if ((err == -ENOSYS || err == -EPERM) && c->mode != ENG_MODE_IRQ)
		cli_say("%s: io_uring_setup failed: %s (io_uring disabled here? --completion %s needs io_uring)",
		    name, strerror(-err), eng_mode_name(c->mode));
	else if (err == -ENOSYS || err == -EPERM)
		cli_say("%s: io_uring_setup failed: %s (io_uring disabled here? try --engine libaio)",
		    name, strerror(-err));
	else
		cli_say("%s: io_uring_setup failed: %s", name, strerror(-err));
}

static void say_failure(const struct runctx *c, unsigned i, const struct eng_result *res)
{
	const char *name = cli_runner_job_name(c, i);
	const char *e = strerror(-res->err);

	switch (res->stage) {
	case ENG_STAGE_MODE: mode_refused(c->mode); break;
	case ENG_STAGE_IO: cli_runner_io_failed(c, name, res->err); break;
	case ENG_STAGE_SETUP: setup_failed(c, i, res->err); break;
	case ENG_STAGE_PIN: cli_say("%s: cannot pin its worker to a CPU: %s", name, e); break;
	case ENG_STAGE_MEMORY: cli_say("%s: cannot allocate the worker's memory: %s", name, e); break;
	case ENG_STAGE_REGISTER: cli_say("%s: registering buffers or file with io_uring failed: %s", name, e); break;
	case ENG_STAGE_NONE: cli_say("%s: the worker failed: %s", name, e); break;
	}
}

/* Worker i stopped by itself after completing reads: an IO error ended
 * it mid-run (a device that went away), which ends that device only. One
 * that stopped before any read completed failed at its start instead. */
static bool stopped_mid_run(const struct runctx *c, unsigned i)
{
	struct eng_progress p;

	return !eng_run_progress(c->r, i, 1, &p) && p.ndone && p.ios;
}

/* The first failed worker, said in one line: 0 or its -errno (else
 * create_err's). A worker an IO error stopped mid-run is not a failed
 * run: its device is reported with the error (collect). */
int cli_runner_check_results(const struct runctx *c, int create_err)
{
	const struct eng_result *res;
	unsigned i;

	for (i = 0; i < c->njobs; i++) {
		res = eng_run_result(c->r, i);
		if (res->stage == ENG_STAGE_IO && !create_err && stopped_mid_run(c, i))
			continue;
		if (res->stage != ENG_STAGE_NONE) {
			say_failure(c, i, res);
			return res->err ? res->err : -EIO;
		}
	}
	if (create_err)
		cli_say("cannot start the workers: %s", strerror(-create_err));
	return create_err;
}

/* Once per process: a command of several runs (sweep's depths,
 * saturate's steps) falls back in each, for the same reason. */
void cli_runner_say_fallback(const struct runctx *c)
{
	static bool said;
	const struct eng_result *res;
	unsigned i;

	for (i = 0; !said && i < c->njobs; i++) {
		res = eng_run_result(c->r, i);
		if (res->fell_back) {
			cli_say("io_uring unavailable (%s): using libaio", strerror(-res->fallback_err));
			said = true;
		}
	}
}

/* Whether some worker read into unregistered buffers (said once). */
bool cli_runner_say_unfixed(const struct runctx *c)
{
	const struct eng_result *res;
	unsigned i;

	for (i = 0; i < c->njobs; i++) {
		res = eng_run_result(c->r, i);
		if (res->unfixed_err) {
			cli_limits_say_unfixed(c->o, c->spec, res->unfixed_err);
			return true;
		}
	}
	return false;
}
