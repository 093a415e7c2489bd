/* A run's figures as data: the per-device record's counters, rates,
 * latency and errors, filled by the runner and read by the table, the
 * JSON, the open loop's and the repeats' sections (no printing here). */
#include "cli/report/record.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report/nvme_status.h"
#include "cli/report/say.h"

/* glibc's own table (2.32+) knows every errno the kernel returns. */
const char *cli_errno_name(int err)
{
	const char *n = err > 0 && err <= ENG_ERRNO_MAX ? strerrorname_np(err) : NULL;

	if (err >= ENG_ERR_NVME && err < ENG_ERR_SLOTS)
		return cli_nvme_status_name((unsigned)(err - ENG_ERR_NVME));
	return !err ? "short" : n ? n : "unknown";
}

const char *cli_errno_text(int err)
{
	if (err >= ENG_ERR_NVME && err < ENG_ERR_SLOTS)
		return cli_nvme_status_text((unsigned)(err - ENG_ERR_NVME));
	if (!err)
		return "short read";
	return err > 0 && err <= ENG_ERRNO_MAX ? strerror(err) : "unknown error";
}

void cli_dev_errs(struct cli_dev *d, const uint64_t *count, int first, double first_s)
{
	unsigned i, most = 0;

	memset(&d->errs, 0, sizeof(d->errs));
	if (!d->errors)
		return;
	for (i = 1; i < ENG_ERR_SLOTS; i++)
		if (count[i] > count[most])
			most = i;
	d->errs.first = first;
	d->errs.first_s = first_s;
	d->errs.common = (int)most;
	d->errs.common_count = count[most];
}

bool cli_lat_fill(struct cli_lat *l, const struct eng_hist *h)
{
	if (!h || !h->count)
		return false;
	l->mean = eng_hist_mean(h);
	l->stddev = eng_hist_stddev(h);
	l->min = h->min_ns;
	l->p50 = eng_hist_percentile(h, 50.0);
	l->p90 = eng_hist_percentile(h, 90.0);
	l->p99 = eng_hist_percentile(h, 99.0);
	l->p999 = eng_hist_percentile(h, 99.9);
	l->p9999 = eng_hist_percentile(h, 99.99);
	l->max = h->max_ns;
	l->ios = h->count;
	cli_lat_batched(l, h, NULL);
	return true;
}

void cli_lat_batched(struct cli_lat *l, const struct eng_hist *h,
		     const struct model_pct_batches *b)
{
	unsigned k, nb = b && b->h ? model_pct_batches_usable(b) : 0;

	l->ci_batches = nb >= MODEL_PCT_MIN_BATCHES ? nb : 0;
	for (k = 0; k < MODEL_PCT_N; k++)
		if (!h || model_pct_ci(h, nb ? b->h : NULL, nb, model_pct_list[k], MODEL_PCT_CONF,
				       &l->ci[k]))
			memset(&l->ci[k], 0, sizeof(l->ci[k]));
}

void cli_lat_from_hist(struct cli_dev *d, const struct eng_hist *h)
{
	d->has_lat = cli_lat_fill(&d->lat, h);
}

void cli_dev_rates(struct cli_dev *d)
{
	d->iops = d->elapsed_s > 0 ? (double)d->ios / d->elapsed_s : 0.0;
	d->bw_bytes = d->elapsed_s > 0 ? (double)d->bytes / d->elapsed_s : 0.0;
	d->ios_per_call = d->calls ? (double)(d->ios + d->errors) / (double)d->calls : 0.0;
}

/* A sum's noise: its parts' seconds added, so its percentages weigh each
 * part by its CPUs and time; known only where every part's is. */
static void noise_add(struct cli_noise *t, const struct cli_noise *d)
{
	bool first = !t->parts;

	t->known = (first || t->known) && d->known;
	t->delay_known = (first || t->delay_known) && d->delay_known;
	t->cap_s += d->cap_s;
	t->steal_s += d->steal_s;
	t->other_s += d->other_s;
	t->irq_s += d->irq_s;
	t->res_s += d->res_s;
	t->thread_s += d->thread_s;
	t->delay_s += d->delay_s;
	t->nivcsw += d->nivcsw;
	t->cpu = first ? d->cpu : t->cpu == d->cpu ? t->cpu : -1;
	t->own_share |= d->own_share;
	t->parts += d->parts ? d->parts : 1;
}

