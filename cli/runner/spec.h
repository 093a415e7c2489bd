/* A run's specification: what one run of the engine does, apart from the
 * command's options (cli/runner/runner.h runs it). */
#ifndef CLI_RUNNER_SPEC_H
#define CLI_RUNNER_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/opts/opts.h"
#include "engine/engine.h"
#include "engine/target.h"

struct cli_timeline;	/* cli/report/timeline.h */

/* One run: every value a step of a command may change (sweep's points,
 * saturate's QD1, remote and SMT steps, --slo's points, check --measure's
 * trials), and the step itself (its targets, its name). The values start
 * as the command's options gave them (cli_run_spec_of); a step sets what
 * it changes in its own spec, and the options stay as they were parsed:
 * the runner reads everything else there. */
struct cli_run_spec {
	uint32_t qd;
	uint32_t batch, reap;	/* as asked: held to qd where each job is
				 * filled (cli/runner/jobs.c) */
	uint64_t reap_wait_ns;	/* --reap-wait: the bound on a reap's wait;
				 * 0: none */
	bool no_iowait;		/* --no-iowait */
	uint64_t rate;		/* IOs per second per device, split over its
				 * workers; 0: closed loop */
	uint32_t repeat;	/* measurements (cli_runner_repeat); 1: one;
				 * with repeat_auto, the most */
	bool repeat_auto;	/* stop once the repeats agree (--repeat auto) */
	bool quiet;		/* the outputs: no live line, no repeat lines */
	bool quiet_noise;	/* no line for a device the machine disturbed:
				 * the command sums its runs' noise itself
				 * (tune) */
	bool quiet_advice;	/* no placement notes (--quiet-advice) */
	enum topo_policy placement;
	bool placement_set;	/* given, not the default */
	unsigned jobs_per_device;
	const int *cpus;	/* workers' CPUs in order (ncpus 0: placed by
				 * placement) */
	unsigned ncpus;
	uint64_t time_ns;	/* 0: no limit (with ios) */
	uint64_t interval_ns;	/* the timeline's and the live sinks'
				 * interval (--interval; tune's runs take
				 * shorter ones, for an interval of their
				 * IOPS) */
	uint64_t ramp_ns;
	uint64_t ios;		/* per device (per job for nop); 0: none */
	enum eng_backend backend;
	enum eng_mode mode;
	bool mode_auto;		/* --completion auto: the runner picks */
	enum cli_group group;
	enum eng_op op;
	/* the devices to run, one row each; NULL for ENG_OP_NOP, which runs
	 * o->jobs workers as one row named "nop" */
	const struct eng_target *const *targets;
	unsigned ntargets;
	const char *label;	/* phase on the live line, NULL: "run"; also
				 * the measured window's name (--stream, the
				 * timeline), so a name, not a sentence */
	const char *note;	/* after the label on the live line only
				 * (saturate's time left); NULL: none */
	/* an open loop's IOs per second, one per target (sweep --rate: each
	 * at a load of its own maximum); NULL: rate for every target.
	 * With it, rate must be nonzero too (the checks of an open loop) */
	const double *rates;
	/* Called after each full interval (--interval, 1 s by default) of
	 * the measured window, once the timeline has that interval's samples;
	 * not at the end of the window, whose last samples the report's
	 * devices hold. NULL: none. */
	void (*each_second)(void *ctx, const struct cli_timeline *tl);
	void *ctx;
};

/* A spec of op with o's values: what the command runs unless a step
 * changes it; no targets, no label. */
struct cli_run_spec cli_run_spec_of(const struct cli_opts *o, enum eng_op op);

#endif
