/* Engine snapshots: workers answer each request with their running
 * figures, answers only grow, differences add up to the final result.
 * eng_run_snapshot_wait returns once all running workers answered, times
 * out on workers that cannot answer, and does not wait for stopped ones;
 * the live progress counters only grow. */
#include "tests/test_engine_util.h"

#define JOBS 2
#define WAIT_NS 2000000000ull
#define GUARD_MS 20000u	/* a guard against a hang, not a measure */

/* JOBS unpinned workers reading t, set up but not started; NULL after a
 * failed check. */
static struct eng_run *create(const struct eng_target *t, enum eng_backend b)
{
	struct eng_job j[JOBS];
	struct eng_run *r = NULL;
	unsigned i;
	int ret;

	for (i = 0; i < JOBS; i++) {
		j[i] = tu_job(t, b, ENG_MODE_IRQ);
		j[i].cpu = -1;
		j[i].seed = i + 1;
	}
	ret = eng_run_create(&r, j, JOBS);
	CHECKF(ret == 0, "%s: create %d", eng_backend_name(b), ret);
	if (ret) {
		eng_run_destroy(r);
		return NULL;
	}
	return r;
}

/* Worker i's answer to seq, after waiting for every worker's. */
static const struct eng_snapshot *answer(struct eng_run *r, unsigned i, int seq)
{
	int n = eng_run_snapshot_wait(r, seq, WAIT_NS);

	CHECKF(n == JOBS, "request %d: %d answers", seq, n);
	return eng_run_snapshot_get(r, i, seq);
}

/* Each worker's live IO count now (since its start, the ramp's too). */
static void live_ios(struct eng_run *r, uint64_t *ios)
{
	struct eng_progress p;
	unsigned i;

	for (i = 0; i < JOBS; i++)
		ios[i] = eng_run_progress(r, i, 1, &p) ? 0 : p.ios;
}

/* Waits until every worker has completed an IO since base was read;
 * false (said) when the guard ran out. */
static bool moved_past(struct eng_run *r, const uint64_t *base, const char *what)
{
	uint64_t now[JOBS];
	unsigned i, ms, behind = JOBS;

	for (ms = 0; ms < GUARD_MS; ms++) {
		live_ios(r, now);
		for (behind = 0, i = 0; i < JOBS; i++)
			behind += now[i] <= base[i];
		if (!behind)
			return true;
		tu_sleep_ms(1);
	}
	CHECKF(!behind, "%s: %u workers completed nothing in %u ms", what, behind, GUARD_MS);
	return false;
}

/* The first answer after eng_run_measure: a worker takes in the measure
 * before it answers (both come in the one control word), so every answer
 * has its window's start. The base for the rounds: a live count read
 * before that could move by an IO the worker completed while still
 * ramping, which the window does not count. False after a failed check. */
static bool measure_seen(struct eng_run *r, struct eng_snapshot *prev, const char *what)
{
	const struct eng_snapshot *s;
	int seq = eng_run_snapshot(r);
	unsigned i;
	bool ok = true;

	for (i = 0; i < JOBS; i++) {
		s = answer(r, i, seq);
		CHECKF(s && s->start_ns > 0, "%s: worker %u's window started", what, i);
		if (!s || !s->start_ns)
			ok = false;
		else
			memcpy(&prev[i], s, sizeof(prev[i]));
	}
	return ok;
}

/* Three measured rounds, each once every worker has completed an IO
 * since the last answer: each answer grows, and its difference from the
 * previous one is that interval's histogram. */