void cli_dev_add_counters(struct cli_dev *t, const struct cli_dev *d)
{
	t->ios += d->ios;
	t->bytes += d->bytes;
	t->errors += d->errors;
	t->calls += d->calls;
	t->user_s += d->user_s;
	t->sys_s += d->sys_s;
	t->cpu_s += d->cpu_s;
	t->cpu_ios += d->cpu_ios;
	/* parts resolved alike resolve their sum alike (each part's error
	 * is a tick at most, the sum's too: the split's error is in where
	 * a part's few ticks landed, not in every part at once) */
	t->tick_s = d->tick_s > t->tick_s ? d->tick_s : t->tick_s;
	noise_add(&t->noise, &d->noise);
}

bool cli_cpu_below(double v, double tick_s)
{
	return tick_s > 0 && v < tick_s;
}

void cli_dev_cost(const struct cli_dev *d, struct model_cost *c)
{
	if (model_cost(d->user_s, d->sys_s, d->cpu_ios, c)) {
		*c = (struct model_cost){ MODEL_COST_UNKNOWN, MODEL_COST_UNKNOWN,
					  MODEL_COST_UNKNOWN, MODEL_COST_UNKNOWN };
		return;
	}
	if (cli_cpu_below(d->user_s, d->tick_s))
		c->user_ns_per_io = MODEL_COST_UNKNOWN;
	if (cli_cpu_below(d->sys_s, d->tick_s))
		c->sys_ns_per_io = MODEL_COST_UNKNOWN;
	if (cli_cpu_below(d->user_s, d->tick_s) || cli_cpu_below(d->sys_s, d->tick_s))
		c->user_share = MODEL_COST_UNKNOWN;
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : NAN;
}

/* never above the whole: /proc/stat's ticks may put a little more there */
static double pct100(double part, double whole)
{
	double v = pct(part, whole);

	return v > 100.0 ? 100.0 : v;
}

void cli_noise_pct(const struct cli_noise *n, struct cli_noise_pct *p)
{
	bool fine;

	p->res = n->known ? pct(n->res_s, n->cap_s) : NAN;
	fine = n->known && p->res <= CLI_NOISE_RES_MAX_PCT;
	p->steal = fine ? pct100(n->steal_s, n->cap_s) : NAN;
	p->other = fine ? pct100(n->other_s, n->cap_s) : NAN;
	p->irq = fine ? pct100(n->irq_s, n->cap_s) : NAN;
	p->run_delay = n->delay_known ? pct100(n->delay_s, n->thread_s) : NAN;
}

bool cli_noise_high(double p, double res, double window_s)
{
	return window_s >= CLI_NOISE_MIN_S && isfinite(p) &&
	       p - (isfinite(res) ? res : 0) >= CLI_NOISE_SAY_PCT;
}

void cli_report_free(struct cli_report *r)
{
	unsigned i;

	for (i = 0; r->dev && i < r->ndev; i++) {
		free(r->dev[i].hist);
		free(r->dev[i].cpus);
		free(r->dev[i].tl.s);
		free(r->dev[i].reps);
		free(r->dev[i].open.svc_hist);
	}
	free(r->dev);
	free(r->total.open.svc_hist);
	free(r->total.hist);
	free(r->total.tl.s);
	free(r->total.reps);
	cli_tl_batches_free(r->bat);
	free(r->place_notes);
	memset(r, 0, sizeof(*r));
}

const char *cli_fmt_pct(char *buf, size_t len, const struct cli_lat *l, bool has, unsigned k,
			unsigned *marks)
{
	const uint64_t v[MODEL_PCT_N] = { l->p50, l->p90, l->p99, l->p999, l->p9999 };

	if (k >= MODEL_PCT_N)
		return cli_fmt_us(buf, len, 0, false);
	return cli_fmt_pct_ci(buf, len, v[k], &l->ci[k], has, marks);
}
