/* A run's specification from the command's options (cli/runner/spec.h). */
#include "cli/runner/spec.h"

struct cli_run_spec cli_run_spec_of(const struct cli_opts *o, enum eng_op op)
{
	return (struct cli_run_spec){
		.qd = o->qd, .batch = o->batch, .reap = o->reap,
		.reap_wait_ns = o->reap_wait_ns, .no_iowait = o->no_iowait,
		.rate = o->rate, .repeat = o->repeat,
		.repeat_auto = o->repeat_auto, .quiet = o->quiet,
		.quiet_advice = o->quiet_advice,
		.placement = o->placement, .placement_set = o->placement_set,
		.jobs_per_device = o->jobs_per_device,
		.cpus = o->ncpus ? o->cpus : NULL, .ncpus = o->ncpus,
		.time_ns = o->time_ns, .interval_ns = o->interval_ns, .ramp_ns = o->ramp_ns, .ios = o->ios,
		.backend = o->backend, .mode = o->mode, .mode_auto = o->mode_auto,
		.group = o->group, .op = op,
	};
}
