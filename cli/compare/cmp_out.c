/* compare's table and JSON (cmp_out.h). */
#include "cli/compare/cmp_out.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/report/out.h"

static unsigned max_repeats(const struct cmp_group *g)
{
	unsigned i, k, n = 0;

	for (k = 0; k < g->n; k++)
		for (i = 0; i < g->rows[k].n; i++)
			if (g->rows[k].r[i].n[CLI_M_IOPS] > n)
				n = g->rows[k].r[i].n[CLI_M_IOPS];
	return n;
}

static const char *mean_name(enum model_mean m)
{
	return m == MODEL_HMEAN ? "hmean" : "amean";
}

static const char *mean_label(enum model_mean m)
{
	return m == MODEL_HMEAN ? "Hmean" : "Amean";
}

static const char *design_name(enum model_design d)
{
	return d == MODEL_WELCH ? "welch" : d == MODEL_ONE_VS_MANY ? "one_vs_many" : "paired";
}

/* A metric's value as the table shows it: IOPS whole, times in us. */
static const char *fmt_val(char *buf, size_t len, unsigned m, double v)
{
	if (!isfinite(v))
		return "-";
	if (cli_metrics[m].rate) {
		snprintf(buf, len, "%.0f", v);
		return buf;
	}
	return cli_fmt_us(buf, len, v, true);
}

static const char *fmt_p(char *buf, size_t len, double p)
{
	snprintf(buf, len, p < 0.0001 ? "%.1e" : "%.4f", p);
	return buf;
}

static const char *fmt_ci(char *buf, size_t len, double lo, double hi)
{
	if (!isfinite(lo))
		return "-";
	if (isinf(hi))
		snprintf(buf, len, "[%+.2f, +inf]", lo);
	else
		snprintf(buf, len, "[%+.2f, %+.2f]", lo, hi);
	return buf;
}

/* A side below its tick: "<N", the most it can be per IO; "<tick"
 * where that is not known. */
static const char *fmt_below(char *buf, size_t len, unsigned m, double bound)
{
	char v[24];

	if (!(bound > 0))
		return "<tick";
	snprintf(buf, len, "<%.30s", fmt_val(v, sizeof(v), m, bound));
	return buf;
}

static const char *below_side(const struct cmp_metric *x)
{
	if (x->below_base >= 0 && x->below_next >= 0)
		return "both";
	return x->below_base >= 0 ? "base" : x->below_next >= 0 ? "new" : NULL;
}

/* A side's percentile interval, us: "[lo, hi]", an unbounded end "-inf"
 * or "+inf"; "-" where the side has none. */
static const char *fmt_side_ci(char *buf, size_t len, const struct cmp_sum *c)
{
	char lo[24], hi[24];

	if (!c->has_pct_ci)
		return "-";
	snprintf(buf, len, "[%s, %s]",
		 isnan(c->pct_lo) ? "-inf" : cli_fmt_us(lo, sizeof(lo), c->pct_lo, true),
		 isnan(c->pct_hi) ? "+inf" : cli_fmt_us(hi, sizeof(hi), c->pct_hi, true));
	return buf;
}

/* One value a side, a percentile: each side's own 95% interval (the
 * JSON's pct_ci) and whether the two overlap, an unbounded end reaching
 * as far as it may. Nothing where neither side has one. */
static void print_pct_ci(FILE *f, const struct cmp_metric *x)
{
	const struct cmp_sum *a = &x->base, *b = &x->next;
	char ba[64], bb[64];
	double alo, ahi, blo, bhi;

	if (!a->has_pct_ci && !b->has_pct_ci)
		return;
	fprintf(f, "; 95%% intervals, us: base %s, new %s", fmt_side_ci(ba, sizeof(ba), a),
		fmt_side_ci(bb, sizeof(bb), b));
	if (!a->has_pct_ci || !b->has_pct_ci)
		return;
	alo = isnan(a->pct_lo) ? -INFINITY : a->pct_lo;
	ahi = isnan(a->pct_hi) ? INFINITY : a->pct_hi;
	blo = isnan(b->pct_lo) ? -INFINITY : b->pct_lo;
	bhi = isnan(b->pct_hi) ? INFINITY : b->pct_hi;
	fprintf(f, (alo > bhi || blo > ahi) ? " (apart)" : " (overlapping)");
}

