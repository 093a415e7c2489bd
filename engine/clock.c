/* Clock calibration: the TSC is used only where the CPU promises it ticks at
 * a constant rate in every C-state (constant_tsc + nonstop_tsc), since a TSC
 * that stops or changes rate would silently distort latencies. */
#include "engine/clock.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct eng_clock eng_clk = { .tsc = false, .shift = 0, .mult = 1, .ghz = 0.0 };
static bool clk_chosen;	/* eng_clock_init ran: eng_clock_choose keeps it */

#define CAL_SHIFT 32
#define CAL_WINDOW_NS 20000000L
#define CAL_TRIES 3

#if defined(__x86_64__) || defined(__i386__)
static bool has_flag(const char *flags, const char *name)
{
	size_t n = strlen(name);
	const char *p = flags;

	while ((p = strstr(p, name))) {
		if ((p == flags || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

/* The kernel's own verdict: it switches away from the TSC when it finds
 * the CPUs' TSCs out of step, and then so must we, since an unpinned
 * worker may complete an IO on another CPU than it submitted it on. */
static bool kernel_trusts_tsc(void)
{
	char cs[32] = "";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");

	if (!f)
		return true;	/* no sysfs: the CPU flags decide alone */
	if (!fgets(cs, sizeof(cs), f))
		cs[0] = '\0';
	fclose(f);
	return !strncmp(cs, "tsc", 3) && (cs[3] == '\n' || cs[3] == '\0');
}

/* Returns 1 when the first CPU's flags promise an invariant TSC (and the
 * kernel agrees), 0 when not, -errno when /proc/cpuinfo cannot be read. */
static int tsc_invariant(void)
{
	char line[8192];
	FILE *f;
	int ret = 0;

	f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		ret = has_flag(line, "constant_tsc") &&
		      has_flag(line, "nonstop_tsc");
		break;
	}
	fclose(f);
	return ret > 0 && !kernel_trusts_tsc() ? 0 : ret;
}

/* One window: TSC read between two CLOCK_MONOTONIC reads at each end, so
 * the error of each end is bounded by the gap between its two reads. */
static int calibrate_once(uint64_t *dticks, uint64_t *dns, uint64_t *err_ns)
{
	struct timespec win = { 0, CAL_WINDOW_NS };
	uint64_t a0, a1, b0, b1, c0, c1;

	a0 = eng_mono_ns();
	c0 = __rdtsc();
	a1 = eng_mono_ns();
	while (nanosleep(&win, &win) && errno == EINTR)
		;
	b0 = eng_mono_ns();
	c1 = __rdtsc();
	b1 = eng_mono_ns();
	if (c1 <= c0 || b0 <= a1)
		return -EIO;
	*dticks = c1 - c0;
	*dns = (b0 + b1) / 2 - (a0 + a1) / 2;
	*err_ns = (a1 - a0) + (b1 - b0);
	return 0;
}

/* Fills *out from the calibration window with the tightest bracketing. */
static int calibrate(struct eng_clock *out)
{
	__extension__ typedef unsigned __int128 u128;
	uint64_t ticks, ns, err, best_ticks = 0, best_ns = 0;
	uint64_t best_err = UINT64_MAX;
	double ghz;
	int i, ret;

	for (i = 0; i < CAL_TRIES; i++) {
		ret = calibrate_once(&ticks, &ns, &err);
		if (ret)
			return ret;
		if (err < best_err) {
			best_err = err;
			best_ticks = ticks;
			best_ns = ns;
		}
	}
	ghz = (double)best_ticks / (double)best_ns;
	/* a rate no real TSC has means the window was disturbed (VM
	 * migration, a stopped process): don't trust it */
	if (ghz < 0.05 || ghz > 50.0)
		return -EIO;
	out->tsc = true;
	out->shift = CAL_SHIFT;
	out->mult = (uint64_t)(((u128)best_ns << CAL_SHIFT) / best_ticks);
	out->ghz = ghz;
	return 0;
}
#endif

int eng_clock_init(bool force_monotonic)
{
	static const struct eng_clock mono = { false, 0, 1, 0.0 };
	static struct eng_clock cal;
	static int cal_ret = 1;	/* 1: not calibrated yet */

	clk_chosen = true;
	if (force_monotonic) {
		eng_clk = mono;
		return 0;
	}
#if defined(__x86_64__) || defined(__i386__)
	if (cal_ret == 1) {
		cal_ret = tsc_invariant();
		if (cal_ret == 1)
			cal_ret = calibrate(&cal);
		else if (cal_ret == 0)
			cal_ret = -EOPNOTSUPP;
	}
	if (!cal_ret) {
		eng_clk = cal;
		return 0;
	}
	eng_clk = mono;
	/* no invariant TSC is a normal outcome, not an error */
	return cal_ret == -EOPNOTSUPP ? 0 : cal_ret;
#else
	eng_clk = mono;
	return 0;
#endif
}

void eng_clock_choose(void)
{
	if (!clk_chosen && eng_clock_init(false))
		eng_clock_init(true);
}
