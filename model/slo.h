/* Capacity at a latency target (--slo): the percentiles a target may
 * bound, whether one measured point held every bound, and the search over
 * the rate of an open loop for the highest rate at which they all hold.
 * Pure: the caller measures each rate the search proposes and hands back
 * its percentiles' intervals; nothing is measured, allocated or printed
 * here.
 *
 * A point's verdict is sized to its evidence (model_slo_judge): a bound
 * held only where its percentile's 95% interval (model/pctci.h) lies
 * within it, broke only where the interval lies above it. An interval
 * across the bound is undecided, and the caller measures on (more IOs)
 * up to MODEL_SLO_WINDOWS windows; an interval that lies within the
 * indifference zone (MODEL_SLO_ZONE either side of the bound) is at the
 * bound and counts as held, so that a search whose rate nears the
 * capacity ends rather than measures on until its cap. A point whose
 * broken percentile's tail is filled by IOs the generator issued late
 * with a slot free was broken by the generator (MODEL_SLO_GENERATOR):
 * the host's doing, not the device's.
 *
 * The search (docs/saturate.md, "Capacity at a latency target"): the
 * first point is the start rate (model_slo_start: where the closed
 * loop's own latency says the bound can hold, below the maximum, at
 * which an open loop always falls behind); if it holds, the maximum
 * next. If nothing has held, the floor (MODEL_SLO_FLOOR of max) next, and
 * a target that broke there misses the bounds at any rate. Between the
 * highest rate that held (lo) and the lowest that broke or was undecided
 * (the top) it bisects geometrically, since a capacity may lie anywhere
 * from 1% to 100% of the maximum and what is wanted is the same relative
 * precision wherever it lies: from 1%..100%, 8 steps bring top/lo within
 * 1 + MODEL_SLO_TOL, where a linear bisection needs 6 steps for a
 * capacity near the maximum but 12 for one at 2% of it. The last rate
 * that held is then run again: a capacity is confirmed when its rate
 * held twice; a repeat that breaks (or is undecided) makes it the new
 * top, and the search goes on below it. An undecided point (or one the
 * generator broke) is neither lo nor hi: the search looks below it for a
 * rate that holds, and reports the rates that stayed undecided beside the
 * capacity. It never measures more than its cap of points; where the cap
 * ends it, the capacity is the highest rate that held, unconfirmed, and
 * top/lo says how close it came. */
#ifndef MODEL_SLO_H
#define MODEL_SLO_H

#include <stdbool.h>
#include <stdint.h>

#include "model/pctci.h"

#define MODEL_SLO_POINTS 12	/* the default cap of points */
#define MODEL_SLO_MAX_POINTS 64	/* the most a cap may be */
#define MODEL_SLO_MIN_POINTS 3	/* max, floor, one more */
#define MODEL_SLO_FLOOR 0.01	/* the lowest rate tried, a share of max */
#define MODEL_SLO_TOL 0.02	/* bisect until hi / lo <= 1 + this */
#define MODEL_SLO_MAX_BOUNDS 5
/* Undecided points are measured on, window after window merged, up to
 * this many windows in all: 4 windows quarter the spread of a rank (its
 * interval narrows as 1/sqrt(n)), and the search's time at most grows by
 * as much; beyond that a point near the capacity is reported undecided
 * rather than measured for ever. */
#define MODEL_SLO_WINDOWS 4
/* The indifference zone: an interval within +-5% of the bound is at the
 * bound (held). 5% is the search's own tolerance and more (2%, a rate's
 * step where it ends), and below the difference a latency target is
 * stated with; the histogram's buckets (under 1%) let an interval shrink
 * that far. */
#define MODEL_SLO_ZONE 0.05
/* The first rate is at most this share of the maximum: Poisson arrivals
 * at the closed loop's own maximum leave no slack, and fall behind. */
#define MODEL_SLO_START_MAX 0.9

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
 * its percentiles. HELD: every bound held; AT_BOUND: held, some within
 * the indifference zone. UNDECIDED: an interval across a bound (none
 * broke). GENERATOR: a bound broke from due, but the generator's
 * lateness, not the device's service time, broke it (model_slo_judge).
 * Neither of the last two counts for or against the device. */
#define MODEL_SLO_HELD (-1)
#define MODEL_SLO_BEHIND (-2)
#define MODEL_SLO_UNDECIDED (-3)
#define MODEL_SLO_GENERATOR (-4)
#define MODEL_SLO_AT_BOUND (-5)

/* Whether a verdict held (HELD or AT_BOUND), broke by the device's doing
 * (a bound or BEHIND), or neither (UNDECIDED, GENERATOR). */
static inline bool model_slo_held(int verdict)
{
	return verdict == MODEL_SLO_HELD || verdict == MODEL_SLO_AT_BOUND;
}

static inline bool model_slo_broke(int verdict)
{
	return verdict >= 0 || verdict == MODEL_SLO_BEHIND;
}

/* What a point measured, for model_slo_judge. */
struct model_slo_obs {
	/* MODEL_SLO_NPCT, model_slo_pcts' order (model_pct_list's): the
	 * latency from when each IO was due */
	const struct model_pct_ci *due;
	const uint64_t *late_oct;	/* ENG_LATE_N: the IOs issued by how late
					 * (eng_result.late_oct); NULL: none */
	uint64_t ios;		/* IOs the point rests on */
	bool behind;		/* fell behind the rate asked */
	double delay_ns_per_io;	/* the workers' time runnable but waiting for
				 * a CPU (schedstat run_delay) over the IOs;
				 * NAN or < 0: unknown */
};

