/* The open loop's schedule (engine/arrival.h), no IO: Poisson gaps pass a
 * chi-square goodness-of-fit test against the exponential distribution and
 * are uncorrelated; uniform gaps are exact and never drift; the backlog
 * count, and dropping it; bad input. */
#include "engine/arrival.h"
#include "tests/helpers.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#define N_GAPS 200000
#define N_BINS 50
/* chi-square with N_BINS - 1 = 49 degrees of freedom: exceeded with
 * probability 0.001 when the gaps are exponential */
#define CHI2_CRIT_49_P001 85.35

/* The schedule's own gaps: differences of successive due times. */
static void gaps_of(struct eng_arrival *a, double *g, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		uint64_t prev = a->next_ns;

		eng_arrival_advance(a);
		g[i] = (double)(a->next_ns - prev);
	}
}

/* N_BINS bins of equal probability under the exponential of the given
 * mean: bin k holds [-mean ln(1 - k/N), -mean ln(1 - (k+1)/N)). */
static double chi_square(const double *g, unsigned n, double mean)
{
	unsigned count[N_BINS] = { 0 }, i, k;
	double chi = 0, want = (double)n / N_BINS;

	for (i = 0; i < n; i++) {
		double p = 1.0 - exp(-g[i] / mean);	/* the exponential CDF */

		k = (unsigned)(p * N_BINS);
		count[k < N_BINS ? k : N_BINS - 1]++;
	}
	for (k = 0; k < N_BINS; k++)
		chi += ((double)count[k] - want) * ((double)count[k] - want) / want;
	return chi;
}

static void test_poisson_fit(uint64_t seed, double rate)
{
	double *g = malloc(N_GAPS * sizeof(*g)), mean = 0, var = 0, cov = 0, chi, gap;
	struct eng_arrival a;
	unsigned i;

	CHECK(g != NULL);
	if (!g)
		return;
	CHECK(eng_arrival_init(&a, rate, ENG_ARRIVAL_POISSON, seed, 1000, 0) == 0);
	CHECK(a.next_ns == 1000);	/* the first IO is due at the start */
	gaps_of(&a, g, N_GAPS);
	gap = 1e9 / rate;
	for (i = 0; i < N_GAPS; i++)
		mean += g[i] / N_GAPS;
	for (i = 0; i < N_GAPS; i++) {
		var += (g[i] - mean) * (g[i] - mean) / (N_GAPS - 1);
		if (i)
			cov += (g[i] - mean) * (g[i - 1] - mean) / (N_GAPS - 1);
	}
	/* the mean's standard error is gap / sqrt(N): 0.22%; 1% is 4.5 of it */
	CHECKF(fabs(mean / gap - 1) < 0.01, "seed %llu rate %.0f: mean gap %.1f ns, want %.1f",
	       (unsigned long long)seed, rate, mean, gap);
	/* an exponential's standard deviation is its mean */
	CHECKF(fabs(sqrt(var) / mean - 1) < 0.02, "seed %llu: CoV %.4f, want 1",
	       (unsigned long long)seed, sqrt(var) / mean);
	/* successive gaps independent: lag-1 correlation within 4.5 / sqrt(N) */
	CHECKF(fabs(cov / var) < 0.01, "seed %llu: lag-1 correlation %.4f",
	       (unsigned long long)seed, cov / var);
	chi = chi_square(g, N_GAPS, gap);
	CHECKF(chi < CHI2_CRIT_49_P001, "seed %llu rate %.0f: chi-square %.1f over %d bins "
	       "(critical %.2f at p = 0.001)", (unsigned long long)seed, rate, chi, N_BINS,
	       CHI2_CRIT_49_P001);
	free(g);
}

/* The same test must be able to fail: evenly spaced gaps are far from
 * exponential. */
static void test_fit_rejects_uniform(void)
{
	double *g = malloc(N_GAPS * sizeof(*g));
	struct eng_arrival a;

	CHECK(g != NULL);
	if (!g)
		return;
	CHECK(eng_arrival_init(&a, 2000, ENG_ARRIVAL_UNIFORM, 1, 0, 0) == 0);
	gaps_of(&a, g, N_GAPS);
	CHECK(chi_square(g, N_GAPS, 1e9 / 2000) > 1000 * CHI2_CRIT_49_P001);
	free(g);
}

