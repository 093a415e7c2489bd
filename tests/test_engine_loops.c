/* Every copy of the io_uring loop (engine/uring_loop_int.h): closed and
 * open, one job and a group, NOPs and reads. Each stops at its IO limit
 * exactly, failed IOs counting towards it; an open loop never runs ahead
 * of its schedule and times each IO twice (from when it was due, never
 * shorter than from its submission); a lane whose drive holds its IOs is
 * seen holding them, and a lane that is done settles with its result final
 * while another still holds IOs. The drive that holds IOs is a pipe: a
 * read waits until the test writes or closes its other end. And the ring's
 * setup asks the kernel: a full group of lanes with more than 1 GiB of
 * buffers each registers them, and passthrough's registered buffers are
 * found by trying them. An open loop whose thread runs late keeps the
 * run's schedule and window. */
#include "tests/test_engine_util.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/mman.h>

#include "engine/uring_int.h"

#define FILE_SIZE (8u << 20)
#define DONE_MS 20000	/* generous bound for runs that must stop alone */

static struct eng_target data;

/* A target whose reads wait until *wfd is written to or closed. */
static int pipe_target(struct eng_target *t, int *wfd)
{
	int p[2];

	if (pipe(p))
		return -errno;
	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "pipe");
	snprintf(t->name, sizeof(t->name), "pipe");
	t->fd = p[0];
	t->buffered = true;
	t->size = 4096;
	t->lbs = 512;
	*wfd = p[1];
	return 0;
}

static bool create_started(const char *what, struct eng_run **r, const struct eng_job *j,
			   unsigned n)
{
	int ret = eng_run_create(r, j, n);

	CHECKF(ret == 0, "%s: create %d (stage %d err %d)", what, ret,
	       *r ? (int)eng_run_result(*r, 0)->stage : -1, *r ? eng_run_result(*r, 0)->err : 0);
	if (ret) {
		eng_run_destroy(*r);
		*r = NULL;
		return false;
	}
	eng_run_start(*r);
	eng_run_measure(*r);
	return true;
}

/* Runs jobs that stop by their IO limits; 0 when they did. */
static struct eng_run *limited(const char *what, const struct eng_job *j, unsigned n)
{
	struct eng_run *r = NULL;

	if (!create_started(what, &r, j, n))
		return NULL;
	CHECKF(tu_wait_done(r, DONE_MS), "%s: did not stop at its IO limit", what);
	eng_run_stop(r);
	eng_run_join(r);
	return r;
}

/* The closed loop of one job and of a group, NOPs: each job stops at its
 * own limit, its histogram holding exactly those IOs. */
