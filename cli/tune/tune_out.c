/* What tune says: its plan before anything runs, each stage, the end
 * (the winner against the default, each knob's worth, what was not
 * tried, the settings check names), its JSON and the winner's job file. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/tune/tune.h"
#include "cli/report/out.h"
#include "cli/report/say.h"

const char *tune_goal_unit(enum model_tune_goal g)
{
	switch (g) {
	case MODEL_TUNE_IOPS: return "IOPS";
	case MODEL_TUNE_LATENCY: return "us p99 at QD1";
	case MODEL_TUNE_IOPS_PER_CORE: return "IOs per CPU-second";
	}
	return "";
}

const char *tune_fmt_fig(enum model_tune_goal g, double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (g == MODEL_TUNE_LATENCY)
		cli_fmt_us(buf, len, v, true);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

/* "[lo, hi]" of a figure in the goal's unit; "" without one. */
static const char *fmt_ci(enum model_tune_goal g, double lo, double hi, char *buf, size_t len)
{
	char a[32], b[32];

	if (!isfinite(lo) && !isfinite(hi)) {
		buf[0] = '\0';
		return buf;
	}
	snprintf(buf, len, " [%s, %s]", isfinite(lo) ? tune_fmt_fig(g, lo, a, sizeof(a)) : "-inf",
		 isfinite(hi) ? tune_fmt_fig(g, hi, b, sizeof(b)) : "+inf");
	return buf;
}

/* A change in percent with its interval: "+31.0% [+27.2, +35.1], p 0.0012". */
static const char *fmt_change(const struct tune_pair *p, char *buf, size_t len)
{
	if (!p->tested) {
		snprintf(buf, len, "not tested (%u paired round%s)", p->rounds,
			 p->rounds == 1 ? "" : "s");
		return buf;
	}
	snprintf(buf, len, "%+.1f%% [%+.1f, %s%.1f], p %.2g", 100 * p->ch.change,
		 100 * p->ch.ci_lo, isfinite(p->ch.ci_hi) && p->ch.ci_hi >= 0 ? "+" : "",
		 isfinite(p->ch.ci_hi) ? 100 * p->ch.ci_hi : INFINITY, p->ch.p);
	return buf;
}

static unsigned stage_count(const struct tune *t, unsigned s)
{
	return t->stage_first[s + 1] >= t->stage_first[s] ?
	       t->stage_first[s + 1] - t->stage_first[s] : 0;
}

void tune_say_plan(const struct tune *t)
{
	const struct model_tune_plan *p = &t->plan0;
	unsigned s, i;

	fprintf(t->f, "iostorm tune: %u target%s, goal %s (%s), budget %.0fs, bs %u, seed %llu\n",
		t->ntargets, t->ntargets == 1 ? "" : "s", model_tune_goal_name(t->goal),
		tune_goal_unit(t->goal), (double)t->budget_ns / 1e9, t->o->bs,
		(unsigned long long)t->seed0);
	fprintf(t->f, "plan:");
	for (s = 0; s < MODEL_TUNE_NSTAGES; s++)
		fprintf(t->f, "%s %s %u candidate%s", s ? "," : "", model_tune_stage_name(s),
			p->ncand[s], p->ncand[s] == 1 ? "" : "s");
	fprintf(t->f, " (later stages' counts follow what wins before them)\n");
	fprintf(t->f, "  each stage: successive halving in random order, runs of %.2gs doubling each "
		"round, after a %.2gs ramp, down to 2 finalists; one replaces what the stage "
		"carries in only on a paired test (%u rounds)\n", p->w_s, (double)t->o->ramp_ns / 1e9, MODEL_TUNE_STAGE_ROUNDS);
	fprintf(t->f, "  then the winner against the default in %u paired rounds of %.2gs runs, each "
		"knob that differs in %u, and the winner's job file run once\n",
		MODEL_TUNE_FINAL_ROUNDS, 2 * p->w_s, MODEL_TUNE_KNOB_ROUNDS);
	fprintf(t->f, "  about %u runs, %.0fs of measuring, %.0fs in all\n", p->runs, p->window_s,
		p->total_s);
	for (i = 0; i < t->nnot; i++)
		fprintf(t->f, "not tried: %s %s: %s\n", t->not[i].option, t->not[i].value,
			t->not[i].why);
	fflush(t->f);
}

