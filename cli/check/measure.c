/* iostorm check --measure: what each runtime-changeable setting that costs
 * IOPS costs here, measured. For each one, on its target alone, rounds of
 * two trials, A (the setting now) and B (the better one), in the order
 * AB BA AB ... so that a drift over the run (a drive warming up, a page
 * cache filling) falls on both sides alike, at --qd and at QD1; judged
 * as compare --ab judges its rounds (the paired t-test on compare's
 * estimator), with Holm over the session's tests. Every
 * change goes through setup/knob.h, whose journal lets the next `check`
 * put it back when this process does not live to (cli_check_recover);
 * cmd_check holds the session lock around all of it. */
#include "cli/check/measure.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/check/check.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/report/out.h"
#include "cli/report/spread.h"
#include "cli/runner/runner.h"
#include "cli/runner/stop.h"
#include "cli/runner/targets.h"
#include "cli/opts/roots.h"
#include "model/stats.h"
#include "setup/knob.h"

/* What the rounds of a row say (judge()). */
enum verdict { V_UNTESTED, V_SAME, V_BETTER, V_WORSE };

/* One setting at one depth: its figures round by round, and the test. */
struct row {
	const struct check_finding *f;
	const char *device;		/* devs[f->dev].name */
	const char *disk;		/* the queue changed */
	enum setup_knob knob;
	unsigned qd;
	char now[SETUP_KNOB_VALUE_MAX];	/* A, as read before the first trial */
	double a[CLI_CHECK_MAX_ROUNDS], b[CLI_CHECK_MAX_ROUNDS];
	unsigned done;			/* rounds with both trials */
	struct model_change c;		/* B against A, when tested */
	double p_holm;			/* c.p adjusted over the session */
	enum verdict verdict;
};

struct meas {
	const struct cli_opts *o;
	struct cli_run_spec run;	/* the trials' run */
	struct setup_knobs *ks;
	struct row *rows;
	unsigned nrows;
	unsigned rounds;
	unsigned trial, ntrials;	/* for the line each trial starts with */
	unsigned ntests;		/* rows tested, Holm's family */
	bool interrupted;
};

/* The knob a finding's fix turns; -1 for kinds --measure does not try
 * (those needing a reboot or a module reload, and the machine's). */
static int knob_of(enum check_kind k)
{
	switch (k) {
	case CHECK_SCHEDULER: return SETUP_KNOB_SCHEDULER;
	case CHECK_IOSTATS: return SETUP_KNOB_IOSTATS;
	case CHECK_NOMERGES: return SETUP_KNOB_NOMERGES;
	case CHECK_WBT: return SETUP_KNOB_WBT;
	default: return -1;
	}
}

/* f is measured: runtime, turned by a knob, on a target with a queue,
 * and not already measured on that queue (two partitions of one disk). */
static bool measurable(const struct check_finding *f, unsigned i,
		       const struct setup_dev *devs, unsigned ndevs)
{
	const struct check_kind_info *ki = check_kind_info(f[i].kind);
	unsigned j;

	if (!ki || !ki->runtime || knob_of(f[i].kind) < 0 || f[i].dev < 0 ||
	    (unsigned)f[i].dev >= ndevs || !devs[f[i].dev].disk[0])
		return false;
	for (j = 0; j < i; j++)
		if (f[j].kind == f[i].kind && f[j].dev >= 0 && (unsigned)f[j].dev < ndevs &&
		    !strcmp(devs[f[j].dev].disk, devs[f[i].dev].disk))
			return false;
	return true;
}

