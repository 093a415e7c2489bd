/* The workers' jobs of one run: the options checked together, each job
 * filled and placed, grouped where asked. */
#include "cli/runner/runner_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/report/out.h"
#include "cli/runner/group.h"
#include "cli/runner/place.h"
#include "cli/runner/steady.h"
#include "engine/rng.h"
#include "topo/topo.h"

int cli_runner_rate_check(const struct cli_run_spec *s)
{
	if (!s->rate)
		return 0;
	if (s->backend == ENG_BACKEND_LIBAIO) {
		cli_say("--rate issues IOs on a schedule through io_uring: --engine libaio has no open loop");
		return -EINVAL;
	}
	if (!s->mode_auto && s->mode == ENG_MODE_SQPOLL) {
		cli_say("--rate issues each IO when it is due from the worker: --completion sqpoll hands submission to a kernel thread");
		return -EINVAL;
	}
	if (s->group == CLI_GROUP_ON) {
		cli_say("--rate keeps a schedule per worker: --group on would put several devices in one");
		return -EINVAL;
	}
	if (s->rate < s->jobs_per_device) {
		cli_say("--rate %llu is fewer IOs per second than the %u workers per device: give each at least one",
		    (unsigned long long)s->rate, s->jobs_per_device);
		return -EINVAL;
	}
	return 0;
}

/* Options that cannot go together: 0 or -EINVAL, said. */
int cli_runner_check_opts(const struct cli_opts *o, const struct cli_run_spec *s)
{
	if (s->op == ENG_OP_NOP && s->backend == ENG_BACKEND_LIBAIO) {
		cli_say("nop measures io_uring's IORING_OP_NOP: --engine libaio has no equivalent");
		return -EINVAL;
	}
	if (s->backend == ENG_BACKEND_LIBAIO && !s->mode_auto && s->mode != ENG_MODE_IRQ) {
		cli_say("--completion %s needs io_uring: libaio completes by interrupt only",
		    eng_mode_name(s->mode));
		return -EINVAL;
	}
	if (cli_group_check(s) || cli_runner_rate_check(s) || cli_steady_opts_check(o, s))
		return -EINVAL;
	if (o->buffered && s->backend == ENG_BACKEND_URING_CMD) {
		cli_say("--buffered reads through the page cache: --engine io_uring_cmd sends NVMe commands to the drive");
		return -EINVAL;
	}
	if (o->buffered && !s->mode_auto &&
	    (s->mode == ENG_MODE_POLL || s->mode == ENG_MODE_HYBRID)) {
		cli_say("--completion %s needs O_DIRECT: reads through the page cache cannot be polled",
		    eng_mode_name(s->mode));
		return -EINVAL;
	}
	if (s->op == ENG_OP_READ && s->ios && s->ios < s->jobs_per_device) {
		cli_say("--ios %llu is fewer than the %u workers per device: give each at least one IO",
		    (unsigned long long)s->ios, s->jobs_per_device);
		return -EINVAL;
	}
	return 0;
}

/* Splits a per-device IO count over its workers; 0 stays "no limit". */
static uint64_t ios_share(uint64_t ios, unsigned per, unsigned w)
{
	uint64_t share;

	if (!ios)
		return 0;
	share = ios / per + (w < ios % per);
	return share ? share : 1;
}

