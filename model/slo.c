/* The percentile table of --slo, a point's verdict and the search for
 * the highest rate that holds (model/slo.h says how and why). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "model/slo.h"
#include "model/stats.h"

const struct model_slo_pct model_slo_pcts[MODEL_SLO_NPCT] = {
	{ "p50", 50.0 }, { "p90", 90.0 }, { "p99", 99.0 }, { "p99.9", 99.9 }, { "p99.99", 99.99 },
};

int model_slo_pct_find(const char *name)
{
	int i;

	for (i = 0; i < MODEL_SLO_NPCT; i++)
		if (!strcmp(name, model_slo_pcts[i].name))
			return i;
	return -ENOENT;
}

int model_slo_verdict(const struct model_slo *slo, const uint64_t *ns, bool behind)
{
	double worst = 1.0, r;
	int v = MODEL_SLO_HELD;
	unsigned i;

	if (behind)
		return MODEL_SLO_BEHIND;
	for (i = 0; i < slo->n; i++) {
		r = (double)ns[slo->pct[i]] / (double)slo->ns[i];
		if (ns[slo->pct[i]] > slo->ns[i] && r > worst) {
			worst = r;
			v = (int)i;
		}
	}
	return v;
}

int model_slo_search_init(struct model_slo_search *s, double max, double floor, unsigned cap)
{
	if (!(max > 0) || !isfinite(max) || !(floor > 0) || floor > max ||
	    floor < MODEL_SLO_FLOOR * max * (1 - 1e-9) || cap < MODEL_SLO_MIN_POINTS ||
	    cap > MODEL_SLO_MAX_POINTS)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->max = max;
	s->floor = floor;
	s->cap = cap;
	s->hi_verdict = MODEL_SLO_HELD;
	return 0;
}

/* lo, hi and confirmed from every point: hi the lowest rate that broke
 * at any of its points, lo the highest below it that never broke. */
static void bracket(struct model_slo_search *s)
{
	unsigned i, j, held;

	s->hi = 0;
	s->lo = 0;
	s->confirmed = false;
	for (i = 0; i < s->n; i++) {
		if (s->pt[i].verdict == MODEL_SLO_HELD || (s->hi > 0 && s->pt[i].rate >= s->hi))
			continue;
		s->hi = s->pt[i].rate;
		s->hi_verdict = s->pt[i].verdict;
	}
	for (i = 0; i < s->n; i++) {
		if (s->pt[i].verdict != MODEL_SLO_HELD || (s->hi > 0 && s->pt[i].rate >= s->hi) ||
		    s->pt[i].rate < s->lo)
			continue;
		s->lo = s->pt[i].rate;
	}
	for (held = 0, j = 0; s->lo > 0 && j < s->n; j++)
		held += s->pt[j].rate == s->lo;
	s->confirmed = held >= 2;
}

/* What to measure next: 0 with *rate, or 1 when done. */
static int plan(const struct model_slo_search *s, double *rate, bool *again)
{
	*again = false;
	if (s->n >= s->cap)
		return 1;
	if (!s->n) {
		*rate = s->max;
		return 0;
	}
	if (s->lo <= 0) {
		if (s->hi <= s->floor)
			return 1;	/* broke at the floor: no rate holds */
		*rate = s->floor;
		return 0;
	}
	/* a bisection, where it leaves a point to confirm what it finds */
	if (s->hi > 0 && s->hi > s->lo * (1 + MODEL_SLO_TOL) && s->n + 2 <= s->cap) {
		*rate = sqrt(s->lo * s->hi);
		return 0;
	}
	if (s->confirmed)
		return 1;
	*rate = s->lo;
	*again = true;
	return 0;
}

int model_slo_next(const struct model_slo_search *s, double *rate, bool *again)
{
	double r;
	bool a;

	if (s->done || plan(s, &r, &a))
		return 1;
	*rate = r;
	*again = a;
	return 0;
}

int model_slo_add(struct model_slo_search *s, double rate, bool again, int verdict)
{
	double r;
	bool a;

	if (s->done)
		return -EINVAL;
	if (s->n >= s->cap)
		return -ENOSPC;
	s->pt[s->n++] = (struct model_slo_point){ .rate = rate, .verdict = verdict, .again = again };
	bracket(s);
	s->done = plan(s, &r, &a) == 1;
	return 0;
}

double model_slo_capacity_mean(const double *caps, unsigned n, double *lo, double *hi)
{
	double m;
	unsigned i;

	*lo = *hi = NAN;
	for (i = 0; i < n; i++)
		if (!(caps[i] > 0))
			return 0;
	if (!n || model_mean_ci(caps, n, MODEL_AMEAN, 0.95, &m, lo, hi))
		return 0;
	return m;
}
