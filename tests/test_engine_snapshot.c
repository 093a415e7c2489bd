/* Engine snapshots: workers answer each request with their running
 * figures, answers only grow, differences add up to the final result. */
#include "tests/test_engine_util.h"

#include <stdatomic.h>

#define JOBS 2

/* Polls (bounded) until worker i answered request seq. */
static const struct eng_snapshot *answer(struct eng_run *r, unsigned i, int seq)
{
	const struct eng_snapshot *s;
	unsigned ms;

	for (ms = 0; ms < 2000; ms++) {
		s = eng_run_snapshot_get(r, i, seq);
		if (s)
			return s;
		tu_sleep_ms(1);
	}
	return NULL;
}

static void snapshots(const struct eng_target *t, enum eng_backend b)
{
	static struct eng_snapshot prev[JOBS];
	static struct eng_hist d;
	struct eng_job j[JOBS];
	struct eng_run *r = NULL;
	const struct eng_snapshot *s;
	unsigned i, round;
	int seq;

	for (i = 0; i < JOBS; i++) {
		j[i] = tu_job(t, b, ENG_MODE_IRQ);
		j[i].cpu = -1;
		j[i].seed = i + 1;
	}
	CHECK(eng_run_create(&r, j, JOBS) == 0);
	if (!r)
		return;
	eng_run_start(r);
	/* while ramping: answered, but nothing measured yet */
	seq = eng_run_snapshot(r);
	CHECK(seq > 0);
	for (i = 0; i < JOBS; i++) {
		s = answer(r, i, seq);
		CHECKF(s && s->start_ns == 0 && s->ios == 0, "%s: ramp snapshot", eng_backend_name(b));
	}
	eng_run_measure(r);
	memset(prev, 0, sizeof(prev));
	for (round = 0; round < 3; round++) {
		tu_sleep_ms(100);
		seq = eng_run_snapshot(r);
		for (i = 0; i < JOBS; i++) {
			s = answer(r, i, seq);
			CHECKF(s != NULL, "%s: worker %u answered request %d", eng_backend_name(b), i, seq);
			if (!s)
				continue;
			CHECK(s->start_ns > 0 && s->t_ns > s->start_ns);
			CHECKF(s->ios > prev[i].ios, "%s: ios grow %" PRIu64 " -> %" PRIu64,
			       eng_backend_name(b), prev[i].ios, s->ios);
			CHECK(s->hist.count == s->ios);
			if (round) {
				eng_hist_diff(&d, &s->hist, &prev[i].hist);
				CHECK(d.count == s->ios - prev[i].ios);
				CHECK(d.min_ns <= d.max_ns && d.max_ns <= s->hist.max_ns);
			}
			memcpy(&prev[i], s, sizeof(prev[i]));
		}
		/* an old request number no longer answers */
		CHECK(eng_run_snapshot_get(r, 0, seq - 1) == NULL);
	}
	eng_run_stop(r);
	eng_run_join(r);
	for (i = 0; i < JOBS; i++) {
		const struct eng_result *res = eng_run_result(r, i);

		CHECK(res->stage == ENG_STAGE_NONE);
		CHECKF(res->ios >= prev[i].ios && res->hist && res->hist->count == res->ios,
		       "%s: final %" PRIu64 " after snapshot %" PRIu64, eng_backend_name(b),
		       res->ios, prev[i].ios);
	}
	/* stopped workers never answer */
	seq = eng_run_snapshot(r);
	tu_sleep_ms(20);
	CHECK(eng_run_snapshot_get(r, 0, seq) == NULL);
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
	eng_target_close(&t);
	return t_result();
}
