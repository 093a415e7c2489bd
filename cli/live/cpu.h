/* The workers' CPU time per interval, read by the reporting thread off
 * the hot path: each worker thread's utime and stime from
 * /proc/self/task/TID/stat (clock ticks, USER_HZ: 10 ms on most kernels),
 * the thread found by the name the engine gives it ("iostorm-wN", N its
 * first job's index). A thread shared by several jobs (--group) has its
 * time shared among them by the IOs each completed in the interval, as
 * the engine shares the window's. What a thread that is gone did after
 * its last reading is in no interval here: the window's last interval
 * takes the rest from the final figures (cli/report/timeline.h). */
#ifndef CLI_LIVE_CPU_H
#define CLI_LIVE_CPU_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/engine.h"

struct cli_cpu {
	unsigned njobs;
	unsigned *lead;		/* per job: the job whose thread runs it */
	pid_t *tid;		/* per lead: its thread, 0: not found */
	uint64_t *user, *sys;	/* per lead: ns at the last reading */
	bool *have;
	uint64_t ns_per_tick;
};

/* For jobs[0..njobs): 0 or -ENOMEM. */
int cli_cpu_init(struct cli_cpu *c, const struct eng_job *jobs, unsigned njobs);
void cli_cpu_free(struct cli_cpu *c);
/* The measured window starts: finds the threads and reads each once. */
void cli_cpu_start(struct cli_cpu *c);
/* Each job's CPU time since the last reading into user[i], sys[i] (ns),
 * its thread's shared by ios[i], the IOs each job completed in that time. */
void cli_cpu_read(struct cli_cpu *c, const uint64_t *ios, uint64_t *user, uint64_t *sys);

#endif