static void print_metric(FILE *f, const char *row, int namew, unsigned m,
			 const struct cmp_metric *x)
{
	char b[40], n[40], ci[48], noise[16], p[16], q[16], label[16];

	snprintf(label, sizeof(label), "%s%s", cli_metrics[m].label, cli_metrics[m].rate ? "" : " us");
	if (below_side(x)) {
		fprintf(f, "%-*s %-9s %10s %10s %9s  below the tick on %s: not compared (docs/cpu.md)\n",
			namew, row, label,
			x->below_base >= 0 ? fmt_below(b, sizeof(b), m, x->below_base) :
					     fmt_val(b, sizeof(b), m, x->base.center),
			x->below_next >= 0 ? fmt_below(n, sizeof(n), m, x->below_next) :
					     fmt_val(n, sizeof(n), m, x->next.center),
			"-", !strcmp(below_side(x), "both") ? "both sides" :
			!strcmp(below_side(x), "base") ? "the base" : "the new side");
		return;
	}
	fprintf(f, "%-*s %-9s %10s %10s %+8.2f%%", namew, row, label,
		fmt_val(b, sizeof(b), m, x->base.center), fmt_val(n, sizeof(n), m, x->next.center),
		x->change_pct);
	if (!x->tested) {
		fprintf(f, "  %-22s %7s %8s %8s  one value a side", "-", "-", "-", "-");
		print_pct_ci(f, x);
		fputc('\n', f);
		return;
	}
	snprintf(noise, sizeof(noise), "%.1f%%", x->noise_pct);
	fprintf(f, "  %-22s %7s %8s %8s%s%s%s\n", fmt_ci(ci, sizeof(ci), x->ci_lo_pct, x->ci_hi_pct),
		noise, fmt_p(p, sizeof(p), x->c.p), fmt_p(q, sizeof(q), x->q),
		x->significant ? "  *" : "", !x->significant ? "" : x->worse ? " worse" : " better",
		x->gate ? ", fails --fail-worse" : "");
}

static void print_lines(FILE *f, const struct cmp_side *s)
{
	int namew = 6;
	unsigned i, m;
	bool first;

	for (i = 0; i < s->nlines; i++)
		if ((int)strlen(s->lines[i].key) > namew)
			namew = (int)strlen(s->lines[i].key);
	fprintf(f, "%-*s %-9s %10s %10s %9s  %-22s %7s %8s %8s\n", namew, "row", "metric",
		"base", "new", "change", "CI of change, %", "noise", "p", "q");
	for (i = 0; i < s->nlines; i++) {
		first = true;
		for (m = 0; m < CLI_NMETRICS; m++) {
			if (!s->lines[i].m[m].have)
				continue;
			print_metric(f, first ? s->lines[i].key : "", namew, m, &s->lines[i].m[m]);
			first = false;
		}
	}
}

static void print_keys(FILE *f, const char *file, const char *const *k, unsigned n)
{
	unsigned i;

	if (!n)
		return;
	fprintf(f, "only in %s:", file);
	for (i = 0; i < n; i++)
		fprintf(f, "%s %s", i ? "," : "", k[i]);
	fputc('\n', f);
}

static void print_changes(FILE *f, const struct cmp_group *base, const struct cmp_side *s)
{
	unsigned i;

	if (!s->changes.n) {
		fprintf(f, "setup: no difference between %s and %s (beyond the time and the seed)\n",
			base->file[0], s->g.file[0]);
		return;
	}
	fprintf(f, "setup: %u difference%s between %s and %s:\n", s->changes.n,
		s->changes.n == 1 ? "" : "s", base->file[0], s->g.file[0]);
	for (i = 0; i < s->changes.n; i++)
		fprintf(f, "  %s: %s -> %s\n", s->changes.c[i].key,
			s->changes.c[i].base ? s->changes.c[i].base : "(absent)",
			s->changes.c[i].next ? s->changes.c[i].next : "(absent)");
}

/* "a.json, b.json (sweep, 2 runs of up to 3 repeats)" */
static void print_group(FILE *f, const struct cmp_group *g)
{
	unsigned i, rep = max_repeats(g);

	for (i = 0; i < g->n; i++)
		fprintf(f, "%s%s", i ? ", " : "", g->file[i]);
	fprintf(f, " (%s, %u run%s of %s%u repeat%s)", g->cmd, g->n, g->n == 1 ? "" : "s",
		rep > 1 ? "up to " : "", rep, rep == 1 ? "" : "s");
}

