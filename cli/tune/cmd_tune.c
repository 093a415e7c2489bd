/* iostorm tune [options] TARGET...: the fastest configuration of this
 * machine for the targets, found in stages within a time budget, proven
 * against the default in paired rounds, and written down as a job file
 * (docs/tune.md). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/opts/jobfile.h"
#include "cli/opts/opts.h"
#include "cli/report/out.h"
#include "cli/report/outpath.h"
#include "cli/report/setup_json.h"
#include "cli/runner/drive.h"
#include "cli/runner/runner.h"
#include "cli/runner/stop.h"
#include "cli/tune/tune.h"
#include "engine/clock.h"
#include "model/health.h"

#define TUNE_BUDGET_NS (300 * CLI_NS_PER_S)	/* --budget's default */
#define TUNE_RAMP_NS (500 * 1000 * 1000ull)	/* each run's ramp */

enum { O_GOAL = 0x300, O_BUDGET, O_WRITE_CONFIG, O_ALLOW_ZEROS, O_STAGES };

static const char *const goal_names[] = { "iops", "latency", "iops-per-core", NULL };

static int set_goal(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	unsigned i;

	for (i = 0; goal_names[i]; i++) {
		if (!strcmp(arg, goal_names[i])) {
			o->tune_goal = (int)i;
			return 0;
		}
	}
	snprintf(err, errlen, "--goal: unknown goal '%s' (iops, latency or iops-per-core)", arg);
	return -EINVAL;
}

static int set_budget(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_duration("--budget", arg, 10 * CLI_NS_PER_S, 24 * 3600 * CLI_NS_PER_S,
				  &o->tune_budget_ns, err, errlen);
}

static int set_write_config(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	o->write_config = arg;
	return 0;
}

static int set_allow_zeros(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_flag("--allow-never-written", arg, &o->tune_zeros, err, errlen);
}

/* --stages engine,depth,...: the stages searched, each at most once. */
static int set_stages(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	char buf[128], *tok, *save = NULL;
	unsigned s, mask = 0;

	if (strlen(arg) >= sizeof(buf) || !*arg) {
		snprintf(err, errlen, "--stages: '%.60s': a list of engine, depth, batch, placement",
			 arg);
		return -EINVAL;
	}
	memcpy(buf, arg, strlen(arg) + 1);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (s = 0; s < MODEL_TUNE_NSTAGES; s++)
			if (!strcmp(tok, model_tune_stage_name((enum model_tune_stage)s)))
				break;
		if (s == MODEL_TUNE_NSTAGES) {
			snprintf(err, errlen, "--stages: unknown stage '%.40s' (engine, depth, batch, "
				 "placement)", tok);
			return -EINVAL;
		}
		if (mask & (1u << s)) {
			snprintf(err, errlen, "--stages: '%.40s' named twice", tok);
			return -EINVAL;
		}
		mask |= 1u << s;
	}
	o->tune_stages = mask;
	return 0;
}

static int show_goal(const struct cli_opts *o, char *buf, size_t len)
{
	return snprintf(buf, len, "%s", goal_names[o->tune_goal]);
}

static int show_budget(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_duration(o->tune_budget_ns ? o->tune_budget_ns : TUNE_BUDGET_NS, buf, len);
}

static const struct cli_optdesc own[] = {
	CLI_OPT_OWN("goal", O_GOAL, "GOAL", 0, 0, set_goal, show_goal, goal_names,
	  "what is best: IOPS over all targets at once, QD1 p99 latency, or\n"
	  "IOs per CPU-second (the workers' and their CPUs' interrupts)"),
	CLI_OPT_OWN("budget", O_BUDGET, "DURATION", 0, 0, set_budget, show_budget, NULL,
	  "the whole search's time, the final check of the job file included"),
	CLI_OPT_OWN("write-config", O_WRITE_CONFIG, "FILE", 0, 0, set_write_config, NULL, NULL,
	  "write the winner as a job file that 'iostorm -c FILE' runs as is"),
	CLI_OPT_OWN("stages", O_STAGES, "LIST", 0, 0, set_stages, NULL, NULL,
	  "the stages searched, in their order whatever LIST's (engine,\n"
	  "depth, batch, placement; all without it): the others keep the\n"
	  "options'"),
	CLI_OPT_OWN("allow-never-written", O_ALLOW_ZEROS, NULL, 0, 0, set_allow_zeros, NULL, NULL,
	  "tune on targets whose blocks read as never written (their figures\n"
	  "are the drive's shortcut for unwritten blocks, not its reads)"),
	CLI_OPT_END,
};

