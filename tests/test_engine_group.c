/* Several jobs on one thread and one ring (eng_job.group): each keeps its
 * own depth, IO limit, counters, histogram and errors; the thread's CPU
 * time and calls are shared out so the jobs add up to it; groups that
 * cannot share a ring are refused. Targets: one data file under /var/tmp
 * opened once per job, and a loop device over /dev/shm. */
#include "tests/test_engine_util.h"

#include <dirent.h>

#define FILE_SIZE (16u << 20)
#define DONE_MS 20000	/* generous bound for runs that must stop alone */
#define NJ 3

static struct eng_target tg[NJ];

/* Three lanes on the file's thirds, each with its own depth and limit. */
static void grouped_jobs(struct eng_job *j, enum eng_backend b, bool latency)
{
	static const uint32_t qd[NJ] = { 8, 1, 32 };
	static const uint64_t ios[NJ] = { 3000, 1000, 7000 };
	unsigned k;

	for (k = 0; k < NJ; k++) {
		j[k] = tu_job(&tg[k], b, ENG_MODE_IRQ);
		j[k].qd = qd[k];
		j[k].batch = 1;
		j[k].ios = ios[k];
		j[k].range_off = (uint64_t)k * (FILE_SIZE / NJ / 4096) * 4096;
		j[k].range_len = FILE_SIZE / NJ / 4096 * 4096;
		j[k].latency = latency;
		j[k].seed = k + 1;
		j[k].group = 7;
	}
}

static void run_limits(const char *what, struct eng_job *j, unsigned n)
{
	struct eng_run *r = NULL;
	uint64_t calls = 0;
	double cpu_ios[NJ];
	unsigned k;
	int ret = eng_run_create(&r, j, n);

	CHECKF(ret == 0, "%s: create %d (stage %d err %d)", what, ret,
	       r ? (int)eng_run_result(r, 0)->stage : -1, r ? eng_run_result(r, 0)->err : 0);
	if (ret) {
		eng_run_destroy(r);
		return;
	}
	eng_run_start(r);
	eng_run_measure(r);
	CHECKF(tu_wait_done(r, DONE_MS), "%s: did not stop at its IO limits", what);
	eng_run_stop(r);
	eng_run_join(r);
	for (k = 0; k < n; k++) {
		const struct eng_result *res = eng_run_result(r, k);
		char name[96];

		snprintf(name, sizeof(name), "%s job %u", what, k);
		CHECKF(res->ios == j[k].ios, "%s: %" PRIu64 " IOs, limit %" PRIu64, name,
		       res->ios, j[k].ios);
		tu_check_result(name, res, &j[k]);
		calls += res->calls;
		cpu_ios[k] = res->ios ? (res->user_s + res->sys_s) / (double)res->ios : 0;
		CHECKF(res->setup_flags == eng_run_result(r, 0)->setup_flags,
		       "%s: ring flags %#x, first job's %#x", name, res->setup_flags,
		       eng_run_result(r, 0)->setup_flags);
	}
	/* one thread's time, shared by IOs: every job's CPU per IO is the
	 * thread's (to rounding), and the calls are the thread's */
	for (k = 1; k < n; k++)
		if (j[k].group == j[0].group)
			CHECKF(cpu_ios[k] <= cpu_ios[0] * 1.001 + 1e-12 &&
		       cpu_ios[k] >= cpu_ios[0] * 0.999 - 1e-12,
		       "%s: CPU per IO %g for job %u, %g for job 0", what, cpu_ios[k], k,
		       cpu_ios[0]);
	CHECKF(calls > 0, "%s: no calls", what);
	eng_run_destroy(r);
}

/* A lane whose range lies past the end of the file: every read is short,
 * counted as its errors (slot 0) and no other lane's. */
static void run_errors(void)
{
	struct eng_job j[NJ];
	struct eng_run *r = NULL;
	unsigned k;
	int ret;

	grouped_jobs(j, ENG_BACKEND_IO_URING, true);
	j[1].range_off = FILE_SIZE;
	j[1].range_len = 1u << 20;
	ret = eng_run_create(&r, j, NJ);
	CHECKF(ret == 0, "errors: create %d", ret);
	if (ret) {
		eng_run_destroy(r);
		return;
	}
	eng_run_start(r);
	eng_run_measure(r);
	CHECKF(tu_wait_done(r, DONE_MS), "errors: did not stop");
	eng_run_stop(r);
	eng_run_join(r);
	for (k = 0; k < NJ; k++) {
		const struct eng_result *res = eng_run_result(r, k);

		if (k == 1) {
			CHECKF(res->ios == 0 && res->errors == j[1].ios,
			       "errors: short lane %" PRIu64 " IOs %" PRIu64 " errors", res->ios,
			       res->errors);
			CHECKF(res->errs.count[0] == res->errors && res->errs.first == 0,
			       "errors: short reads counted in slot %d", res->errs.first);
			continue;
		}
		CHECKF(res->ios == j[k].ios && res->errors == 0,
		       "errors: job %u %" PRIu64 " IOs %" PRIu64 " errors", k, res->ios,
		       res->errors);
	}
	eng_run_destroy(r);
}

