/* saturate: gather this machine's facts (topology, affinity), plan the
 * steps, run each through the runner, keep one set of figures per device
 * and step, then hand them to sat_analyse.c and print what model/gap.c
 * concludes (sat_report.c, sat_json.c). The only saturate file that does
 * I/O besides the output, and the only one that says an error. */
#include "cli/saturate/sat_int.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "cli/check/check.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/live/stream.h"
#include "cli/report/out.h"
#include "cli/runner/place.h"
#include "cli/runner/repeat.h"
#include "cli/runner/runner.h"
#include "cli/runner/stop.h"
#include "cli/runner/targets.h"
#include "cli/opts/roots.h"

static const char *const fig_name[SAT_NFIG] = {
	"alone QD1", "alone QDn", "all QD1", "all QDn", "all QDn remote",
};

/* ---- the machine's facts ---- */

/* Loads this machine's topology and looks every device up; without one
 * (a line on stderr says why) the report goes on without NUMA and PCI. */
static void load_topology(struct sat *s)
{
	const struct topo_dev **devs;
	unsigned i, k = 0;
	int err;

	/* the machine that runs the steps: an XML export would describe
	 * another one (that is what 'iostorm topo --topology' is for) */
	err = topo_load(&s->topo, NULL, cli_roots()->sysfs);
	if (err) {
		cli_say("no topology (NUMA nodes and PCI paths unknown): %s", strerror(-err));
		s->topo = NULL;
		return;
	}
	devs = calloc(s->n ? s->n : 1, sizeof(*devs));
	for (i = 0; i < s->n; i++) {
		if (topo_lookup(s->topo, s->dev[i].t->path, &s->dev[i].td))
			s->dev[i].td = NULL;
		else if (devs)
			devs[k++] = s->dev[i].td;
	}
	if (devs && k) {
		s->ntf = topo_findings(s->topo, devs, k, &s->tf);
		if (s->ntf < 0)
			s->ntf = 0;
	}
	free(devs);
}

/* CPUs this process may run on; 0 when the kernel will not say. */
static unsigned host_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	return (unsigned)CPU_COUNT(&set);
}

/* ---- the steps ---- */

static unsigned step_qd(const struct sat *s, enum sat_fig f)
{
	return f == SAT_QD1_SOLO || f == SAT_QD1_ALL ? 1 : s->o->qd;
}

/* d's figures into sd's step f: its timeline moves, its CPUs are copied. */
static void keep(struct satdev *sd, enum sat_fig f, struct cli_dev *d)
{
	int *cpus = NULL;

	if (d->cpus && d->nworkers) {
		cpus = malloc(d->nworkers * sizeof(*cpus));
		if (cpus)
			memcpy(cpus, d->cpus, d->nworkers * sizeof(*cpus));
	}
	/* a step run again (the MPI layer's cluster steps) replaces it */
	free(sd->fig[f].cpus);
	free(sd->fig[f].tl.s);
	free(sd->fig[f].reps);
	free(sd->fig[f].open.svc_hist);
	sd->fig[f] = *d;
	sd->fig[f].hist = NULL;
	d->open.svc_hist = NULL;	/* moved, with the timeline */
	sd->fig[f].cpus = cpus;
	sd->fig[f].nworkers = cpus ? d->nworkers : 0;
	memset(&d->tl, 0, sizeof(d->tl));
	d->reps = NULL;		/* moved */
	sd->done[f] = true;
}

/* The step's name (its window's, in --stream and the timeline) and, for
 * the live line only, the time left. */
static void step_label(const struct sat *s, enum sat_fig f, int only, char *buf,
		       size_t len, char *note, size_t note_len)
{
	/* this step included: the runner's own ETA covers the step only */
	uint64_t left = (uint64_t)(s->nsteps - s->step) * s->step_ns;

	snprintf(buf, len, "step %u/%u %s QD%u %s", s->step + 1, s->nsteps,
		 f == SAT_QD1_SOLO || f == SAT_QDN_SOLO ? "alone" : "all", step_qd(s, f),
		 only >= 0 ? s->dev[only].t->name : "devices");
	snprintf(note, note_len, "all done in ~%.0fs", cli_secs(left));
}

/* A device with failed IOs, a stall or an error that stopped it in step
 * f is named now and left out of the later steps: a failing drive must
 * neither hang nor skew the steps after it. */
static void check_failed(struct satdev *sd, enum sat_fig f,
			 const struct cli_dev *d)
{
	if (sd->failed || (!d->errors && !d->stalled && !d->fatal))
		return;
	sd->failed = true;
	if (d->stalled)
		snprintf(sd->why, sizeof(sd->why), "stalled in step %s", fig_name[f]);
	else if (d->fatal)
		snprintf(sd->why, sizeof(sd->why), "%s stopped it in step %s",
			 cli_errno_name(d->fatal), fig_name[f]);
	else
		snprintf(sd->why, sizeof(sd->why), "%llu %s error%s in step %s",
			 (unsigned long long)d->errors, cli_errno_name(d->errs.first),
			 d->errors == 1 ? "" : "s", fig_name[f]);
	cli_say("%s: %s; left out of the later steps", sd->t->name, sd->why);
}

