/* Water-filling through the tree: every drive not yet capped rises at one
 * rate; a drive stops when it gets its demand or when a resource on its
 * path is full (what is left of it, shared by the drives still rising
 * through it, is all they get). Each round stops at least one drive, so
 * there are at most as many rounds as drives, each O(drives x depth).
 * Then each full resource's gain, and the binding one. */
#include "model/ceiling_int.h"

#include <math.h>

/* Rounding: shares worked out along different sums differ in the last
 * bits; a figure this close to the level is at the level. */
#define REL_EPS 1e-9

static bool at_most(double a, double b)
{
	return a <= b + REL_EPS * (fabs(b) > 1 ? fabs(b) : 1);
}

static bool is_drive(const struct model_ceil *m, unsigned i)
{
	return m->res[i].kind == MODEL_CEIL_DRIVE;
}

/* What resource r has left for each drive still rising through it. */
static double share(const struct model_ceil *m, unsigned r)
{
	double s = (m->fig[r].capacity - m->fixed[r]) / m->nfree[r];

	return s > 0 ? s : 0;
}

/* Drives with nothing to ask for stop at 0 before the first round;
 * returns how many are left to rise. */
static unsigned reset(struct model_ceil *m)
{
	unsigned i, left = 0;

	for (i = 0; i < m->nres; i++) {
		struct model_ceil_fig *f = &m->fig[i];

		m->rate[i] = 0;
		m->frozen[i] = true;
		/* gain is model_ceil_solve's, across fills */
		f->demand = f->allocated = f->utilization = f->held_back = 0;
		f->ndrives = f->ncapped = 0;
		f->saturated = false;
		f->limit = -1;
		if (!is_drive(m, i))
			continue;
		if (m->res[i].iops > 0) {
			m->frozen[i] = false;
			left++;
		} else {
			f->limit = (int)i;
		}
	}
	return left;
}

/* Per resource: the rates of stopped drives through it, and how many
 * drives still rise through it. */
static void tally(struct model_ceil *m)
{
	int path[CEIL_PATH_MAX];
	unsigned d, k, n;

	for (d = 0; d < m->nres; d++) {
		m->fixed[d] = 0;
		m->nfree[d] = 0;
	}
	for (d = 0; d < m->nres; d++) {
		if (!is_drive(m, d))
			continue;
		n = ceil_path(m, d, path);
		for (k = 1; k < n; k++) {
			if (m->fig[path[k]].implied)
				continue;
			if (m->frozen[d])
				m->fixed[path[k]] += m->rate[d];
			else
				m->nfree[path[k]]++;
		}
	}
}

/* The rate all rising drives reach this round: the lowest demand among
 * them or the lowest share of a resource they use. */
static double level(const struct model_ceil *m)
{
	double lv = INFINITY;
	unsigned i;

	for (i = 0; i < m->nres; i++) {
		if (is_drive(m, i)) {
			if (!m->frozen[i] && m->res[i].iops < lv)
				lv = m->res[i].iops;
		} else if (m->nfree[i] && share(m, i) < lv) {
			lv = share(m, i);
		}
	}
	return lv;
}

/* Stops drive d at lv if it got its demand or a resource on its path is
 * full; each full one is charged what d still wanted. */
static bool stop(struct model_ceil *m, unsigned d, double lv)
{
	int path[CEIL_PATH_MAX];
	double want = m->res[d].iops;
	unsigned k, n;
	int r;

	if (at_most(want, lv)) {
		m->rate[d] = want;
		m->fig[d].limit = (int)d;
		return true;
	}
	n = ceil_path(m, d, path);
	for (k = 1; k < n; k++) {
		r = path[k];
		if (m->fig[r].implied || !at_most(share(m, (unsigned)r), lv))
			continue;
		m->fig[r].held_back += want - lv;
		if (m->fig[d].limit < 0)
			m->fig[d].limit = r;	/* the nearest full one */
	}
	return m->fig[d].limit >= 0;
}

