/* The runner's own parts, shared by its files: the run's context, and
 * what each file does for cli_runner_run (runner.c). */
#ifndef CLI_RUNNER_INT_H
#define CLI_RUNNER_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/live/cpu.h"
#include "cli/report/progress.h"
#include "cli/runner/runner.h"
#include "cli/runner/steady.h"
#include "cli/runner/temp.h"

/* A device's completions (good and failed) as last seen, when they last
 * moved, and whether its stall was said. */
struct cli_stall {
	uint64_t done;
	uint64_t since;
	bool said;
};

struct runctx {
	const struct cli_opts *o;
	const struct cli_run_spec *spec;
	enum eng_mode mode;
	struct eng_run *r;
	unsigned ndev, per, njobs;
	bool live;
	struct cli_progress_dev *pd;
	uint64_t *prev;		/* per device: IOs at the last live line */
	struct cli_stall *st;	/* per device: the stall watch */
	unsigned *dpw;		/* per device: devices its worker drives */
	unsigned nstalled;	/* workers left in the kernel at the end */
	struct cli_timeline tl;	/* a sample per second per device */
	bool tl_ok;		/* no sample lost to a failed allocation */
	struct cli_steady steady;	/* --steady */
	struct cli_temp_watch temp;	/* --temperature-every */
	struct cli_temp temp_acct;
	uint64_t wall_start, wall_end;	/* the measured window, CLOCK_REALTIME */
	const char **names;	/* per device: its row's name */
	struct eng_job *jobs;	/* the workers' */
	/* the interval sets (cli/live/interval.h): the measured window's
	 * index in the command, whether it started, the workers' CPU */
	unsigned run;
	bool window;
	uint64_t mono_start;	/* the window's start, CLOCK_MONOTONIC */
	struct cli_cpu cpu;
	const char *label;	/* the window's, on the live line */
	struct topo_notes *notes;	/* placement's, for the report */
};

/* jobs.c: options (o's, and the run's in s) that cannot go together, 0
 * or -EINVAL said */
int cli_runner_check_opts(const struct cli_opts *o, const struct cli_run_spec *s);
/* jobs.c: a polled mode on a block device without poll queues, said */
int cli_runner_check_poll(const struct runctx *c);
/* jobs.c: every worker's job, placed: 0 or -errno, said */
int cli_runner_build_jobs(struct runctx *c, struct eng_job **out);

/* fail.c: job i's row name */
const char *cli_runner_job_name(const struct runctx *c, unsigned i);
void cli_runner_io_failed(const struct runctx *c, const char *name, int err);
/* fail.c: the first failed worker said; 0 or its -errno (else create_err) */
int cli_runner_check_results(const struct runctx *c, int create_err);
void cli_runner_say_fallback(const struct runctx *c);
bool cli_runner_say_unfixed(const struct runctx *c);

/* watch.c: ramp, the measured window, stop and drain */
void cli_runner_measure(struct runctx *c);
/* watch.c: the last interval (cli_tl_last taken) to every sink */
void cli_runner_last_interval(struct runctx *c);

/* collect.c: the run's figures into out; 0 or -ENOMEM */
int cli_runner_collect(struct runctx *c, struct cli_report *out);

#endif
