/* Runs through the engine API on a data file under /var/tmp and on a loop
 * device over /dev/shm: both backends, io_uring irq and sqpoll, NOP,
 * buffered, the IO limit, completion modes the devices cannot do, several
 * jobs on one target stopped from the main thread. */
#include "tests/test_engine_util.h"

#include <liburing.h>

#include "topo/topo.h"

#define FILE_SIZE (16u << 20)
#define RUN_MS 150
#define DONE_MS 20000	/* generous bound for runs that must stop alone */

static int ncpus;

static int second_cpu(void)
{
	return ncpus > 1 ? 1 : 0;
}

/* Worker i's live figures. */
static struct eng_progress live(const struct eng_run *r, unsigned i)
{
	struct eng_progress p = { 0, 0, 0, 0 };

	CHECK(eng_run_progress(r, i, 1, &p) == 0);
	return p;
}

/* One job, a short measured window: every figure must be sane. */
static void good_run(const char *what, struct eng_job j)
{
	struct eng_run *r = NULL;
	const struct eng_result *res;
	char name[160];
	int ret;

	snprintf(name, sizeof(name), "%s %s/%s%s%s", what,
		 eng_backend_name(j.backend), eng_mode_name(j.mode),
		 j.op == ENG_OP_NOP ? " nop" : "",
		 j.latency ? "" : " no-latency");
	ret = tu_run(&r, &j, 1, 20, RUN_MS);
	CHECKF(ret == 0, "%s: create %d (stage %d err %d)", name, ret,
	       r ? (int)eng_run_result(r, 0)->stage : -1,
	       r ? eng_run_result(r, 0)->err : 0);
	if (!ret) {
		res = eng_run_result(r, 0);
		tu_check_result(name, res, &j);
		CHECKF(eng_run_done(r), "%s: not done after join", name);
		CHECKF(live(r, 0).ndone == 1, "%s: progress ndone", name);
		CHECKF(!res->fell_back, "%s: fell back", name);
		CHECKF(res->backend == (j.backend == ENG_BACKEND_LIBAIO ?
			ENG_BACKEND_LIBAIO : ENG_BACKEND_IO_URING),
		       "%s: backend used %s", name, eng_backend_name(res->backend));
		if (res->backend == ENG_BACKEND_IO_URING && j.mode == ENG_MODE_SQPOLL)
			CHECKF(res->setup_flags & IORING_SETUP_SQPOLL,
			       "%s: flags %#x", name, res->setup_flags);
	}
	eng_run_destroy(r);
}

/* With an IO limit the run stops by itself after exactly that many. */
static void limit_run(const char *what, struct eng_job j, uint64_t ios)
{
	struct eng_run *r = NULL;
	const struct eng_result *res;
	int ret;

	j.ios = ios;
	ret = eng_run_create(&r, &j, 1);
	CHECKF(ret == 0, "%s limit: create %d", what, ret);
	if (!ret) {
		eng_run_start(r);
		eng_run_measure(r);
		CHECKF(tu_wait_done(r, DONE_MS), "%s: did not stop after %" PRIu64
		       " IOs", what, ios);
		eng_run_stop(r);
		eng_run_join(r);
		res = eng_run_result(r, 0);
		tu_check_result(what, res, &j);
		CHECKF(res->ios == ios, "%s: %" PRIu64 " IOs, limit %" PRIu64,
		       what, res->ios, ios);
	}
	eng_run_destroy(r);
}

/* Does the block device under this target poll (queue/io_poll = 1)? */
static bool polls(const struct eng_target *t)
{
	return topo_io_poll(NULL, t->dev) == 1;
}

/* poll and hybrid on a device without poll queues: setup works, the first
 * read fails with EOPNOTSUPP and stops the worker (no endless errors). */