/* One step: device `only` alone, or every device that has not failed
 * (only < 0); none left: nothing to run. */
int cli_sat_step(struct sat *s, enum sat_fig f, int only)
{
	const struct eng_target *tp[CLI_MAX_TARGETS];
	unsigned idx[CLI_MAX_TARGETS];
	struct cli_run_spec spec = cli_run_spec_of(s->o, ENG_OP_READ);
	struct cli_report rep;
	char label[128], note[48];
	unsigned i;
	int rc;

	for (i = 0; i < s->n; i++) {
		if ((only >= 0 && i != (unsigned)only) || s->dev[i].failed)
			continue;
		idx[spec.ntargets] = i;
		tp[spec.ntargets++] = s->dev[i].t;
	}
	if (!spec.ntargets) {
		s->step++;
		return 0;
	}
	spec.targets = tp;
	spec.qd = step_qd(s, f);
	if (f == SAT_QDN_REMOTE) {
		spec.placement = TOPO_PLACE_REMOTE;
		spec.placement_set = true;
	}
	step_label(s, f, only, label, sizeof(label), note, sizeof(note));
	spec.label = label;
	spec.note = note;
	rc = cli_runner_repeat(s->o, &spec, &rep, NULL, NULL);
	if (!rc) {
		for (i = 0; i < rep.ndev; i++)
			keep(&s->dev[idx[i]], f, &rep.dev[i]);
		s->engine = rep.engine;
		s->mode = rep.mode;
		s->interrupted |= rep.interrupted;
		s->unfixed |= rep.unfixed_bufs;
		s->io_errors |= rep.total.errors > 0 || rep.stalled;
		s->stalled |= rep.stalled;
		if (f == SAT_QDN_ALL && only < 0 && !s->place_notes) {
			s->place_notes = rep.place_notes;	/* moved */
			rep.place_notes = NULL;
		}
		if (!s->o->quiet)
			cli_say("%u/%u %s %s: %.0f IOPS%s", s->step + 1, s->nsteps, fig_name[f],
				only >= 0 ? s->dev[only].t->name : "devices", rep.total.iops,
				rep.interrupted ? " (interrupted)" : "");
		cli_report_print_errors(s->out, &rep);
		for (i = 0; i < rep.ndev; i++) {
			s->io_errors |= rep.dev[i].fatal != 0;
			check_failed(&s->dev[idx[i]], f, &rep.dev[i]);
		}
	}
	cli_report_free(&rep);
	s->step++;
	return rc;
}

/* The placement notes of the all-at-once step, said before the first
 * solo step: one line per kind for every device, instead of one a device
 * as each is placed alone; and the settings that cost IOPS on them, kept
 * for the ceiling section. */
void cli_sat_notes(struct sat *s)
{
	const struct eng_target *tp[CLI_MAX_TARGETS];
	const char *paths[CLI_MAX_TARGETS];
	struct cli_run_spec all = cli_run_spec_of(s->o, ENG_OP_READ);
	unsigned i;

	for (i = 0; i < s->n; i++) {
		tp[i] = s->dev[i].t;
		paths[i] = s->dev[i].t->path;
	}
	s->check_ok = !cli_check_gather(s->o, paths, s->n, &s->check);
	if (s->check_ok)
		cli_check_say(s->o, &s->check);
	cli_place_notes(&all, tp, s->n, all.jobs_per_device, all.mode);
}

int cli_sat_solo(struct sat *s)
{
	unsigned i;
	int rc = 0;

	cli_sat_notes(s);
	for (i = 0; i < s->n && !rc && !cli_runner_interrupted(); i++) {
		rc = cli_sat_step(s, SAT_QD1_SOLO, (int)i);
		if (!rc && !cli_runner_interrupted())
			rc = cli_sat_step(s, SAT_QDN_SOLO, (int)i);
	}
	if (!rc && !cli_runner_interrupted())
		rc = cli_sat_smt(s);
	s->interrupted |= cli_runner_interrupted();
	return rc;
}

static int run_all(struct sat *s)
{
	int rc = cli_sat_solo(s);

	if (!rc && !cli_runner_interrupted())
		rc = cli_sat_step(s, SAT_QD1_ALL, -1);
	if (!rc && !cli_runner_interrupted())
		rc = cli_sat_step(s, SAT_QDN_ALL, -1);
	if (!rc && s->so->compare_placement && !cli_runner_interrupted())
		rc = cli_sat_step(s, SAT_QDN_REMOTE, -1);
	s->interrupted |= cli_runner_interrupted();
	return rc;
}

