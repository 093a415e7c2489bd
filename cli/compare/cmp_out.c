/* compare's table and JSON (cmp_out.h). */
#include "cli/compare/cmp_out.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/out/out.h"

static unsigned max_repeats(const struct cmp_rows *rows)
{
	unsigned i, n = 0;

	for (i = 0; i < rows->n; i++)
		if (rows->r[i].n[CLI_M_IOPS] > n)
			n = rows->r[i].n[CLI_M_IOPS];
	return n;
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

static const char *fmt_pct(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, len, "%.1f%%", 100.0 * v);
	return buf;
}

static void print_metric(FILE *f, const char *row, int namew, unsigned m,
			 const struct cmp_metric *x)
{
	char b[32], bc[16], n[32], nc[16], ci[48], p[16], label[16];

	snprintf(label, sizeof(label), "%s%s", cli_metrics[m].label, cli_metrics[m].rate ? "" : " us");
	fprintf(f, "%-*s %-9s %10s %6s %10s %6s %+8.2f%%", namew, row, label,
		fmt_val(b, sizeof(b), m, x->base.center), fmt_pct(bc, sizeof(bc), x->base.s.cov),
		fmt_val(n, sizeof(n), m, x->next.center), fmt_pct(nc, sizeof(nc), x->next.s.cov),
		x->change_pct);
	if (!x->tested) {
		fprintf(f, "  %-18s %8s\n", "-", "one run");
		return;
	}
	if (isfinite(x->ci_lo_pct))
		snprintf(ci, sizeof(ci), "[%+.2f, %+.2f]", x->ci_lo_pct, x->ci_hi_pct);
	else
		snprintf(ci, sizeof(ci), "-");
	snprintf(p, sizeof(p), x->w.p < 0.0001 ? "%.1e" : "%.4f", x->w.p);
	fprintf(f, "  %-18s %8s%s%s\n", ci, p, x->significant ? " *" : "",
		!x->significant ? "" : x->worse ? " worse" : " better");
}

static void print_lines(FILE *f, const struct cmp_side *s)
{
	int namew = 6;
	unsigned i, m;
	bool first;

	for (i = 0; i < s->nlines; i++)
		if ((int)strlen(s->lines[i].base->key) > namew)
			namew = (int)strlen(s->lines[i].base->key);
	fprintf(f, "%-*s %-9s %10s %6s %10s %6s %9s  %-18s %8s\n", namew, "row", "metric",
		"base", "CoV", "new", "CoV", "change", "CI of change, %", "p");
	for (i = 0; i < s->nlines; i++) {
		first = true;
		for (m = 0; m < CLI_NMETRICS; m++) {
			if (!s->lines[i].m[m].have)
				continue;
			print_metric(f, first ? s->lines[i].base->key : "", namew, m, &s->lines[i].m[m]);
			first = false;
		}
	}
}

static void print_keys(FILE *f, const char *what, const char *file, const char *const *k,
		       unsigned n)
{
	unsigned i;

	if (!n)
		return;
	fprintf(f, "only in %s%s:", file, what);
	for (i = 0; i < n; i++)
		fprintf(f, "%s %s", i ? "," : "", k[i]);
	fputc('\n', f);
}

static void print_changes(FILE *f, const struct cli_opts *o, const struct cmp_side *s)
{
	unsigned i;

	if (!s->changes.n) {
		fprintf(f, "setup: no difference between %s and %s (beyond the time and the seed)\n",
			o->targets[0], s->file);
		return;
	}
	fprintf(f, "setup: %u difference%s between %s and %s:\n", s->changes.n,
		s->changes.n == 1 ? "" : "s", o->targets[0], s->file);
	for (i = 0; i < s->changes.n; i++)
		fprintf(f, "  %s: %s -> %s\n", s->changes.c[i].key,
			s->changes.c[i].base ? s->changes.c[i].base : "(absent)",
			s->changes.c[i].next ? s->changes.c[i].next : "(absent)");
}

