/* Per-second samples from engine snapshots: see timeline.h. */
#include "cli/report/timeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NS 1e9

enum { H_SUM, H_ALL, H_PART, H_BEFORE, H_N };

int cli_tl_init(struct cli_timeline *tl, unsigned ndev, unsigned per)
{
	memset(tl, 0, sizeof(*tl));
	tl->ndev = ndev;
	tl->per = per;
	tl->dev = calloc(ndev + 1, sizeof(*tl->dev));
	tl->prev = calloc((size_t)ndev * per, sizeof(*tl->prev));
	tl->have = calloc((size_t)ndev * per, sizeof(*tl->have));
	tl->sum = malloc(H_N * sizeof(*tl->sum));
	tl->iv = calloc(ndev + 1, sizeof(*tl->iv));
	tl->ivh = malloc((ndev + 1) * sizeof(*tl->ivh));
	tl->ivd = calloc(ndev + 1, sizeof(*tl->ivd));
	tl->t1 = calloc(ndev + 1, sizeof(*tl->t1));
	tl->wios = calloc((size_t)ndev * per, sizeof(*tl->wios));
	tl->wcpu = calloc((size_t)ndev * per * 3, sizeof(*tl->wcpu));
	tl->cpu = calloc((size_t)ndev * 3, sizeof(*tl->cpu));
	if (!tl->dev || !tl->prev || !tl->have || !tl->sum || !tl->iv || !tl->ivh ||
	    !tl->ivd || !tl->t1 || !tl->wios || !tl->wcpu || !tl->cpu) {
		cli_tl_free(tl);
		return -ENOMEM;
	}
	tl->part = &tl->sum[H_PART];
	tl->before = &tl->sum[H_BEFORE];
	return 0;
}

void cli_tl_free(struct cli_timeline *tl)
{
	unsigned d;

	for (d = 0; tl->dev && d <= tl->ndev; d++)
		free(tl->dev[d].s);
	free(tl->dev);
	free(tl->prev);
	free(tl->have);
	free(tl->sum);
	free(tl->ring);
	free(tl->iv);
	free(tl->ivh);
	free(tl->ivd);
	free(tl->t1);
	free(tl->wios);
	free(tl->wcpu);
	free(tl->cpu);
	cli_tl_batches_free(tl->bat);
	memset(tl, 0, sizeof(*tl));
}

void cli_tl_batches_free(struct model_pct_batches *bat)
{
	if (bat)
		free(bat[0].h);
	free(bat);
}

struct model_pct_batches *cli_tl_take_batches(struct cli_timeline *tl)
{
	struct model_pct_batches *b = tl->bat;

	tl->bat = NULL;
	return b;
}

/* Each device's and the total's batches, once latency is measured: about
 * 1.2 MB each (MODEL_PCT_BATCHES histograms), a bounded cost whatever the
 * run's length. */
static int batches_alloc(struct cli_timeline *tl)
{
	struct eng_hist *h;
	unsigned d;

	if (tl->bat)
		return 0;
	tl->bat = calloc(tl->ndev + 1, sizeof(*tl->bat));
	h = malloc((size_t)(tl->ndev + 1) * MODEL_PCT_BATCHES * sizeof(*h));
	if (!tl->bat || !h) {
		free(h);
		free(tl->bat);
		tl->bat = NULL;
		return -ENOMEM;
	}
	for (d = 0; d <= tl->ndev; d++)
		model_pct_batches_init(&tl->bat[d], &h[(size_t)d * MODEL_PCT_BATCHES]);
	return 0;
}

/* An interval's latency into d's batches (none kept: nothing). */
static void batch(struct cli_timeline *tl, unsigned d, const struct eng_hist *h)
{
	if (tl->bat && h && h->count)
		model_pct_batches_add(&tl->bat[d], h);
}