static void test_uniform(void)
{
	struct eng_arrival a;
	uint64_t start = 5000000000ull, prev;
	unsigned i, bad = 0;

	CHECK(eng_arrival_init(&a, 2000, ENG_ARRIVAL_UNIFORM, 9, start, 0) == 0);
	for (i = 0; i < 100000; i++) {
		prev = a.next_ns;
		eng_arrival_advance(&a);
		bad += a.next_ns - prev != 500000;
	}
	CHECKF(!bad, "%u of 100000 gaps not exactly 500 us", bad);
	/* a gap that is not a whole number of ns: rounded per IO, never
	 * accumulated, so 3 IOs per second stay 3 per second for an hour */
	CHECK(eng_arrival_init(&a, 3, ENG_ARRIVAL_UNIFORM, 9, start, 0) == 0);
	for (i = 0; i < 3 * 3600; i++)
		eng_arrival_advance(&a);
	CHECKF(a.next_ns >= start + 3600000000000ull - 1 && a.next_ns <= start + 3600000000000ull,
	       "after an hour at 3/s the next IO is due %lld ns off",
	       (long long)(a.next_ns - (start + 3600000000000ull)));
	/* the highest rate the CLI takes: a gap of 1 ns */
	CHECK(eng_arrival_init(&a, 1e9, ENG_ARRIVAL_UNIFORM, 9, start, 0) == 0);
	for (i = 0; i < 1000; i++)
		eng_arrival_advance(&a);
	CHECK(a.next_ns == start + 1000);
}

/* Workers of one device: phases k/n interleave their even schedules */
static void test_phase(void)
{
	struct eng_arrival a, b;

	CHECK(eng_arrival_init(&a, 1000, ENG_ARRIVAL_UNIFORM, 1, 100, 0) == 0);
	CHECK(eng_arrival_init(&b, 1000, ENG_ARRIVAL_UNIFORM, 1, 100, 0.5) == 0);
	CHECK(a.next_ns == 100 && b.next_ns == 100 + 500000);
	eng_arrival_advance(&b);
	CHECK(b.next_ns == 100 + 1500000);
}

static void test_due(void)
{
	struct eng_arrival a, c;
	uint64_t n = 0, end;

	/* due at 0, 0.5 ms, ..., 1 s: 2001, the end included */
	CHECK(eng_arrival_init(&a, 2000, ENG_ARRIVAL_UNIFORM, 1, 0, 0) == 0);
	CHECK(eng_arrival_due(&a, 1000000000ull) == 2001);
	CHECK(eng_arrival_due(&a, 499999) == 1);
	eng_arrival_advance(&a);
	CHECK(eng_arrival_due(&a, 499999) == 0);	/* nothing due yet */
	CHECK(eng_arrival_due(&a, 500000) == 1);
	/* Poisson: the walk counts the schedule itself, a unchanged */
	CHECK(eng_arrival_init(&a, 10000, ENG_ARRIVAL_POISSON, 77, 100, 0) == 0);
	end = 100 + 2000000000ull;
	c = a;
	while (c.next_ns <= end) {
		eng_arrival_advance(&c);
		n++;
	}
	CHECK(eng_arrival_due(&a, end) == n);
	CHECK(a.next_ns == 100);
	/* 20000 expected over 2 s, Poisson: within 5 standard deviations */
	CHECKF(n > 20000 - 5 * 142 && n < 20000 + 5 * 142, "%llu due in 2 s at 10000/s",
	       (unsigned long long)n);
}

/* Dropping what was due (the ramp's IOs when the window begins): as many
 * as eng_arrival_due counts, and the schedule goes on from the first IO
 * due after, on its own grid (uniform) or with its own draws (Poisson). */