static void totals(struct model_ceil *m)
{
	int path[CEIL_PATH_MAX];
	unsigned d, k, n;

	m->demand = m->predicted = 0;
	for (d = 0; d < m->nres; d++) {
		if (!is_drive(m, d))
			continue;
		m->demand += m->res[d].iops;
		m->predicted += m->rate[d];
		n = ceil_path(m, d, path);
		for (k = 0; k < n; k++) {
			struct model_ceil_fig *f = &m->fig[path[k]];

			f->demand += m->res[d].iops;
			f->allocated += m->rate[d];
			f->ndrives++;
		}
		if (m->fig[d].limit >= 0 && m->fig[d].limit != (int)d)
			m->fig[m->fig[d].limit].ncapped++;
	}
	for (d = 0; d < m->nres; d++) {
		struct model_ceil_fig *f = &m->fig[d];

		if (isinf(f->capacity) || !(f->capacity > 0))
			continue;
		f->utilization = f->allocated / f->capacity;
		f->saturated = f->ndrives && at_most(f->capacity, f->allocated);
	}
}

/* Gains closer than this are equal: a resource's gain is 0 or 1 but for
 * rounding, or a fraction where drives share several full resources. */
#define GAIN_EPS 1e-3

/* Whether f binds more than b: a higher gain; as high, more held back;
 * as much, more drives capped first by it (the nearer of two resources
 * full at once: a lone drive's link before its switch). */
static bool binds_more(const struct model_ceil_fig *f,
		       const struct model_ceil_fig *b)
{
	if (f->gain > b->gain + GAIN_EPS)
		return true;
	if (f->gain < b->gain - GAIN_EPS)
		return false;
	if (!at_most(f->held_back, b->held_back))
		return true;
	return at_most(b->held_back, f->held_back) && f->ncapped > b->ncapped;
}

/* The full resource that binds most; ties: the lower index. */
static int binding(const struct model_ceil *m)
{
	int best = -1;
	unsigned i;

	for (i = 0; i < m->nres; i++) {
		if (is_drive(m, i) || !(m->fig[i].held_back > 0))
			continue;
		if (best < 0 || binds_more(&m->fig[i], &m->fig[best]))
			best = (int)i;
	}
	return best;
}

void ceil_fill(struct model_ceil *m)
{
	unsigned d, left = reset(m);
	double lv;

	while (left) {
		tally(m);
		lv = level(m);
		for (d = 0; d < m->nres; d++) {
			if (!is_drive(m, d) || m->frozen[d])
				continue;
			m->rate[d] = lv;
			if (stop(m, d, lv)) {
				m->frozen[d] = true;
				left--;
			}
		}
	}
	totals(m);
}

/* Each resource that held drives back gets its gain: the ceiling's rise
 * over a small rise of its capacity, found by filling again with it. A
 * full switch whose drives would only take IOPS from others under a full
 * memory gains nothing; the memory gains one for one. Marks the ones to
 * try (-1) from the first fill, since every fill clears held_back. */
static void gains(struct model_ceil *m)
{
	double base = m->predicted, cap, step;
	unsigned i;

	for (i = 0; i < m->nres; i++)
		m->fig[i].gain = !is_drive(m, i) && m->fig[i].held_back > 0 ? -1 : 0;
	for (i = 0; i < m->nres; i++) {
		if (m->fig[i].gain >= 0)
			continue;
		cap = m->fig[i].capacity;
		step = cap * 1e-6 > 1e-3 ? cap * 1e-6 : 1e-3;
		m->fig[i].capacity = cap + step;
		ceil_fill(m);
		m->fig[i].capacity = cap;
		m->fig[i].gain = (m->predicted - base) / step;
	}
}

void model_ceil_solve(struct model_ceil *m)
{
	ceil_fill(m);
	gains(m);
	ceil_fill(m);
	m->binding = binding(m);
}
