/* The timed open loop's latencies from when each IO was due, added a
 * batch at a time (engine/uring_loop_int.h: uring_prep_as keeps each
 * batch's sums, uring_due_close adds a run that is a whole batch at once
 * and any other run an IO at a time), record what eng_hist_add per IO
 * records: the same buckets, count, sum, minimum and maximum, the sum of
 * squares up to rounding, and the same late count. The prep and the
 * reap's run are the loop's own, on a ring of plain memory; schedules of
 * both kinds, rates up to one IO per nanosecond, and reaps that take a
 * batch whole, in pieces, or out of order. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "engine/uring_loop_int.h"
#include "tests/helpers.h"

#define QD 64u
#define RING 128u

static struct io_uring_sqe sqes[RING];
/* struct io_uring_cqe ends in a flexible array (big CQEs): plain memory */
static _Alignas(16) unsigned char cq_mem[RING * sizeof(struct io_uring_cqe)];
#define CQES ((struct io_uring_cqe *)(void *)cq_mem)
static uint64_t slot_ns[QD], due_ns[QD];
static uint32_t free_slot[QD];
static struct eng_hist hist, svc, ref, ref_svc;
static char buf[QD * 4096];

static uint64_t xs(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* The reap's run of one stamp over the CQEs from start to end; now is
 * since the schedule began, as uring_reap_run hands it on. */
static void reap_run(struct eng_worker *w, const struct io_uring_cq *cq, uint32_t start,
		     uint32_t end, uint64_t now, uint64_t *late, uint64_t *run_ns,
		     uint64_t *run_n)
{
	const struct eng_done d = { .slot_ns = w->slot_ns, .run_ns = run_ns, .run_n = run_n };
	struct uring_due u = { .due_ns = w->due_ns, .sub = UINT64_MAX, .start = start };
	uint32_t k;

	for (k = start; k != end; k++)
		uring_done_open(w, &d, cq, &u, (uint32_t)CQES[k % RING].user_data, k, now,
				late, false, true);
	uring_due_close(w, &d, cq, &u, end, now, late, false);
}

/* Loops step up to step ns apart: 200 us keeps the backlog's latencies
 * in tens of ms, 20 ms takes them to seconds (the batch sums' big case). */
static void one_case(uint64_t *x, double rate, enum eng_arrival_kind kind, uint64_t step)
{
	const struct uring_how h = { .open = true, .kind = URING_READ };
	struct io_uring ring;
	struct eng_worker w;
	struct eng_job job = { .qd = QD };
	uint64_t now = 1000000000ull + xs(x) % 1000000, late = 0, ref_late = 0;
	uint64_t run_ns = 0, run_n = 0;
	uint32_t head = 0, i, loops;

	memset(&ring, 0, sizeof(ring));
	ring.sq.sqes = sqes;
	ring.sq.ring_mask = RING - 1;
	ring.cq.cqes = CQES;
	ring.cq.ring_mask = RING - 1;
	memset(&w, 0, sizeof(w));
	w.job = &job;
	w.free_slot = free_slot;
	w.slot_ns = slot_ns;
	w.due_ns = due_ns;
	w.buf = buf;
	w.bs = 4096;
	w.latency = true;
	w.hist = &hist;
	w.run_hist = &svc;
	for (i = 0; i < QD; i++)
		free_slot[i] = QD - 1 - i;
	w.nfree = QD;
	eng_hist_reset(&hist);
	eng_hist_reset(&svc);
	eng_hist_reset(&ref);
	eng_hist_reset(&ref_svc);
	CHECK(eng_arrival_init(&w.arr, rate, kind, xs(x), now - xs(x) % 3000000, 0) == 0);

	for (loops = 0; loops < 400; loops++) {
		uint32_t n, want, tail, p;

		/* one loop issues with its stamp, maybe in several calls */
		now += 1 + xs(x) % step;
		for (p = 1 + (uint32_t)(xs(x) % 3); p-- && w.nfree;) {
			want = 1 + (uint32_t)(xs(x) % w.nfree);
			(void)uring_prep_as(&ring, &w, now, want, h, true, kind == ENG_ARRIVAL_POISSON,
					     true, false);
		}
		/* the CQEs of all in flight, in some order, reaped later */
		n = QD - w.nfree;
		if (!n)
			continue;
		{
			uint32_t sl[QD], k = 0, s;

			for (s = 0; s < QD; s++) {
				bool busy = true;

				for (i = 0; i < w.nfree; i++)
					busy &= free_slot[i] != s;
				if (busy)
					sl[k++] = s;
			}
			if (xs(x) % 3 == 0)	/* out of order */
				for (i = k; i > 1; i--) {
					uint32_t j = (uint32_t)(xs(x) % i), t = sl[i - 1];

					sl[i - 1] = sl[j];
					sl[j] = t;
				}
			/* a reap takes a prefix of them */
			n = xs(x) % 4 ? k : 1 + (uint32_t)(xs(x) % k);
			for (i = 0; i < n; i++)
				CQES[(head + i) % RING].user_data = sl[i];
		}
		now += xs(x) % 50000;
		tail = head + n;
		reap_run(&w, &ring.cq, head, tail, now - w.arr.start_ns, &late, &run_ns, &run_n);
		for (i = head; i != tail; i++) {
			uint32_t s = (uint32_t)CQES[i % RING].user_data;
			/* the slots' times are since the schedule began */
			uint64_t at = now - w.arr.start_ns;
			uint64_t dt = at - due_ns[s], st = at - slot_ns[s];

			eng_hist_add(&ref, dt);
			eng_hist_add(&ref_svc, st);
			ref_late += slot_ns[s] - due_ns[s] > ENG_RATE_LATE_NS;
			free_slot[w.nfree++] = s;
		}
		head = tail;
	}
	if (run_n)
		eng_hist_add_n(&svc, run_ns, run_n);

	CHECK(memcmp(hist.b, ref.b, sizeof(ref.b)) == 0);
	CHECKF(hist.count == ref.count, "%llu vs %llu", (unsigned long long)hist.count,
	       (unsigned long long)ref.count);
	CHECK(hist.sum_ns == ref.sum_ns);
	CHECK(hist.min_ns == ref.min_ns && hist.max_ns == ref.max_ns);
	CHECKF(fabs(hist.sumsq - ref.sumsq) <= 1e-9 * ref.sumsq, "sumsq %g vs %g", hist.sumsq,
	       ref.sumsq);
	CHECK(memcmp(svc.b, ref_svc.b, sizeof(ref_svc.b)) == 0);
	CHECK(svc.count == ref_svc.count && svc.sum_ns == ref_svc.sum_ns);
	CHECK(svc.min_ns == ref_svc.min_ns && svc.max_ns == ref_svc.max_ns);
	CHECKF(late == ref_late, "late %llu vs %llu", (unsigned long long)late,
	       (unsigned long long)ref_late);
}

int main(void)
{
	static const double rates[] = { 1e9, 3e7, 1e6, 2e5, 5e4, 1e3 };
	uint64_t x = 88172645463325252ull;
	unsigned r, k;

	for (k = 0; k < 4; k++)
		for (r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
			one_case(&x, rates[r], k & 1 ? ENG_ARRIVAL_POISSON : ENG_ARRIVAL_UNIFORM,
				 k & 2 ? 20000000 : 200000);
	return t_result();
}
