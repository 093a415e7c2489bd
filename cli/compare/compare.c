/* A report against the base (compare.h). The change is the summaries'
 * (Hmean for IOPS, Amean for times, as mmtests shows them); the test and
 * its interval are Welch's on the repeats' Ameans, the interval given as
 * % of the base's Amean. */
#include "cli/compare/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void sum_of(struct cmp_sum *c, const double *v, unsigned n, bool rate, double alpha)
{
	double q;

	memset(c, 0, sizeof(*c));
	c->n = n;
	c->ci_lo = c->ci_hi = NAN;
	if (model_spread(v, n, &c->s)) {
		c->n = 0;
		return;
	}
	c->center = rate && isfinite(c->s.hmean) ? c->s.hmean : c->s.amean;
	if (n < 2)
		return;
	q = model_t_quantile(1.0 - alpha / 2.0, (double)(n - 1));
	c->ci_lo = c->s.amean - q * c->s.stddev / sqrt((double)n);
	c->ci_hi = c->s.amean + q * c->s.stddev / sqrt((double)n);
}

static void metric(struct cmp_metric *x, const struct cmp_row *a, const struct cmp_row *b,
		   unsigned m, double alpha, double fail_pct)
{
	bool rate = cli_metrics[m].rate;

	memset(x, 0, sizeof(*x));
	if (!a->n[m] || !b->n[m])
		return;
	sum_of(&x->base, a->v[m], a->n[m], rate, alpha);
	sum_of(&x->next, b->v[m], b->n[m], rate, alpha);
	if (!x->base.n || !x->next.n || x->base.center == 0.0)
		return;
	x->have = true;
	x->change_pct = 100.0 * (x->next.center - x->base.center) / x->base.center;
	x->worse = rate ? x->change_pct < 0 : x->change_pct > 0;
	x->ci_lo_pct = x->ci_hi_pct = NAN;
	if (model_welch(a->v[m], a->n[m], b->v[m], b->n[m], 1.0 - alpha, &x->w))
		return;
	x->tested = true;
	x->significant = x->w.p < alpha;
	if (x->base.s.amean != 0.0) {
		x->ci_lo_pct = 100.0 * x->w.ci_lo / x->base.s.amean;
		x->ci_hi_pct = 100.0 * x->w.ci_hi / x->base.s.amean;
	}
	x->gate = fail_pct >= 0 && x->significant && x->worse && fabs(x->change_pct) > fail_pct;
}

int cmp_side_build(struct cmp_side *s, const struct cmp_rows *base, double alpha,
		   double fail_pct)
{
	const struct cmp_row *b;
	unsigned i, m;

	s->lines = calloc(base->n ? base->n : 1, sizeof(*s->lines));
	s->only_base = calloc(base->n ? base->n : 1, sizeof(*s->only_base));
	s->only_next = calloc(s->rows.n ? s->rows.n : 1, sizeof(*s->only_next));
	if (!s->lines || !s->only_base || !s->only_next)
		return -ENOMEM;
	for (i = 0; i < base->n; i++) {
		b = cmp_row_find(&s->rows, base->r[i].key);
		if (!b) {
			s->only_base[s->nonly_base++] = base->r[i].key;
			continue;
		}
		s->lines[s->nlines].base = &base->r[i];
		s->lines[s->nlines].next = b;
		for (m = 0; m < CLI_NMETRICS; m++) {
			struct cmp_metric *x = &s->lines[s->nlines].m[m];

			metric(x, &base->r[i], b, m, alpha, fail_pct);
			s->untested |= x->have && !x->tested;
			s->gate |= x->gate;
		}
		s->nlines++;
	}
	for (i = 0; i < s->rows.n; i++)
		if (!cmp_row_find(base, s->rows.r[i].key))
			s->only_next[s->nonly_next++] = s->rows.r[i].key;
	return 0;
}

void cmp_side_free(struct cmp_side *s)
{
	free(s->lines);
	free(s->only_base);
	free(s->only_next);
	cmp_rows_free(&s->rows);
	cmp_changes_free(&s->changes);
	memset(s, 0, sizeof(*s));
}
