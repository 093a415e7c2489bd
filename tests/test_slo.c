/* model/slo on synthetic devices (a function from rate to percentiles):
 * the percentile table and a point's verdict (the bound furthest above
 * wins, an overload breaks whatever the percentiles); a verdict from the
 * percentiles' intervals (held, broke, undecided across the bound, at
 * the bound within the zone, the generator's where the IOs it issued late
 * with a slot free fill the tail, the device's where they waited for a
 * slot); the start rate from Little's law; a search that starts below the
 * maximum, treats undecided and generator points as neither held nor
 * broken and reports their range; the search finds a
 * queue's capacity within its tolerance from 1% to 100% of the maximum
 * within the default cap, confirms the rate it ends on, takes the maximum
 * where everything holds, names a device that misses at any rate after
 * two points, goes on below a rate whose repeat broke, and never measures
 * past its cap. */
#include <errno.h>
#include <math.h>

#include "engine/engine.h"
#include "model/slo.h"
#include "tests/helpers.h"

/* A queue that serves at most cap_iops: p99 = base / (1 - rate / cap),
 * every other percentile a share of it; behind past cap. */
struct dev {
	double cap_iops, base_ns;
	bool flaky;		/* the first repeat of a rate breaks */
};

static int measure(struct dev *d, const struct model_slo *slo, double rate, bool again)
{
	uint64_t ns[MODEL_SLO_NPCT];
	double u = rate / d->cap_iops;
	unsigned i;

	for (i = 0; i < MODEL_SLO_NPCT; i++)
		ns[i] = u < 1 ? (uint64_t)(d->base_ns * (0.5 + 0.25 * i) / (1 - u)) : UINT64_MAX / 2;
	if (d->flaky && again) {
		d->flaky = false;
		return MODEL_SLO_BEHIND;
	}
	return model_slo_verdict(slo, ns, u >= 1);
}

/* An interval [lo, hi] (0: unbounded) around value. */
static struct model_pct_ci ci(uint64_t lo, uint64_t value, uint64_t hi)
{
	return (struct model_pct_ci){ .value = value, .ios = 1000, .has_lo = lo > 0, .lo = lo,
				      .has_hi = hi > 0, .hi = hi, .figure = true };
}

/* A device whose points within +-band of the capacity's rate are
 * undecided (verdict und), and above it broke by p99 (0). */
static int banded(double cap, double band, int und, double rate)
{
	if (rate > cap * (1 - band) && rate < cap * (1 + band))
		return und;
	return rate <= cap ? MODEL_SLO_HELD : 0;
}

static unsigned search_banded(struct model_slo_search *s, double cap, double band, int und)
{
	double rate;
	bool again;
	unsigned n = 0;

	while (!model_slo_next(s, &rate, &again) && n < 100) {
		CHECK(model_slo_add(s, rate, again, banded(cap, band, und, rate)) == 0);
		n++;
	}
	return n;
}

/* Runs a whole search; the points measured. */
static unsigned search(struct model_slo_search *s, struct dev *d, const struct model_slo *slo)
{
	double rate;
	bool again;
	unsigned n = 0;

	while (!model_slo_next(s, &rate, &again) && n < 100) {
		CHECK(model_slo_add(s, rate, again, measure(d, slo, rate, again)) == 0);
		n++;
	}
	return n;
}

