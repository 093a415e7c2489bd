/* Capacity at a latency target (--slo): the percentiles a target may
 * bound, whether one measured point held every bound, and the search over
 * the rate of an open loop for the highest rate at which they all hold.
 * Pure: the caller measures each rate the search proposes and hands back
 * its percentiles; nothing is measured, allocated or printed here.
 *
 * The search (docs/saturate.md, "Capacity at a latency target"): the
 * first point is the closed-loop maximum itself (max); if it breaks, the
 * floor (MODEL_SLO_FLOOR of max) next, and a target that breaks there
 * misses the bounds at any rate. Between the highest rate that held (lo)
 * and the lowest that broke (hi) it bisects geometrically, since a
 * capacity may lie anywhere from 1% to 100% of the maximum and what is
 * wanted is the same relative precision wherever it lies: from 1%..100%,
 * 8 steps bring hi/lo within 1 + MODEL_SLO_TOL, where a linear bisection
 * needs 6 steps for a capacity near the maximum but 12 for one at 2% of
 * it. The last rate that held is then run again: a capacity is confirmed
 * when its rate held twice; a repeat that breaks makes it the new hi, and
 * the search goes on below it. It never measures more than its cap of
 * points; where the cap ends it, the capacity is the highest rate that
 * held, unconfirmed, and hi/lo says how close it came. */
#ifndef MODEL_SLO_H
#define MODEL_SLO_H

#include <stdbool.h>
#include <stdint.h>

#define MODEL_SLO_POINTS 12	/* the default cap of points */
#define MODEL_SLO_MAX_POINTS 64	/* the most a cap may be */
#define MODEL_SLO_MIN_POINTS 3	/* max, floor, one more */
#define MODEL_SLO_FLOOR 0.01	/* the lowest rate tried, a share of max */
#define MODEL_SLO_TOL 0.02	/* bisect until hi / lo <= 1 + this */
#define MODEL_SLO_MAX_BOUNDS 5

/* The percentiles a bound may name, in the order reports give them. */
struct model_slo_pct {
	const char *name;	/* "p99.9": as in reports and the JSON */
	double pct;		/* 99.9 */
};
#define MODEL_SLO_NPCT 5
extern const struct model_slo_pct model_slo_pcts[MODEL_SLO_NPCT];

/* The index in model_slo_pcts of name, or -ENOENT. */
int model_slo_pct_find(const char *name);

/* The bounds: percentile pct[i] (an index in model_slo_pcts) at most
 * ns[i] nanoseconds; each percentile at most once. */
struct model_slo {
	unsigned n;
	unsigned pct[MODEL_SLO_MAX_BOUNDS];
	uint64_t ns[MODEL_SLO_MAX_BOUNDS];
};

/* Why a point broke: the index of the bound that broke (of those that
 * did, the one furthest above its bound, as a ratio), or BEHIND: the
 * target fell behind the rate asked (an open loop's overload), whatever
 * its percentiles. HELD: every bound held. */
#define MODEL_SLO_HELD (-1)
#define MODEL_SLO_BEHIND (-2)

/* Whether a point with the percentiles ns (model_slo_pcts' order) and,
 * where behind, an overload, held slo: MODEL_SLO_HELD, MODEL_SLO_BEHIND or
 * the index of the bound that broke. */
int model_slo_verdict(const struct model_slo *slo, const uint64_t *ns, bool behind);

struct model_slo_point {
	double rate;
	int verdict;		/* model_slo_verdict's */
	bool again;		/* a repeat of a rate that held, to confirm it */
};

struct model_slo_search {
	double max;		/* the rate of the first point */
	double floor;		/* the least rate tried */
	unsigned cap;		/* points at most */
	unsigned n;
	struct model_slo_point pt[MODEL_SLO_MAX_POINTS];
	/* after each model_slo_add: */
	double lo;		/* the highest rate that held every time it
				 * ran, below hi; 0: none */
	double hi;		/* the lowest rate that broke; 0: none */
	int hi_verdict;		/* what broke at hi */
	bool confirmed;		/* lo held twice or more */
	bool done;
};

/* A search from max (> 0) down to floor (0 < floor <= max: at least
 * MODEL_SLO_FLOOR of max, or more where the caller cannot run less) with
 * at most cap points (MODEL_SLO_MIN_POINTS..MODEL_SLO_MAX_POINTS).
 * -EINVAL otherwise. */
int model_slo_search_init(struct model_slo_search *s, double max, double floor, unsigned cap);
/* The rate to measure next and whether it repeats one that held; 1 when
 * the search is done (nothing written), 0 otherwise. */
int model_slo_next(const struct model_slo_search *s, double *rate, bool *again);
/* The point just measured at rate (the one model_slo_next proposed),
 * with its verdict. -ENOSPC past the cap, -EINVAL after done. */
int model_slo_add(struct model_slo_search *s, double rate, bool again, int verdict);

/* What a finished search found: the capacity (lo; 0 where no rate held:
 * the target misses the bounds at any rate it was tried at). */
static inline double model_slo_capacity(const struct model_slo_search *s)
{
	return s->lo;
}

/* A target's capacity over its searches (--repeat): caps[0..n), each
 * search's capacity, 0 where it found none. The mean, with lo and hi its
 * 95% interval where n >= 2, else NAN. 0 where n is 0 or any search found
 * none: a capacity not every search agrees on is none. */
double model_slo_capacity_mean(const double *caps, unsigned n, double *lo, double *hi);

#endif
