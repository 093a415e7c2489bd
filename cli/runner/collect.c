/* Gathering a run's results: the workers' figures summed per device,
 * rates, latency, errors and the timeline. */
#include "cli/runner/runner_int.h"
#include "cli/runner/stop.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report/openloop.h"
#include "cli/report/out.h"

static int alloc_devs(const struct runctx *c, struct cli_report *out)
{
	struct cli_dev *d;
	unsigned i;

	out->dev = calloc(c->ndev, sizeof(*out->dev));
	if (!out->dev)
		return -ENOMEM;
	out->ndev = c->ndev;
	for (i = 0; i < c->ndev; i++) {
		d = &out->dev[i];
		snprintf(d->name, sizeof(d->name), "%s", cli_runner_job_name(c, i * c->per));
		snprintf(d->path, sizeof(d->path), "%s",
			 c->spec->targets ? c->spec->targets[i]->path : "");
		d->nworkers = c->per;
		d->devices_per_worker = c->dpw[i] ? c->dpw[i] : 1;
		d->cpus = calloc(c->per, sizeof(*d->cpus));
		d->hist = c->o->latency ? malloc(sizeof(*d->hist)) : NULL;
		if (!d->cpus || (c->o->latency && !d->hist))
			return -ENOMEM;
		if (d->hist)
			eng_hist_reset(d->hist);
		if (c->spec->rate && c->spec->targets &&
		    cli_open_init(d, c->spec->rates ? c->spec->rates[i] : (double)c->spec->rate,
				  c->o->latency))
			return -ENOMEM;
	}
	return 0;
}

static void add_result(struct cli_dev *d, unsigned w, const struct eng_result *res)
{
	double el = cli_secs(res->elapsed_ns);
	unsigned dpw = d->devices_per_worker ? d->devices_per_worker : 1;

	d->engine = eng_backend_name(res->backend);
	d->cpus[w] = res->cpu;
	d->ios += res->ios;
	d->bytes += res->bytes;
	d->errors += res->errors;
	d->calls += res->calls;
	d->user_s += res->user_s;
	d->sys_s += res->sys_s;
	d->cpu_s += res->cpu_s;
	/* a stalled worker reports IOs but no CPU time: its IOs would make
	 * the others' look cheap */
	if (!res->stalled)
		d->cpu_ios += res->ios + res->errors;
	if (res->cpu_s > d->busiest_s)
		d->busiest_s = res->cpu_s;
	/* a thread shared by dpw devices waited once: each has its share */
	if (res->run_delay_known) {
		d->noise.delay_known = true;
		d->noise.delay_s += cli_secs(res->run_delay_ns);
		d->noise.thread_s += el / dpw;
	}
	d->noise.nivcsw += res->nivcsw;
	if (el > d->elapsed_s)
		d->elapsed_s = el;
	if (d->hist && res->hist && !res->stalled)
		eng_hist_merge(d->hist, res->hist);
	d->stalled |= res->stalled;
	d->inflight_at_end += res->inflight_at_end;
	cli_open_add(d, res);
	if (res->stage == ENG_STAGE_IO && !d->fatal)
		d->fatal = -res->err;	/* check_results let only mid-run ones by */
}

/* Device d's failures: per-errno counts summed over its workers, and the
 * earliest first failure among them. */
static void collect_errs(const struct runctx *c, unsigned d, struct cli_dev *dev)
{
	uint64_t count[ENG_ERR_SLOTS] = { 0 }, first_ns = UINT64_MAX;
	const struct eng_result *res;
	unsigned w, i;
	int first = 0;

	for (w = 0; w < c->per; w++) {
		res = eng_run_result(c->r, d * c->per + w);
		if (!res->errors)
			continue;	/* a stalled worker's are named too (late_result) */
		for (i = 0; i < ENG_ERR_SLOTS; i++)
			count[i] += res->errs.count[i];
		if (res->errs.first_ns < first_ns) {
			first_ns = res->errs.first_ns;
			first = res->errs.first;
		}
	}
	cli_dev_errs(dev, count, first, cli_secs(first_ns));
}

/* Whether a worker of jobs [first, first + n) is unpinned or pinned
 * where another worker of the run is. */
static bool shares_cpu(const int *cpus, unsigned njobs, unsigned first, unsigned n)
{
	unsigned i, k;

	for (i = first; i < first + n; i++)
		for (k = 0; k < njobs; k++)
			if (cpus[i] < 0 || (k != i && cpus[k] == cpus[i]))
				return true;
	return false;
}

/* Each device's noise: what else its workers' CPUs did over the window
 * (cli/live/cpu.h), next to every worker's own runtime. */
static int collect_noise(const struct runctx *c, struct cli_report *out)
{
	int *cpus = calloc(c->njobs, sizeof(*cpus));
	double *cpu_s = calloc(c->njobs, sizeof(*cpu_s));
	struct cli_cpu_noise n;
	struct cli_noise *dn;
	unsigned i;

	if (!cpus || !cpu_s) {
		free(cpus);
		free(cpu_s);
		return -ENOMEM;
	}
	for (i = 0; i < c->njobs; i++) {
		cpus[i] = eng_run_result(c->r, i)->cpu;
		cpu_s[i] = eng_run_result(c->r, i)->cpu_s;
	}
	for (i = 0; i < c->ndev; i++) {
		dn = &out->dev[i].noise;
		dn->parts = 1;
		dn->cpu = -1;
		dn->own_share = shares_cpu(cpus, c->njobs, i * c->per, c->per);
		if (cli_cpu_noise(&c->cpu, cpus, cpu_s, i * c->per, c->per, &n))
			continue;
		dn->known = true;
		dn->cap_s = n.cap_s;
		dn->steal_s = n.steal_s;
		dn->other_s = n.other_s;
		dn->irq_s = n.irq_s;
		dn->res_s = n.res_s;
		dn->cpu = n.cpu;
	}
	free(cpus);
	free(cpu_s);
	return 0;
}

