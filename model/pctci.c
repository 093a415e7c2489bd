/* A percentile's 95% interval: the exact order-statistics ranks read off
 * the histogram, the batch-means interval of the share above it, and the
 * wider of the two at each end. docs/intervals.md gives the method and
 * its sources; tests/test_pctci.c measures its coverage. */
#include "model/pctci.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "model/stats.h"

const double model_pct_list[MODEL_PCT_N] = { 50, 90, 99, 99.9, 99.99 };
const char *const model_pct_keys[MODEL_PCT_N] = { "p50", "p90", "p99", "p99.9", "p99.99" };

/* Counts past 2^53 are not exact in a double, which the binomial is
 * computed in (a run of 10M IOPS would take 28 years to get there). */
#define MAX_IOS 0x1p53

static bool args_ok(double pct, double conf)
{
	return pct > 0 && pct < 100 && conf > 0 && conf < 1;
}

/* The smallest k in [0, n] where the binomial's P(K <= k) > tail (upper
 * false) or P(K > k) <= tail (upper true); both hold at k = n. */
static int binom_pred(double k, double n, double p, double tail, bool upper, bool *yes)
{
	double le, gt;
	int ret = model_binom_tails(k, n, p, &le, &gt);

	if (ret)
		return ret;
	*yes = upper ? gt <= tail : le > tail;
	return 0;
}

/* Galloping from a guess (the normal approximation, a rank or two off for
 * large n), then bisection: a handful of tail evaluations, where
 * bisection over 0..n would take log2(n) of them. */
static int binom_first(double n, double p, double tail, bool upper, double guess, double *k)
{
	double yes_at, no_at, step = 1, mid;
	bool yes;
	int ret;

	guess = fmin(fmax(floor(guess), 0), n);
	ret = binom_pred(guess, n, p, tail, upper, &yes);
	if (ret)
		return ret;
	if (yes) {
		yes_at = guess;
		no_at = -1;
		while (yes_at > 0) {
			double at = fmax(yes_at - step, 0);

			ret = binom_pred(at, n, p, tail, upper, &yes);
			if (ret)
				return ret;
			if (!yes) {
				no_at = at;
				break;
			}
			yes_at = at;
			step *= 2;
		}
	} else {
		no_at = guess;
		for (;;) {
			double at = fmin(no_at + step, n);

			ret = binom_pred(at, n, p, tail, upper, &yes);
			if (ret)
				return ret;
			if (yes) {
				yes_at = at;
				break;
			}
			no_at = at;
			step *= 2;
		}
	}
	while (yes_at - no_at > 1) {
		mid = floor(no_at + (yes_at - no_at) / 2);
		ret = binom_pred(mid, n, p, tail, upper, &yes);
		if (ret)
			return ret;
		if (yes)
			yes_at = mid;
		else
			no_at = mid;
	}
	*k = yes_at;
	return 0;
}

/* Of n IOs, K fall below the true percentile xi: K ~ binomial(n, p). The
 * r-th smallest is <= xi when K >= r, and the s-th is >= xi when K < s,
 * so [X(r), X(s)] misses xi with probability P(K < r) + P(K >= s). Each
 * side is held to (1 - conf) / 2: r is the largest rank with
 * P(K <= r - 1) <= (1 - conf) / 2, s the smallest with P(K >= s) <= it. */
int model_pct_ranks(uint64_t n, double pct, double conf, uint64_t *lo, uint64_t *hi)
{
	double p = pct / 100, tail = (1 - conf) / 2, dn = (double)n, sd, z, r, s;
	int ret;

	if (!args_ok(pct, conf) || !n)
		return -EINVAL;
	if (dn >= MAX_IOS)
		return -ERANGE;
	sd = sqrt(dn * p * (1 - p));
	z = -model_t_quantile(tail, INFINITY);
	if (isnan(z))
		return -EDOM;
	ret = binom_first(dn, p, tail, false, dn * p - z * sd, &r);
	if (!ret)
		ret = binom_first(dn, p, tail, true, dn * p + z * sd, &s);
	if (ret)
		return ret;
	/* r == 0: even the smallest IO is above xi too often; s == n: P(K
	 * >= n) = p^n is too large for the largest IO to bound it */
	*lo = (uint64_t)r;
	*hi = (uint64_t)s + 1;
	return 0;
}

/* The bucket holding the r-th smallest IO (1-based). Buckets that count
 * fewer IOs than h->count (a histogram taken apart mid-update) give the
 * last bucket, whose upper edge the caller clamps to max_ns. */
static unsigned bucket_of_rank(const struct eng_hist *h, uint64_t r)
{
	uint64_t seen = 0;
	unsigned i;

	for (i = 0; i < ENG_HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= r)
			return i;
	}
	return ENG_HIST_BUCKETS - 1;
}

/* The lower edge of rank r's bucket, raised to min_ns where that is
 * tighter (min_ns is exact, an edge is up to 1% below it). */
static uint64_t rank_lo_ns(const struct eng_hist *h, uint64_t r)
{
	uint64_t lo, hi;

	eng_hist_bounds(bucket_of_rank(h, r), &lo, &hi);
	return lo > h->min_ns ? lo : h->min_ns;
}

