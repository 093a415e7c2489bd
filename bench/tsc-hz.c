/* bench/tsc-hz: prints the TSC rate in Hz, measured against
 * CLOCK_MONOTONIC_RAW over 200 ms. t/io_uring stamps latency in TSC ticks
 * and, without -T, prints its percentiles in ticks; the bench converts them
 * with this rate rather than trusting one from dmesg or cpuinfo.
 * Exits 1 where there is no TSC to read. */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

static uint64_t ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(void)
{
#if defined(__x86_64__) || defined(__i386__)
	struct timespec nap = { 0, 200 * 1000 * 1000 };
	uint64_t n0, n1, t0, t1;

	/* each TSC read sits right after its clock read, so both spans share
	 * the same offsets and the ratio errs by a few ns in 200 ms */
	n0 = ns_now();
	t0 = __rdtsc();
	nanosleep(&nap, NULL);
	n1 = ns_now();
	t1 = __rdtsc();
	if (n1 <= n0 || t1 <= t0)
		return 1;
	printf("%.0f\n", (double)(t1 - t0) * 1e9 / (double)(n1 - n0));
	return 0;
#else
	fputs("tsc-hz: no TSC on this architecture\n", stderr);
	return 1;
#endif
}