static void poll_run(const char *what, struct eng_job j, const struct eng_target *t)
{
	struct eng_run *r = NULL;
	const struct eng_result *res;
	int ret;

	if (polls(t)) {
		printf("%s polls: %s not checked\n", what, eng_mode_name(j.mode));
		return;
	}
	ret = eng_run_create(&r, &j, 1);
	if (ret) {
		res = eng_run_result(r, 0);
		CHECKF(j.mode == ENG_MODE_HYBRID && ret == -EINVAL &&
		       res->stage == ENG_STAGE_MODE && res->err == -EINVAL,
		       "%s %s: create %d stage %d err %d", what,
		       eng_mode_name(j.mode), ret, (int)res->stage, res->err);
		eng_run_destroy(r);
		return;
	}
	eng_run_start(r);
	eng_run_measure(r);
	CHECKF(tu_wait_done(r, DONE_MS), "%s %s: still running after IO errors",
	       what, eng_mode_name(j.mode));
	eng_run_stop(r);
	eng_run_join(r);
	res = eng_run_result(r, 0);
	CHECKF(res->stage == ENG_STAGE_IO && res->err == -EOPNOTSUPP,
	       "%s %s: stage %d err %d, want IO/-EOPNOTSUPP", what,
	       eng_mode_name(j.mode), (int)res->stage, res->err);
	CHECKF(res->ios == 0, "%s %s: %" PRIu64 " good IOs", what,
	       eng_mode_name(j.mode), res->ios);
	CHECKF(res->setup_flags & IORING_SETUP_IOPOLL, "%s %s: flags %#x",
	       what, eng_mode_name(j.mode), res->setup_flags);
	eng_run_destroy(r);
}

/* Failures found while setting up: create returns the error, the stage
 * says where, and destroy is still safe. */
static void setup_fail(const char *what, struct eng_job j, enum eng_stage stage,
		       int err)
{
	struct eng_run *r = NULL;
	const struct eng_result *res;
	int ret = eng_run_create(&r, &j, 1);

	CHECKF(ret == err, "%s: create %d, want %d", what, ret, err);
	CHECKF(r != NULL, "%s: no run to destroy", what);
	if (r) {
		res = eng_run_result(r, 0);
		CHECKF(res->stage == stage && res->err == err,
		       "%s: stage %d err %d, want %d %d", what, (int)res->stage,
		       res->err, (int)stage, err);
	}
	eng_run_destroy(r);
}

static void matrix(const char *what, const struct eng_target *t)
{
	struct eng_job j;

	good_run(what, tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ));
	good_run(what, tu_job(t, ENG_BACKEND_AUTO, ENG_MODE_IRQ));
	j = tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_SQPOLL);
	j.cpu = 0;
	good_run(what, j);
	good_run(what, tu_job(t, ENG_BACKEND_LIBAIO, ENG_MODE_IRQ));
	j = tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	j.latency = false;
	j.cpu = second_cpu();
	good_run(what, j);
	j = tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	j.qd = 1;
	j.batch = 1;
	good_run(what, j);
	j = tu_job(t, ENG_BACKEND_LIBAIO, ENG_MODE_IRQ);
	j.qd = 64;
	j.batch = 32;
	j.bs = 65536;
	good_run(what, j);

	limit_run(what, tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ), 1000);
	limit_run(what, tu_job(t, ENG_BACKEND_LIBAIO, ENG_MODE_IRQ), 777);
	limit_run(what, tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_SQPOLL), 1000);
	j = tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	j.qd = 32;
	j.batch = 32;
	limit_run(what, j, 5);		/* fewer than one batch */

	poll_run(what, tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_POLL), t);
	poll_run(what, tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_HYBRID), t);
	poll_run(what, tu_job(t, ENG_BACKEND_AUTO, ENG_MODE_POLL), t);

	setup_fail("libaio poll", tu_job(t, ENG_BACKEND_LIBAIO, ENG_MODE_POLL),
		   ENG_STAGE_MODE, -EOPNOTSUPP);
	setup_fail("libaio hybrid", tu_job(t, ENG_BACKEND_LIBAIO, ENG_MODE_HYBRID),
		   ENG_STAGE_MODE, -EOPNOTSUPP);
	setup_fail("libaio sqpoll", tu_job(t, ENG_BACKEND_LIBAIO, ENG_MODE_SQPOLL),
		   ENG_STAGE_MODE, -EOPNOTSUPP);
}