/* The engine's threads now running, by their names (engine/run.c). */
static unsigned worker_threads(void)
{
	char path[300], comm[32];
	struct dirent *e;
	unsigned n = 0;
	DIR *d = opendir("/proc/self/task");
	FILE *f;

	while (d && (e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = e->d_name[0] != '.' ? fopen(path, "r") : NULL;
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "iostorm-w", 9))
			n++;
		fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

/* Stopped from outside, each lane's live figures are its own; one thread
 * drives both, each through its own registered file. */
static void run_timed(const char *dev)
{
	struct eng_target lt;
	struct eng_job j[2];
	struct eng_run *r = NULL;
	struct eng_progress p0, p1, all;
	int ret;

	if (!dev)
		return;
	CHECK(eng_target_open(&lt, dev, false) == 0);
	j[0] = tu_job(&tg[0], ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	j[1] = tu_job(&lt, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	j[0].group = j[1].group = 1;
	j[1].qd = 4;
	/* the loop device is twice the file: read from the file, its half
	 * past the file's end would be short reads */
	j[1].range_off = FILE_SIZE;
	j[1].range_len = FILE_SIZE;
	ret = eng_run_create(&r, j, 2);
	if (!ret) {
		CHECKF(worker_threads() == 1, "timed: %u worker threads for one group",
		       worker_threads());
		eng_run_destroy(r);
		r = NULL;
	}
	ret = tu_run(&r, j, 2, 20, 100);
	CHECKF(ret == 0, "timed: create %d", ret);
	if (!ret) {
		tu_check_result("timed file", eng_run_result(r, 0), &j[0]);
		tu_check_result("timed loop", eng_run_result(r, 1), &j[1]);
		CHECK(eng_run_progress(r, 0, 1, &p0) == 0);
		CHECK(eng_run_progress(r, 1, 1, &p1) == 0);
		CHECK(eng_run_progress(r, 0, 2, &all) == 0);
		CHECKF(p0.ios > 0 && p1.ios > 0 && all.ios == p0.ios + p1.ios && all.ndone == 2,
		       "timed: progress %" PRIu64 " + %" PRIu64 " = %" PRIu64 ", done %u",
		       p0.ios, p1.ios, all.ios, all.ndone);
	}
	eng_run_destroy(r);
	eng_target_close(&lt);
}

/* Jobs that cannot share a ring: refused before any thread starts. */
static void refusals(void)
{
	struct eng_job j[NJ];
	struct eng_run *r = NULL;

	grouped_jobs(j, ENG_BACKEND_IO_URING, true);
	j[2].cpu = 1;
	CHECKF(eng_run_create(&r, j, NJ) == -EINVAL, "a lane on another CPU was taken");
	eng_run_destroy(r);
	{
		static struct eng_job many[ENG_GROUP_MAX + 1];
		unsigned k;

		for (k = 0; k <= ENG_GROUP_MAX; k++) {
			many[k] = tu_job(&tg[0], ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
			many[k].group = 2;
		}
		CHECKF(eng_run_create(&r, many, ENG_GROUP_MAX + 1) == -EINVAL,
		       "a group of %u jobs was taken", ENG_GROUP_MAX + 1);
		eng_run_destroy(r);
	}
	grouped_jobs(j, ENG_BACKEND_LIBAIO, true);
	CHECKF(eng_run_create(&r, j, NJ) == -EINVAL, "a libaio group was taken");
	eng_run_destroy(r);
	grouped_jobs(j, ENG_BACKEND_IO_URING, true);
	j[1].latency = false;
	CHECKF(eng_run_create(&r, j, NJ) == -EINVAL, "lanes timed and untimed were taken");
	eng_run_destroy(r);
}

int main(void)
{
	const char *path, *why = NULL, *dev;
	struct eng_job j[NJ];
	unsigned k;

	tu_clock();
	path = tu_data_file(FILE_SIZE);
	for (k = 0; k < NJ; k++)
		CHECK(eng_target_open(&tg[k], path, false) == 0);
	dev = tu_loop_dev(2 * FILE_SIZE, 512, &why);
	if (!dev)
		printf("%s: the loop device case is left out\n", why);
	grouped_jobs(j, ENG_BACKEND_IO_URING, true);
	run_limits("io_uring", j, NJ);
	grouped_jobs(j, ENG_BACKEND_IO_URING, false);
	run_limits("io_uring no-latency", j, NJ);
	grouped_jobs(j, ENG_BACKEND_AUTO, true);
	run_limits("auto", j, NJ);
	/* a lane of another block size writes its own length into the
	 * shared SQEs (the lanes are not alike, engine/uring.c) */
	grouped_jobs(j, ENG_BACKEND_IO_URING, true);
	j[1].bs = 8192;
	run_limits("mixed block sizes", j, NJ);
	/* a group need not be neighbours: jobs 0 and 2 share a thread */
	grouped_jobs(j, ENG_BACKEND_IO_URING, true);
	j[1].group = 9;
	run_limits("interleaved", j, NJ);
	run_errors();
	run_timed(dev);
	refusals();
	for (k = 0; k < NJ; k++)
		eng_target_close(&tg[k]);
	return t_result();
}
