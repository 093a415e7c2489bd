/* The workers' CPU time and the noise beside it: see cpu.h. */
#include "cli/live/cpu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/clock.h"

int cli_cpu_init(struct cli_cpu *c, const struct eng_job *jobs, unsigned njobs)
{
	unsigned i, k;
	long n = sysconf(_SC_NPROCESSORS_CONF);

	memset(c, 0, sizeof(*c));
	c->njobs = njobs;
	/* a CPU brought online past the configured count is left out */
	c->ncpu = n > 0 ? (unsigned)n : 1;
	c->lead = calloc(njobs, sizeof(*c->lead));
	c->at0 = calloc(c->ncpu, sizeof(*c->at0));
	c->at1 = calloc(c->ncpu, sizeof(*c->at1));
	if (!c->lead || !c->at0 || !c->at1) {
		cli_cpu_free(c);
		return -ENOMEM;
	}
	/* the engine's rule: one thread per group's first job */
	for (i = 0; i < njobs; i++) {
		for (k = 0; jobs[i].group && k < i && jobs[k].group != jobs[i].group; k++)
			;
		c->lead[i] = jobs[i].group ? k : i;
	}
	return 0;
}

void cli_cpu_free(struct cli_cpu *c)
{
	free(c->lead);
	free(c->at0);
	free(c->at1);
	memset(c, 0, sizeof(*c));
}

/* /proc/stat's "cpuN user nice system idle iowait irq softirq steal ..."
 * lines into at (proc(5)); guest time is in user already. 0 or -errno. */
static int read_stat(const struct cli_cpu *c, struct cli_cpustat *at)
{
	unsigned long long v[8];
	long tck = sysconf(_SC_CLK_TCK);
	uint64_t ns = tck > 0 ? 1000000000ull / (uint64_t)tck : 10000000ull;
	char line[512];
	unsigned cpu;
	FILE *f = fopen("/proc/stat", "re");

	if (!f)
		return -errno;
	memset(at, 0, c->ncpu * sizeof(*at));
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		memset(v, 0, sizeof(v));
		/* steal came in 2.6.11: older lines end before it */
		if (sscanf(line + 3, "%u %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 8 || cpu >= c->ncpu)
			continue;
		at[cpu].task = (v[0] + v[1] + v[2]) * ns;
		at[cpu].irq = (v[5] + v[6]) * ns;
		at[cpu].steal = v[7] * ns;
		at[cpu].seen = true;
	}
	fclose(f);
	return 0;
}

void cli_cpu_start(struct cli_cpu *c)
{
	c->have1 = false;
	c->mono0 = eng_mono_ns();
	c->have0 = c->at0 && !read_stat(c, c->at0);
}

void cli_cpu_stop(struct cli_cpu *c)
{
	c->mono1 = eng_mono_ns();
	c->have1 = c->have0 && !read_stat(c, c->at1);
}

void cli_cpu_share(const struct cli_cpu *c, const uint64_t *ios, uint64_t *cpu,
		   uint64_t *user, uint64_t *sys)
{
	uint64_t t[3], sum, given[3];
	unsigned i, k, lanes, last;

	for (i = 0; i < c->njobs; i++) {
		if (c->lead[i] != i)
			continue;
		t[0] = cpu[i];
		t[1] = user[i];
		t[2] = sys[i];
		for (sum = 0, lanes = 0, last = i, k = i; k < c->njobs; k++)
			if (c->lead[k] == i) {
				sum += ios[k];
				lanes++;
				last = k;
			}
		if (lanes < 2)
			continue;
		memset(given, 0, sizeof(given));
		for (k = i; k < c->njobs; k++) {
			if (c->lead[k] != i)
				continue;
			/* the last lane takes what rounding left, so the lanes
			 * add up to the thread */
			cpu[k] = k == last ? t[0] - given[0] : sum ?
				 (uint64_t)((double)t[0] * (double)ios[k] / (double)sum) : t[0] / lanes;
			user[k] = k == last ? t[1] - given[1] : sum ?
				  (uint64_t)((double)t[1] * (double)ios[k] / (double)sum) : t[1] / lanes;
			sys[k] = k == last ? t[2] - given[2] : sum ?
				 (uint64_t)((double)t[2] * (double)ios[k] / (double)sum) : t[2] / lanes;
			given[0] += cpu[k];
			given[1] += user[k];
			given[2] += sys[k];
		}
	}
}

/* /proc/stat's step: USER_HZ's, or the scheduler's tick where coarser
 * (the kernel samples per tick and writes in USER_HZ). */
static double stat_tick_s(void)
{
	long tck = sysconf(_SC_CLK_TCK);
	double user_hz = tck > 0 ? 1.0 / (double)tck : 0.01;
	double tick = (double)eng_cpu_tick_ns() / 1e9;

	return tick > user_hz ? tick : user_hz;
}

static uint64_t since(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

/* Whether CPU cpu is one of jobs [first, first + n)'s: every CPU for an
 * unpinned job. */
static bool in_set(const int *cpus, unsigned first, unsigned n, unsigned cpu)
{
	unsigned i;

	for (i = first; i < first + n; i++)
		if (cpus[i] < 0 || (unsigned)cpus[i] == cpu)
			return true;
	return false;
}

int cli_cpu_noise(const struct cli_cpu *c, const int *cpus, const double *cpu_s,
		  unsigned first, unsigned n, struct cli_cpu_noise *out)
{
	double win = (double)since(c->mono0, c->mono1) / 1e9, task = 0, own = 0;
	unsigned k, i, ncpus = 0;

	memset(out, 0, sizeof(*out));
	out->cpu = -1;
	if (!c->have0 || !c->have1 || !n || first + n > c->njobs)
		return -ENODATA;
	for (k = 0; k < c->ncpu; k++) {
		if (!c->at0[k].seen || !c->at1[k].seen || !in_set(cpus, first, n, k))
			continue;
		ncpus++;
		out->cpu = ncpus == 1 ? (int)k : -1;
		task += (double)since(c->at0[k].task, c->at1[k].task) / 1e9;
		out->irq_s += (double)since(c->at0[k].irq, c->at1[k].irq) / 1e9;
		out->steal_s += (double)since(c->at0[k].steal, c->at1[k].steal) / 1e9;
	}
	/* every worker's own time on these CPUs, this device's or another's:
	 * what the run itself did is not noise; an unpinned one may have
	 * run anywhere, so it is taken from a set that is every CPU */
	for (i = 0; i < c->njobs; i++)
		if ((cpus[i] >= 0 && in_set(cpus, first, n, (unsigned)cpus[i])) ||
		    (cpus[i] < 0 && in_set(cpus, first, n, c->ncpu)))
			own += cpu_s[i];
	out->cap_s = win * ncpus;
	out->other_s = task > own ? task - own : 0;
	out->res_s = 2.0 * stat_tick_s() * ncpus;
	return ncpus ? 0 : -ENODATA;
}