static void buffered(const char *path)
{
	struct eng_target t;
	int ret = eng_target_open(&t, path, true);

	CHECKF(ret == 0, "buffered open %s: %d", path, ret);
	if (ret)
		return;
	good_run("buffered", tu_job(&t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ));
	good_run("buffered", tu_job(&t, ENG_BACKEND_LIBAIO, ENG_MODE_IRQ));
	good_run("buffered", tu_job(&t, ENG_BACKEND_IO_URING, ENG_MODE_SQPOLL));
	limit_run("buffered", tu_job(&t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ), 4096);
	eng_target_close(&t);
}

#ifndef TU_LOOP
static void nop(void)
{
	struct eng_job j = tu_job(NULL, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);

	good_run("nop", j);
	j.qd = 128;
	j.batch = 32;
	good_run("nop", j);
	j.mode = ENG_MODE_SQPOLL;
	good_run("nop", j);
	limit_run("nop", tu_job(NULL, ENG_BACKEND_IO_URING, ENG_MODE_IRQ), 100000);
	setup_fail("libaio nop", tu_job(NULL, ENG_BACKEND_LIBAIO, ENG_MODE_IRQ),
		   ENG_STAGE_SETUP, -EOPNOTSUPP);
}
#endif

/* engine.h: range_len 0 reads the whole target from range_off. */
static void whole_range(const struct eng_target *t)
{
	struct eng_job j = tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);

	j.range_len = 0;
	good_run("range_len 0", j);
	j.range_off = t->size / 2;
	good_run("range_off half, range_len 0", j);
}

/* Several jobs on one target at once, stopped from this thread; the live
 * counters move while they run. */
/* How many of n workers answer a snapshot with measured IOs. */
static unsigned measured_jobs(struct eng_run *r, unsigned n)
{
	const struct eng_snapshot *s;
	int seq = eng_run_snapshot(r);
	unsigned i, got = 0, ms;

	for (i = 0; seq > 0 && i < n; i++) {
		for (ms = 0; !(s = eng_run_snapshot_get(r, i, seq)) && ms < 1000; ms++)
			tu_sleep_ms(1);
		got += s && s->start_ns && s->ios > 0;
	}
	return got;
}

static void several(const char *what, const struct eng_target *t)
{
	struct eng_job j[4];
	struct eng_run *r = NULL;
	unsigned i, waited = 0;
	int ret;

	for (i = 0; i < 4; i++) {
		j[i] = tu_job(t, i == 3 ? ENG_BACKEND_LIBAIO : ENG_BACKEND_IO_URING,
			      ENG_MODE_IRQ);
		j[i].cpu = (int)i % ncpus;
		j[i].seed = i + 1;
	}
	ret = eng_run_create(&r, j, 4);
	CHECKF(ret == 0, "%s several: create %d", what, ret);
	if (ret) {
		eng_run_destroy(r);
		return;
	}
	CHECK(eng_run_njobs(r) == 4);
	CHECK(!eng_run_done(r));
	eng_run_start(r);
	eng_run_measure(r);
	/* live counters include the ramp: ask the workers themselves until
	 * every one has measured IOs, so none can miss the whole window */
	while (measured_jobs(r, 4) < 4 && waited < DONE_MS) {
		tu_sleep_ms(5);
		waited += 5;
	}
	CHECKF(measured_jobs(r, 4) == 4, "%s several: not every job measured IOs", what);
	for (i = 0; i < 4; i++)
		CHECKF(live(r, i).ios > 0,
		       "%s several: job %u live ios 0", what, i);
	CHECK(!eng_run_done(r));
	eng_run_stop(r);
	eng_run_join(r);
	CHECK(eng_run_done(r));
	for (i = 0; i < 4; i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s several job %u", what, i);
		tu_check_result(name, eng_run_result(r, i), &j[i]);
		CHECKF(live(r, i).ios >= eng_run_result(r, i)->ios,
		       "%s: live ios behind the result", name);
	}
	eng_run_destroy(r);
}