static void measured_rounds(struct eng_run *r, struct eng_snapshot *prev, const char *what)
{
	static struct eng_hist d;
	const struct eng_snapshot *s;
	uint64_t base[JOBS];
	unsigned i, round;
	int seq;

	if (!measure_seen(r, prev, what))
		return;
	/* read after the answers: an IO counted past it is the window's */
	live_ios(r, base);
	for (round = 0; round < 3; round++) {
		if (!moved_past(r, base, what))
			return;
		seq = eng_run_snapshot(r);
		for (i = 0; i < JOBS; i++) {
			s = answer(r, i, seq);
			CHECKF(s != NULL, "%s: worker %u answered request %d", what, i, seq);
			if (!s)
				continue;
			CHECK(s->start_ns > 0 && s->t_ns > s->start_ns);
			CHECKF(s->ios > prev[i].ios, "%s: ios grow %" PRIu64 " -> %" PRIu64,
			       what, prev[i].ios, s->ios);
			CHECK(s->hist.count == s->ios);
			eng_hist_diff(&d, &s->hist, &prev[i].hist);
			CHECK(d.count == s->ios - prev[i].ios);
			CHECK(d.min_ns <= d.max_ns && d.max_ns <= s->hist.max_ns);
			memcpy(&prev[i], s, sizeof(prev[i]));
		}
		/* read after the answers: an IO counted past it came after them */
		live_ios(r, base);
		/* an old request number no longer answers */
		CHECK(eng_run_snapshot_get(r, 0, seq - 1) == NULL);
	}
}

static void snapshots(const struct eng_target *t, enum eng_backend b)
{
	static struct eng_snapshot prev[JOBS];
	const char *what = eng_backend_name(b);
	struct eng_run *r = create(t, b);
	const struct eng_snapshot *s;
	unsigned i;
	int seq;

	if (!r)
		return;
	eng_run_start(r);
	/* while ramping: answered, but nothing measured yet */
	seq = eng_run_snapshot(r);
	CHECK(seq > 0);
	for (i = 0; i < JOBS; i++) {
		s = answer(r, i, seq);
		CHECKF(s && s->start_ns == 0 && s->ios == 0, "%s: ramp snapshot", what);
	}
	eng_run_measure(r);
	memset(prev, 0, sizeof(prev));
	measured_rounds(r, prev, what);
	eng_run_stop(r);
	eng_run_join(r);
	for (i = 0; i < JOBS; i++) {
		const struct eng_result *res = eng_run_result(r, i);

		CHECK(res->stage == ENG_STAGE_NONE);
		CHECKF(res->ios >= prev[i].ios && res->hist && res->hist->count == res->ios,
		       "%s: final %" PRIu64 " after snapshot %" PRIu64, what,
		       res->ios, prev[i].ios);
	}
	/* stopped workers never answer, and nobody waits for them */
	seq = eng_run_snapshot(r);
	CHECK(eng_run_snapshot_wait(r, seq, WAIT_NS) == 0);
	CHECK(eng_run_snapshot_get(r, 0, seq) == NULL);
	eng_run_destroy(r);
}

/* Workers that have not started cannot answer: the wait ends on its
 * timeout, never before it (how long after depends on the machine, and is
 * not checked); once they run they answer the same request. Only the
 * latest request can be waited for. */
static void wait_timeout(const struct eng_target *t)
{
	struct eng_run *r = create(t, ENG_BACKEND_IO_URING);
	uint64_t t0, took;
	int seq;

	if (!r)
		return;
	seq = eng_run_snapshot(r);
	CHECK(seq > 0);
	t0 = eng_mono_ns();
	CHECK(eng_run_snapshot_wait(r, seq, 50000000ull) == -ETIMEDOUT);
	took = eng_mono_ns() - t0;
	CHECKF(took >= 50000000ull, "timed out after %" PRIu64 " ns, before its 50 ms", took);
	CHECK(eng_run_snapshot_get(r, 0, seq) == NULL);
	CHECK(eng_run_snapshot_wait(r, seq, 0) == -ETIMEDOUT);
	CHECK(eng_run_snapshot_wait(r, seq + 1, WAIT_NS) == -EINVAL);
	CHECK(eng_run_snapshot_wait(r, 0, WAIT_NS) == -EINVAL);
	eng_run_start(r);
	CHECK(eng_run_snapshot_wait(r, seq, WAIT_NS) == JOBS);
	CHECK(eng_run_snapshot_get(r, 1, seq) != NULL);
	CHECK(eng_run_snapshot(r) == seq + 1);
	CHECK(eng_run_snapshot_wait(r, seq, WAIT_NS) == -EINVAL);
	eng_run_destroy(r);
}