static void say_pair(const struct tune *t, const char *what, const struct tune_pair *p)
{
	char a[160], b[160], ch[96];

	fprintf(t->f, "  %s: %s against %s: %s%s\n", what, tune_cfg_name(&p->b, b, sizeof(b)),
		tune_cfg_name(&p->a, a, sizeof(a)), fmt_change(p, ch, sizeof(ch)),
		!p->tested ? "" : p->v == MODEL_TUNE_BETTER ? ": better" :
		p->v == MODEL_TUNE_WORSE ? ": worse" : ": undecided, within the noise");
}

void tune_say_stage(const struct tune *t, enum model_tune_stage s)
{
	char name[160], f[32], ci[64];
	unsigned i, first = t->stage_first[s], n = stage_count(t, s);
	const struct tune_cand *k;

	if (n < 2 || t->skipped[s]) {
		fprintf(t->f, "stage %s: %s\n", model_tune_stage_name(s),
			t->skipped[s] ? "skipped: the budget left holds no more" :
			"nothing to search: what is carried in is the one candidate");
		return;
	}
	fprintf(t->f, "stage %s, %u candidates (%s, last run's figure and its interval):\n",
		model_tune_stage_name(s), n, tune_goal_unit(t->goal));
	for (i = first; i < first + n; i++) {
		k = &t->cand[i];
		if (k->failed) {
			fprintf(t->f, "  %-64s failed\n", tune_cfg_name(&k->c, name, sizeof(name)));
			continue;
		}
		fprintf(t->f, "  %-64s %10s%s  %u run%s%s\n", tune_cfg_name(&k->c, name, sizeof(name)),
			tune_fmt_fig(t->goal, k->fig, f, sizeof(f)),
			k->nrun ? fmt_ci(t->goal, k->run[k->nrun - 1].lo, k->run[k->nrun - 1].hi, ci,
					 sizeof(ci)) : "",
			k->nrun, k->nrun == 1 ? "" : "s",
			k->round_out == TUNE_SURVIVED ? ", a finalist" : "");
	}
	for (i = 0; i < t->stage_npairs[s]; i++)
		say_pair(t, "paired test", &t->stage_pair[s][i]);
	fprintf(t->f, "  carried on: %s\n", tune_cfg_name(&t->best, name, sizeof(name)));
	fflush(t->f);
}

