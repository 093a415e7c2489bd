/* A side against the base (compare.h). A run is one sample: its figure
 * is its repeats summed up by the metric's estimator, and the test uses
 * the spread of those figures across runs, the run-to-run noise that
 * repeats inside one run never see. With one run on each side there is
 * nothing else, so that run's repeats are tested, and the side says that
 * drift between runs was not measured. */
#include "cli/compare/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum model_mean cmp_mean_of(unsigned m, struct cmp_bound b)
{
	return cli_mean_of((enum cli_metric)m, b.by_ios, b.open_loop);
}

const char *cmp_bound_name(struct cmp_bound b)
{
	return b.by_ios ? "equal IOs (--ios)" : b.open_loop ? "equal time at a held rate (--rate)" :
		"equal time";
}

static bool positive(const double *v, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (!(v[i] > 0))
			return false;
	return true;
}

/* Metric m of row key, one figure per run of g that has it, into out;
 * *last: the last such run's row; *bad: whether a run's figure could not
 * be pooled (an Hmean of a repeat at 0). Returns how many. */
static unsigned run_figures(const struct cmp_group *g, const char *key, unsigned m,
			    enum model_mean mean, double *out, const struct cmp_row **last,
			    bool *bad)
{
	const struct cmp_row *r;
	struct model_spread s;
	unsigned i, n = 0;

	for (i = 0; i < g->n; i++) {
		r = cmp_row_find(&g->rows[i], key);
		if (!r || !r->n[m] || model_spread(r->v[m], r->n[m], &s))
			continue;
		out[n] = mean == MODEL_HMEAN ? s.hmean : s.amean;
		if (!isfinite(out[n])) {
			*bad = true;
			continue;
		}
		*last = r;
		n++;
	}
	return n;
}

static void sum_of(struct cmp_sum *c, const double *v, unsigned n, enum model_mean mean,
		   double alpha)
{
	memset(c, 0, sizeof(*c));
	if (model_spread(v, n, &c->s) ||
	    model_mean_ci(v, n, mean, 1.0 - alpha, &c->center, &c->ci_lo, &c->ci_hi))
		return;
	c->n = n;
}

/* Whether some run of g has metric m of row key below its resolution:
 * the largest bound among them (0: not known), or -1. */
static double below_of(const struct cmp_group *g, const char *key, unsigned m)
{
	const struct cmp_row *r;
	double b = -1;
	unsigned i;

	for (i = 0; i < g->n; i++) {
		r = cmp_row_find(&g->rows[i], key);
		if (r && r->below[m] >= 0 && r->below[m] > b)
			b = r->below[m];
	}
	return b;
}

/* A side below resolution: no figure (NAN), a bound; the other side's
 * figure as it is, nothing changed or tested. */
static void metric_below(struct cmp_metric *x, const double *v, unsigned n, bool base_has,
			 enum model_mean mean, double alpha)
{
	struct cmp_sum *has = base_has ? &x->base : &x->next;
	struct cmp_sum *none = base_has ? &x->next : &x->base;

	x->mean = mean;
	if (n)
		sum_of(has, v, n, x->mean, alpha);
	else
		has->center = NAN;
	none->center = none->ci_lo = none->ci_hi = NAN;
	none->s.min = none->s.max = none->s.amean = none->s.hmean = NAN;
	none->s.stddev = none->s.cov = NAN;
	x->change_pct = x->ci_lo_pct = x->ci_hi_pct = x->noise_pct = x->q = x->p_holm = NAN;
	x->have = true;
}

/* A side of one run and one value: its percentile's own interval. */
static void pct_ci(struct cmp_sum *c, const struct cmp_row *r, unsigned n, unsigned m)
{
	c->pct_lo = c->pct_hi = NAN;
	c->has_pct_ci = false;
	if (!r || n != 1 || r->n[m] != 1 || !cli_metrics[m].obj)
		return;
	c->pct_lo = r->pct_lo[m];
	c->pct_hi = r->pct_hi[m];
	c->has_pct_ci = !isnan(c->pct_lo) || !isnan(c->pct_hi);
}

/* One metric of one row: the samples, each side's figure, the change and
 * its test. wa and wb have room for a figure per run. */
