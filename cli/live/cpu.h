/* The workers' CPU time and what else their CPUs did, read by the runner's
 * reporting thread off the hot path.
 *
 * Per interval, each worker thread's CPU time comes with its counts in the
 * engine's snapshot (eng_snapshot: the exact runtime and its tick-sampled
 * user/system split, since the window began); the timeline takes their
 * differences, and a thread shared by several jobs (--group) has its time
 * shared among them here, by the IOs each completed in the interval, as
 * the engine shares the window's. What a thread did after its last
 * snapshot is in the window's last interval, from the final figures
 * (cli/report/timeline.h).
 *
 * Per window, the one reader of /proc/stat: each CPU's time at the
 * window's start and end (cli_cpu_start, cli_cpu_stop), from which the
 * noise beside the workers is worked out (cli_cpu_noise): the time other
 * tasks, interrupts and the hypervisor took on the CPUs the workers ran
 * on. /proc/stat counts in USER_HZ (sysconf(_SC_CLK_TCK), 10 ms on most
 * kernels) what the kernel sampled per tick (kernel/sched/cputime.c,
 * account_process_tick), so its figures are good to a tick or two per CPU
 * and window. */
#ifndef CLI_LIVE_CPU_H
#define CLI_LIVE_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

/* One CPU's times in /proc/stat, ns. */
struct cli_cpustat {
	uint64_t task;		/* user + nice + system: tasks' own */
	uint64_t irq;		/* irq + softirq */
	uint64_t steal;
	bool seen;		/* a line for this CPU was read */
};

struct cli_cpu {
	unsigned njobs;
	unsigned *lead;			/* per job: the job whose thread runs it */
	unsigned ncpu;			/* entries of at0, at1 */
	struct cli_cpustat *at0, *at1;	/* at the window's start and end */
	bool have0, have1;
	uint64_t mono0, mono1;		/* CLOCK_MONOTONIC of the two reads */
};

/* What else the machine did on a set of CPUs over a window, next to some
 * workers, in ns, so that devices and steps add up (struct cli_noise in
 * cli/report/record.h holds them). */
struct cli_cpu_noise {
	double cap_s;		/* the window times the CPUs */
	double steal_s, other_s, irq_s;
	double res_s;		/* how far each of those can be off: two of
				 * /proc/stat's ticks per CPU (the coarser of
				 * USER_HZ and the scheduler's) */
	int cpu;		/* the one CPU, -1: several or not pinned */
};

/* For jobs[0..njobs): 0 or -ENOMEM. */
int cli_cpu_init(struct cli_cpu *c, const struct eng_job *jobs, unsigned njobs);
void cli_cpu_free(struct cli_cpu *c);
/* The measured window starts, and ends: /proc/stat read at each. */
void cli_cpu_start(struct cli_cpu *c);
void cli_cpu_stop(struct cli_cpu *c);
/* Each thread's CPU time over an interval (cpu, user, sys: ns per job, a
 * shared thread's on its first job and 0 on the others, as the snapshots
 * carry it) shared in place among the jobs of its thread by ios, the IOs
 * each completed in it. */
void cli_cpu_share(const struct cli_cpu *c, const uint64_t *ios, uint64_t *cpu,
		   uint64_t *user, uint64_t *sys);
/* The noise on the CPUs of jobs [first, first + n) over the window:
 * cpus[i] is job i's CPU (-1 unpinned: then every CPU), cpu_s[i] its
 * runtime in the window, for every job of the run (so that no worker's
 * own time counts as another's). 0, or -ENODATA where /proc/stat was not
 * read at both ends. */
int cli_cpu_noise(const struct cli_cpu *c, const int *cpus, const double *cpu_s,
		  unsigned first, unsigned n, struct cli_cpu_noise *out);

#endif