/* Whether a point with the percentiles ns (model_slo_pcts' order) and,
 * where behind, an overload, held slo: MODEL_SLO_HELD, MODEL_SLO_BEHIND or
 * the index of the bound that broke. */
int model_slo_verdict(const struct model_slo *slo, const uint64_t *ns, bool behind);

/* A point's verdict from its percentiles' intervals. Per bound b on
 * percentile p, with [lo, hi] its interval from due: held where hi <= b;
 * else at the bound where lo >= b (1 - MODEL_SLO_ZONE) and hi <= b (1 +
 * MODEL_SLO_ZONE); else broke where lo > b; else undecided (an unbounded
 * end is never within anything). The point: where behind, BEHIND, or
 * GENERATOR where more of its IOs were issued late with a slot free than
 * waited for a slot (the device took what it was given; the generator
 * did not issue what was due); else the bound that broke (the furthest
 * above, lo / b); else UNDECIDED; else AT_BOUND; else HELD. A bound
 * broken by the generator (GENERATOR, where every bound that broke did
 * so) is one whose tail (1 - p / 100 of the IOs: 1% for p99) is filled by
 * IOs the generator issued late with a slot free: over ENG_RATE_LATE_NS
 * late (late_oct's octaves from the first whose least is that or more),
 * not counting those that waited for the device to free a slot
 * (ENG_LATE_SLOT), the device's doing. Latency from due = lateness +
 * service time exactly, so such a point's percentile rests on the host's
 * delays, and its service time does not clear the device either: it
 * runs from submission to the reap, and a worker kept off its CPU reaps
 * late as it issues late. Such a point is the host's doing; it does not
 * count for or against the device.
 *
 * A worker that sleeps between IOs (a low rate) is late on its wakeups,
 * not on its issues, and the late counts miss that. So a bound is the
 * generator's too where the workers' wait for a CPU per IO
 * (delay_ns_per_io) is at least how far the percentile's lower end lies
 * above the bound: the host's delay alone could carry the breach. */
int model_slo_judge(const struct model_slo *slo, const struct model_slo_obs *o);
/* Of the IOs late_oct (ENG_LATE_N) counts with a slot free, those issued
 * ns or more late, as far as the octaves tell: the octaves from the first
 * whose least is ns or more. */
uint64_t model_slo_late_from(const uint64_t *late_oct, uint64_t ns);

/* The rate a search starts from, from the closed loop's own latency: it
 * held depth IOs in flight and completed max a second, so by Little's
 * law each IO took L = depth / max on average, and with an exponential
 * tail its p-th percentile was k L, k = -ln(1 - p / 100) (4.6 for p99,
 * 0.69 for p50). Where the latency grows with the IOs held (a queue), the
 * bound b allows N = depth * b / (k L) of them in flight (= b max / k).
 * An open loop at rate r = rho max holds rho / (1 - rho) on average
 * (M/M/1; Little's law again), so it holds at most N where rho <= N /
 * (1 + N): the start is max N / (1 + N), the least over the bounds, at
 * most MODEL_SLO_START_MAX of max (an open loop at the maximum itself
 * falls behind). A device that keeps more IOs at once than a queue does
 * holds more than N and starts near its maximum anyway. 0 where max or
 * depth is not positive (the caller starts at its floor). */
double model_slo_start(const struct model_slo *slo, double max, double depth);

struct model_slo_point {
	double rate;
	int verdict;		/* model_slo_verdict's */
	bool again;		/* a repeat of a rate that held, to confirm it */
};

struct model_slo_search {
	double max;		/* the closed-loop maximum */
	double start;		/* the rate of the first point */
	double floor;		/* the least rate tried */
	unsigned cap;		/* points at most */
	unsigned n;
	struct model_slo_point pt[MODEL_SLO_MAX_POINTS];
	/* after each model_slo_add: */
	double lo;		/* the highest rate that held every time it
				 * ran, below hi; 0: none */
	double hi;		/* the lowest rate that broke; 0: none */
	int hi_verdict;		/* what broke at hi */
	double top;		/* the lowest rate above lo that broke or
				 * was undecided: what the search bisects
				 * below; 0: none */
	double und_lo, und_hi;	/* the rates with a point neither held nor
				 * broke (UNDECIDED, GENERATOR); 0: none */
	int und_verdict;	/* the last such point's */
	bool confirmed;		/* lo held twice or more */
	bool done;
};

/* A search from max (> 0) down to floor (0 < floor <= max: at least
 * MODEL_SLO_FLOOR of max, or more where the caller cannot run less) with
 * at most cap points (MODEL_SLO_MIN_POINTS..MODEL_SLO_MAX_POINTS).
 * -EINVAL otherwise. */
int model_slo_search_init(struct model_slo_search *s, double max, double floor, unsigned cap);
/* The first point at start (floor <= start <= max) instead of max, before
 * the first model_slo_add. -EINVAL otherwise. */
int model_slo_search_start(struct model_slo_search *s, double start);
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