static uint64_t rank_hi_ns(const struct eng_hist *h, uint64_t r)
{
	uint64_t lo, hi;

	eng_hist_bounds(bucket_of_rank(h, r), &lo, &hi);
	return hi < h->max_ns ? hi : h->max_ns;
}

/* The IOs of h above bucket j, and half of those in it: the share above
 * the value at the bucket's middle, as eng_hist_percentile reports it.
 * Only the buckets between min_ns's and max_ns's are read, from the
 * nearer end. */
static double above(const struct eng_hist *h, unsigned j)
{
	unsigned first = 0, last = ENG_HIST_BUCKETS - 1, i;
	uint64_t n = 0;

	if (!h->count)
		return 0;
	if (h->min_ns <= h->max_ns) {
		first = eng_hist_index(h->min_ns);
		last = eng_hist_index(h->max_ns);
	}
	if (j < first)
		return (double)h->count;
	if (j > last)
		return 0;
	if (j - first < last - j) {
		for (i = first; i < j; i++)
			n += h->b[i];
		return (double)(h->count - n) - 0.5 * (double)h->b[j];
	}
	for (i = j + 1; i <= last; i++)
		n += h->b[i];
	return (double)n + 0.5 * (double)h->b[j];
}

struct ends {
	bool has_lo, has_hi;
	uint64_t lo, hi;
};

/* Batches held apart for the independence test; more are grouped into
 * this many consecutive runs first. */
#define GROUPS (2 * MODEL_PCT_BATCHES)

/* The spread of the batches' shares around the ratio estimator R = sum
 * y / sum n: its standard error, and the lag-1 autocorrelation of the
 * residuals y_b - R n_b. */
static void spread_of(const double *y, const double *n, unsigned nb, double *se, double *rho)
{
	double sy = 0, sn = 0, r, ss = 0, lag = 0, prev = 0, d, nbar;
	unsigned i;

	for (i = 0; i < nb; i++) {
		sy += y[i];
		sn += n[i];
	}
	r = sy / sn;
	for (i = 0; i < nb; i++) {
		d = y[i] - r * n[i];
		ss += d * d;
		if (i)
			lag += d * prev;
		prev = d;
	}
	nbar = sn / nb;
	*se = sqrt(ss / ((double)nb * (nb - 1))) / nbar;
	/* the sample autocorrelation of a short AR(1) series with its mean
	 * estimated falls short by about (1 + 4 rho) / B (Kendall, 1954;
	 * Marriott and Pope's is 1 + 3 rho): with 25 batches, a lag-1
	 * correlation of 0.5 reads as 0.38. Added back, from the estimate
	 * itself. */
	*rho = ss > 0 ? lag / ss : 0;
	*rho += (1 + 4 * *rho) / nb;
}

/* The batch-means interval: batch b's share above the value, y_b / n_b,
 * is one draw of the share; their ratio estimator R = sum y / sum n has
 * the variance sum (y_b - R n_b)^2 / (B (B - 1) nbar^2) (Cochran,
 * "Sampling Techniques", 6.9), and R +- t(B - 1) se its interval. The
 * share above the true percentile is 1 - p; so the percentile lies
 * between the whole run's quantiles at p - h and p + h (h = t se), the
 * share's interval mapped back through the histogram of all.
 *
 * That holds while the batches are independent of each other. Batches
 * shorter than the run's memory (a burst that spans several) are not, and
 * their spread understates the share's: so, as Fishman's LBatch does,
 * while the residuals' lag-1 autocorrelation is above what independent
 * batches show 5% of the time (z(0.95) / sqrt(B)), neighbours are merged
 * pairwise; what correlation is left widens the standard error as for
 * the mean of an AR(1) series. Where merging would leave fewer than
 * MODEL_PCT_MIN_BATCHES, the run is too short for its own memory and both
 * ends are unbounded. tests/test_pctci.c's coverage model shows each step
 * was needed (docs/intervals.md). False where the batches hold no IOs. */