static void plan(struct sat *s)
{
	const struct cli_opts *o = s->o;

	unsigned smt = cli_sat_smt_steps(s);

	s->nsteps = 2 * s->n + 2 + smt + (s->so->compare_placement ? 1 : 0);
	s->step_ns = (o->ramp_ns + o->time_ns) * (o->repeat > 1 ? o->repeat : 1);
	fprintf(s->out, "iostorm saturate: %u device%s; each alone at QD1 then QD%u,%s then all at once at QD1 then QD%u%s\n",
		s->n, s->n == 1 ? "" : "s", o->qd,
		smt ? " one worker on one PU of a core then on both (SMT)," : "", o->qd,
		s->so->compare_placement ? ", then all at QDn with remote workers" : "");
	if (o->time_ns)
		fprintf(s->out, "plan: %u steps of %.3gs ramp + %.3gs measured%s: about %.0fs\n",
			s->nsteps, cli_secs(o->ramp_ns), cli_secs(o->time_ns),
			o->repeat > 1 ? ", each but SMT's repeated" : "",
			(double)s->nsteps * (double)s->step_ns / (double)CLI_NS_PER_S);
	else
		fprintf(s->out, "plan: %u steps of %llu IOs per device each\n", s->nsteps,
			(unsigned long long)o->ios);
	fflush(s->out);
}

/* ---- the run ---- */

void cli_sat_close(struct sat *s)
{
	unsigned i, f;

	for (i = 0; s->dev && i < s->n; i++)
		for (f = 0; f < SAT_NFIG; f++) {
			free(s->dev[i].fig[f].cpus);
			free(s->dev[i].fig[f].tl.s);
			free(s->dev[i].fig[f].reps);
			free(s->dev[i].fig[f].open.svc_hist);
		}
	cli_sat_ceiling_free(s);
	cli_sat_slo_free(s);
	cli_check_free(&s->check);
	free(s->dev);
	free(s->tf);
	free(s->place_notes);
	if (s->topo)
		topo_free(s->topo);
	cli_targets_close(&s->ts);
}

bool cli_sat_any_done(const struct sat *s)
{
	unsigned i, f;

	for (i = 0; i < s->n; i++)
		for (f = 0; f < SAT_NFIG; f++)
			if (s->dev[i].done[f])
				return true;
	return false;
}

/* The analysis, the table and the JSON, once the steps have run. */
static int conclude(struct sat *s)
{
	int errs = s->io_errors ? -EIO : 0;
	int rc;

	if (cli_sat_analyse(s)) {
		cli_say("out of memory");
		return -ENOMEM;
	}
	rc = cli_sat_ceiling(s);
	if (rc) {
		cli_say("%s", rc == -ENOMEM ? "out of memory" :
			"the ceiling model refused the tree built from the topology");
		/* a refused tree is our bug, not the command line's */
		return rc == -ENOMEM ? rc : -EPROTO;
	}
	cli_sat_print_report(s);
	if (s->slo)
		cli_sat_print_slo(s);
	if (!cli_out_report_wanted(s->o))
		return errs;
	/* cli_out_json says why it could not write the report */
	return cli_out_json(s->o->json, cli_sat_json(s), CLI_JSON_REPORT) ? -EIO : errs;
}

/* The disk a file target, or a loop device's file, lives on: devices that
 * share one are a cause the gap's rules know (MODEL_GAP_SHARED_BACKING).
 * Left empty where it cannot be told. */
static void backing(struct satdev *sd)
{
	const struct eng_target *t = sd->t;
	dev_t fs = t->dev;

	if (t->is_blk && topo_loop_backing(cli_roots()->sysfs, t->name, &fs))
		return;
	if (topo_disk_of(fs, sd->backing, sizeof(sd->backing)))
		sd->backing[0] = '\0';
}

int cli_sat_open(struct sat *s, const struct cli_opts *o,
		 const struct cli_sat_opts *so)
{
	unsigned i;
	int rc;

	memset(s, 0, sizeof(*s));
	s->o = o;
	s->so = so;
	s->out = cli_out_text(o);
	rc = cli_targets_open(&s->ts, o);
	if (rc)
		return rc;
	s->n = s->ts.n;
	s->dev = calloc(s->n, sizeof(*s->dev));
	if (!s->dev) {
		cli_say("out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < s->n; i++) {
		s->dev[i].t = &s->ts.t[i];
		backing(&s->dev[i]);
	}
	load_topology(s);
	s->host_cpus = host_cpus();
	return 0;
}

int cli_saturate_run(const struct cli_opts *o, const struct cli_sat_opts *so)
{
	struct sat s;
	int rc, done;

	rc = cli_sat_open(&s, o, so);
	if (rc) {
		cli_sat_close(&s);
		return rc;
	}
	if (o->slo.n) {
		cli_sat_plan_slo(&s);
		rc = cli_sat_slo_run(&s);
	} else {
		plan(&s);
		rc = run_all(&s);
	}
	/* a step that failed as a whole (said) keeps what the others measured */
	if (rc != -EINVAL && cli_sat_any_done(&s)) {
		done = conclude(&s);
		rc = rc ? rc : done;
	}
	if (s.stalled)	/* workers hold targets */
		cli_command_abandon(cli_exit_status(rc ? rc : -EIO));
	cli_sat_close(&s);
	return rc;
}