int cli_tl_window_batches(const struct cli_timeline *tl, unsigned d, unsigned from,
			  unsigned to, struct model_pct_batches *bat, struct eng_hist *h)
{
	unsigned k;

	model_pct_batches_init(bat, h);
	if (!tl->keep || to > tl->dev[d].n || from > to || tl->dev[d].n - from > tl->keep)
		return -ERANGE;
	for (k = from; k < to; k++)
		model_pct_batches_add(bat, &tl->ring[(size_t)(k % tl->keep) * tl->ndev + d]);
	return 0;
}

int cli_tl_keep(struct cli_timeline *tl, unsigned keep)
{
	tl->ring = calloc((size_t)keep * tl->ndev, sizeof(*tl->ring));
	if (!tl->ring)
		return -ENOMEM;
	tl->keep = keep;
	return 0;
}

int cli_tl_window_hist(const struct cli_timeline *tl, unsigned d, unsigned from,
		       unsigned to, struct eng_hist *h)
{
	unsigned k;

	eng_hist_reset(h);
	if (!tl->keep || to > tl->dev[d].n || from > to || tl->dev[d].n - from > tl->keep)
		return -ERANGE;
	for (k = from; k < to; k++)
		eng_hist_merge(h, &tl->ring[(size_t)(k % tl->keep) * tl->ndev + d]);
	return 0;
}

void cli_tl_window(struct cli_timeline *tl, const char *const *names, uint32_t bs,
		   bool lat, unsigned run, const char *label, uint64_t wall_start_ns)
{
	tl->names = names;
	tl->bs = bs;
	/* no room for the batches: the percentiles keep their order-statistics
	 * intervals (cli_lat_batched with none) */
	tl->lat = lat;
	if (lat)
		(void)batches_alloc(tl);
	tl->set = (struct cli_interval_set){
		.run = run, .label = label, .wall_start_ns = wall_start_ns,
		.dev = tl->iv, .total = &tl->iv[tl->ndev],
	};
}

const struct cli_interval_set *cli_tl_set(const struct cli_timeline *tl)
{
	return tl->set.ndev || tl->set.last ? &tl->set : NULL;
}

/* Interval k of the set (k == ndev: the total's) for device d (ndev: all),
 * to t_ns into the window, with h's latency (NULL: none). */
static void interval(struct cli_timeline *tl, unsigned k, unsigned d, uint64_t ios,
		     uint64_t errors, uint64_t inflight, uint64_t t_ns, const struct eng_hist *h)
{
	struct cli_interval *iv = &tl->iv[k];
	double seen = (double)t_ns / NS, t = tl->grid_ns ? (double)tl->grid_ns / NS : seen;

	*iv = (struct cli_interval){
		.device = d < tl->ndev && tl->names ? tl->names[d] : NULL,
		.t0_s = tl->t1[d], .t1_s = t > tl->t1[d] ? t : tl->t1[d],
		.t1_seen_s = seen > tl->t1[d] ? seen : tl->t1[d],
		.ios = ios, .bytes = ios * tl->bs, .errors = errors, .inflight = inflight,
	};
	tl->t1[d] = iv->t1_s;
	tl->ivd[k] = d;
	if (tl->lat && h) {
		memmove(&tl->ivh[k], h, sizeof(*h));	/* the total's may be its own */
		iv->hist = &tl->ivh[k];
	}
}

void cli_tl_cpu(struct cli_timeline *tl, const struct cli_cpu *c)
{
	struct cli_interval *all = &tl->iv[tl->ndev], *iv;
	size_t n = (size_t)tl->ndev * tl->per;
	uint64_t *cpu = tl->wcpu, *user = cpu + n, *sys = user + n;
	unsigned k, w, d, i;

	cli_cpu_share(c, tl->wios, cpu, user, sys);
	all->cpu_ns = all->user_ns = all->sys_ns = 0;
	for (k = 0; k < tl->set.ndev; k++) {
		d = tl->ivd[k];
		iv = &tl->iv[k];
		for (w = 0; w < tl->per; w++) {
			i = d * tl->per + w;
			iv->cpu_ns += cpu[i];
			iv->user_ns += user[i];
			iv->sys_ns += sys[i];
		}
		tl->cpu[3 * d] += iv->cpu_ns;
		tl->cpu[3 * d + 1] += iv->user_ns;
		tl->cpu[3 * d + 2] += iv->sys_ns;
		all->cpu_ns += iv->cpu_ns;
		all->user_ns += iv->user_ns;
		all->sys_ns += iv->sys_ns;
	}
}