void tune_say_end(const struct tune *t)
{
	char name[160], a[64], b[64], f[32], g[32], ch[96];
	unsigned i;

	fprintf(t->f, "\nwinner: %s\n", tune_cfg_name(&t->best, name, sizeof(name)));
	fprintf(t->f, "default: %s\n", tune_cfg_name(&t->dflt, name, sizeof(name)));
	if (tune_cfg_same(&t->best, &t->dflt)) {
		fprintf(t->f, "the default configuration won: no knob moved beyond the noise\n");
	} else if (t->final_skipped || !t->final.tested) {
		fprintf(t->f, "undecided between the winner and the default: %s\n",
			t->final_skipped ? "the budget left held no paired rounds" :
			"fewer than 2 paired rounds completed");
	} else if (t->final.v != MODEL_TUNE_BETTER) {
		fprintf(t->f, "undecided between the winner and the default: within %.1f%% of each "
			"other, p = %.2g (%u paired rounds)\n", fabs(100 * t->final.ch.change),
			t->final.ch.p, t->final.rounds);
	} else {
		fprintf(t->f, "winner against the default: %s (%u paired rounds)\n",
			fmt_change(&t->final, ch, sizeof(ch)), t->final.rounds);
	}
	if (t->nknob) {
		fprintf(t->f, "what each knob was worth (the winner against the winner with that knob "
			"at its default, paired):\n");
		for (i = 0; i < t->nknob; i++) {
			const struct tune_knob_row *k = &t->knob[i];

			fprintf(t->f, "  %s %s vs %s: %s\n", tune_knob_name(k->k),
				tune_knob_value(&k->p.b, k->k, b, sizeof(b)),
				tune_knob_value(&k->p.a, k->k, a, sizeof(a)),
				fmt_change(&k->p, ch, sizeof(ch)));
		}
	}
	if (t->checked && t->check_tested)
		fprintf(t->f, "%s: %s %s%s against the winner's %s in the final: %s (p %.2g)\n",
			t->check_from, tune_fmt_fig(t->goal, t->check.fig, f, sizeof(f)),
			tune_goal_unit(t->goal), fmt_ci(t->goal, t->check.lo, t->check.hi, ch, sizeof(ch)),
			tune_fmt_fig(t->goal, t->check_ch.a, g, sizeof(g)),
			t->reproduced ? "reproduced, within its run-to-run noise" :
			"NOT reproduced: outside its run-to-run noise", t->check_ch.p);
	else if (t->checked)
		fprintf(t->f, "%s: %s %s%s (no final rounds to set it against)\n", t->check_from,
			tune_fmt_fig(t->goal, t->check.fig, f, sizeof(f)), tune_goal_unit(t->goal),
			fmt_ci(t->goal, t->check.lo, t->check.hi, ch, sizeof(ch)));
	for (i = 0; i < t->nnot; i++)
		fprintf(t->f, "not tried: %s %s: %s\n", t->not[i].option, t->not[i].value,
			t->not[i].why);
	if (t->settings_read && t->nsettings) {
		fprintf(t->f, "settings that cost IOPS on the winner's targets (iostorm check):");
		for (i = 0; i < t->nsettings; i++)
			fprintf(t->f, "%s %s", i ? "," : "", t->settings[i]);
		if (t->measure_cmd[0])
			fprintf(t->f, "; `%s` A/Bs those a run can change (tune writes nothing to sysfs)",
				t->measure_cmd);
		fputc('\n', t->f);
	}
	if (t->noisy_runs)
		fprintf(t->f, "noise: in %u of %u runs the machine disturbed the workers (other "
			"processes took up to %.0f%% of their CPUs' time): those figures are not the "
			"targets' alone, and the paired tests carry it as noise\n", t->noisy_runs,
			t->runs, t->noisy_max_pct);
	fprintf(t->f, "%u runs in %.0fs of a %.0fs budget%s\n", t->runs, tune_elapsed(t),
		(double)t->budget_ns / 1e9, t->interrupted ? ", INTERRUPTED" : "");
	fflush(t->f);
}

/* ---- JSON ---- */

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *ci(double lo, double hi)
{
	if (!isfinite(lo) && !isfinite(hi))
		return json_null();
	return json_pack("[o, o]", num(lo), num(hi));
}

static json_t *run_json(const struct tune_run *r)
{
	return json_pack("{s:I, s:f, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b}",
			 "round", (json_int_t)r->round, "window_s", r->window_s,
			 "ios", (json_int_t)r->ios, "iops", num(r->iops), "p99_ns", num(r->p99_ns),
			 "cpu_s", num(r->cpu_s), "irq_s", num(r->irq_s), "figure", num(r->fig),
			 "figure_ci", ci(r->lo, r->hi), "noise_other_pct", num(r->other_pct),
			 "noisy", r->noisy);
}

static json_t *pair_json(const struct tune_pair *p)
{
	json_t *a = json_array(), *b = json_array();
	unsigned i;

	for (i = 0; a && b && i < p->rounds; i++) {
		json_array_append_new(a, num(p->fa[i]));
		json_array_append_new(b, num(p->fb[i]));
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:s?}",
			 "base", tune_cfg_json(&p->a), "new", tune_cfg_json(&p->b),
			 "base_figures", a ? a : json_null(), "new_figures", b ? b : json_null(),
			 "rounds", (json_int_t)p->rounds,
			 "change_pct", p->tested ? num(100 * p->ch.change) : json_null(),
			 "change_pct_ci", p->tested ? ci(100 * p->ch.ci_lo, 100 * p->ch.ci_hi) :
			 json_null(),
			 "p", p->tested ? num(p->ch.p) : json_null(),
			 "verdict", p->tested ? model_tune_verdict_name(p->v) : NULL);
}