int main(void)
{
	struct model_slo slo = { .n = 1, .pct = { 2 }, .ns = { 500000 } };	/* p99 <= 500 us */
	struct model_slo two = { .n = 2, .pct = { 2, 3 }, .ns = { 500000, 520000 } };
	struct model_slo_search s;
	uint64_t ns[MODEL_SLO_NPCT] = { 100, 200, 400000, 600000, 900000 };
	double want, fracs[] = { 0.015, 0.05, 0.3, 0.7, 0.97 };
	struct dev d;
	unsigned i, n;

	/* the table */
	CHECK(model_slo_pct_find("p99") == 2 && model_slo_pct_find("p99.9") == 3);
	CHECK(model_slo_pct_find("p98") == -ENOENT && model_slo_pct_find("P99") == -ENOENT);
	CHECK(model_slo_pcts[4].pct == 99.99);

	/* verdicts: held, the bound that broke, the worst of two, behind */
	CHECK(model_slo_verdict(&slo, ns, false) == MODEL_SLO_HELD);
	CHECK(model_slo_verdict(&slo, ns, true) == MODEL_SLO_BEHIND);
	CHECK(model_slo_verdict(&two, ns, false) == 1);
	ns[2] = 510000;		/* p99 2% over, p99.9 15% over: p99.9 */
	CHECK(model_slo_verdict(&two, ns, false) == 1);
	ns[2] = 900000;		/* p99 80% over */
	CHECK(model_slo_verdict(&two, ns, false) == 0);
	ns[2] = 500000;		/* at the bound holds */
	CHECK(model_slo_verdict(&slo, ns, false) == MODEL_SLO_HELD);

	/* refusals */
	CHECK(model_slo_search_init(&s, 0, 1, 12) == -EINVAL);
	CHECK(model_slo_search_init(&s, 1000, 5, 12) == -EINVAL);	/* below 1% */
	CHECK(model_slo_search_init(&s, 1000, 10, 2) == -EINVAL);
	CHECK(model_slo_search_init(&s, 1000, 10, MODEL_SLO_MAX_POINTS + 1) == -EINVAL);

	/* a capacity anywhere from 1.5% to 97% of the maximum: found within
	 * the tolerance, confirmed, within the default cap; the lowest rate
	 * that broke lies just above it */
	for (i = 0; i < sizeof(fracs) / sizeof(fracs[0]); i++) {
		/* p99 = 100 us / (1 - u) <= 500 us: u <= 0.8 of cap_iops */
		d = (struct dev){ .cap_iops = 100000 * fracs[i] / 0.8, .base_ns = 100000 };
		want = 100000 * fracs[i];
		CHECK(!model_slo_search_init(&s, 100000, 1000, MODEL_SLO_POINTS));
		n = search(&s, &d, &slo);
		CHECKF(n <= MODEL_SLO_POINTS && s.done, "%u points", n);
		CHECKF(s.lo <= want && s.lo >= want / (1 + MODEL_SLO_TOL), "capacity %.0f for %.0f",
		       s.lo, want);
		CHECKF(s.confirmed && s.hi > want && s.hi <= s.lo * (1 + MODEL_SLO_TOL),
		       "lo %.0f hi %.0f confirmed %d", s.lo, s.hi, s.confirmed);
		CHECK(s.pt[n - 1].again && s.pt[n - 1].rate == s.lo);
		CHECK(s.hi_verdict == 0);
		CHECK(model_slo_add(&s, 1, false, MODEL_SLO_HELD) == -EINVAL);
	}

	/* held at the maximum: confirmed there, two points */
	d = (struct dev){ .cap_iops = 1e9, .base_ns = 1000 };
	CHECK(!model_slo_search_init(&s, 100000, 1000, MODEL_SLO_POINTS));
	CHECK(search(&s, &d, &slo) == 2 && s.lo == 100000 && s.hi == 0 && s.confirmed);

	/* a fixed delay above the bound: broke at the maximum and the floor,
	 * nothing else measured */
	d = (struct dev){ .cap_iops = 1e9, .base_ns = 2000000 };
	CHECK(!model_slo_search_init(&s, 100000, 1000, MODEL_SLO_POINTS));
	CHECK(search(&s, &d, &slo) == 2 && model_slo_capacity(&s) == 0 && s.hi == 1000);
	CHECK(s.pt[1].rate == 1000 && s.hi_verdict == 0);

	/* the first repeat of the rate found breaks: that rate is the new
	 * hi, and the search goes on below it and ends confirmed there */
	d = (struct dev){ .cap_iops = 50000 / 0.8, .base_ns = 100000, .flaky = true };
	CHECK(!model_slo_search_init(&s, 100000, 1000, 20));
	n = search(&s, &d, &slo);
	for (i = 0; i < n && !s.pt[i].again; i++)
		;
	CHECK(i + 1 < n && s.pt[i].verdict == MODEL_SLO_BEHIND);
	CHECKF(s.done && s.confirmed && i < n && s.lo < s.pt[i].rate && s.hi == s.pt[i].rate,
	       "lo %.0f hi %.0f n %u", s.lo, s.hi, n);

	/* a cap of 4: max, floor, one bisection, its confirmation; the
	 * capacity is what held, hi/lo far from the tolerance */
	d = (struct dev){ .cap_iops = 50000 / 0.8, .base_ns = 100000 };
	CHECK(!model_slo_search_init(&s, 100000, 1000, 4));
	CHECK(search(&s, &d, &slo) == 4 && s.n == 4 && s.done);
	CHECK(s.lo == 10000 && s.confirmed && s.hi == 100000);
	CHECK(model_slo_add(&s, 1, false, MODEL_SLO_HELD) == -EINVAL);

	/* verdicts from intervals: p99 <= 500 us, p99.9 <= 520 us */
	{
		struct model_pct_ci due[MODEL_SLO_NPCT];
		uint64_t oct[ENG_LATE_N] = { 0 };
		struct model_slo_obs o = { .due = due, .late_oct = oct, .ios = 1000 };

		for (i = 0; i < MODEL_SLO_NPCT; i++)
			due[i] = ci(1000, 2000, 3000);
		oct[0] = 1000;
		CHECK(model_slo_judge(&two, &o) == MODEL_SLO_HELD);
		o.behind = true;
		CHECK(model_slo_judge(&two, &o) == MODEL_SLO_BEHIND);
		o.behind = false;
		/* the upper end above the bound, the lower below: undecided */
		due[2] = ci(400000, 480000, 560000);
		CHECK(model_slo_judge(&two, &o) == MODEL_SLO_UNDECIDED);
		/* an unbounded upper end is never held */
		due[2] = ci(100000, 200000, 0);
		CHECK(model_slo_judge(&two, &o) == MODEL_SLO_UNDECIDED);
		/* within +-5% of the bound: at the bound, held */
		due[2] = ci(480000, 500000, 520000);
		CHECK(model_slo_judge(&two, &o) == MODEL_SLO_AT_BOUND);
		CHECK(model_slo_held(MODEL_SLO_AT_BOUND) && !model_slo_broke(MODEL_SLO_AT_BOUND));
		/* just wider than the zone: undecided */
		due[2] = ci(470000, 500000, 520000);
		CHECK(model_slo_judge(&two, &o) == MODEL_SLO_UNDECIDED);
		/* the lower end above: broke; of two, the furthest above */
		due[2] = ci(550000, 600000, 650000);
		CHECK(model_slo_judge(&two, &o) == 0);
		due[3] = ci(700000, 800000, 900000);
		CHECK(model_slo_judge(&two, &o) == 1);
		due[3] = ci(1000, 2000, 3000);
		/* one broke, one undecided: broke */
		due[3] = ci(400000, 500000, 600000);
		CHECK(model_slo_judge(&two, &o) == 0);
		due[3] = ci(1000, 2000, 3000);
		/* 2% of the IOs issued 131 us or more late with a slot free
		 * (the octaves from 2^17 ns up: over ENG_RATE_LATE_NS), p99's
		 * tail 1%: the generator's */
		CHECK(eng_late_oct_from(8) == 131072 && eng_late_oct(131072) == 8);
		CHECK(eng_late_oct(0) == 0 && eng_late_oct(1023) == 0 && eng_late_oct(1024) == 1);
		oct[0] = 980;
		oct[12] = 20;
		CHECK(model_slo_judge(&two, &o) == MODEL_SLO_GENERATOR);
		CHECK(!model_slo_held(MODEL_SLO_GENERATOR) && !model_slo_broke(MODEL_SLO_GENERATOR));
		/* late by 66..131 us (octave 7): not over 100 us for sure */
		oct[12] = 0;
		oct[7] = 20;
		CHECK(model_slo_judge(&two, &o) == 0);
		/* 0.5%: too few to fill the tail, the device's */
		oct[7] = 15;
		oct[12] = 5;
		CHECK(model_slo_judge(&two, &o) == 0);
		/* late after waiting for a slot: the device's */
		oct[12] = 0;
		oct[ENG_LATE_SLOT] = 20;
		CHECK(model_slo_judge(&two, &o) == 0);
		/* behind: the generator's where more were late with a slot
		 * free than waited for one */
		o.behind = true;
		CHECK(model_slo_judge(&two, &o) == MODEL_SLO_BEHIND);
		oct[12] = 30;
		CHECK(model_slo_judge(&two, &o) == MODEL_SLO_GENERATOR);
		o.behind = false;
		oct[ENG_LATE_SLOT] = 0;
		/* p50's tail (50%) is not filled by 3% late, p99's is: of a p50
		 * and a p99 bound that broke, the device broke p50 */
		{
			struct model_slo p50 = { .n = 2, .pct = { 0, 2 }, .ns = { 1000, 500000 } };

			due[0] = ci(5000, 6000, 7000);
			CHECK(model_slo_judge(&p50, &o) == 0);
			due[0] = ci(1000, 2000, 3000);
			CHECK(model_slo_judge(&p50, &o) == MODEL_SLO_GENERATOR);
		}
		/* no lateness counted: never the generator's */
		o.late_oct = NULL;
		CHECK(model_slo_judge(&two, &o) == 0);
		/* p99's lower end 50 us above its bound: the workers' wait for
		 * a CPU of 60 us an IO covers it (a sleeping worker's late
		 * wakeups, which the late counts miss), 40 us does not */
		due[2] = ci(550000, 600000, 650000);
		o.delay_ns_per_io = 60000;
		CHECK(model_slo_judge(&two, &o) == MODEL_SLO_GENERATOR);
		o.delay_ns_per_io = 40000;
		CHECK(model_slo_judge(&two, &o) == 0);
		o.delay_ns_per_io = NAN;
		CHECK(model_slo_judge(&two, &o) == 0);
	}

	/* the start: 16 deep at 4000 IOPS is 4 ms each (Little's law), a
	 * p99 of 4.6 x 4 ms; within 903 us it may hold N = 16 x 0.903 / 18.4
	 * in flight, which an open loop does up to N / (1 + N) of the
	 * maximum; a loose bound starts at 90% of the maximum, never at it */
	{
		struct model_slo p99 = { .n = 1, .pct = { 2 }, .ns = { 903000 } };
		double k = -log(0.01), st = model_slo_start(&p99, 4000, 16);
		double nb = 16 * 0.903e-3 / (k * 4e-3);

		CHECKF(fabs(st - 4000 * nb / (1 + nb)) < 1e-6, "start %.3f", st);
		p99.ns[0] = 100000000;
		CHECK(model_slo_start(&p99, 4000, 16) == MODEL_SLO_START_MAX * 4000);
		CHECK(model_slo_start(&p99, 0, 16) == 0 && model_slo_start(&p99, 4000, 0) == 0);
	}

	/* a start below the maximum that holds: the maximum next, then the
	 * bisection between; the capacity found as from the maximum */
	d = (struct dev){ .cap_iops = 50000 / 0.8, .base_ns = 100000 };
	CHECK(!model_slo_search_init(&s, 100000, 1000, MODEL_SLO_POINTS));
	CHECK(model_slo_search_start(&s, 500) == -EINVAL && model_slo_search_start(&s, 200000) == -EINVAL);
	CHECK(!model_slo_search_start(&s, 20000));
	n = search(&s, &d, &slo);
	CHECK(s.pt[0].rate == 20000 && s.pt[0].verdict == MODEL_SLO_HELD && s.pt[1].rate == 100000);
	CHECKF(s.done && s.confirmed && s.lo <= 50000 && s.lo >= 50000 / (1 + MODEL_SLO_TOL),
	       "lo %.0f n %u", s.lo, n);
	CHECK(model_slo_search_start(&s, 20000) == -EINVAL);	/* after a point */

	/* undecided within 10% of a capacity at 50%: neither lo nor hi; the
	 * search ends below the band, confirmed, with the band's rates as
	 * its undecided range, never taking one of them for the capacity */
	CHECK(!model_slo_search_init(&s, 100000, 1000, 20));
	n = search_banded(&s, 50000, 0.1, MODEL_SLO_UNDECIDED);
	CHECKF(s.done && s.confirmed && s.lo <= 45000 && s.lo >= 45000 / (1 + MODEL_SLO_TOL),
	       "lo %.0f top %.0f n %u", s.lo, s.top, n);
	CHECKF(s.und_lo > 45000 && s.und_hi < 55000 && s.top <= s.lo * (1 + MODEL_SLO_TOL) &&
	       s.und_verdict == MODEL_SLO_UNDECIDED, "und %.0f..%.0f top %.0f", s.und_lo, s.und_hi, s.top);
	for (i = 0; i < s.n; i++)
		CHECK(s.pt[i].verdict != MODEL_SLO_UNDECIDED || s.pt[i].rate != s.lo);

	/* the generator late at every rate: no capacity, yet nothing broke
	 * by the device (not "misses at any rate"): the start, the floor */
	CHECK(!model_slo_search_init(&s, 100000, 1000, MODEL_SLO_POINTS));
	n = search_banded(&s, 1e9, 1e9, MODEL_SLO_GENERATOR);
	CHECK(n == 2 && s.done && model_slo_capacity(&s) == 0 && s.hi == 0);
	CHECK(s.und_lo == 1000 && s.und_hi == 100000 && s.und_verdict == MODEL_SLO_GENERATOR);

	/* over --repeat's searches: the mean and its interval; one search
	 * that found none makes none */
	{
		const double caps2[] = { 1000, 1200 }, none[] = { 1000, 0 };
		double lo, hi;

		CHECK(model_slo_capacity_mean(caps2, 2, &lo, &hi) == 1100 && lo < 1100 && hi > 1100);
		CHECK(model_slo_capacity_mean(caps2, 1, &lo, &hi) == 1000 && isnan(lo) && isnan(hi));
		CHECK(model_slo_capacity_mean(none, 2, &lo, &hi) == 0 && isnan(lo));
		CHECK(model_slo_capacity_mean(none, 0, &lo, &hi) == 0);
	}
	return t_result();
}