void cmp_out_text(FILE *f, const struct cli_opts *o, const char *const *cmd,
		  const struct cmp_side *side, unsigned nside)
{
	unsigned i;

	fprintf(f, "iostorm compare: base %s (%s); intervals at %g%% confidence, Welch's t-test "
		"at alpha %g, * where significant\n", o->targets[0], cmd[0],
		100.0 * (1.0 - o->alpha), o->alpha);
	for (i = 0; i < nside; i++) {
		const struct cmp_side *s = &side[i];

		fprintf(f, "\n%s (%s, up to %u repeat%s) against %s:\n", s->file, cmd[i + 1],
			max_repeats(&s->rows), max_repeats(&s->rows) == 1 ? "" : "s", o->targets[0]);
		print_lines(f, s);
		if (s->untested)
			fprintf(f, "one run on a side: its changes are shown without significance "
				"(--repeat 5 on both sides tests them)\n");
		print_keys(f, "", o->targets[0], (const char *const *)s->only_base, s->nonly_base);
		print_keys(f, "", s->file, (const char *const *)s->only_next, s->nonly_next);
		print_changes(f, o, s);
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
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:[o, o]}",
			 "n", (json_int_t)c->n, "center", num(c->center),
			 "min", num(c->s.min), "max", num(c->s.max), "amean", num(c->s.amean),
			 "hmean", num(c->s.hmean), "stddev", num(c->s.stddev), "cov", num(c->s.cov),
			 "ci", num(c->ci_lo), num(c->ci_hi));
}

static json_t *metric_json(unsigned m, const struct cmp_metric *x)
{
	json_t *j = json_pack("{s:s, s:o, s:o, s:f, s:b, s:b, s:b}",
			      "metric", cli_metrics[m].key, "base", sum_json(&x->base),
			      "new", sum_json(&x->next), "change_pct", x->change_pct,
			      "tested", x->tested, "worse", x->worse, "fail_worse", x->gate);

	if (!j)
		return NULL;
	if (!x->tested) {
		json_object_set_new(j, "test", json_null());
		return j;
	}
	json_object_set_new(j, "test", json_pack("{s:o, s:o, s:o, s:o, s:[o, o], s:b}",
		"t", num(x->w.t), "df", num(x->w.df), "p", num(x->w.p), "diff", num(x->w.diff),
		"ci_pct", num(x->ci_lo_pct), num(x->ci_hi_pct), "significant", x->significant));
	return j;
}

static json_t *line_json(const struct cmp_line *l)
{
	json_t *ms = json_array();
	unsigned m;

	for (m = 0; ms && m < CLI_NMETRICS; m++)
		if (l->m[m].have)
			json_array_append_new(ms, metric_json(m, &l->m[m]));
	return json_pack("{s:s, s:o}", "key", l->base->key, "metrics", ms ? ms : json_null());
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
	return json_pack("{s:s, s:o, s:b, s:b, s:o, s:o, s:o}", "file", s->file,
			 "rows", lines ? lines : json_null(), "untested", s->untested,
			 "fail_worse", s->gate,
			 "only_in_base", keys_json((const char *const *)s->only_base, s->nonly_base),
			 "only_in_new", keys_json((const char *const *)s->only_next, s->nonly_next),
			 "setup_changes", changes_json(&s->changes));
}

static json_t *reports_json(const struct cli_opts *o, const char *const *cmd)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < o->ntargets; i++)
		json_array_append_new(a, json_pack("{s:s, s:s}", "file", o->targets[i],
						   "command", cmd[i]));
	return a;
}

int cmp_out_json(const struct cli_opts *o, const char *const *cmd,
		 const struct cmp_side *side, unsigned nside, bool gate)
{
	json_t *a = json_array(), *j;
	unsigned i;

	for (i = 0; a && i < nside; i++)
		json_array_append_new(a, side_json(&side[i]));
	j = json_pack("{s:s, s:s, s:s, s:f, s:f, s:o, s:b, s:b, s:o, s:o}",
		      "schema", CLI_JSON_SCHEMA, "command", "compare", "base", o->targets[0],
		      "alpha", o->alpha, "confidence", 1.0 - o->alpha,
		      "fail_worse_pct", o->fail_worse_pct >= 0 ? json_real(o->fail_worse_pct) : json_null(),
		      "force", o->force, "fail_worse", gate,
		      "reports", reports_json(o, cmd), "comparisons", a ? a : json_null());
	return cli_out_json(o->json, j, CLI_JSON_REPORT) ? -EIO : 0;
}