static void fill_job(struct eng_job *j, const struct runctx *c, unsigned i,
		     const struct cli_slot *at)
{
	const struct cli_opts *o = c->o;
	const struct cli_run_spec *s = c->spec;
	unsigned d = i / c->per, w = i % c->per;

	memset(j, 0, sizeof(*j));
	j->target = s->targets ? s->targets[d] : NULL;
	j->op = s->op;
	j->backend = j->op == ENG_OP_NOP ? ENG_BACKEND_IO_URING : s->backend;
	j->mode = c->mode;
	j->bs = o->bs;
	j->qd = s->qd;
	/* the one clamp of --batch and --reap to the depth that runs: a
	 * step's (sweep's points, saturate's QD1) as well as the command's */
	j->batch = s->batch < s->qd ? s->batch : s->qd;
	j->reap = s->reap < s->qd ? s->reap : s->qd;
	j->reap_wait_us = (uint32_t)(s->reap_wait_ns / 1000);
	j->no_iowait = s->no_iowait;
	j->range_off = o->range_off;
	j->range_len = o->range_len;	/* 0: the rest of the target (engine.h) */
	j->cpu = at->cpu;
	j->sq_cpu = at->sq_cpu;
	j->node = at->node;
	j->latency = o->latency;
	j->seed = eng_rng_seed(o->seed, i);
	j->ios = s->targets ? ios_share(s->ios, c->per, w) : s->ios;
	/* a device's rate split evenly: its workers' schedules add up to it */
	j->rate = !s->targets ? 0 :
		  s->rates ? s->rates[d] / c->per : (double)s->rate / c->per;
	j->arrival = o->arrival;
	j->rate_phase = (double)w / c->per;
}

/* --group: the jobs on one CPU in one ring, and how many devices each
 * device's worker drives. 0 or -ENOMEM, said. */
static int group_jobs(struct runctx *c, struct eng_job *jobs)
{
	const char **names = calloc(c->njobs, sizeof(*names));
	unsigned i, k, m, n;

	if (!names) {
		cli_say("out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < c->njobs; i++)
		names[i] = cli_runner_job_name(c, i);
	(void)cli_group_jobs(c->spec, c->mode, jobs, c->njobs, names);
	free(names);
	for (i = 0; i < c->njobs; i++) {
		/* distinct devices in i's group: each counted at its first job */
		for (k = 0, n = 0; jobs[i].group && k < c->njobs; k++) {
			if (jobs[k].group != jobs[i].group)
				continue;
			for (m = 0; m < k && !(jobs[m].group == jobs[i].group &&
					       m / c->per == k / c->per); m++)
				;
			n += m == k;
		}
		n = n ? n : 1;
		if (n > c->dpw[i / c->per])
			c->dpw[i / c->per] = n;
	}
	return 0;
}

/* Every worker's job, placed: 0 or -errno, said; -EINVAL: --cpus does not
 * fit the workers. */
int cli_runner_build_jobs(struct runctx *c, struct eng_job **out)
{
	struct eng_job *jobs;
	struct cli_slot *slots;
	unsigned i;
	int err = 0;

	jobs = calloc(c->njobs, sizeof(*jobs));
	slots = calloc(c->njobs, sizeof(*slots));
	if (!jobs || !slots) {
		cli_say("out of memory");
		err = -ENOMEM;
	}
	if (!err) {
		/* cli_place says why */
		err = cli_place(c->spec, c->spec->targets, c->spec->targets ? c->ndev : 1,
				c->spec->targets ? c->per : c->njobs,
				c->mode, slots, &c->notes);
	}
	for (i = 0; !err && i < c->njobs; i++)
		fill_job(&jobs[i], c, i, &slots[i]);
	if (!err)
		err = group_jobs(c, jobs);
	free(slots);
	if (err)
		free(jobs);
	else
		*out = jobs;
	return err;
}

/* An explicit polled mode on a block device without poll queues fails on
 * its first read: say so before starting anything. Files are left to the
 * engine, which sees the failure when a read reaches the device. */
int cli_runner_check_poll(const struct runctx *c)
{
	const struct eng_target *t;
	unsigned i;

	if (c->spec->mode_auto || (c->mode != ENG_MODE_POLL && c->mode != ENG_MODE_HYBRID))
		return 0;
	for (i = 0; c->spec->targets && i < c->spec->ntargets; i++) {
		t = c->spec->targets[i];
		if (t->is_blk && topo_io_poll(NULL, t->dev) != 1) {
			cli_runner_io_failed(c, t->name, -EOPNOTSUPP);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}