static int push(struct cli_tl_series *sr, const struct cli_tl_sample *x)
{
	struct cli_tl_sample *s;
	unsigned cap;

	if (sr->n == sr->cap) {
		cap = sr->cap ? 2 * sr->cap : 64;
		s = realloc(sr->s, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		sr->s = s;
		sr->cap = cap;
	}
	sr->s[sr->n++] = *x;
	return 0;
}

/* A sample of ios over dt_ns ending t_ns into the window, with h's latency
 * (NULL: none). */
static struct cli_tl_sample sample(uint64_t ios, uint64_t errors, uint64_t dt_ns,
				   uint64_t t_ns, const struct eng_hist *h)
{
	struct cli_tl_sample x = {
		.t_s = (double)t_ns / NS, .dt_s = (double)dt_ns / NS, .ios = ios,
		.errors = errors,
		.iops = dt_ns ? (double)ios * NS / (double)dt_ns : 0.0,
		.has_lat = h && h->count,
	};

	if (x.has_lat) {
		x.mean_ns = eng_hist_mean(h);
		x.p50_ns = eng_hist_percentile(h, 50.0);
		x.p99_ns = eng_hist_percentile(h, 99.0);
		x.max_ns = h->max_ns;
		/* one interval has no batches of its own: order statistics */
		(void)model_pct_ci(h, NULL, 0, 50.0, MODEL_PCT_CONF, &x.p50_ci);
		(void)model_pct_ci(h, NULL, 0, 99.0, MODEL_PCT_CONF, &x.p99_ci);
	}
	return x;
}

/* Worker i's part of this second, into the device's sums; its copy is the
 * next second's start. */
static void take(struct cli_timeline *tl, unsigned i, const struct eng_snapshot *s,
		 uint64_t *ios, uint64_t *errs, uint64_t *dt, uint64_t *t)
{
	struct eng_snapshot *p = &tl->prev[i];
	uint64_t since = tl->have[i] ? p->t_ns : s->start_ns, d;

	size_t n = (size_t)tl->ndev * tl->per;

	tl->wios[i] = s->ios - (tl->have[i] ? p->ios : 0);
	*ios += tl->wios[i];
	/* the thread's CPU since the window began, never taken back
	 * (engine/worker.c): its part in this interval */
	tl->wcpu[i] = s->cpu_ns - (tl->have[i] ? p->cpu_ns : 0);
	tl->wcpu[n + i] = s->user_ns - (tl->have[i] ? p->user_ns : 0);
	tl->wcpu[2 * n + i] = s->sys_ns - (tl->have[i] ? p->sys_ns : 0);
	*errs += s->errors - (tl->have[i] ? p->errors : 0);
	if (tl->have[i]) {
		eng_hist_diff(tl->part, &s->hist, &p->hist);
		eng_hist_merge(&tl->sum[H_SUM], tl->part);
	} else {
		eng_hist_merge(&tl->sum[H_SUM], &s->hist);
	}
	d = s->t_ns > since ? s->t_ns - since : 0;
	*dt = d > *dt ? d : *dt;
	d = s->t_ns - s->start_ns;
	*t = d > *t ? d : *t;
	memcpy(p, s, sizeof(*p));
	tl->have[i] = true;
}

int cli_tl_second(struct cli_timeline *tl, struct eng_run *r, uint64_t wait_ns,
		  uint64_t grid_ns)
{
	uint64_t ios, errs, dt, t, all_ios = 0, all_errs = 0, all_dt = 0, all_t = 0,
		 all_fl = 0;
	const struct eng_snapshot *s;
	struct eng_progress p;
	struct cli_tl_sample x;
	unsigned d, w, got, any = 0;
	int seq = eng_run_snapshot(r), err = 0;

	if (seq < 0)
		return seq;
	(void)eng_run_snapshot_wait(r, seq, wait_ns);
	eng_hist_reset(&tl->sum[H_ALL]);
	memset(tl->wios, 0, (size_t)tl->ndev * tl->per * sizeof(*tl->wios));
	memset(tl->wcpu, 0, (size_t)tl->ndev * tl->per * 3 * sizeof(*tl->wcpu));
	tl->grid_ns = grid_ns;
	tl->set.ndev = 0;
	tl->set.last = false;
	for (d = 0; d < tl->ndev && !err; d++) {
		eng_hist_reset(&tl->sum[H_SUM]);
		ios = errs = dt = t = 0;
		for (got = 0, w = 0; w < tl->per; w++) {
			s = eng_run_snapshot_get(r, d * tl->per + w, seq);
			if (!s || !s->start_ns)
				continue;
			take(tl, d * tl->per + w, s, &ios, &errs, &dt, &t);
			got++;
		}
		if (!got)
			continue;	/* none answered: the next sample has it */
		x = sample(ios, errs, dt, t, &tl->sum[H_SUM]);
		err = push(&tl->dev[d], &x);
		batch(tl, d, &tl->sum[H_SUM]);
		if (!err && tl->keep)
			memcpy(&tl->ring[(size_t)((tl->dev[d].n - 1) % tl->keep) * tl->ndev + d],
			       &tl->sum[H_SUM], sizeof(*tl->ring));
		eng_hist_merge(&tl->sum[H_ALL], &tl->sum[H_SUM]);
		/* in flight as of each worker's last loop: read now, after
		 * the snapshot, off the hot path */
		p.inflight = 0;
		(void)eng_run_progress(r, d * tl->per, tl->per, &p);
		interval(tl, any, d, ios, errs, p.inflight, t, &tl->sum[H_SUM]);
		all_fl += p.inflight;
		all_ios += ios;
		all_errs += errs;
		all_dt = dt > all_dt ? dt : all_dt;
		all_t = t > all_t ? t : all_t;
		any++;
	}
	if (any && !err) {
		x = sample(all_ios, all_errs, all_dt, all_t, &tl->sum[H_ALL]);
		err = push(&tl->dev[tl->ndev], &x);
		batch(tl, tl->ndev, &tl->sum[H_ALL]);
		interval(tl, tl->ndev, tl->ndev, all_ios, all_errs, all_fl, all_t, &tl->sum[H_ALL]);
		tl->set.ndev = any;
	}
	return err;
}

/* What device d's workers used of the CPU over the whole window (their
 * final figures) less what its intervals were given: its last one's. */
static uint64_t rest(double final_ns, uint64_t given)
{
	return final_ns > (double)given ? (uint64_t)(final_ns - (double)given + 0.5) : 0;
}

static void last_cpu(struct cli_timeline *tl, const struct eng_run *r, unsigned d,
		     struct cli_interval *iv)
{
	double cpu = 0, user = 0, sys = 0;
	const struct eng_result *res;
	unsigned w;

	for (w = 0; w < tl->per; w++) {
		res = eng_run_result(r, d * tl->per + w);
		cpu += res->cpu_s * NS;
		user += res->user_s * NS;
		sys += res->sys_s * NS;
	}
	iv->cpu_ns = rest(cpu, tl->cpu[3 * d]);
	iv->user_ns = rest(user, tl->cpu[3 * d + 1]);
	iv->sys_ns = rest(sys, tl->cpu[3 * d + 2]);
}

int cli_tl_last(struct cli_timeline *tl, const struct eng_run *r)
{
	uint64_t end, before, errs, dt, t, seen, fl, all_ios = 0, all_errs = 0, all_dt = 0,
		 all_t = 0, set_ios = 0, set_errs = 0, set_fl = 0, set_t = 0;
	struct cli_interval *all = &tl->iv[tl->ndev];
	const struct eng_result *res;
	struct cli_tl_sample x;
	unsigned d, w, i;
	bool lat, all_lat = true, set_lat = true;
	int err = 0;

	eng_hist_reset(&tl->sum[H_ALL]);
	tl->grid_ns = 0;	/* the window's own end */
	tl->set.ndev = 0;
	tl->set.last = true;
	all->cpu_ns = all->user_ns = all->sys_ns = 0;
	eng_hist_reset(&tl->ivh[tl->ndev]);
	for (d = 0; d < tl->ndev && !err; d++) {
		eng_hist_reset(&tl->sum[H_SUM]);
		eng_hist_reset(tl->before);
		end = before = errs = dt = t = fl = 0;
		lat = true;
		for (w = 0; w < tl->per; w++) {
			i = d * tl->per + w;
			res = eng_run_result(r, i);
			seen = tl->have[i] ? tl->prev[i].t_ns - tl->prev[i].start_ns : 0;
			end += res->ios;
			errs += res->errors - (tl->have[i] ? tl->prev[i].errors : 0);
			fl += res->inflight_at_end;
			if (tl->have[i]) {
				before += tl->prev[i].ios;
				eng_hist_merge(tl->before, &tl->prev[i].hist);
			}
			if (res->hist)
				eng_hist_merge(&tl->sum[H_SUM], res->hist);
			else
				lat = false;	/* stalled, or no latency */
			dt = res->elapsed_ns > seen && res->elapsed_ns - seen > dt ?
				res->elapsed_ns - seen : dt;
			t = res->elapsed_ns > t ? res->elapsed_ns : t;
		}
		/* every device has a last interval, empty or not */
		if (lat)
			eng_hist_diff(tl->part, &tl->sum[H_SUM], tl->before);
		else
			eng_hist_reset(tl->part);
		interval(tl, tl->set.ndev, d, end >= before ? end - before : 0, errs, fl, t,
			 lat ? tl->part : NULL);
		last_cpu(tl, r, d, &tl->iv[tl->set.ndev]);
		/* the set's total: the sum of its devices' lines */
		all->cpu_ns += tl->iv[tl->set.ndev].cpu_ns;
		all->user_ns += tl->iv[tl->set.ndev].user_ns;
		all->sys_ns += tl->iv[tl->set.ndev].sys_ns;
		set_ios += tl->iv[tl->set.ndev].ios;
		set_errs += errs;
		set_fl += fl;
		set_t = t > set_t ? t : set_t;
		set_lat &= lat;
		if (lat)
			eng_hist_merge(&tl->ivh[tl->ndev], tl->part);
		tl->set.ndev++;
		if (!dt || end < before)
			continue;	/* nothing after the last copy */
		x = sample(end - before, errs, dt, t, lat ? tl->part : NULL);
		err = push(&tl->dev[d], &x);
		if (lat) {
			batch(tl, d, tl->part);
			eng_hist_merge(&tl->sum[H_ALL], tl->part);
		}
		all_lat &= lat;
		all_ios += end - before;
		all_errs += errs;
		all_dt = dt > all_dt ? dt : all_dt;
		all_t = t > all_t ? t : all_t;
	}
	if (all_dt && !err) {
		x = sample(all_ios, all_errs, all_dt, all_t, all_lat ? &tl->sum[H_ALL] : NULL);
		err = push(&tl->dev[tl->ndev], &x);
		if (all_lat)
			batch(tl, tl->ndev, &tl->sum[H_ALL]);
	}
	{
		uint64_t cp = all->cpu_ns, u = all->user_ns, sy = all->sys_ns;

		interval(tl, tl->ndev, tl->ndev, set_ios, set_errs, set_fl, set_t,
			 set_lat ? &tl->ivh[tl->ndev] : NULL);
		all->cpu_ns = cp;
		all->user_ns = u;
		all->sys_ns = sy;
	}
	return err;
}

struct cli_tl_series cli_tl_take(struct cli_timeline *tl, unsigned d)
{
	struct cli_tl_series s = tl->dev[d];

	memset(&tl->dev[d], 0, sizeof(tl->dev[d]));
	return s;
}
