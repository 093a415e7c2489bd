/* Cheap monotonic clock for per-IO latency: the invariant TSC where the CPU
 * has one (calibrated once against CLOCK_MONOTONIC), CLOCK_MONOTONIC else. */
#ifndef ENG_CLOCK_H
#define ENG_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

struct eng_clock {
	bool tsc;		/* ticks are TSC cycles, else nanoseconds */
	uint32_t shift;		/* ns = (ticks * mult) >> shift */
	uint64_t mult;
	double ghz;		/* TSC rate found by calibration, 0 if unused */
};

/* Process-wide clock; filled by eng_clock_init(), read-only afterwards. */
extern struct eng_clock eng_clk;

/* Calibrate once before any worker starts. force_monotonic skips the TSC.
 * Returns 0 or -errno (the clock is then CLOCK_MONOTONIC). */
int eng_clock_init(bool force_monotonic);
/* The clock a run uses unless eng_clock_init chose one already: the TSC
 * where it calibrates, else CLOCK_MONOTONIC, since a disturbed calibration
 * is no reason to refuse a run. eng_run_create calls it before any worker
 * starts; later calls keep the first choice. */
void eng_clock_choose(void);

static inline uint64_t eng_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t eng_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (eng_clk.tsc)
		return __rdtsc();
#endif
	return eng_mono_ns();
}

/* Converts a tick interval (not an absolute tick value) to nanoseconds. */
static inline uint64_t eng_ticks_to_ns(uint64_t ticks)
{
	__extension__ typedef unsigned __int128 u128;

	if (!eng_clk.tsc)
		return ticks;
	return (uint64_t)(((u128)ticks * eng_clk.mult) >> eng_clk.shift);
}

#endif