/* "CPU 0", "its CPUs" */
static const char *cpus_words(char *buf, size_t len, const struct cli_noise *n)
{
	if (n->cpu >= 0)
		snprintf(buf, len, "CPU %d", n->cpu);
	else
		snprintf(buf, len, "its CPUs");
	return buf;
}

/* One line per device whose noise is high enough to move its figures
 * (cli_noise_high): the measured window named by its label. Interrupt
 * time counts every source, the targets' own completions too, so it is
 * said only where none completes by interrupt (a polled mode). */
static void say_noise(const struct runctx *c, const struct cli_report *out)
{
	const char *label = c->spec->label ? c->spec->label : "run";
	bool polled = c->mode == ENG_MODE_POLL || c->mode == ENG_MODE_HYBRID;
	char line[512], where[32];
	struct cli_noise_pct p;
	const struct cli_dev *d;
	size_t len;
	unsigned i;

	for (i = 0; i < out->ndev; i++) {
		d = &out->dev[i];
		cli_noise_pct(&d->noise, &p);
		cpus_words(where, sizeof(where), &d->noise);
		line[0] = '\0';
		len = 0;
		if (cli_noise_high(p.other, p.res, d->elapsed_s))
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						"%s shared %s with other processes for %.0f%% of its time",
						d->name, where, p.other);
		if (cli_noise_high(p.steal, p.res, d->elapsed_s) && len < sizeof(line))
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						"%s the hypervisor stole %.0f%% of %s", len ? "," : d->name,
						p.steal, where);
		if (polled && cli_noise_high(p.irq, p.res, d->elapsed_s) && len < sizeof(line))
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						"%s interrupts took %.0f%% of %s", len ? "," : d->name,
						p.irq, where);
		/* a wait beside another worker of the run is the run's own
		 * doing (the placement notes say so): said beside another's */
		if (cli_noise_high(p.run_delay, 0, d->elapsed_s) && (len || !d->noise.own_share) &&
		    len < sizeof(line))
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						"%s its workers waited for a CPU %.0f%% of the window",
						len ? "," : d->name, p.run_delay);
		if (len)
			cli_say("%s: %s (noise: the figures are not the device's alone)", label,
				line);
	}
}

int cli_runner_collect(struct runctx *c, struct cli_report *out)
{
	unsigned i;

	out->command = c->o->cmd;
	out->mode = c->mode;
	out->interrupted = cli_runner_interrupted();
	out->engine = eng_backend_name(eng_run_result(c->r, 0)->backend);
	if (alloc_devs(c, out))
		return -ENOMEM;
	for (i = 0; i < c->njobs; i++)
		add_result(&out->dev[i / c->per], i % c->per, eng_run_result(c->r, i));
	if (collect_noise(c, out))
		return -ENOMEM;
	for (i = 0; i < c->ndev; i++)
		out->dev[i].tick_s = cli_secs(eng_cpu_tick_ns());
	for (i = 0; i < c->ndev; i++)
		if (out->dev[i].elapsed_s > out->elapsed_s)
			out->elapsed_s = out->dev[i].elapsed_s;
	for (i = 0; i < c->ndev; i++) {
		/* a device an error stopped early delivered nothing after it:
		 * its rate is over the run's window, like everyone's */
		if (out->dev[i].fatal)
			out->dev[i].elapsed_s = out->elapsed_s;
		collect_errs(c, i, &out->dev[i]);
		cli_lat_from_hist(&out->dev[i], out->dev[i].hist);
		cli_open_finish(&out->dev[i]);
		cli_dev_rates(&out->dev[i]);
		out->stalled |= out->dev[i].stalled;
	}
	out->steady = c->steady;
	out->temp = c->temp_acct;
	out->place_notes = c->notes;	/* the report's now */
	c->notes = NULL;
	if (cli_steady_apply(c->o, &c->tl, &c->steady, out) || cli_report_total(out) ||
	    cli_tl_last(&c->tl, c->r))
		return -ENOMEM;
	/* the window's last interval, the final figures less the last copy */
	cli_runner_last_interval(c);
	if (!c->tl_ok)
		return -ENOMEM;
	cli_steady_total(out);
	for (i = 0; i < c->ndev; i++) {
		out->dev[i].tl = cli_tl_take(&c->tl, i);
		out->dev[i].wall_start_ns = c->wall_start;
		out->dev[i].wall_end_ns = c->wall_end;
	}
	out->total.tl = cli_tl_take(&c->tl, c->ndev);
	out->total.wall_start_ns = c->wall_start;
	out->total.wall_end_ns = c->wall_end;
	/* the percentiles' intervals widened by the run's own intervals, now
	 * that the last one is in (a steady window's devices got theirs from
	 * the window's own seconds: cli/runner/steady.c) */
	out->bat = cli_tl_take_batches(&c->tl);
	for (i = 0; out->bat && !out->steady.reached && i < c->ndev; i++)
		if (out->dev[i].has_lat)
			cli_lat_batched(&out->dev[i].lat, out->dev[i].hist, &out->bat[i]);
	if (out->bat && !out->steady.reached && out->total.has_lat)
		cli_lat_batched(&out->total.lat, out->total.hist, &out->bat[c->ndev]);
	if (!c->spec->quiet_noise)
		say_noise(c, out);
	return 0;
}
