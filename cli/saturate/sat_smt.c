/* saturate's SMT steps: what a core's second hardware thread adds to a
 * worker, for the ceiling's CPU resource. The first device's
 * worker runs on one PU of a core, then one worker runs on each PU of
 * that core, both at QDn. Only when the one-PU worker was CPU-bound does
 * the ratio say what the core can do with both PUs; a device that was the
 * limit leaves it unknown (and the model counts cores only). */
#include "cli/saturate/sat_int.h"


#include "cli/commands.h"
#include "cli/report/out.h"
#include "topo/smt.h"
#include "cli/runner/runner.h"
#include "cli/runner/stop.h"

#define SMT_TIME_NS CLI_NS_PER_S		/* at most, per step */
#define SMT_RAMP_NS (CLI_NS_PER_S / 2)

unsigned cli_sat_smt_steps(struct sat *s)
{
	const struct topo_dev *td = s->n ? s->dev[0].td : NULL;

	/* under --rate both steps are held to the rate: no ratio to find */
	if (!s->topo || !s->n || s->o->rate)
		return 0;
	s->smt.dev = s->dev[0].t->name;
	s->smt.one = s->smt.both = s->smt.ratio = -1;
	s->smt.tried = !topo_smt_pair(s->topo, td && td->cpus ? &td->cpuset : NULL,
				      &s->smt.pu[0], &s->smt.pu[1]);
	return s->smt.tried ? 2 : 0;
}

/* npu workers of device 0, on the first npu PUs of the pair. */
static int smt_step(struct sat *s, unsigned npu, double *iops, double *busy)
{
	const struct eng_target *tp[1] = { s->dev[0].t };
	struct cli_run_spec spec = cli_run_spec_of(s->o, ENG_OP_READ);
	struct cli_report rep;
	char label[160];
	int rc;

	spec.targets = tp;
	spec.ntargets = 1;
	spec.jobs_per_device = npu;
	spec.cpus = s->smt.pu;
	spec.ncpus = npu;
	spec.time_ns = spec.time_ns && spec.time_ns < SMT_TIME_NS ? spec.time_ns : SMT_TIME_NS;
	spec.ramp_ns = spec.ramp_ns < SMT_RAMP_NS ? spec.ramp_ns : SMT_RAMP_NS;
	spec.ios = 0;
	if (npu > 1)
		snprintf(label, sizeof(label), "step %u/%u SMT %s on CPUs %d,%d", s->step + 1,
			 s->nsteps, s->smt.dev, s->smt.pu[0], s->smt.pu[1]);
	else
		snprintf(label, sizeof(label), "step %u/%u SMT %s on CPU %d", s->step + 1,
			 s->nsteps, s->smt.dev, s->smt.pu[0]);
	spec.label = label;
	rc = cli_runner_run(s->o, &spec, &rep);
	s->step++;
	if (!rc) {
		s->stalled |= rep.stalled;
		s->io_errors |= rep.total.errors > 0 || rep.stalled;
		s->interrupted |= rep.interrupted;
		if (!rep.total.errors && !rep.stalled && !rep.interrupted && rep.ndev) {
			*iops = rep.total.iops;
			*busy = model_gap_cpu_pct(rep.dev[0].busiest_s, rep.dev[0].elapsed_s, 1);
		}
		cli_report_print_errors(s->out, &rep);
	}
	cli_report_free(&rep);
	return rc;
}

int cli_sat_smt(struct sat *s)
{
	double busy2 = MODEL_GAP_UNKNOWN;
	int rc;

	if (!s->smt.tried || s->dev[0].failed)
		return 0;
	s->smt.one_busy_pct = MODEL_GAP_UNKNOWN;
	rc = smt_step(s, 1, &s->smt.one, &s->smt.one_busy_pct);
	if (!rc && !cli_runner_interrupted())
		rc = smt_step(s, 2, &s->smt.both, &busy2);
	if (s->smt.one > 0 && s->smt.both >= 0 &&
	    s->smt.one_busy_pct >= MODEL_GAP_CPU_BUSY_PCT)
		s->smt.ratio = s->smt.both / s->smt.one;
	if (!s->o->quiet && s->smt.one >= 0 && s->smt.both >= 0)
		cli_say("SMT: %s on CPU %d: %.0f IOPS (%.0f%% busy); on CPUs %d,%d: %.0f IOPS",
			s->smt.dev, s->smt.pu[0], s->smt.one,
			model_gap_known(s->smt.one_busy_pct) ? s->smt.one_busy_pct : 0.0,
			s->smt.pu[0], s->smt.pu[1], s->smt.both);
	return rc;
}