/* Lifecycle corners: stop during the ramp, destroy without start, no jobs,
 * and IOs the device refuses (512 bytes on a 4096-byte-sector device). */
static void corners(const struct eng_target *t, const struct eng_target *t4k)
{
	struct eng_job j = tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	struct eng_run *r = NULL;
	const struct eng_result *res;
	int ret;

	CHECK(eng_run_create(&r, &j, 0) == -EINVAL);
	eng_run_destroy(r);

	ret = eng_run_create(&r, &j, 1);
	CHECK(ret == 0);
	eng_run_destroy(r);		/* never started */

	ret = eng_run_create(&r, &j, 1);
	CHECK(ret == 0);
	if (!ret) {
		eng_run_start(r);
		tu_sleep_ms(20);
		eng_run_stop(r);		/* still in the ramp */
		eng_run_join(r);
		res = eng_run_result(r, 0);
		/* the worker may take the stop for a (tiny) window */
		CHECKF(res->stage == ENG_STAGE_NONE && res->ios == 0 &&
		       res->errors == 0, "stop in ramp: stage %d ios %" PRIu64
		       " errors %" PRIu64, (int)res->stage, res->ios, res->errors);
	}
	eng_run_destroy(r);

	j.cpu = ncpus + 64;		/* no such CPU */
	setup_fail("pin to a missing cpu", j, ENG_STAGE_PIN, -EINVAL);

	if (!t4k)
		return;
	j = tu_job(t4k, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	j.bs = 512;
	ret = eng_run_create(&r, &j, 1);
	CHECK(ret == 0);
	if (!ret) {
		eng_run_start(r);
		eng_run_measure(r);
		CHECKF(tu_wait_done(r, DONE_MS), "bs 512 on 4K sectors: still running");
		eng_run_join(r);
		res = eng_run_result(r, 0);
		CHECKF(res->stage == ENG_STAGE_IO && res->err == -EINVAL,
		       "bs 512 on 4K sectors: stage %d err %d", (int)res->stage,
		       res->err);
	}
	eng_run_destroy(r);
}

#ifndef TU_LOOP
/* The data file under /var/tmp, NOP and lifecycle corners. */
int main(void)
{
	struct eng_target f;
	const char *path;

	tu_clock();
	ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus < 1)
		ncpus = 1;
	path = tu_data_file(FILE_SIZE);
	CHECK(eng_target_open(&f, path, false) == 0);
	if (t_result())
		return t_result();
	matrix("file", &f);
	whole_range(&f);
	several("file", &f);
	buffered(path);
	nop();
	corners(&f, NULL);
	eng_target_close(&f);
	return t_result();
}
#else
/* A loop device over /dev/shm (tests/test_engine_loop.c), and one with
 * 4096-byte sectors for IOs it refuses. */
int main(void)
{
	struct eng_target l, l4;
	const char *why = NULL, *dev;
	int ret;

	tu_clock();
	ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus < 1)
		ncpus = 1;
	dev = tu_loop_dev(FILE_SIZE, 512, &why);
	if (!dev)
		SKIP(why);
	ret = eng_target_open(&l, dev, false);
	CHECKF(ret == 0, "open %s: %d", dev, ret);
	if (ret)
		return t_result();
	matrix("loop", &l);
	whole_range(&l);
	several("loop", &l);
	buffered(dev);
	eng_target_close(&l);
	tu_cleanup();		/* tu_loop_dev holds one device at a time */
	dev = tu_loop_dev(1 << 20, 4096, &why);
	if (!dev)
		SKIP(why);
	ret = eng_target_open(&l4, dev, false);
	CHECKF(ret == 0, "open %s: %d", dev, ret);
	if (!ret) {
		corners(&l4, &l4);
		eng_target_close(&l4);
	}
	return t_result();
}
#endif
