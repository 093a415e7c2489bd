/* The percentile table of --slo, a point's verdict and the search for
 * the highest rate that holds (model/slo.h says how and why). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "engine/arrival.h"
#include "engine/engine.h"
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

/* One bound's state on one interval (model_slo_judge). */
enum { B_HELD, B_AT, B_UND, B_BROKE };

static int bound_state(const struct model_pct_ci *c, uint64_t b)
{
	double zl = (double)b * (1 - MODEL_SLO_ZONE), zh = (double)b * (1 + MODEL_SLO_ZONE);

	if (c->has_hi && c->hi <= b)
		return B_HELD;
	if (c->has_lo && c->has_hi && (double)c->lo >= zl && (double)c->hi <= zh)
		return B_AT;
	if (c->has_lo && c->lo > b)
		return B_BROKE;
	return B_UND;
}

uint64_t model_slo_late_from(const uint64_t *late_oct, uint64_t ns)
{
	uint64_t n = 0;
	unsigned k;

	for (k = 0; late_oct && k < ENG_LATE_OCTS; k++)	/* not ENG_LATE_SLOT */
		if (eng_late_oct_from(k) >= ns)
			n += late_oct[k];
	return n;
}

int model_slo_judge(const struct model_slo *slo, const struct model_slo_obs *o)
{
	/* the IOs the generator issued late with a slot free, and those
	 * that waited for the device to free one */
	uint64_t gen_late = model_slo_late_from(o->late_oct, ENG_RATE_LATE_NS);
	uint64_t slot = o->late_oct ? o->late_oct[ENG_LATE_SLOT] : 0;
	double worst = 0, r, tail;
	bool und = false, at = false, gen = false;
	int dev = -1, st;
	unsigned i, p;

	if (o->behind)
		return gen_late > slot ? MODEL_SLO_GENERATOR : MODEL_SLO_BEHIND;
	for (i = 0; i < slo->n; i++) {
		p = slo->pct[i];
		st = bound_state(&o->due[p], slo->ns[i]);
		und |= st == B_UND;
		at |= st == B_AT;
		if (st != B_BROKE)
			continue;
		/* the generator's late IOs alone fill the percentile's tail, or
		 * the workers' wait for a CPU covers the breach */
		tail = 1 - model_slo_pcts[p].pct / 100;
		if ((o->ios && (double)gen_late >= tail * (double)o->ios) ||
		    (o->delay_ns_per_io > 0 &&
		     o->delay_ns_per_io >= (double)o->due[p].lo - (double)slo->ns[i])) {
			gen = true;
			continue;
		}
		r = (double)o->due[p].lo / (double)slo->ns[i];
		if (r > worst) {
			worst = r;
			dev = (int)i;
		}
	}
	if (dev >= 0)
		return dev;
	if (gen)
		return MODEL_SLO_GENERATOR;
	if (und)
		return MODEL_SLO_UNDECIDED;
	return at ? MODEL_SLO_AT_BOUND : MODEL_SLO_HELD;
}

double model_slo_start(const struct model_slo *slo, double max, double depth)
{
	double l, k, n, x, r;
	unsigned i;

	if (!(max > 0) || !(depth > 0) || !isfinite(max) || !isfinite(depth))
		return 0;
	l = depth / max;	/* Little's law: the mean latency, s */
	r = MODEL_SLO_START_MAX * max;
	for (i = 0; i < slo->n; i++) {
		k = -log(1 - model_slo_pcts[slo->pct[i]].pct / 100);
		n = depth * ((double)slo->ns[i] * 1e-9) / (k * l);
		x = max * n / (1 + n);
		r = x < r ? x : r;
	}
	return r;
}

int model_slo_search_init(struct model_slo_search *s, double max, double floor, unsigned cap)
{
	if (!(max > 0) || !isfinite(max) || !(floor > 0) || floor > max ||
	    floor < MODEL_SLO_FLOOR * max * (1 - 1e-9) || cap < MODEL_SLO_MIN_POINTS ||
	    cap > MODEL_SLO_MAX_POINTS)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->max = max;
	s->start = max;
	s->floor = floor;
	s->cap = cap;
	s->hi_verdict = MODEL_SLO_HELD;
	return 0;
}

int model_slo_search_start(struct model_slo_search *s, double start)
{
	if (s->n || !(start >= s->floor) || start > s->max)
		return -EINVAL;
	s->start = start;
	return 0;
}

/* A rate's state over all its points: broke where any broke (the
 * device's doing), else undecided where any was neither, else held. */
enum { R_HELD, R_UND, R_BROKE };

static int rate_state(const struct model_slo_search *s, double rate)
{
	int st = R_HELD;
	unsigned i;

	for (i = 0; i < s->n; i++) {
		if (s->pt[i].rate != rate)
			continue;
		if (model_slo_broke(s->pt[i].verdict))
			return R_BROKE;
		if (!model_slo_held(s->pt[i].verdict))
			st = R_UND;
	}
	return st;
}

/* lo, hi, top, the undecided range and confirmed from every point: hi the
 * lowest rate that broke at any of its points, lo the highest below it
 * that held at every one, top the lowest above lo that did not. */
static void bracket(struct model_slo_search *s)
{
	unsigned i, held;
	double r;
	int st;

	s->hi = s->lo = s->top = s->und_lo = s->und_hi = 0;
	s->confirmed = false;
	for (i = 0; i < s->n; i++) {
		r = s->pt[i].rate;
		st = rate_state(s, r);
		if (st == R_BROKE && (!s->hi || r < s->hi)) {
			s->hi = r;
			s->hi_verdict = s->pt[i].verdict;
		}
		if (st == R_UND) {
			s->und_lo = !s->und_lo || r < s->und_lo ? r : s->und_lo;
			s->und_hi = r > s->und_hi ? r : s->und_hi;
			s->und_verdict = s->pt[i].verdict;
		}
	}
	for (i = 0; i < s->n; i++) {
		r = s->pt[i].rate;
		if (r > s->lo && (!s->hi || r < s->hi) && rate_state(s, r) == R_HELD)
			s->lo = r;
	}
	for (i = 0; i < s->n; i++) {
		r = s->pt[i].rate;
		if (r > s->lo && (!s->top || r < s->top) && rate_state(s, r) != R_HELD)
			s->top = r;
	}
	for (held = 0, i = 0; s->lo > 0 && i < s->n; i++)
		held += s->pt[i].rate == s->lo;
	s->confirmed = held >= 2;
}

/* Whether a point at rate was measured. */
static bool measured(const struct model_slo_search *s, double rate)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (s->pt[i].rate == rate)
			return true;
	return false;
}

/* What to measure next: 0 with *rate, or 1 when done. */
static int plan(const struct model_slo_search *s, double *rate, bool *again)
{
	*again = false;
	if (s->n >= s->cap)
		return 1;
	if (!s->n) {
		*rate = s->start;
		return 0;
	}
	if (s->lo <= 0) {
		if (measured(s, s->floor))
			return 1;	/* nothing held at the floor either */
		*rate = s->floor;
		return 0;
	}
	/* held below the maximum with nothing above: the maximum next */
	if (!s->top && s->lo < s->max && !measured(s, s->max) && s->n + 2 <= s->cap) {
		*rate = s->max;
		return 0;
	}
	/* a bisection, where it leaves a point to confirm what it finds */
	if (s->top > s->lo * (1 + MODEL_SLO_TOL) && s->n + 2 <= s->cap) {
		*rate = sqrt(s->lo * s->top);
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
