/* Clock calibration: TSC ticks converted to ns agree with CLOCK_MONOTONIC,
 * ticks never go backwards, and a run's own choice (eng_clock_choose)
 * matches calibration and keeps an explicit one. The 5% bound checks the
 * calibration math, not anyone's speed. */
#include "engine/clock.h"
#include "tests/helpers.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>

static void check_interval(const char *name)
{
	struct timespec d = { 0, 50000000 };
	uint64_t m0, m1, t0, t1, ns, mono;
	double err;

	m0 = eng_mono_ns();
	t0 = eng_ticks();
	while (nanosleep(&d, &d) && errno == EINTR)
		;
	t1 = eng_ticks();
	m1 = eng_mono_ns();
	ns = eng_ticks_to_ns(t1 - t0);
	mono = m1 - m0;
	err = fabs((double)ns - (double)mono) / (double)mono;
	CHECKF(t1 > t0, "%s: ticks %" PRIu64 " then %" PRIu64, name, t0, t1);
	CHECKF(err <= 0.05, "%s: %" PRIu64 " ns by ticks, %" PRIu64
	       " ns by CLOCK_MONOTONIC", name, ns, mono);
	CHECKF(mono >= 50000000, "%s: slept only %" PRIu64 " ns", name,
	       mono);
}

static void check_monotonic(const char *name)
{
	uint64_t prev = eng_ticks(), t;
	int i, back = 0;

	for (i = 0; i < 1000000; i++) {
		t = eng_ticks();
		back += t < prev;
		prev = t;
	}
	CHECKF(!back, "%s: ticks went backwards %d times", name, back);
}

/* What a run does first: with nothing chosen, eng_clock_choose takes the
 * calibrated TSC where eng_clock_init(false) would, CLOCK_MONOTONIC else;
 * a later explicit choice is not undone by it. */
static void check_choose(void)
{
	struct eng_clock chosen;

	eng_clock_choose();
	chosen = eng_clk;
	CHECK(eng_clock_init(false) == 0);
	CHECKF(chosen.tsc == eng_clk.tsc && chosen.mult == eng_clk.mult &&
	       chosen.shift == eng_clk.shift, "eng_clock_choose took %s, "
	       "eng_clock_init(false) %s", chosen.tsc ? "tsc" : "monotonic",
	       eng_clk.tsc ? "tsc" : "monotonic");
	CHECK(eng_clock_init(true) == 0);
	eng_clock_choose();
	CHECK(!eng_clk.tsc && eng_clk.mult == 1);
}

int main(void)
{
	int ret;

	check_choose();
	ret = eng_clock_init(false);
	CHECKF(ret == 0, "eng_clock_init(false) = %d", ret);
	printf("clock: %s, %.3f GHz, mult %" PRIu64 " shift %u\n",
	       eng_clk.tsc ? "tsc" : "monotonic", eng_clk.ghz, eng_clk.mult,
	       eng_clk.shift);
	if (eng_clk.tsc)
		CHECKF(eng_clk.ghz > 0.05 && eng_clk.ghz < 50,
		       "ghz %f", eng_clk.ghz);
	else
		CHECK(eng_clk.ghz == 0 && eng_ticks_to_ns(12345) == 12345);
	check_interval("default");
	check_monotonic("default");

	/* a second call keeps the first calibration */
	if (eng_clk.tsc) {
		struct eng_clock first = eng_clk;

		CHECK(eng_clock_init(false) == 0);
		CHECK(eng_clk.tsc && eng_clk.mult == first.mult &&
		      eng_clk.shift == first.shift);
	}

	ret = eng_clock_init(true);
	CHECKF(ret == 0, "eng_clock_init(true) = %d", ret);
	CHECK(!eng_clk.tsc);
	CHECK(eng_ticks_to_ns(987654321) == 987654321);
	check_interval("monotonic");
	check_monotonic("monotonic");
	return t_result();
}