static void metric(struct cmp_metric *x, const struct cmp_group *ga, const struct cmp_group *gb,
		   const char *key, unsigned m, struct cmp_bound bound, double alpha, bool paired,
		   double *wa, double *wb)
{
	const struct cmp_row *ra = NULL, *rb = NULL;
	enum model_mean mean = cmp_mean_of(m, bound);
	const double *va = wa, *vb = wb;
	bool rate = cli_metrics[m].rate, bad = false;
	unsigned na, nb;
	int rc;

	memset(x, 0, sizeof(*x));
	x->below_base = below_of(ga, key, m);
	x->below_next = below_of(gb, key, m);
	/* an Hmean needs every value above 0: a stalled repeat's 0 IOPS
	 * falls back to the Amean */
	na = run_figures(ga, key, m, mean, wa, &ra, &bad);
	nb = run_figures(gb, key, m, mean, wb, &rb, &bad);
	/* below the tick on a side: that side is no figure, never a 0 that
	 * changes by -100% (docs/cpu.md) */
	if (x->below_base >= 0 || x->below_next >= 0) {
		if (x->below_base >= 0 && x->below_next >= 0)
			metric_below(x, wa, 0, true, mean, alpha);
		else if (x->below_next >= 0)
			metric_below(x, wa, na, true, mean, alpha);
		else
			metric_below(x, wb, nb, false, mean, alpha);
		return;
	}
	if (bad) {
		mean = MODEL_AMEAN;
		na = run_figures(ga, key, m, mean, wa, &ra, &bad);
		nb = run_figures(gb, key, m, mean, wb, &rb, &bad);
	}
	if (!na || !nb)
		return;
	x->level = CMP_RUNS;
	if (na == 1 && nb == 1) {
		x->level = CMP_REPEATS;
		va = ra->v[m];
		na = ra->n[m];
		vb = rb->v[m];
		nb = rb->n[m];
		if (mean == MODEL_HMEAN && (!positive(va, na) || !positive(vb, nb)))
			mean = MODEL_AMEAN;
	}
	x->mean = mean;
	sum_of(&x->base, va, na, mean, alpha);
	sum_of(&x->next, vb, nb, mean, alpha);
	pct_ci(&x->base, ra, na, m);
	pct_ci(&x->next, rb, nb, m);
	if (!x->base.n || !x->next.n || x->base.center == 0.0)
		return;
	x->have = true;
	x->change_pct = 100.0 * (x->next.center / x->base.center - 1.0);
	x->ci_lo_pct = x->ci_hi_pct = x->noise_pct = x->q = x->p_holm = NAN;
	/* round k's runs side by side: only where every round has the row */
	if (paired && x->level == CMP_RUNS && na == ga->n && nb == gb->n && na == nb)
		rc = model_change_paired(va, vb, na, mean, 1.0 - alpha, &x->c);
	else
		rc = model_change_of(va, na, vb, nb, mean, 1.0 - alpha, &x->c);
	if (!rc) {
		x->tested = true;
		x->change_pct = 100.0 * x->c.change;
		x->ci_lo_pct = 100.0 * x->c.ci_lo;
		x->ci_hi_pct = 100.0 * x->c.ci_hi;
		x->noise_pct = 100.0 * x->c.noise;
	}
	x->worse = rate ? x->change_pct < 0 : x->change_pct > 0;
}

unsigned cmp_group_keys(const struct cmp_group *g, const char **keys)
{
	unsigned i, j, k, n = 0;

	for (i = 0; i < g->n; i++)
		for (j = 0; j < g->rows[i].n; j++) {
			const char *key = g->rows[i].r[j].key;

			for (k = 0; k < n && strcmp(keys[k], key); k++)
				;
			if (k == n)
				keys[n++] = key;
		}
	return n;
}

static unsigned group_rows(const struct cmp_group *g)
{
	unsigned i, n = 0;

	for (i = 0; i < g->n; i++)
		n += g->rows[i].n;
	return n;
}

static bool group_has(const struct cmp_group *g, const char *key)
{
	unsigned i;

	for (i = 0; i < g->n; i++)
		if (cmp_row_find(&g->rows[i], key))
			return true;
	return false;
}