static void print_head(FILE *f, const struct cli_opts *o, const struct cmp_group *base,
		       const struct cmp_family *fam, struct cmp_bound bound, const struct cmp_ab *ab)
{
	fprintf(f, "iostorm compare: base ");
	print_group(f, base);
	if (ab)
		fprintf(f, "\nA: %s\nB: %s\nA against B paired over %u rounds (ABBA): the test "
			"and the %g%% intervals use the rounds' differences, in which drift "
			"cancels (noise: one run's, %% of the base).\n", ab->side[0].label,
			ab->side[1].label, ab->rounds, 100.0 * (1.0 - o->alpha));
	else
		fprintf(f, "\nA run is one sample: the test and the %g%% intervals use the spread "
			"between runs (noise: one run's, %% of the base).\n", 100.0 * (1.0 - o->alpha));
	fprintf(f, "Repeats over %s: IOPS pooled as %s, mean latency as %s, percentiles as "
		"%s, CPU time per IO as %s, IOs per CPU-second as %s.\n", cmp_bound_name(bound),
		mean_label(cmp_mean_of(CLI_M_IOPS, bound)), mean_label(cmp_mean_of(CLI_M_MEAN, bound)),
		mean_label(cmp_mean_of(CLI_M_P99, bound)), mean_label(cmp_mean_of(CLI_M_CPU_USER, bound)),
		mean_label(cmp_mean_of(CLI_M_IOS_PER_CPU, bound)));
	fprintf(f, "%u test%s: * where Benjamini-Hochberg's q < %g (false-discovery rate), %u "
		"marked", fam->tests, fam->tests == 1 ? "" : "s", o->alpha, fam->marked);
	if (o->fail_worse_pct >= 0)
		fprintf(f, "; --fail-worse %g%%: Holm's p < %g (family-wise), %u met", o->fail_worse_pct,
			o->alpha, fam->gated);
	fprintf(f, ".\n");
}

void cmp_out_text(FILE *f, const struct cli_opts *o, const struct cmp_group *base,
		  const struct cmp_side *side, unsigned nside, const struct cmp_family *fam,
		  struct cmp_bound bound, const struct cmp_ab *ab)
{
	unsigned i;

	print_head(f, o, base, fam, bound, ab);
	for (i = 0; i < nside; i++) {
		const struct cmp_side *s = &side[i];

		fputc('\n', f);
		print_group(f, &s->g);
		fprintf(f, " against the base:\n");
		print_lines(f, s);
		if (s->within_run)
			fprintf(f, "one run a side: drift between runs is not measured; each run's "
				"repeats were tested instead, and --fail-worse %s them%s\n",
				o->trust_repeats ? "trusts" : "ignores",
				o->trust_repeats ? " (--trust-repeats)" : " (--trust-repeats: use them)");
		if (s->untested)
			fprintf(f, "one value a side: its changes are shown without a test (several runs "
				"a side, or --repeat 5, test them); a percentile's interval is its own "
				"run's IOs', and says nothing of the drift between runs\n");
		print_keys(f, base->file[0], (const char *const *)s->only_base, s->nonly_base);
		print_keys(f, s->g.file[0], (const char *const *)s->only_next, s->nonly_next);
		print_changes(f, base, s);
	}
	fflush(f);
}

/* ---- JSON ---- */

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *sum_json(const struct cmp_sum *c)
{
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:[o, o], s:o}",
			 "n", (json_int_t)c->n, "center", num(c->center),
			 "min", num(c->s.min), "max", num(c->s.max), "amean", num(c->s.amean),
			 "hmean", num(c->s.hmean), "stddev", num(c->s.stddev), "cov", num(c->s.cov),
			 "center_ci", num(c->ci_lo), num(c->ci_hi),
			 "pct_ci", c->has_pct_ci ? json_pack("[o, o]", num(c->pct_lo), num(c->pct_hi))
						 : json_null());
}

static json_t *metric_json(unsigned m, const struct cmp_metric *x)
{
	const char *below = below_side(x);
	json_t *j = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:b, s:b, s:b, s:o}",
			      "metric", cli_metrics[m].key,
			      "level", x->level == CMP_RUNS ? "runs" : "repeats",
			      "estimator", mean_name(x->mean), "base", sum_json(&x->base),
			      "new", sum_json(&x->next), "change_pct", num(x->change_pct),
			      "tested", x->tested, "worse", x->worse, "fail_worse", x->gate,
			      "below_resolution", below ? json_string(below) : json_null());

	if (!j)
		return NULL;
	if (!x->tested) {
		json_object_set_new(j, "test", json_null());
		return j;
	}
	json_object_set_new(j, "test", json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:[o, o], s:o, s:b}",
		"design", design_name(x->c.design), "t", num(x->c.t), "df", num(x->c.df),
		"p", num(x->c.p), "q", num(x->q), "p_holm", num(x->p_holm),
		"change_pct_ci", num(x->ci_lo_pct), num(x->ci_hi_pct), "noise_pct", num(x->noise_pct), "significant", x->significant));
	return j;
}

