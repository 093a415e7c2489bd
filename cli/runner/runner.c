/* One measured run: targets in, per-device figures out. The jobs
 * (jobs.c), the failures (fail.c), the measured loop (watch.c) and the
 * gathering (collect.c) are each in a file of their own. */
#include "cli/runner/runner_int.h"
#include "cli/runner/stop.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/live/live.h"
#include "cli/report/out.h"
#include "cli/report/progress.h"
#include "cli/runner/drive.h"
#include "cli/runner/limits.h"
#include "cli/runner/temp.h"
#include "topo/topo.h"

/* ---- completion mode ---- */

/* The completion mode for these targets: s->mode, or for --completion auto
 * poll where every block device has poll queues, else irq (said). */
static enum eng_mode runner_mode(const struct cli_run_spec *s,
				 const struct eng_target *const *t, unsigned n)
{
	unsigned i;

	if (!s->mode_auto)
		return s->mode;
	for (i = 0; i < n; i++) {
		if (!t[i]->is_blk || topo_io_poll(NULL, t[i]->dev) != 1) {
			cli_say("--completion auto: irq (%s has no poll queues)", t[i]->name);
			return ENG_MODE_IRQ;
		}
	}
	if (!n) {
		cli_say("--completion auto: irq");
		return ENG_MODE_IRQ;
	}
	cli_say("--completion auto: poll (every target has poll queues)");
	return ENG_MODE_POLL;
}

static int ctx_init(struct runctx *c, const struct cli_opts *o,
		    const struct cli_run_spec *spec)
{
	memset(c, 0, sizeof(*c));
	c->o = o;
	c->spec = spec;
	c->ndev = spec->targets ? spec->ntargets : 1;
	c->per = spec->targets ? spec->jobs_per_device : o->jobs;
	c->njobs = c->ndev * c->per;
	c->live = cli_progress_enabled(spec->quiet);
	if (!c->njobs)
		return -EINVAL;
	c->pd = calloc(c->ndev, sizeof(*c->pd));
	c->prev = calloc(c->ndev, sizeof(*c->prev));
	c->st = calloc(c->ndev, sizeof(*c->st));
	c->dpw = calloc(c->ndev, sizeof(*c->dpw));
	c->names = calloc(c->ndev, sizeof(*c->names));
	if (!c->pd || !c->prev || !c->st || !c->dpw || !c->names ||
	    cli_tl_init(&c->tl, c->ndev, c->per))
		return -ENOMEM;
	c->tl_ok = true;
	if (o->steady_pct) {
		/* the window and the seconds that may end its devices' samples */
		if (cli_tl_keep(&c->tl, cli_steady_window(o) + 2))
			return -ENOMEM;
		c->steady.asked = true;
		c->steady.window_s = (double)cli_steady_window(o);
	}
	for (unsigned d = 0; d < c->ndev; d++)
		c->pd[d].name = c->names[d] = cli_runner_job_name(c, d * c->per);
	return 0;
}

/* Everything before the engine: 0 or -errno, said; -EINVAL only for
 * options that do not fit (a usage error). */
static int prepare(struct runctx *c, struct eng_job **jobs)
{
	int err = cli_runner_check_opts(c->o, c->spec);

	if (!err)
		err = cli_runner_check_poll(c);
	if (!err)
		err = cli_limits_run(c->o, c->spec, c->spec->targets ? c->ndev : 0, c->njobs,
				     c->spec->op == ENG_OP_READ);
	if (!err)
		err = cli_runner_build_jobs(c, jobs);
	if (!err && cli_cpu_init(&c->cpu, *jobs, c->njobs)) {
		cli_say("out of memory");
		err = -ENOMEM;
	}
	/* no refusal left: the targets' first reads (the zero sample, the
	 * drive's log), once per target in a command, before any IO */
	if (!err)
		cli_drive_before(c->o, c->spec->targets, c->spec->targets ? c->spec->ntargets : 0);
	/* the live sinks' start (--stream's header: the command's options),
	 * once per command: after every refusal, before the first IO */
	if (!err)
		cli_live_start(c->o);
	/* each drive's hwmon, found through its account (controller) */
	if (!err && cli_temp_start(&c->temp, c->o, c->spec->targets,
				   c->spec->targets ? c->spec->ntargets : 0, &c->temp_acct)) {
		cli_say("out of memory");
		err = -ENOMEM;
	}
	return err;
}

/* The workers set up and waiting: 0 or -errno, said. */
static int launch(struct runctx *c, const struct eng_job *jobs)
{
	int err = eng_run_create(&c->r, jobs, c->njobs);

	if (err && !c->r) {
		cli_say("cannot start the workers: %s", strerror(-err));
		return err;
	}
	if (err)
		return cli_runner_check_results(c, err);
	cli_runner_say_fallback(c);
	return 0;
}

/* What the engine, the kernel or a device refused fails at run time,
 * whatever its errno: an EINVAL from io_uring_setup is not a usage error. */
static int refused(int err)
{
	return err == -EINVAL ? -EOPNOTSUPP : err;
}

int cli_runner_run(const struct cli_opts *o, const struct cli_run_spec *spec,
		   struct cli_report *out)
{
	struct eng_job *jobs = NULL;
	struct runctx c;
	int err;

	memset(out, 0, sizeof(*out));
	cli_runner_signals();
	err = ctx_init(&c, o, spec);
	if (err)
		cli_say("%s", err == -ENOMEM ? "out of memory" : "no workers to run");
	c.mode = runner_mode(spec, spec->targets, spec->targets ? spec->ntargets : 0);
	if (!err)
		err = prepare(&c, &jobs);
	if (!err)
		err = refused(launch(&c, jobs));
	if (!err)
		out->unfixed_bufs = cli_runner_say_unfixed(&c);
	if (!err) {
		cli_runner_measure(&c);
		/* the drive's log after the run, outside the measured window */
		cli_drive_after(spec->targets, spec->targets ? spec->ntargets : 0);
		err = refused(cli_runner_check_results(&c, 0));
	}
	if (!err && cli_runner_collect(&c, out)) {
		cli_say("out of memory");
		err = -ENOMEM;
	}
	free(jobs);
	if (c.r)
		eng_run_destroy(c.r);
	free(c.pd);
	free(c.prev);
	free(c.st);
	free(c.dpw);
	free(c.names);
	free(c.notes);
	cli_cpu_free(&c.cpu);
	/* a stalled worker may still answer a snapshot into the run's memory,
	 * not into the timeline's copies: those are the runner's own */
	cli_tl_free(&c.tl);
	cli_temp_free(&c.temp);
	return err;
}