static json_t *cands_json(const struct tune *t)
{
	json_t *a = json_array(), *runs;
	unsigned i, j;

	for (i = 0; a && i < t->ncand; i++) {
		const struct tune_cand *k = &t->cand[i];

		runs = json_array();
		for (j = 0; runs && j < k->nrun; j++)
			json_array_append_new(runs, run_json(&k->run[j]));
		json_array_append_new(a, json_pack("{s:s, s:o, s:b, s:o, s:o, s:b}",
			"stage", model_tune_stage_name(k->stage), "config", tune_cfg_json(&k->c),
			"failed", k->failed, "figure", num(k->fig), "runs", runs ? runs : json_null(),
			"survived", k->round_out == TUNE_SURVIVED));
	}
	return a ? a : json_null();
}

static json_t *knobs_json(const struct tune *t)
{
	json_t *a = json_array();
	char v[64], d[64];
	unsigned i;

	for (i = 0; a && i < t->nknob; i++) {
		const struct tune_knob_row *k = &t->knob[i];

		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:I}",
			"knob", tune_knob_name(k->k), "value", tune_knob_value(&k->p.b, k->k, v, sizeof(v)),
			"default", tune_knob_value(&k->p.a, k->k, d, sizeof(d)),
			"effect_pct", k->p.tested ? num(100 * k->p.ch.change) : json_null(),
			"effect_pct_ci", k->p.tested ? ci(100 * k->p.ch.ci_lo, 100 * k->p.ch.ci_hi) :
			json_null(),
			"p", k->p.tested ? num(k->p.ch.p) : json_null(),
			"rounds", (json_int_t)k->p.rounds));
	}
	return a ? a : json_null();
}

static json_t *not_json(const struct tune *t)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < t->nnot; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "option", t->not[i].option,
						   "value", t->not[i].value, "why", t->not[i].why));
	return a ? a : json_null();
}

static json_t *settings_json(const struct tune *t)
{
	json_t *a;
	unsigned i;

	if (!t->settings_read || !(a = json_array()))
		return json_null();
	for (i = 0; i < t->nsettings; i++)
		json_array_append_new(a, json_string(t->settings[i]));
	return json_pack("{s:o, s:s?}", "kinds", a, "measure",
			 t->measure_cmd[0] ? t->measure_cmd : NULL);
}

static json_t *stages_json(const struct tune *t)
{
	json_t *a = json_array(), *tests;
	unsigned s, i;

	for (s = 0; a && s < MODEL_TUNE_NSTAGES; s++) {
		tests = json_array();
		for (i = 0; tests && i < t->stage_npairs[s]; i++)
			json_array_append_new(tests, pair_json(&t->stage_pair[s][i]));
		json_array_append_new(a, json_pack("{s:s, s:I, s:b, s:o}",
			"stage", model_tune_stage_name(s), "candidates", (json_int_t)stage_count(t, s),
			"skipped", t->skipped[s], "tests", tests ? tests : json_null()));
	}
	return a ? a : json_null();
}

/* Every knob's value in c, by the knob's name, as the option takes it:
 * what iostorm-mpi tune sets host against host (disagree.c). */
static json_t *knob_values(const struct tune_cfg *c)
{
	json_t *o = json_object();
	char v[64];
	unsigned k;

	for (k = 0; o && k < TUNE_NKNOBS; k++)
		json_object_set_new(o, tune_knob_name((enum tune_knob)k),
				    json_string(tune_knob_value(c, (enum tune_knob)k, v, sizeof(v))));
	return o ? o : json_null();
}

/* The winner's figure: its paired rounds' mean where it had them. */
static void winner_fig(const struct tune *t, double *fig, double *lo, double *hi)
{
	double m;

	*fig = *lo = *hi = NAN;
	if (t->final.rounds >= 2 &&
	    !model_mean_ci(t->final.fb, t->final.rounds, MODEL_AMEAN, 0.95, &m, lo, hi)) {
		*fig = m;
		return;
	}
	if (t->checked) {
		*fig = t->check.fig;
		*lo = t->check.lo;
		*hi = t->check.hi;
	}
}