static bool batch_means(const struct eng_hist *all, const struct eng_hist *batch, unsigned nb,
			double pct, double conf, uint64_t value, struct ends *e)
{
	double y[GROUPS] = { 0 }, n[GROUPS] = { 0 }, sn = 0, se, rho, t, h, z;
	double p = pct / 100, ios = (double)all->count, rlo, rhi;
	unsigned j = eng_hist_index(value), i, g = nb < GROUPS ? nb : GROUPS;

	for (i = 0; i < nb; i++) {
		unsigned k = (unsigned)((uint64_t)i * g / nb);

		y[k] += above(&batch[i], j);
		n[k] += (double)batch[i].count;
		sn += (double)batch[i].count;
	}
	if (!(sn > 0))
		return false;
	z = -model_t_quantile(0.05, INFINITY);
	for (;;) {
		spread_of(y, n, g, &se, &rho);
		if (!(rho > z / sqrt(g)))
			break;
		if (g / 2 < MODEL_PCT_MIN_BATCHES) {
			e->has_lo = e->has_hi = false;
			e->lo = e->hi = 0;
			return true;
		}
		/* an odd last batch joins the pair before it */
		for (i = 0; i < g / 2; i++) {
			y[i] = y[2 * i] + y[2 * i + 1];
			n[i] = n[2 * i] + n[2 * i + 1];
		}
		if (g % 2) {
			y[g / 2 - 1] += y[g - 1];
			n[g / 2 - 1] += n[g - 1];
		}
		g /= 2;
	}
	t = -model_t_quantile((1 - conf) / 2, g - 1);
	if (isnan(t) || isnan(se))
		return false;
	/* what correlation is left (under the test's threshold, or in the
	 * fewest batches) widens the share's standard error as it would the
	 * mean of an AR(1) series: by sqrt((1 + rho) / (1 - rho)) */
	if (rho > 0)
		se *= sqrt((1 + fmin(rho, 0.9)) / (1 - fmin(rho, 0.9)));
	h = t * se;
	/* ranks of the quantiles at p -+ h: the lower rounded down, the
	 * upper up and one past, as the order statistics' s is */
	rlo = floor(ios * (p - h));
	rhi = ceil(ios * (p + h)) + 1;
	e->has_lo = rlo >= 1;
	e->has_hi = rhi <= ios;
	e->lo = e->has_lo ? rank_lo_ns(all, (uint64_t)rlo) : 0;
	e->hi = e->has_hi ? rank_hi_ns(all, (uint64_t)rhi) : 0;
	return true;
}

int model_pct_ci(const struct eng_hist *all, const struct eng_hist *batch, unsigned nbatch,
		 double pct, double conf, struct model_pct_ci *ci)
{
	struct model_pct_ci c = { 0 };
	struct ends bm;
	uint64_t rlo, rhi, w;
	int ret;

	if (!args_ok(pct, conf))
		return -EINVAL;
	if (!all->count)
		return -ENODATA;
	ret = model_pct_ranks(all->count, pct, conf, &rlo, &rhi);
	if (ret)
		return ret;
	c.value = eng_hist_percentile(all, pct);
	c.ios = all->count;
	c.beyond = eng_hist_count_from(all, c.value);
	c.has_lo = rlo >= 1;
	c.has_hi = rhi <= all->count;
	if (c.has_lo)
		c.lo = rank_lo_ns(all, rlo);
	if (c.has_hi)
		c.hi = rank_hi_ns(all, rhi);
	if (batch && nbatch >= MODEL_PCT_MIN_BATCHES &&
	    batch_means(all, batch, nbatch, pct, conf, c.value, &bm)) {
		c.batched = true;
		c.has_lo = c.has_lo && bm.has_lo;
		c.has_hi = c.has_hi && bm.has_hi;
		if (c.has_lo && bm.lo < c.lo)
			c.lo = bm.lo;
		if (c.has_hi && bm.hi > c.hi)
			c.hi = bm.hi;
	}
	/* both methods' ranks straddle the percentile's own; this only
	 * guards a histogram whose buckets disagree with its count */
	if (c.has_lo && c.lo > c.value)
		c.lo = c.value;
	if (c.has_hi && c.hi < c.value)
		c.hi = c.value;
	if (!c.has_lo)
		c.lo = 0;
	if (!c.has_hi)
		c.hi = 0;
	c.figure = c.beyond >= MODEL_PCT_MIN_BEYOND;
	w = (uint64_t)((double)c.value * MODEL_PCT_WIDE);
	c.wide = !c.has_lo || !c.has_hi || c.value - c.lo > w || c.hi - c.value > w;
	*ci = c;
	return 0;
}

void model_pct_batches_init(struct model_pct_batches *b, struct eng_hist *h)
{
	unsigned i;

	b->h = h;
	b->n = 0;
	b->per = 1;
	b->in_last = 0;
	for (i = 0; i < MODEL_PCT_BATCHES; i++)
		eng_hist_reset(&h[i]);
}

/* All MODEL_PCT_BATCHES full: neighbours merged, 2i and 2i + 1 into i,
 * so the batches stay in time order and equal. */
static void halve(struct model_pct_batches *b)
{
	unsigned i;

	for (i = 0; i < MODEL_PCT_BATCHES / 2; i++) {
		if (i)
			memcpy(&b->h[i], &b->h[2 * i], sizeof(b->h[i]));
		eng_hist_merge(&b->h[i], &b->h[2 * i + 1]);
	}
	for (; i < MODEL_PCT_BATCHES; i++)
		eng_hist_reset(&b->h[i]);
	b->n = MODEL_PCT_BATCHES / 2;
	b->per *= 2;
	b->in_last = b->per;
}

void model_pct_batches_add(struct model_pct_batches *b, const struct eng_hist *iv)
{
	if (!b->n || b->in_last == b->per) {
		if (b->n == MODEL_PCT_BATCHES)
			halve(b);
		b->n++;
		b->in_last = 0;
	}
	eng_hist_merge(&b->h[b->n - 1], iv);
	b->in_last++;
}

unsigned model_pct_batches_usable(const struct model_pct_batches *b)
{
	if (!b->n || 2 * b->in_last >= b->per)
		return b->n;
	return b->n - 1;
}