int cmp_side_build(struct cmp_side *s, const struct cmp_group *base, struct cmp_bound bound,
		   double alpha, bool paired)
{
	unsigned nb = group_rows(base), nn = group_rows(&s->g), i, m, nkb, nkn;
	const char **kb, **kn;
	double *wa, *wb;
	int rc = -ENOMEM;

	kb = calloc(nb ? nb : 1, sizeof(*kb));
	kn = calloc(nn ? nn : 1, sizeof(*kn));
	wa = calloc(base->n ? base->n : 1, sizeof(*wa));
	wb = calloc(s->g.n ? s->g.n : 1, sizeof(*wb));
	s->lines = calloc(nb ? nb : 1, sizeof(*s->lines));
	s->only_base = calloc(nb ? nb : 1, sizeof(*s->only_base));
	s->only_next = calloc(nn ? nn : 1, sizeof(*s->only_next));
	if (!kb || !kn || !wa || !wb || !s->lines || !s->only_base || !s->only_next)
		goto out;
	nkb = cmp_group_keys(base, kb);
	nkn = cmp_group_keys(&s->g, kn);
	for (i = 0; i < nkb; i++) {
		struct cmp_line *l = &s->lines[s->nlines];

		if (!group_has(&s->g, kb[i])) {
			s->only_base[s->nonly_base++] = kb[i];
			continue;
		}
		l->key = kb[i];
		for (m = 0; m < CLI_NMETRICS; m++) {
			metric(&l->m[m], base, &s->g, kb[i], m, bound, alpha, paired, wa, wb);
			s->untested |= l->m[m].have && !l->m[m].tested;
			s->within_run |= l->m[m].tested && l->m[m].level == CMP_REPEATS;
		}
		s->nlines++;
	}
	for (i = 0; i < nkn; i++)
		if (!group_has(base, kn[i]))
			s->only_next[s->nonly_next++] = kn[i];
	rc = 0;
out:
	free(kb);
	free(kn);
	free(wa);
	free(wb);
	return rc;
}

/* Every tested metric of every side, in order, into out (NULL: counted
 * only). Returns how many. */
static unsigned tested(struct cmp_side *side, unsigned nside, struct cmp_metric **out)
{
	unsigned s, l, m, n = 0;

	for (s = 0; s < nside; s++)
		for (l = 0; l < side[s].nlines; l++)
			for (m = 0; m < CLI_NMETRICS; m++) {
				if (!side[s].lines[l].m[m].tested)
					continue;
				if (out)
					out[n] = &side[s].lines[l].m[m];
				n++;
			}
	return n;
}

int cmp_family_adjust(struct cmp_side *side, unsigned nside, double alpha, double fail_pct,
		      bool trust_repeats, struct cmp_family *f)
{
	unsigned n = tested(side, nside, NULL), *order, k, s, l, m;
	struct cmp_metric **t, *x;
	double *p, *holm, *bh;
	int rc = -ENOMEM;

	memset(f, 0, sizeof(*f));
	t = calloc(n ? n : 1, sizeof(*t));
	p = calloc(n ? n : 1, sizeof(*p));
	holm = calloc(n ? n : 1, sizeof(*holm));
	bh = calloc(n ? n : 1, sizeof(*bh));
	order = calloc(n ? n : 1, sizeof(*order));
	if (!t || !p || !holm || !bh || !order)
		goto out;
	tested(side, nside, t);
	for (k = 0; k < n; k++)
		p[k] = t[k]->c.p;
	/* model_change_of's p is always in [0,1] */
	if (model_p_adjust(p, n, MODEL_HOLM, order, holm) ||
	    model_p_adjust(p, n, MODEL_BH, order, bh)) {
		rc = -EINVAL;
		goto out;
	}
	for (k = 0; k < n; k++) {
		x = t[k];
		x->p_holm = holm[k];
		x->q = bh[k];
		x->significant = x->q < alpha;
		x->gate = fail_pct >= 0 && x->p_holm < alpha && x->worse &&
			  fabs(x->change_pct) > fail_pct &&
			  (x->level == CMP_RUNS || trust_repeats);
		f->marked += x->significant;
		f->gated += x->gate;
	}
	f->tests = n;
	for (s = 0; s < nside; s++)
		for (l = 0; l < side[s].nlines; l++)
			for (m = 0; m < CLI_NMETRICS; m++)
				side[s].gate |= side[s].lines[l].m[m].gate;
	rc = 0;
out:
	free(t);
	free(p);
	free(holm);
	free(bh);
	free(order);
	return rc;
}

void cmp_group_free(struct cmp_group *g)
{
	unsigned i;

	for (i = 0; g->rows && i < g->n; i++)
		cmp_rows_free(&g->rows[i]);
	free(g->rows);
	memset(g, 0, sizeof(*g));
}

void cmp_side_free(struct cmp_side *s)
{
	free(s->lines);
	free(s->only_base);
	free(s->only_next);
	cmp_group_free(&s->g);
	cmp_changes_free(&s->changes);
	memset(s, 0, sizeof(*s));
}