json_t *tune_json(const struct tune *t)
{
	double fig, lo, hi;
	json_t *undecided = json_null();

	winner_fig(t, &fig, &lo, &hi);
	if (!tune_cfg_same(&t->best, &t->dflt) &&
	    (t->final_skipped || !t->final.tested || t->final.v != MODEL_TUNE_BETTER))
		undecided = json_pack("[o, o]", tune_cfg_json(&t->final.b), tune_cfg_json(&t->dflt));
	return json_pack("{s:f, s:f, s:s, s:I, s:f, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
			 " s:o, s:b, s:o}",
			 "budget_s", (double)t->budget_ns / 1e9, "elapsed_s", tune_elapsed(t),
			 "goal", model_tune_goal_name(t->goal), "seed", (json_int_t)t->seed0,
			 "unit_s", t->plan0.w_s, "runs", (json_int_t)t->runs,
			 "stages", stages_json(t), "candidates", cands_json(t),
			 "default", tune_cfg_json(&t->dflt),
			 "winner", json_pack("{s:o, s:o, s:o, s:o}", "config", tune_cfg_json(&t->best),
					     "figure", num(fig), "figure_ci", ci(lo, hi),
					     "knobs", knob_values(&t->best)),
			 "final", t->final.rounds ? pair_json(&t->final) : json_null(),
			 "knobs", knobs_json(t), "not_tried", not_json(t), "undecided", undecided,
			 "check", !t->checked ? json_null() :
			 json_pack("{s:s, s:o, s:o, s:o, s:o}", "from", t->check_from,
				   "figure", num(t->check.fig), "figure_ci", ci(t->check.lo, t->check.hi),
				   "reproduced", t->check_tested ? json_boolean(t->reproduced) : json_null(),
				   "p", t->check_tested ? num(t->check_ch.p) : json_null()),
			 "interrupted", t->interrupted, "settings", settings_json(t));
}

int tune_jobfile(const struct tune *t, char *buf, size_t len)
{
	const struct tune_cfg *c = &t->best;
	char name[160];
	size_t at;
	unsigned i;
	int w;

	w = snprintf(buf, len,
		     "; iostorm tune's winner (goal %s): %s\n"
		     ";   iostorm -c FILE   runs it as is\n"
		     "[job]\ncommand = run\nengine = %s\ncompletion = %s\nbs = %u\nqd = %u\n"
		     "batch = %u\nreap = %u\njobs-per-device = %u\nplacement = %s\ngroup = %s\n"
		     "no-iowait = %s\n",
		     model_tune_goal_name(t->goal), tune_cfg_name(c, name, sizeof(name)),
		     eng_backend_name(c->backend), eng_mode_name(c->mode), t->o->bs, c->qd,
		     c->batch, c->reap, c->jobs, topo_policy_name(c->placement),
		     cli_group_name(c->group), c->no_iowait ? "true" : "false");
	if (w < 0 || (size_t)w >= len)
		return -ENOSPC;
	at = (size_t)w;
	/* what the targets were read as, held through the search */
	if (t->o->buffered || t->o->range_len) {
		w = snprintf(buf + at, len - at, "%s", t->o->buffered ? "buffered = true\n" : "");
		if (w >= 0 && at + (size_t)w < len && t->o->range_len) {
			at += (size_t)w;
			w = snprintf(buf + at, len - at, "range = %llu:%llu\n",
				     (unsigned long long)t->o->range_off,
				     (unsigned long long)t->o->range_len);
		}
		if (w < 0 || at + (size_t)w >= len)
			return -ENOSPC;
		at += (size_t)w;
	}
	if (c->reap_wait_ns) {
		w = snprintf(buf + at, len - at, "reap-wait = %lluus\n",
			     (unsigned long long)(c->reap_wait_ns / 1000));
		if (w < 0 || at + (size_t)w >= len)
			return -ENOSPC;
		at += (size_t)w;
	}
	if (c->ncpus) {
		w = snprintf(buf + at, len - at, "cpus = ");
		for (i = 0; w >= 0 && i < c->ncpus && at + (size_t)w < len; i++) {
			at += (size_t)w;
			w = snprintf(buf + at, len - at, "%s%d", i ? "," : "", c->cpus[i]);
		}
		if (w < 0 || at + (size_t)w >= len)
			return -ENOSPC;
		at += (size_t)w;
		w = snprintf(buf + at, len - at, "\n");
		if (w < 0 || at + (size_t)w >= len)
			return -ENOSPC;
		at += (size_t)w;
	}
	for (i = 0; i < t->ntargets; i++) {
		w = snprintf(buf + at, len - at, "target = %s\n", t->tp[i]->path);
		if (w < 0 || at + (size_t)w >= len)
			return -ENOSPC;
		at += (size_t)w;
	}
	return (int)at;
}