/* A worker that stopped by itself (its IO limit) is not waited for: the
 * wait returns the running one's answer, 1, rather than timing out
 * (-ETIMEDOUT) on the stopped one. */
static void wait_one_stopped(const struct eng_target *t)
{
	struct eng_job j[2] = {
		tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ),
		tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ),
	};
	struct eng_progress p = { 0, 0, 0, 0 };
	struct eng_run *r = NULL;
	unsigned ms;
	int seq;

	j[0].cpu = j[1].cpu = -1;
	j[0].ios = 64;
	CHECK(eng_run_create(&r, j, 2) == 0);
	if (!r)
		return;
	eng_run_start(r);
	eng_run_measure(r);
	for (ms = 0; ms < 20000 && !(eng_run_progress(r, 0, 1, &p) == 0 && p.ndone); ms++)
		tu_sleep_ms(1);
	CHECKF(p.ndone == 1, "the limited worker did not stop");
	CHECK(eng_run_progress(r, 1, 1, &p) == 0 && p.ndone == 0);
	seq = eng_run_snapshot(r);
	CHECK(eng_run_snapshot_wait(r, seq, 10 * WAIT_NS) == 1);
	CHECK(eng_run_snapshot_get(r, 0, seq) == NULL);
	CHECK(eng_run_snapshot_get(r, 1, seq) != NULL);
	eng_run_destroy(r);
}

/* Live progress while workers run: IOs never go back, none has stopped;
 * after the join every one has. 200 looks, half before the measure, and
 * more until some IO was counted (a guard ends them). Ranges outside the
 * run are refused. */
static void progress(const struct eng_target *t)
{
	struct eng_progress p = { 0, 0, 0, 0 }, w0, w1;
	struct eng_run *r = create(t, ENG_BACKEND_IO_URING);
	uint64_t last = 0;
	unsigned i, back = 0;

	if (!r)
		return;
	CHECK(eng_run_progress(r, 0, JOBS, &p) == 0 && p.ios == 0 && p.ndone == 0);
	eng_run_start(r);
	for (i = 0; i < 200 || (!last && i < GUARD_MS); i++) {
		CHECK(eng_run_progress(r, 0, JOBS, &p) == 0);
		back += p.ios < last;
		last = p.ios;
		if (i == 100)
			eng_run_measure(r);
		tu_sleep_ms(1);
	}
	CHECKF(!back && last > 0, "ios went back %u times, last %" PRIu64, back, last);
	CHECK(p.ndone == 0 && p.errors == 0);
	eng_run_stop(r);
	eng_run_join(r);
	CHECK(eng_run_progress(r, 0, JOBS, &p) == 0 && p.ndone == JOBS && p.ios >= last);
	CHECK(eng_run_progress(r, 0, 1, &w0) == 0 && eng_run_progress(r, 1, 1, &w1) == 0);
	CHECK(w0.ios + w1.ios == p.ios && w0.ndone == 1 && w1.ndone == 1);
	CHECK(eng_run_progress(r, JOBS, 0, &p) == 0 && p.ios == 0 && p.ndone == 0);
	CHECK(eng_run_progress(r, JOBS, 1, &p) == -EINVAL);
	CHECK(eng_run_progress(r, 1, JOBS, &p) == -EINVAL);
	CHECK(eng_run_progress(r, UINT32_MAX, 2, &p) == -EINVAL);
	eng_run_destroy(r);
}

int main(void)
{
	struct eng_target t;

	tu_clock();
	if (eng_target_open(&t, tu_data_file(64 << 20), false)) {
		fprintf(stderr, "cannot open the data file\n");
		return T_EXIT_FAIL;
	}
	snapshots(&t, ENG_BACKEND_IO_URING);
	snapshots(&t, ENG_BACKEND_LIBAIO);
	wait_timeout(&t);
	wait_one_stopped(&t);
	progress(&t);
	eng_target_close(&t);
	return t_result();
}