/* A row per measured setting and depth: --qd's, then QD1. */
static int plan(struct meas *m, const struct setup_dev *devs, unsigned ndevs,
		const struct check_finding *f, unsigned nf)
{
	unsigned i, d, nd = m->o->qd > 1 ? 2 : 1;
	struct row *w;

	m->rows = calloc(nf * 2 + 1, sizeof(*m->rows));
	if (!m->rows) {
		cli_say("out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < nf; i++) {
		if (!measurable(f, i, devs, ndevs))
			continue;
		for (d = 0; d < nd; d++) {
			w = &m->rows[m->nrows++];
			w->f = &f[i];
			w->device = devs[f[i].dev].name;
			w->disk = devs[f[i].dev].disk;
			w->knob = (enum setup_knob)knob_of(f[i].kind);
			w->qd = d ? 1 : m->o->qd;
		}
	}
	m->ntrials = m->nrows * m->rounds * 2;
	return 0;
}

/* ---- changing a setting ---- */

static const char *kind_name(const struct row *w)
{
	return check_kind_info(w->f->kind)->name;
}

/* The value B writes into the knob (and names in the table): the one
 * place that reads it from the finding, the fix's value, never its text
 * for people. */
static const char *better_of(const struct row *w)
{
	return w->f->fix.value;
}

/* A knob's failure, said; -EINVAL (the kernel refusing a value) is not a
 * usage error. */
static int knob_failed(const struct meas *m, const struct row *w, const char *what, int err)
{
	const char *file = setup_knob_file(w->knob);

	if (err == -EBUSY)
		cli_say("another journal of changed settings is there (%s): a 'check --measure' "
			"running, or one whose settings could not be put back",
			m->ks->journal);
	else if (err == -ETIMEDOUT)
		cli_say("%s: the kernel did not take queue/%s within %d s (a stalled queue?): "
			"it may stay changed; the journal %s keeps its old value", w->disk, file,
			SETUP_KNOB_WRITE_MS / 1000, m->ks->journal);
	else if (err == -ESTALE)
		cli_say("%s is no longer the disk this measurement began on (removed and "
			"another given its name): nothing more is written to it", w->disk);
	else if (err == -ELOOP || err == -EXDEV)
		cli_say("%s: queue/%s is %s: not written", w->disk, file,
			err == -ELOOP ? "a symbolic link" : "not a sysfs file");
	else if (err == -EACCES || err == -EPERM || err == -EROFS)
		cli_say("--measure changes block queue settings, which needs root (%s queue/%s: %s)",
			w->disk, file, strerror(-err));
	else
		cli_say("%s: cannot %s queue/%s: %s", w->disk, what, file, strerror(-err));
	return err == -EINVAL ? -EOPNOTSUPP : err;
}

/* A: the setting as it was (with what a scheduler switch reset); B: the
 * better one, its old value journaled first. */
static int apply(struct meas *m, const struct row *w, bool better)
{
	int err;

	if (better)
		err = setup_knob_set(m->ks, w->disk, w->knob, better_of(w));
	else
		err = setup_knob_restore(m->ks, w->disk, w->knob);
	return err ? knob_failed(m, w, better ? "set" : "put back", err) : 0;
}

/* ---- one trial ---- */

/* A run whose workers never came back holds the queue: a scheduler
 * switch would wait for them forever, so nothing is put back now; the
 * journal stays for the next start of iostorm. */
static _Noreturn void abandon(const struct meas *m)
{
	cli_say("a stalled run holds the device: the settings it changed stay so until "
		"a later 'iostorm check' puts them back (journal %s)", m->ks->journal);
	cli_command_abandon(CLI_EXIT_RUNTIME);
}

/* One trial of row w with A or B in place: its IOPS in *iops. 0 or
 * -errno, said; an interrupted trial is 0 with m->interrupted set. */
static int trial(struct meas *m, struct row *w, const struct eng_target *t, bool better,
		 double *iops)
{
	struct cli_run_spec spec = m->run;
	struct cli_report rep;
	char label[256];
	int err = apply(m, w, better);

	if (err)
		return err;
	m->trial++;
	/* after the change: a reader of this line knows the setting is in place */
	if (!m->o->quiet)
		cli_say("%u/%u %s %s %s (%s) at QD%u", m->trial, m->ntrials, w->device,
			kind_name(w), better ? better_of(w) : w->now, better ? "better" : "now",
			w->qd);
	snprintf(label, sizeof(label), "%s %s", kind_name(w), better ? better_of(w) : w->now);
	spec.label = label;
	spec.targets = &t;
	spec.ntargets = 1;
	spec.qd = w->qd;
	err = cli_runner_run(m->o, &spec, &rep);
	if (!err && rep.stalled)
		abandon(m);
	if (!err && rep.interrupted)
		m->interrupted = true;
	else if (!err && (rep.total.errors || rep.dev[0].fatal)) {
		cli_report_print_errors(stderr, &rep);
		err = -EIO;
	} else if (!err) {
		*iops = rep.total.iops;
	}
	cli_report_free(&rep);
	return err;
}

/* Every round of row w on target t; stops at the first failure or stop
 * request. */
static int measure_row(struct meas *m, struct row *w, const struct eng_target *t)
{
	unsigned r;
	bool b_first;
	int err = 0;

	for (r = 0; r < m->rounds && !err; r++) {
		b_first = r % 2;
		if (cli_runner_interrupted())
			m->interrupted = true;
		if (m->interrupted)
			break;
		err = trial(m, w, t, b_first, b_first ? &w->b[r] : &w->a[r]);
		if (!err && !m->interrupted)
			err = trial(m, w, t, !b_first, b_first ? &w->a[r] : &w->b[r]);
		if (!err && !m->interrupted)
			w->done++;
	}
	return err;
}

/* The rows of one finding (its depths), on its target alone, opened for
 * them; the setting put back after, whatever happened. */
static int measure_finding(struct meas *m, struct row *rows, unsigned n)
{
	struct cli_opts one = *m->o;	/* its one target's operand */
	struct cli_targets ts = { NULL, 0 };
	unsigned i, dev = (unsigned)rows[0].f->dev;
	int err, back;

	/* --measure takes named targets only (cmd_check), one device each */
	if (dev >= m->o->ntargets) {
		cli_say("%s: not one of the targets named", rows[0].device);
		return -ENODEV;
	}
	one.targets = &m->o->targets[dev];
	one.ntargets = 1;
	err = setup_knob_get(m->ks, rows[0].disk, rows[0].knob, rows[0].now, sizeof(rows[0].now));
	if (err)
		return knob_failed(m, &rows[0], "read", err);
	for (i = 1; i < n; i++)
		memcpy(rows[i].now, rows[0].now, sizeof(rows[i].now));
	err = cli_targets_open(&ts, &one);
	for (i = 0; !err && i < n && !m->interrupted; i++)
		err = measure_row(m, &rows[i], &ts.t[0]);
	cli_targets_close(&ts);
	back = setup_knob_restore(m->ks, rows[0].disk, rows[0].knob);
	if (back)
		back = knob_failed(m, &rows[0], "put back", back);
	return err ? err : back;
}

/* ---- figures ---- */

/* The words for a verdict: in the JSON, in the table. */
static const struct {
	const char *json, *text;
} verdicts[] = {
	[V_UNTESTED] = { "untested", "untested" },
	[V_SAME] = { "no_difference", "no difference" },
	[V_BETTER] = { "better", "better" },
	[V_WORSE] = { "worse", "worse" },
};

/* The estimator of IOPS over the rounds, the one compare uses for runs
 * bounded as the trials are (equal time: the Amean; --ios: the Hmean). */
static enum model_mean iops_mean(const struct meas *m)
{
	return cli_mean_of(CLI_M_IOPS, m->run.ios > 0, false);
}

/* Each row's change of B against A, its interval and the paired t-test
 * of its rounds (model_change_paired, as compare --ab); then Holm over
 * every row tested in this session, and the verdict: better or worse
 * where Holm's p < alpha, no difference elsewhere (model_verdicts). A
 * row of one round has no test. 0 or -errno, said. */
static int judge(struct meas *m)
{
	static const enum verdict of[] = {
		[MODEL_NO_DIFFERENCE] = V_SAME, [MODEL_HIGHER] = V_BETTER, [MODEL_LOWER] = V_WORSE,
	};
	enum model_mean mean = iops_mean(m);
	size_t k = m->nrows + 1;
	unsigned i, n = 0, *order = calloc(k, sizeof(*order));
	double *ch = calloc(k, sizeof(*ch)), *p = calloc(k, sizeof(*p));
	enum model_verdict *v = calloc(k, sizeof(*v));
	struct row **t = calloc(k, sizeof(*t));
	int rc = -ENOMEM;

	if (!order || !ch || !p || !v || !t) {
		cli_say("out of memory");
		goto out;
	}
	for (i = 0; i < m->nrows; i++) {
		m->rows[i].verdict = V_UNTESTED;
		if (m->rows[i].done < 2 || model_change_paired(m->rows[i].a, m->rows[i].b,
							       m->rows[i].done, mean,
							       1.0 - m->o->alpha, &m->rows[i].c))
			continue;
		t[n] = &m->rows[i];
		ch[n] = t[n]->c.change;
		p[n] = t[n]->c.p;
		n++;
	}
	m->ntests = n;
	/* model_change_paired's p is in [0,1], and alpha opts' 0.05 */
	rc = model_verdicts(ch, p, n, MODEL_HOLM, m->o->alpha, order, p, v);
	if (rc) {
		cli_say("cannot judge the rounds: %s", strerror(-rc));
		goto out;
	}
	for (i = 0; i < n; i++) {
		t[i]->p_holm = p[i];
		t[i]->verdict = of[v[i]];
	}
out:
	free(order);
	free(ch);
	free(p);
	free(v);
	free(t);
	return rc;
}

/* A side's IOPS over the rounds, by the estimator. */
static double mean_of(const struct meas *m, const double *v, unsigned n)
{
	bool h = iops_mean(m) == MODEL_HMEAN;
	double s = 0;
	unsigned r;

	for (r = 0; r < n; r++)
		s += h ? 1.0 / v[r] : v[r];
	s /= n;
	return h ? 1.0 / s : s;
}

/* B against A as a fraction: the test's, or for a row of one round the
 * same estimator's without a test. */
static double change_of(const struct meas *m, const struct row *w)
{
	if (w->verdict != V_UNTESTED)
		return w->c.change;
	return mean_of(m, w->b, w->done) / mean_of(m, w->a, w->done) - 1.0;
}

/* "+1.2..+3.4%", "+1.2..inf%", or "-" without a test */
static const char *ci_text(const struct row *w, char *buf, size_t len)
{
	if (w->verdict == V_UNTESTED)
		snprintf(buf, len, "-");
	else if (isfinite(w->c.ci_hi))
		snprintf(buf, len, "%+.1f..%+.1f%%", 100.0 * w->c.ci_lo, 100.0 * w->c.ci_hi);
	else
		snprintf(buf, len, "%+.1f..inf%%", 100.0 * w->c.ci_lo);
	return buf;
}

static void print_table(const struct meas *m, FILE *out)
{
	const struct row *w;
	char ci[64], p[16], holm[16];
	unsigned i, shown = 0, untested = 0;

	fprintf(out, "\nmeasured: the better setting (B) against the one now (A), on each target "
		"alone, %u round%s of A and B (ABBA...), %.3gs a trial after a %.3gs ramp%s\n",
		m->rounds, m->rounds == 1 ? "" : "s", cli_secs(m->run.time_ns),
		cli_secs(m->run.ramp_ns), m->interrupted ? "; INTERRUPTED" : "");
	fprintf(out, "change: B / A - 1 of the rounds' %s IOPS (%s, as compare), its %g%% "
		"interval and p from the paired t-test of the rounds (as compare --ab); "
		"verdict: Holm's p < %g over the %u test%s of this session (family-wise)\n",
		iops_mean(m) == MODEL_HMEAN ? "Hmean" : "Amean",
		m->run.ios ? "equal IOs (--ios)" : "equal time", 100.0 * (1.0 - m->o->alpha),
		m->o->alpha, m->ntests, m->ntests == 1 ? "" : "s");
	fprintf(out, "%-12s %-10s %-12s %-8s %5s %12s %12s %8s %-18s %8s %8s  %s\n", "DEVICE",
		"SETTING", "NOW", "BETTER", "QD", "IOPS NOW", "IOPS BETTER", "CHANGE", "CI",
		"P", "P HOLM", "VERDICT");
	for (i = 0; i < m->nrows; i++) {
		w = &m->rows[i];
		if (!w->done)
			continue;
		shown++;
		untested += w->verdict == V_UNTESTED;
		snprintf(p, sizeof(p), w->verdict == V_UNTESTED ? "-" : "%.3g", w->c.p);
		snprintf(holm, sizeof(holm), w->verdict == V_UNTESTED ? "-" : "%.3g", w->p_holm);
		fprintf(out, "%-12s %-10s %-12s %-8s %5u %12.0f %12.0f %+7.1f%% %-18s %8s %8s  %s\n",
			w->device, kind_name(w), w->now, better_of(w), w->qd,
			mean_of(m, w->a, w->done), mean_of(m, w->b, w->done),
			100.0 * change_of(m, w), ci_text(w, ci, sizeof(ci)), p, holm,
			verdicts[w->verdict].text);
	}
	if (untested)
		fprintf(out, "untested: one round has no test (--rounds 2 or more gives one), nor "
			"rounds whose A is 0 IOPS\n");
	if (!shown)
		fprintf(out, "(no setting measured at a depth over all its rounds before the stop)\n");
	fflush(out);
}

static json_t *json_iops(const double *v, unsigned n)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < n; i++)
		if (json_array_append_new(a, json_real(v[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *num(double v, bool have)
{
	return have && isfinite(v) ? json_real(v) : json_null();
}

/* A row with its rounds: [{device, kind, qd, now, better, iops_now,
 * iops_better, diff_pct, diff_pct_ci: [lo, hi], p, p_holm, noise_pct,
 * verdict}]; the test's figures null without one. */
static json_t *json_row(const struct meas *m, const struct row *w)
{
	bool t = w->verdict != V_UNTESTED;
	json_t *a = json_iops(w->a, w->done), *b = json_iops(w->b, w->done);
	json_t *ci = t ? json_pack("[o, o]", num(100.0 * w->c.ci_lo, t),
				   num(100.0 * w->c.ci_hi, t)) : json_null();

	if (!a || !b || !ci) {
		json_decref(a);
		json_decref(b);
		json_decref(ci);
		return NULL;
	}
	/* o: the references go to the row */
	return json_pack("{s:s, s:s, s:I, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s}",
			 "device", w->device, "kind", kind_name(w), "qd", (json_int_t)w->qd,
			 "now", w->now, "better", better_of(w), "iops_now", a,
			 "iops_better", b, "diff_pct", num(100.0 * change_of(m, w), true),
			 "diff_pct_ci", ci, "p", num(w->c.p, t), "p_holm", num(w->p_holm, t),
			 "noise_pct", num(100.0 * w->c.noise, t), "verdict",
			 verdicts[w->verdict].json);
}

/* "measured" (the rows) and "measured_test" (how they were judged). */
static int add_json(const struct meas *m, json_t *root)
{
	json_t *a = json_array(), *r, *t;
	unsigned i;

	for (i = 0; a && i < m->nrows; i++) {
		if (!m->rows[i].done)
			continue;
		r = json_row(m, &m->rows[i]);
		if (!r || json_array_append_new(a, r)) {
			json_decref(a);
			a = NULL;
		}
	}
	t = json_pack("{s:s, s:s, s:f, s:f, s:s, s:I}", "estimator",
		      iops_mean(m) == MODEL_HMEAN ? "hmean" : "amean", "test", "paired",
		      "alpha", m->o->alpha, "confidence", 1.0 - m->o->alpha, "adjust", "holm",
		      "tests", (json_int_t)m->ntests);
	if (!a || !t || json_object_set_new(root, "measured", a) ||
	    json_object_set_new(root, "measured_test", t)) {
		cli_say("out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* ---- the command's part ---- */

/* A journal left there (its recovery failed, or it was not applied):
 * nothing is changed while it is. */
static int journal_free(const struct meas *m)
{
	if (access(m->ks->journal, F_OK))
		return 0;
	cli_say("the journal of changed settings %s is there: the settings it names could "
		"not be put back; nothing is changed while it is", m->ks->journal);
	return -EBUSY;
}

static int measure_all(struct meas *m)
{
	unsigned i, j;
	int err = 0;

	for (i = 0; i < m->nrows && !err && !m->interrupted; i = j) {
		for (j = i + 1; j < m->nrows && m->rows[j].f == m->rows[i].f; j++)
			;
		err = measure_finding(m, &m->rows[i], j - i);
	}
	return err;
}

int cli_check_measure(const struct cli_opts *o, const struct setup_dev *devs,
		      unsigned ndevs, const struct check_finding *f, unsigned nf,
		      json_t *root)
{
	struct meas m = { .o = o, .run = cli_run_spec_of(o, ENG_OP_READ) };
	int err, left;

	/* a stop request from here on stops a trial, never the process */
	cli_runner_signals();
	m.rounds = o->rounds ? o->rounds : CLI_CHECK_ROUNDS;
	if (m.rounds > CLI_CHECK_MAX_ROUNDS)
		m.rounds = CLI_CHECK_MAX_ROUNDS;
	m.run.quiet = true;	/* each trial says one line as it starts */
	if (!m.run.time_ns && !m.run.ios)
		m.run.time_ns = CLI_CHECK_TIME_NS;
	m.ks = malloc(sizeof(*m.ks));
	err = m.ks ? plan(&m, devs, ndevs, f, nf) : -ENOMEM;
	if (err == -ENOMEM && !m.ks)
		cli_say("out of memory");
	if (!err && (err = setup_knobs_init(m.ks, cli_roots())))
		cli_say("cannot begin a session of changed settings (this boot's id, the "
			"journal's name): %s", strerror(-err));
	if (!err && m.nrows)
		err = journal_free(&m);
	if (!err)
		err = measure_all(&m);
	if (m.ks && m.nrows) {
		/* each finding put its own back; this is the net under them */
		left = setup_knobs_restore(m.ks);
		if (left < 0 && !err) {
			cli_say("cannot put back every setting changed (journal %s): %s",
				m.ks->journal, strerror(-left));
			err = left == -EINVAL ? -EOPNOTSUPP : left;
		}
		setup_knobs_close(m.ks);
	}
	/* the rows measured are judged whatever stopped the rest */
	if (m.nrows && (left = judge(&m)) && !err)
		err = left;
	if (m.nrows && (!o->json || strcmp(o->json, "-")))
		print_table(&m, cli_out_text(o));
	else if (!err && !m.nrows)
		cli_say("--measure: nothing to measure: no target has a queue setting that costs IOPS (scheduler, iostats, nomerges, wbt)");
	if (root && !err)
		err = add_json(&m, root);
	free(m.rows);
	free(m.ks);
	return err;
}
