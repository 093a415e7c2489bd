/* The bound on one clock read per loop (docs/engine.md): in the same run,
 * every timed IO is also stamped per IO (the engine's stamp check, struct
 * eng_stampcheck, which only this test's copy of engine/uring.c has:
 * mk/stampcheck.mk), and the loop's latencies must differ from the per-IO
 * ones by what the check says the two stamps were apart, IO by IO, and by
 * no more than one loop's user-space time. Every relation holds by
 * construction, whatever the machine's load does to the times themselves:
 * what breaks it is a stamp taken from the wrong loop or a timed IO that
 * the check did not see. NOP and a cached file always run; a loop device
 * over /dev/shm (completions from another thread, at any moment) where
 * root may make one. The figures printed are the ones docs/engine.md
 * quotes. */
#include "tests/test_engine_util.h"

/* Samples each moved by at most d have their percentiles within d of the
 * old ones, give or take the two histograms' buckets (each narrower than
 * 1% of its values) and the middle they report. */
static bool within(uint64_t got, uint64_t ref, uint64_t below, uint64_t above)
{
	double slack = 0.02 * ((double)ref + (double)below + (double)above) + 2.0;

	return (double)got >= (double)ref - (double)below - slack &&
	       (double)got <= (double)ref + (double)above + slack;
}

static void check_run(const char *what, const struct eng_result *res,
		      const struct eng_stampcheck *c, uint32_t qd)
{
	const struct eng_hist *h = res->hist, *ref = &c->ref;
	static const double pct[] = { 50, 90, 99 };
	unsigned i;

	CHECKF(res->stage == ENG_STAGE_NONE && res->ios > 0 && h,
	       "%s: stage %d err %d ios %" PRIu64, what, (int)res->stage, res->err,
	       res->ios);
	if (!h || !res->ios)
		return;
	CHECKF(ref->count || !h->count, "%s: the stamp check did not run: is this test "
	       "linked with the checking copy of engine/uring.c (mk/stampcheck.mk)?", what);
	/* the same IOs */
	CHECKF(ref->count == h->count, "%s: per-IO %" PRIu64 " timed, loop %" PRIu64,
	       what, ref->count, h->count);
	/* IO by IO, loop latency = per-IO latency + submission stamp's lead -
	 * completion stamp's lead; summed, exact unless the two saw different
	 * IOs or the loop clamped an interval */
	CHECKF(h->sum_ns - ref->sum_ns == c->sub_early_sum - c->cmp_early_sum,
	       "%s: loop sum %" PRIu64 " per-IO sum %" PRIu64 " leads %" PRIu64
	       " - %" PRIu64, what, h->sum_ns, ref->sum_ns, c->sub_early_sum,
	       c->cmp_early_sum);
	/* the documented bound: each lead within one loop's user-space part */
	CHECKF(c->sub_early_max <= c->loop_max && c->cmp_early_max <= c->loop_max,
	       "%s: leads %" PRIu64 " / %" PRIu64 " ns beyond the longest loop %" PRIu64,
	       what, c->sub_early_max, c->cmp_early_max, c->loop_max);
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		uint64_t a = eng_hist_percentile(h, pct[i]), b = eng_hist_percentile(ref, pct[i]);

		CHECKF(within(a, b, c->cmp_early_max, c->sub_early_max),
		       "%s: p%g loop %" PRIu64 " per-IO %" PRIu64 " leads <= %" PRIu64
		       " / %" PRIu64, what, pct[i], a, b, c->sub_early_max,
		       c->cmp_early_max);
	}
	printf("%-14s qd %3u: %8" PRIu64 " IOs  p50 %7" PRIu64 " / %7" PRIu64
	       "  p99 %7" PRIu64 " / %7" PRIu64 " ns (loop / per-IO);"
	       "  mean lead sub %5.0f cmp %5.0f ns, max %" PRIu64 " / %" PRIu64
	       ", longest loop %" PRIu64 " ns\n", what, qd, h->count,
	       eng_hist_percentile(h, 50), eng_hist_percentile(ref, 50),
	       eng_hist_percentile(h, 99), eng_hist_percentile(ref, 99),
	       (double)c->sub_early_sum / (double)h->count,
	       (double)c->cmp_early_sum / (double)h->count, c->sub_early_max,
	       c->cmp_early_max, c->loop_max);
}

static void stamped(const char *what, const struct eng_target *t, uint32_t qd,
		    uint32_t batch)
{
	struct eng_job j = tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	struct eng_stampcheck *c = calloc(1, sizeof(*c));
	struct eng_run *r = NULL;
	int ret;

	CHECK(c != NULL);
	if (!c)
		return;
	j.qd = qd;
	j.batch = batch;
	j.stamps = c;
	ret = tu_run(&r, &j, 1, 50, 300);
	CHECKF(ret == 0, "%s: run: %d", what, ret);
	if (!ret)
		check_run(what, eng_run_result(r, 0), c, qd);
	eng_run_destroy(r);
	free(c);
}

/* The check is io_uring's, irq mode, with latency on: refused elsewhere. */
static void refused(const char *what, struct eng_job j)
{
	struct eng_stampcheck c;
	struct eng_run *r = NULL;
	int ret;

	j.stamps = &c;
	ret = eng_run_create(&r, &j, 1);
	CHECKF(ret == -EOPNOTSUPP && eng_run_result(r, 0)->stage == ENG_STAGE_SETUP,
	       "%s: %d", what, ret);
	eng_run_destroy(r);
}

static void on_target(const char *what, const char *path, bool buffered)
{
	struct eng_target t;
	int ret = eng_target_open(&t, path, buffered);

	CHECKF(ret == 0, "open %s: %d", path, ret);
	if (ret)
		return;
	stamped(what, &t, 32, 32);
	stamped(what, &t, 128, 32);
	stamped(what, &t, 16, 1);
	eng_target_close(&t);
}

int main(void)
{
	struct eng_job j;
	const char *why = NULL, *loop;

	tu_clock();
	stamped("nop", NULL, 32, 32);
	stamped("nop", NULL, 128, 32);
	stamped("nop", NULL, 16, 1);
	on_target("cached file", tu_data_file(16 << 20), true);
	loop = tu_loop_dev(64 << 20, 512, &why);
	if (loop)
		on_target("loop device", loop, false);
	else
		printf("loop device: %s\n", why);

	j = tu_job(NULL, ENG_BACKEND_IO_URING, ENG_MODE_SQPOLL);
	refused("sqpoll", j);
	j = tu_job(NULL, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	j.latency = false;
	refused("no latency", j);
	return t_result();
}