static void test_skip(void)
{
	struct eng_arrival a, c;
	uint64_t until, n;
	unsigned i, bad = 0;

	CHECK(eng_arrival_init(&a, 2000, ENG_ARRIVAL_UNIFORM, 1, 0, 0) == 0);
	CHECK(eng_arrival_skip(&a, 1000000000ull) == 2001);
	CHECK(a.next_ns == 1000500000ull);
	CHECK(eng_arrival_skip(&a, 1000499999ull) == 0);	/* nothing due yet */
	CHECK(a.next_ns == 1000500000ull);
	eng_arrival_advance(&a);
	CHECK(a.next_ns == 1001000000ull);
	/* a gap that is not a whole number of ns, from odd places: always
	 * due's count, and the next IO on the exact grid (IO m of 3/s at
	 * phase 1/4 is due (4m + 1) 1e9 / 12 ns after the start), to the
	 * ns that rounding gives either way */
	for (i = 0; i < 1000; i++) {
		uint64_t want;

		CHECK(eng_arrival_init(&a, 3, ENG_ARRIVAL_UNIFORM, 1, 7, 0.25) == 0);
		until = 7 + (uint64_t)i * 9876543211ull;
		n = eng_arrival_due(&a, until);
		bad += eng_arrival_skip(&a, until) != n;
		want = 7 + 1000000000ull * (4 * n + 1) / 12;
		bad += a.next_ns + 1 < want || a.next_ns > want + 1 || want <= until;
	}
	CHECKF(!bad, "%u of 2000 uniform skips off due's count or the grid", bad);
	/* Poisson within the walk: the very schedule, dropped */
	CHECK(eng_arrival_init(&a, 10000, ENG_ARRIVAL_POISSON, 77, 100, 0) == 0);
	c = a;
	until = 100 + 1000000000ull;
	n = eng_arrival_due(&a, until);
	CHECK(eng_arrival_skip(&a, until) == n);
	while (c.next_ns <= until)
		eng_arrival_advance(&c);
	CHECK(a.next_ns == c.next_ns && a.t_ns == c.t_ns);
	/* past the walk (a million due at 1e9/s): counted as due counts
	 * them, the first walked exactly and the rest at the mean rate, so
	 * within 5 standard deviations of the walk's 2^16 draws; the next
	 * due after until */
	CHECK(eng_arrival_init(&a, 1e9, ENG_ARRIVAL_POISSON, 5, 1000, 0) == 0);
	until = 1000 + 1000000;
	n = eng_arrival_due(&a, until);
	CHECK(eng_arrival_skip(&a, until) == n);
	CHECKF(n > 1000001 - 5 * 256 && n < 1000001 + 5 * 256, "%llu dropped of 1000001 due",
	       (unsigned long long)n);
	CHECKF(a.next_ns > until && a.next_ns < until + 100, "next due %llu ns after until",
	       (unsigned long long)(a.next_ns - until));
}

static void test_bad_input(void)
{
	struct eng_arrival a;

	CHECK(eng_arrival_init(&a, 0, ENG_ARRIVAL_UNIFORM, 1, 0, 0) == -EINVAL);
	CHECK(eng_arrival_init(&a, -5, ENG_ARRIVAL_POISSON, 1, 0, 0) == -EINVAL);
	CHECK(eng_arrival_init(&a, NAN, ENG_ARRIVAL_UNIFORM, 1, 0, 0) == -EINVAL);
	CHECK(eng_arrival_init(&a, INFINITY, ENG_ARRIVAL_UNIFORM, 1, 0, 0) == -EINVAL);
	CHECK(eng_arrival_init(&a, 100, (enum eng_arrival_kind)7, 1, 0, 0) == -EINVAL);
	CHECK(eng_arrival_init(&a, 100, ENG_ARRIVAL_UNIFORM, 1, 0, 1) == -EINVAL);
	CHECK(eng_arrival_init(&a, 100, ENG_ARRIVAL_UNIFORM, 1, 0, -0.5) == -EINVAL);
	CHECK(eng_arrival_init(&a, 100, ENG_ARRIVAL_UNIFORM, 1, 0, NAN) == -EINVAL);
}

int main(void)
{
	test_poisson_fit(1, 2000);
	test_poisson_fit(42, 300000);
	test_poisson_fit(0xdeadbeef, 7);
	test_fit_rejects_uniform();
	test_uniform();
	test_phase();
	test_due();
	test_skip();
	test_bad_input();
	return t_result();
}