static json_t *line_json(const struct cmp_line *l)
{
	json_t *ms = json_array();
	unsigned m;

	for (m = 0; ms && m < CLI_NMETRICS; m++)
		if (l->m[m].have)
			json_array_append_new(ms, metric_json(m, &l->m[m]));
	return json_pack("{s:s, s:o}", "key", l->key, "metrics", ms ? ms : json_null());
}

static json_t *keys_json(const char *const *k, unsigned n)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(k[i]));
	return a;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *changes_json(const struct cmp_changes *c)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < c->n; i++)
		json_array_append_new(a, json_pack("{s:s, s:o, s:o}", "key", c->c[i].key,
						   "base", str_or_null(c->c[i].base),
						   "new", str_or_null(c->c[i].next)));
	return a;
}

static json_t *side_json(const struct cmp_side *s)
{
	json_t *lines = json_array();
	unsigned i;

	for (i = 0; lines && i < s->nlines; i++)
		json_array_append_new(lines, line_json(&s->lines[i]));
	return json_pack("{s:s, s:o, s:s, s:o, s:b, s:b, s:b, s:o, s:o, s:o}", "file", s->g.file[0],
			 "files", keys_json(s->g.file, s->g.n), "command", s->g.cmd,
			 "rows", lines ? lines : json_null(), "untested", s->untested,
			 "drift_measured", !s->within_run, "fail_worse", s->gate,
			 "only_in_base", keys_json((const char *const *)s->only_base, s->nonly_base),
			 "only_in_new", keys_json((const char *const *)s->only_next, s->nonly_next),
			 "setup_changes", changes_json(&s->changes));
}

static json_t *estimators_json(struct cmp_bound b)
{
	json_t *j = json_pack("{s:s}", "bound", b.by_ios ? "ios" : b.open_loop ? "time_rate" : "time");
	unsigned m;

	for (m = 0; j && m < CLI_NMETRICS; m++)
		json_object_set_new(j, cli_metrics[m].key, json_string(mean_name(cmp_mean_of(m, b))));
	return j;
}

int cmp_out_json(const struct cli_opts *o, const struct cmp_group *base,
		 const struct cmp_side *side, unsigned nside, const struct cmp_family *fam,
		 struct cmp_bound bound, const struct cmp_ab *ab, bool gate)
{
	json_t *a = json_array(), *j;
	unsigned i;

	for (i = 0; a && i < nside; i++)
		json_array_append_new(a, side_json(&side[i]));
	j = json_pack("{s:s, s:s, s:s, s:o, s:s, s:f, s:f, s:o, s:b, s:b, s:b, s:o, s:o, s:o}",
		      "schema", CLI_JSON_SCHEMA, "command", "compare", "base", base->file[0],
		      "base_files", keys_json(base->file, base->n), "base_command", base->cmd,
		      "alpha", o->alpha, "confidence", 1.0 - o->alpha,
		      "fail_worse_pct", o->fail_worse_pct >= 0 ? json_real(o->fail_worse_pct) : json_null(),
		      "force", o->force, "trust_repeats", o->trust_repeats, "fail_worse", gate,
		      "estimators", estimators_json(bound),
		      "family", json_pack("{s:I, s:s, s:I, s:s, s:I}", "tests", (json_int_t)fam->tests,
					  "marks", "benjamini-hochberg", "marked",
					  (json_int_t)fam->marked, "gate", "holm",
					  "gated", (json_int_t)fam->gated),
		      "comparisons", a ? a : json_null());
	if (j)
		json_object_set_new(j, "ab", !ab ? json_null() :
				    json_pack("{s:I, s:s, s:s}", "rounds", (json_int_t)ab->rounds,
					      "a", ab->side[0].label, "b", ab->side[1].label));
	return cli_out_json(o->json, j, CLI_JSON_REPORT) ? -EIO : 0;
}