static int cmd_tune(int argc, char **argv);

const struct cli_verb cli_verb_tune = {
	.name = "tune",
	.what = "the fastest configuration of this machine for the targets",
	.synopsis = "iostorm tune [options] [TARGET...]\n\n"
		"Searches the engine, completion, jobs, depth, batch, reap, CPUs and\n"
		"group in stages within --budget, each stage by successive halving\n"
		"in random order; a stage's best replaces what it carries in only on a\n"
		"paired test. The winner is set against the options as given in\n"
		"paired rounds, each knob's worth measured one at a time, and the\n"
		"winner written with --write-config (docs/tune.md). Without TARGET:\n"
		"every NVMe namespace.",
	.operands = CLI_OPERANDS_TARGETS,
	.groups = CLI_OG_ENGINE | CLI_OG_TARGET | CLI_OG_JSON,
	.own = own,
	.ramp_ns = TUNE_RAMP_NS,
	.jobfile = true,
	.run = cmd_tune,
};

/* What tune cannot take: one line each, -EINVAL. */
static int refuse(const struct cli_opts *o)
{
	const char *c;
	unsigned i;

	if (!o->ntargets) {
		cli_say("no TARGET, and no NVMe namespace here: name the devices or files to tune for");
		return -EINVAL;
	}
	if (o->ios) {
		cli_say("--ios: tune times its runs from --budget: drop --ios");
		return -EINVAL;
	}
	/* a job file's `target` words are split on blanks, and a line ends a
	 * key: a target with either would be written as another */
	for (i = 0; o->write_config && i < o->ntargets; i++) {
		for (c = o->targets[i]; *c && !isspace((unsigned char)*c) && !iscntrl((unsigned char)*c);
		     c++)
			;
		if (*c) {
			cli_say("--write-config: a job file cannot name %s (a blank or control "
				"character in its path)", o->targets[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* The targets as /dev/ngXnY for the passthrough engine, as root on NVMe
 * namespaces; else why not into t->nvme_why. */
static struct eng_target *open_nvme(struct tune *t)
{
	struct eng_target *n;
	unsigned i;
	int rc;

	if (geteuid()) {
		snprintf(t->nvme_why, sizeof(t->nvme_why),
			 "NVMe passthrough needs root (/dev/ngXnY)");
		return NULL;
	}
	if (eng_uring_cmd_probe()) {
		snprintf(t->nvme_why, sizeof(t->nvme_why), "this kernel has no NVMe passthrough "
			 "through io_uring (IORING_OP_URING_CMD, Linux 5.19)");
		return NULL;
	}
	n = calloc(t->ntargets, sizeof(*n));
	if (!n) {
		snprintf(t->nvme_why, sizeof(t->nvme_why), "out of memory");
		return NULL;
	}
	for (i = 0; i < t->ntargets; i++) {
		rc = eng_target_open_nvme(&n[i], t->tp[i]->path, NULL);
		if (rc) {
			snprintf(t->nvme_why, sizeof(t->nvme_why),
				 "%.100s is not an NVMe namespace with a generic char device (%.60s)",
				 t->tp[i]->path, strerror(-rc));
			while (i--)
				eng_target_close(&n[i]);
			free(n);
			return NULL;
		}
	}
	return n;
}

/* Targets whose blocks read as never written are refused unless
 * --allow-never-written: -ENODATA, said in one line after the sampler's
 * own line for each (cli/runner/drive.h). */
static int zeros(struct tune *t)
{
	const struct cli_drive *d;
	unsigned i, n = 0;

	cli_drive_before(t->o, t->tp, t->ntargets);
	for (i = 0; i < t->ntargets; i++) {
		d = cli_drive_find(t->tp[i]->path);
		n += d && model_zero_high(d->zero_pct);
	}
	if (!n || t->o->tune_zeros)
		return 0;
	cli_say("%u target%s read%s as never written (above): tuned on %s, the figures would be "
		"the answer for unwritten blocks, not reads of data; fill %s first (iostorm fill), "
		"or --allow-never-written", n, n == 1 ? "" : "s", n == 1 ? "s" : "",
		n == 1 ? "it" : "them", n == 1 ? "it" : "them");
	return -ENODATA;
}

/* The job file written and read back, the winner run once from it: what
 * --write-config promises is what the file runs. Without --write-config,
 * the winner's configuration run once again. 0 or -errno, said. */
static int write_and_check(struct tune *t, double window_s)
{
	struct cli_jobfile j;
	struct cli_opts *o2 = NULL;
	struct cli_targets ts = { NULL, 0 };
	const struct eng_target *tp[CLI_MAX_TARGETS];
	struct cli_run_spec spec;
	struct cli_report rep;
	char text[8192], err[640], **argv = NULL, *none[1] = { NULL };
	int n, rc, fd;
	unsigned i;

	if (!t->o->write_config) {
		snprintf(t->check_from, sizeof(t->check_from), "the winner again");
		rc = tune_measure(t, &t->best, window_s, MODEL_TUNE_NSTAGES, 0, &t->check);
		t->checked = !rc && !t->interrupted;
		return rc;
	}
	n = tune_jobfile(t, text, sizeof(text));
	if (n < 0) {
		cli_say("%s: the job file does not fit %zu bytes", t->o->write_config, sizeof(text));
		return n;
	}
	fd = cli_outfile_fd(&t->wc);
	if (fd < 0 || write(fd, text, (size_t)n) != n || cli_outfile_commit(&t->wc)) {
		cli_say("%s: cannot write the job file: %s", t->o->write_config,
			strerror(fd < 0 ? -fd : errno ? errno : EIO));
		cli_outfile_discard(&t->wc);
		return -EIO;
	}
	snprintf(t->check_from, sizeof(t->check_from), "the job file, run once");
	rc = cli_jobfile_read(&j, t->o->write_config, err, sizeof(err));
	if (!rc)
		rc = cli_jobfile_check(&j, "run", err, sizeof(err));
	if (rc) {
		cli_say("%s", err);
		cli_jobfile_free(&j);
		return rc;
	}
	n = cli_jobfile_argv(&j, "run", 0, none, &argv);
	o2 = malloc(sizeof(*o2));
	rc = n < 0 || !o2 ? -ENOMEM : cli_opts_cmdline(o2, &cli_verb_run, n - 1, argv + 1);
	if (!rc)
		rc = cli_targets_open(&ts, o2);
	if (!rc) {
		for (i = 0; i < ts.n; i++)
			tp[i] = &ts.t[i];
		spec = cli_run_spec_of(o2, ENG_OP_READ);
		spec.targets = tp;
		spec.ntargets = ts.n;
		spec.time_ns = (uint64_t)(window_s * 1e9);
		spec.ramp_ns = t->o->ramp_ns;
		spec.interval_ns = TUNE_INTERVAL_NS;
		spec.quiet = true;
		spec.quiet_noise = true;
		spec.repeat = 1;
		spec.label = "tune check";
		rc = cli_runner_run(o2, &spec, &rep);
		if (!rc && !rep.interrupted && !rep.stalled && !rep.total.errors) {
			tune_run_of(t, &rep, &t->check);
			t->checked = true;
		}
		t->stalled = !rc && rep.stalled;
		cli_report_free(&rep);
	}
	cli_targets_close(&ts);
	free(o2);
	free(argv);
	cli_jobfile_free(&j);
	return rc == -ECANCELED ? -EINVAL : rc;
}

void tune_close(struct tune *t)
{
	unsigned i;

	if (!t)
		return;
	cli_outfile_discard(&t->wc);
	if (t->nv) {
		for (i = 0; i < t->ts.n; i++)
			eng_target_close(&t->nv[i]);
		free(t->nv);
	}
	cli_targets_close(&t->ts);
	free(t->cand);
	free(t);
}

int tune_open(const struct cli_opts *o, FILE *text, struct tune **out)
{
	struct tune *t;
	unsigned i;
	int rc = refuse(o);

	*out = NULL;
	if (rc)
		return rc;
	t = calloc(1, sizeof(*t));
	if (!t) {
		cli_say("out of memory");
		return -ENOMEM;
	}
	t->wc.fd = -1;
	if (o->write_config) {
		/* as every file iostorm writes: checked and made ready before any IO */
		rc = cli_outfile_reserve(&t->wc, o->write_config);
		if (rc)
			cli_say("%s: %s", o->write_config, t->wc.at.why);
		else if ((rc = cli_outpath_claim_checked(o->write_config, "--write-config's file",
							 &t->wc.at)))
			cli_say("out of memory");
	}
	if (!rc)
		rc = cli_targets_open(&t->ts, o);
	if (rc) {
		tune_close(t);
		return rc;
	}
	t->o = o;
	t->f = text;
	t->t0_ns = eng_mono_ns();
	t->goal = (enum model_tune_goal)o->tune_goal;
	t->budget_ns = o->tune_budget_ns ? o->tune_budget_ns : TUNE_BUDGET_NS;
	t->seed0 = o->seed ? o->seed : eng_mono_ns() ^ (uint64_t)getpid();
	t->seed = t->seed0;
	for (i = 0; i < t->ts.n; i++)
		t->tpv[i] = &t->ts.t[i];
	t->tp = t->tpv;
	t->ntargets = t->ts.n;
	t->nv = open_nvme(t);
	if (t->nv) {
		for (i = 0; i < t->ts.n; i++)
			t->tnv[i] = &t->nv[i];
		t->tp_nvme = t->tnv;
	}
	if (eng_uring_waits_probe(&t->waits))
		t->waits.no_iowait = t->waits.min_wait = t->waits.reg_wait = -EOPNOTSUPP;
	tune_cfg_of(&t->dflt, o);
	if (t->goal == MODEL_TUNE_LATENCY) {
		/* the goal is QD1's: one IO in flight per device */
		t->dflt.qd = t->dflt.batch = t->dflt.reap = t->dflt.jobs = 1;
	}
	t->best = t->dflt;
	rc = tune_plan_first(t);
	if (rc == -ENOSPC) {
		cli_say("--budget %.0fs is too short for this search: it needs at least %.0fs "
			"(runs of at least %.2gs after a %.2gs ramp): a longer --budget, or fewer "
			"--stages", (double)t->budget_ns / 1e9,
			t->plan0.least_budget_s, MODEL_TUNE_MIN_RUN_S, (double)o->ramp_ns / 1e9);
		rc = -EINVAL;
	}
	if (!rc)
		rc = zeros(t);
	if (rc) {
		tune_close(t);
		return rc;
	}
	*out = t;
	return 0;
}

int tune_go(struct tune *t)
{
	int rc;

	tune_say_plan(t);
	cli_runner_signals();
	rc = tune_search(t);
	if (!rc && !t->interrupted && !t->stalled)
		rc = write_and_check(t, 2 * t->w_s);
	tune_check_verdict(t);
	if (!t->interrupted && !t->stalled)
		(void)tune_settings(t);	/* the facts not read: said, nothing to name */
	tune_say_end(t);
	return rc;
}

json_t *tune_report_json(const struct tune *t)
{
	return json_pack("{s:s, s:s, s:o, s:o}", "schema", CLI_JSON_SCHEMA, "command", "tune",
			 "tune", tune_json(t),
			 "setup", cli_json_setup((const char *const *)t->o->targets, t->o->ntargets));
}

bool tune_stalled(const struct tune *t)
{
	return t->stalled;
}

bool tune_interrupted(const struct tune *t)
{
	return t->interrupted;
}

static int cmd_tune(int argc, char **argv)
{
	struct cli_opts o;
	struct tune *t = NULL;
	char **nvme = NULL;
	json_t *root;
	int nn = 0;
	int rc = cli_opts_cmdline(&o, &cli_verb_tune, argc, argv);

	if (rc)
		return cli_exit_status(rc);
	/* without TARGET, every NVMe namespace: the last step of reading the
	 * command line, as saturate's (cli_opts is read-only after it) */
	if (!o.ntargets && (nn = cli_nvme_paths(&nvme)) > 0) {
		o.targets = nvme;
		o.ntargets = (unsigned)nn;
	}
	rc = nn < 0 ? nn : tune_open(&o, cli_out_text(&o), &t);
	if (rc)
		goto out;
	rc = tune_go(t);
	if (cli_out_report_wanted(&o)) {
		root = tune_report_json(t);
		if (cli_out_json(o.json, root, CLI_JSON_REPORT) && !rc)
			rc = -EIO;
	}
	if (t->stalled)	/* its workers hold the targets */
		cli_command_abandon(cli_exit_status(-EIO));
out:
	tune_close(t);
	if (nn > 0)
		cli_nvme_paths_free(nvme, (unsigned)nn);
	return cli_exit_status(rc);
}