static void closed_limits(void)
{
	static const uint64_t ios[3] = { 5000, 777, 12345 };
	struct eng_job j[3];
	struct eng_run *r;
	unsigned k;

	for (k = 0; k < 3; k++) {
		j[k] = tu_job(NULL, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
		j[k].qd = 8 << k;
		j[k].batch = 4;
		j[k].ios = ios[k];
	}
	r = limited("closed nop", j, 1);
	if (r) {
		CHECKF(eng_run_result(r, 0)->ios == ios[0], "closed nop: %" PRIu64 " IOs",
		       eng_run_result(r, 0)->ios);
		tu_check_result("closed nop", eng_run_result(r, 0), &j[0]);
		eng_run_destroy(r);
	}
	for (k = 0; k < 3; k++)
		j[k].group = 5;
	r = limited("group nop", j, 3);
	for (k = 0; r && k < 3; k++) {
		CHECKF(eng_run_result(r, k)->ios == ios[k], "group nop lane %u: %" PRIu64 " IOs",
		       k, eng_run_result(r, k)->ios);
		tu_check_result("group nop", eng_run_result(r, k), &j[k]);
	}
	eng_run_destroy(r);
}

/* A job done shows the IOs it completed: one that reaches its limit in its
 * first pass (one IO, here one each) must not look done with none, which
 * the runner takes for a failure at start (cli/runner/watch.c), stopping
 * the run before the others have measured. Checked before the join, as
 * the runner sees it, for one job and for a group's lanes. */
static void done_counts(void)
{
	struct eng_progress p;
	struct eng_job j[3];
	struct eng_run *r;
	unsigned k, n;

	for (n = 1; n <= 3; n += 2) {
		for (k = 0; k < n; k++) {
			j[k] = tu_job(NULL, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
			j[k].qd = 8;
			j[k].ios = 1;
			j[k].group = n > 1 ? 7 : 0;
		}
		r = NULL;
		if (!create_started(n > 1 ? "group, one IO each" : "one IO", &r, j, n))
			continue;
		CHECKF(tu_wait_done(r, DONE_MS), "one IO each: did not stop");
		for (k = 0; k < n; k++)
			CHECKF(!eng_run_progress(r, k, 1, &p) && (!p.ndone || p.ios >= 1),
			       "%s job %u: done with %" PRIu64 " IOs seen", n > 1 ? "group" : "one",
			       k, p.ios);
		eng_run_stop(r);
		eng_run_join(r);
		eng_run_destroy(r);
	}
}

/* An open loop of reads at a rate the file keeps up with: the limit, both
 * histograms over the same IOs, and the latency from when each IO was due
 * never under its service time (an IO issued before it was due makes it
 * so; a count against the window's length would not do, the schedule
 * starts before the window); then at a rate it cannot keep up with (every
 * IO due at once: --rate 1g), Poisson too, the limit still exact. */
static void open_limits(double rate, enum eng_arrival_kind kind, bool latency)
{
	struct eng_job j = tu_job(&data, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	const struct eng_result *res;
	struct eng_run *r;
	char what[96];

	snprintf(what, sizeof(what), "open %g/s %s%s", rate,
		 kind == ENG_ARRIVAL_POISSON ? "poisson" : "uniform", latency ? "" : " untimed");
	j.rate = rate;
	j.arrival = kind;
	j.ios = rate < 1e6 ? 2000 : 20000;
	j.qd = 8;
	j.batch = 4;
	j.latency = latency;
	r = limited(what, &j, 1);
	if (!r)
		return;
	res = eng_run_result(r, 0);
	tu_check_result(what, res, &j);
	CHECKF(res->ios == j.ios, "%s: %" PRIu64 " IOs, limit %" PRIu64, what, res->ios, j.ios);
	CHECKF(res->backlog == 0, "%s: backlog %" PRIu64 " after its limit", what, res->backlog);
	CHECKF(res->late <= res->ios, "%s: %" PRIu64 " late of %" PRIu64, what, res->late,
	       res->ios);
	if (latency && res->hist && res->svc_hist) {
		CHECKF(res->svc_hist->count == res->ios,
		       "%s: service histogram %" PRIu64 " of %" PRIu64, what,
		       res->svc_hist->count, res->ios);
		CHECKF(res->hist->sum_ns >= res->svc_hist->sum_ns &&
		       res->hist->max_ns >= res->svc_hist->max_ns &&
		       res->hist->min_ns >= res->svc_hist->min_ns,
		       "%s: from due (sum %" PRIu64 " max %" PRIu64 ") under service time (sum %"
		       PRIu64 " max %" PRIu64 ")", what, res->hist->sum_ns, res->hist->max_ns,
		       res->svc_hist->sum_ns, res->svc_hist->max_ns);
	} else {
		CHECKF(latency == (res->hist != NULL), "%s: histogram %p", what,
		       (const void *)res->hist);
	}
	eng_run_destroy(r);
}

/* Reads past the end of the file are short: failed IOs, which count
 * towards the limit in the open loop too, and no good one is counted. */
static void open_errors(void)
{
	struct eng_job j = tu_job(&data, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	const struct eng_result *res;
	struct eng_run *r;

	j.rate = 1e9;
	j.ios = 3000;
	j.range_off = FILE_SIZE;
	j.range_len = 1u << 20;
	r = limited("open errors", &j, 1);
	if (!r)
		return;
	res = eng_run_result(r, 0);
	CHECKF(res->ios == 0 && res->errors == j.ios && res->errs.count[0] == j.ios,
	       "open errors: %" PRIu64 " IOs %" PRIu64 " errors (%" PRIu64 " short)", res->ios,
	       res->errors, res->errs.count[0]);
	CHECKF(res->hist && res->hist->count == 0, "open errors: failed IOs timed");
	/* all were issued late (every IO due at once), none counts: late
	 * is of the good IOs */
	CHECKF(res->late == 0, "open errors: %" PRIu64 " late of no good IO", res->late);
	eng_run_destroy(r);
}

/* Waits (bounded) until job i holds n IOs: the loop issued them and the
 * pipe holds them. */
static bool holds(struct eng_run *r, unsigned i, uint32_t n)
{
	struct eng_progress p;
	unsigned waited;

	for (waited = 0; waited < DONE_MS; waited += 5) {
		if (!eng_run_progress(r, i, 1, &p) && p.inflight == n)
			return true;
		tu_sleep_ms(5);
	}
	return false;
}

/* Stops r, lets the pipe's reads end (EOF: short reads, after the window)
 * and joins: nothing is left stalled. */
static void release(const char *what, struct eng_run *r, int *wfd, unsigned n)
{
	unsigned k;

	eng_run_stop(r);
	close(*wfd);
	*wfd = -1;
	CHECKF(eng_run_join_for(r, 10ull * 1000000000) == 0, "%s: a drained IO never completed",
	       what);
	for (k = 0; k < n; k++)
		CHECKF(!eng_run_result(r, k)->stalled, "%s: job %u stalled", what, k);
}

/* A drive that holds every IO: the open loop holds its whole depth, and
 * reports it; released, it drains. (It waits in the kernel from before
 * the window to after it, so the window measured nothing.) */
static void open_stall(void)
{
	struct eng_target pt;
	struct eng_job j;
	struct eng_run *r = NULL;
	int wfd = -1;

	if (pipe_target(&pt, &wfd)) {
		CHECKF(0, "pipe: %s", strerror(errno));
		return;
	}
	j = tu_job(&pt, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	j.rate = 1e5;
	j.qd = 4;
	j.batch = 4;
	if (create_started("open stall", &r, &j, 1)) {
		CHECKF(holds(r, 0, j.qd), "open stall: the depth is not held");
		release("open stall", r, &wfd, 1);
		eng_run_destroy(r);
	}
	if (wfd >= 0)
		close(wfd);
	close(pt.fd);
}

/* A thread that holds CPU 1 (SCHED_FIFO, above every worker) for
 * SPIN_MS: spinning says when it has begun. */
#define SPIN_MS 200
struct spin {
	_Atomic int spinning;
	uint64_t end_ns;
	int err;
};

static void *spin_main(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };
	struct spin *s = arg;
	uint64_t end;
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(1, &one);
	s->err = pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
	if (!s->err)
		s->err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	end = eng_mono_ns() + SPIN_MS * 1000000ull;
	atomic_store(&s->spinning, s->err ? -1 : 1);
	while (!s->err && eng_mono_ns() < end)
		;
	s->end_ns = eng_mono_ns();
	return NULL;
}

/* A worker whose thread the machine runs late. Two open loops, pinned to
 * CPUs 0 and 1, and a thread that holds CPU 1 from before the workers are
 * released until SPIN_MS later, the ramp ending at once (--ramp 0): the
 * second worker's loop starts after its window began. Its schedule began
 * with the run all the same, so it owes what was due while held and
 * issues it late, inside the window (the window's own IOs), and its
 * window is the run's: both workers' are the same length, to the ns, and
 * the second one's IOs and backlog are its rate over it. A schedule that
 * began with the late loop, and a window with it, would be shorter by
 * the hold. Needs SCHED_FIFO (root) and two CPUs. */
static void open_late_thread(void)
{
	struct eng_job j[2];
	const struct eng_result *a, *b;
	struct spin sp = { 0 };
	struct eng_run *r = NULL;
	cpu_set_t zero, old;
	uint64_t s_ns;
	pthread_t t;
	double due;

	if (geteuid() != 0 || sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("late thread: not root, or one CPU: not checked\n");
		return;
	}
	j[0] = tu_job(&data, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	j[0].rate = 2000;
	j[0].qd = 8;
	j[0].batch = 4;
	j[0].cpu = 0;
	j[1] = j[0];
	j[1].cpu = 1;
	j[1].rate_phase = 0.5;
	if (eng_run_create(&r, j, 2)) {
		CHECKF(0, "late thread: create (stage %d err %d)",
		       r ? (int)eng_run_result(r, 0)->stage : -1, r ? eng_run_result(r, 0)->err : 0);
		eng_run_destroy(r);
		return;
	}
	/* this thread on CPU 0, where the spinner cannot hold it */
	CPU_ZERO(&zero);
	CPU_SET(0, &zero);
	CHECK(pthread_getaffinity_np(pthread_self(), sizeof(old), &old) == 0);
	CHECK(pthread_setaffinity_np(pthread_self(), sizeof(zero), &zero) == 0);
	CHECK(pthread_create(&t, NULL, spin_main, &sp) == 0);
	while (!atomic_load(&sp.spinning))
		sched_yield();
	eng_run_start(r);
	eng_run_measure(r);
	s_ns = eng_mono_ns();
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(pthread_setaffinity_np(pthread_self(), sizeof(old), &old) == 0);
	CHECKF(!sp.err, "late thread: SCHED_FIFO on CPU 1: %s", strerror(sp.err));
	tu_sleep_ms(300);
	eng_run_stop(r);
	eng_run_join(r);
	a = eng_run_result(r, 0);
	b = eng_run_result(r, 1);
	/* the test's own premise: the second loop was held past the start */
	CHECKF(sp.end_ns > s_ns + SPIN_MS / 2 * 1000000ull, "late thread: held until %" PRIu64
	       " ns after the window began", sp.end_ns - s_ns);
	CHECKF(a->elapsed_ns == b->elapsed_ns && a->elapsed_ns > 0,
	       "late thread: windows of %" PRIu64 " and %" PRIu64 " ns", a->elapsed_ns,
	       b->elapsed_ns);
	due = j[1].rate * (double)b->elapsed_ns / 1e9;
	CHECKF(fabs((double)(b->ios + b->backlog) - due) <= 0.01 * due + j[1].qd,
	       "late thread: %" PRIu64 " IOs and %" PRIu64 " due at the end over a window of "
	       "%.0f due", b->ios, b->backlog, due);
	CHECKF(b->late > 100, "late thread: %" PRIu64 " IOs late, none owed from the hold",
	       b->late);
	eng_run_destroy(r);
}

/* A group of a lane on the data file with an IO limit and one on a drive
 * that holds its IOs: the first stops at its limit and settles, its
 * result final, while the other still holds its whole depth; the thread
 * then waits for that lane only, which is seen holding its IOs. */
static void group_settle(bool nop_first)
{
	struct eng_target pt;
	struct eng_job j[2];
	struct eng_run *r = NULL;
	struct eng_progress p;
	const char *what = nop_first ? "group settle" : "group settle, reads";
	int wfd = -1;

	(void)nop_first;
	if (pipe_target(&pt, &wfd)) {
		CHECKF(0, "pipe: %s", strerror(errno));
		return;
	}
	j[0] = tu_job(&data, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	j[1] = tu_job(&pt, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	j[0].ios = 4000;
	j[1].qd = 4;
	j[0].group = j[1].group = 3;
	if (nop_first) {
		/* the held lane first: the ring's lane 0 is the one stalled */
		struct eng_job t = j[0];

		j[0] = j[1];
		j[1] = t;
	}
	if (create_started(what, &r, j, 2)) {
		unsigned done = nop_first ? 1 : 0, held = 1 - done;
		unsigned waited = 0;

		while (eng_run_progress(r, done, 1, &p) == 0 && !p.ndone && waited < DONE_MS) {
			tu_sleep_ms(5);
			waited += 5;
		}
		CHECKF(p.ndone == 1, "%s: the limited lane did not settle", what);
		CHECKF(holds(r, held, 4), "%s: the held lane does not hold its depth", what);
		CHECKF(eng_run_progress(r, held, 1, &p) == 0 && !p.ndone,
		       "%s: the held lane stopped", what);
		CHECKF(eng_run_result(r, done)->ios == j[done].ios,
		       "%s: settled with %" PRIu64 " IOs, limit %" PRIu64, what,
		       eng_run_result(r, done)->ios, j[done].ios);
		release(what, r, &wfd, 2);
		CHECKF(eng_run_result(r, done)->ios == j[done].ios,
		       "%s: %" PRIu64 " IOs after the join", what, eng_run_result(r, done)->ios);
		eng_run_destroy(r);
	}
	if (wfd >= 0)
		close(wfd);
	close(pt.fd);
}

/* The iovecs for a full group of lanes with more than 1 GiB of buffers
 * each: two per lane, all handed to the kernel. The buffers are address
 * space only (PROT_NONE, never touched), which the kernel refuses to pin
 * (EFAULT): the lanes read unregistered, and say so. */
static void full_group_registers(void)
{
	static struct eng_worker lanes[ENG_GROUP_MAX];
	static struct eng_result res[ENG_GROUP_MAX];
	size_t len = (1ull << 30) + 4096;
	unsigned k;
	char *va = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	int ret;

	CHECKF(va != MAP_FAILED, "mmap: %s", strerror(errno));
	if (va == MAP_FAILED)
		return;
	ret = io_uring_queue_init(4, &lanes[0].u.ring, 0);
	CHECKF(ret == 0, "ring: %d", ret);
	for (k = 0; !ret && k < ENG_GROUP_MAX; k++) {
		lanes[k].bs = 4096;
		lanes[k].buf = va;
		lanes[k].buf_len = len;
		lanes[k].res = &res[k];
	}
	if (!ret) {
		CHECKF(eng_uring_iov_count(lanes, ENG_GROUP_MAX) == 2 * ENG_GROUP_MAX,
		       "%u iovecs", eng_uring_iov_count(lanes, ENG_GROUP_MAX));
		ret = eng_uring_register_bufs(&lanes[0], lanes, ENG_GROUP_MAX);
		CHECKF(ret == 0, "a full group of 1 GiB lanes: register %d", ret);
		for (k = 0; k < ENG_GROUP_MAX; k++)
			CHECKF(lanes[k].u.buf_base == 2 * k &&
			       (res[k].fixed_bufs || res[k].unfixed_err == -EFAULT ||
				res[k].unfixed_err == -ENOMEM),
			       "lane %u: buffers from %u, fixed %d, why not %d", k,
			       lanes[k].u.buf_base, res[k].fixed_bufs, res[k].unfixed_err);
		io_uring_queue_exit(&lanes[0].u.ring);
	}
	munmap(va, len);
}

/* This kernel (6.1 or later: the test machine's) takes registered
 * buffers for commands: asked on a file with none (EOPNOTSUPP from the
 * file, not EINVAL from the flag). */
static void cmd_fixed_probe(void)
{
	struct io_uring ring;
	struct iovec iov;
	static char buf[4096];
	int ret = io_uring_queue_init(4, &ring, IORING_SETUP_SQE128 | IORING_SETUP_CQE32);

	if (ret) {
		printf("no SQE128 rings here (%d): the probe is left out\n", ret);
		return;
	}
	iov.iov_base = buf;
	iov.iov_len = sizeof(buf);
	ret = io_uring_register_files(&ring, &data.fd, 1);
	if (!ret)
		ret = io_uring_register_buffers(&ring, &iov, 1);
	CHECKF(ret == 0, "probe ring: %d", ret);
	if (!ret)
		CHECKF(eng_uring_cmd_fixed_probe(&ring),
		       "the kernel refused registered buffers for commands");
	io_uring_queue_exit(&ring);
}

int main(void)
{
	const char *path;

	tu_clock();
	path = tu_data_file(FILE_SIZE);
	CHECKF(path && eng_target_open(&data, path, true) == 0, "open %s", path ? path : "?");
	if (t_failed)
		return t_result();
	closed_limits();
	done_counts();
	open_limits(20000, ENG_ARRIVAL_UNIFORM, true);
	open_limits(20000, ENG_ARRIVAL_POISSON, true);
	open_limits(1e9, ENG_ARRIVAL_UNIFORM, true);
	open_limits(1e9, ENG_ARRIVAL_UNIFORM, false);
	open_errors();
	open_stall();
	open_late_thread();
	group_settle(false);
	group_settle(true);
	full_group_registers();
	cmd_fixed_probe();
	eng_target_close(&data);
	return t_result();
}
