/* --steady: see steady.h. */
#include "cli/runner/steady.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "cli/report/out.h"
#include "cli/runner/spec.h"

/* A sample belongs to the window that ends at at_s when its own end is
 * within it: each device's sample ends near the total's, never half a
 * second away. */
#define EDGE_S 0.5

unsigned cli_steady_window(const struct cli_opts *o)
{
	return (unsigned)(o->steady_ns / CLI_NS_PER_S);
}

int cli_steady_opts_check(const struct cli_opts *o, const struct cli_run_spec *s)
{
	if (!o->steady_pct)
		return 0;
	if (s->ios) {
		cli_say("--steady measures until the drive settles, up to --time: --ios would end it first");
		return -EINVAL;
	}
	if (s->repeat > 1) {
		cli_say("--steady reports one window of one run: --repeat %u would measure %u",
			s->repeat, s->repeat);
		return -EINVAL;
	}
	if (o->steady_ns > s->time_ns) {
		cli_say("--steady's window of %u s does not fit in --time",
			cli_steady_window(o));
		return -EINVAL;
	}
	return 0;
}

bool cli_steady_check(const struct cli_opts *o, const struct cli_timeline *tl,
		      struct cli_steady *s)
{
	const struct cli_tl_series *all = &tl->dev[tl->ndev];
	unsigned w = cli_steady_window(o), i;
	double iops[CLI_MAX_STEADY_NS / CLI_NS_PER_S] = { 0 }, lat[CLI_MAX_STEADY_NS / CLI_NS_PER_S] = { 0 };
	const struct cli_tl_sample *x;
	bool ok, has_lat = true;

	if (all->n < w)
		return false;
	x = &all->s[all->n - w];
	for (i = 0; i < w; i++) {
		iops[i] = x[i].iops;
		lat[i] = x[i].mean_ns;
		has_lat &= x[i].has_lat;
	}
	s->checked = true;
	ok = model_steady(iops, w, o->steady_pct, &s->iops);
	if (o->steady_lat)
		ok = has_lat && model_steady(lat, w, o->steady_pct, &s->lat) && ok;
	if (ok) {
		s->reached = true;
		s->at_s = all->s[all->n - 1].t_s;
	}
	return ok;
}

/* Device d's figures from its samples that end within the window (the
 * ones taken each second: the caller has not added the run's remainder). */
static int apply_dev(const struct cli_opts *o, const struct cli_timeline *tl, unsigned d,
		     const struct cli_steady *s, struct cli_dev *dev)
{
	const struct cli_tl_series *sr = &tl->dev[d];
	unsigned from = sr->n, to = 0, k;
	uint64_t ios = 0, errors = 0;
	double dt = 0, per_call = dev->ios_per_call;
	int err;

	for (k = 0; k < sr->n; k++) {
		if (sr->s[k].t_s <= s->at_s - s->window_s + EDGE_S || sr->s[k].t_s > s->at_s + EDGE_S)
			continue;
		from = k < from ? k : from;
		to = k + 1;
		ios += sr->s[k].ios;
		errors += sr->s[k].errors;
		dt += sr->s[k].dt_s;
	}
	if (from >= to)
		return -ERANGE;
	if (dev->hist) {
		struct model_pct_batches wb;
		struct eng_hist *h;

		err = cli_tl_window_hist(tl, d, from, to, dev->hist);
		if (err)
			return err;
		cli_lat_from_hist(dev, dev->hist);
		/* the window's own seconds as its batches; without room, the
		 * order statistics' intervals stay */
		h = malloc(MODEL_PCT_BATCHES * sizeof(*h));
		if (h && !cli_tl_window_batches(tl, d, from, to, &wb, h))
			cli_lat_batched(&dev->lat, dev->hist, &wb);
		free(h);
	}
	dev->ios = ios;
	dev->errors = errors;
	dev->bytes = ios * o->bs;
	dev->elapsed_s = dt;
	cli_dev_rates(dev);
	/* calls and CPU time are counted for the whole run only */
	dev->ios_per_call = per_call;
	return 0;
}

int cli_steady_apply(const struct cli_opts *o, const struct cli_timeline *tl,
		     const struct cli_steady *s, struct cli_report *out)
{
	unsigned d;
	int err;

	if (!s->reached)
		return 0;
	out->elapsed_s = 0;
	for (d = 0; d < out->ndev && d < tl->ndev; d++) {
		err = apply_dev(o, tl, d, s, &out->dev[d]);
		if (err)
			return err;
		if (out->dev[d].elapsed_s > out->elapsed_s)
			out->elapsed_s = out->dev[d].elapsed_s;
	}
	return 0;
}

void cli_steady_total(struct cli_report *out)
{
	double ios = 0;
	uint64_t calls = 0;
	unsigned d;

	if (!out->steady.reached)
		return;
	for (d = 0; d < out->ndev; d++) {
		ios += out->dev[d].ios_per_call * (double)out->dev[d].calls;
		calls += out->dev[d].calls;
	}
	out->total.ios_per_call = calls ? ios / (double)calls : 0.0;
}

void cli_steady_print(FILE *f, const struct cli_report *r)
{
	const struct cli_steady *s = &r->steady;

	if (!s->asked)
		return;
	if (s->reached)
		fprintf(f, "steady state reached at %.0f s: the last %.0f s of IOPS within %.1f%% of their mean, "
			"the slope %.1f%% over the window%s; the figures above are of that window\n",
			s->at_s, s->window_s, s->iops.dev_pct, s->iops.slope_pct,
			s->lat.mean > 0 ? ", mean latency likewise" : "");
	else if (s->checked)
		fprintf(f, "steady state never reached: the last %.0f s of IOPS were %.1f%% from their mean, "
			"the slope %.1f%% over the window%s; the figures above are of the whole run\n",
			s->window_s, s->iops.dev_pct, s->iops.slope_pct,
			s->lat.mean > 0 ? " (mean latency too)" : "");
	else
		fprintf(f, "steady state never reached: the run ended before its first %.0f s window; "
			"the figures above are of the whole run\n", s->window_s);
}

/* A figure of the window looked at: null where none was, or not asked. */
static json_t *pct(bool known, double v)
{
	return known ? json_real(v) : json_null();
}

json_t *cli_steady_json(const struct cli_steady *s)
{
	bool lat = s->checked && s->lat.mean > 0;

	if (!s->asked)
		return json_null();
	return json_pack("{s:b, s:o, s:f, s:o, s:o, s:o, s:o}", "reached", s->reached,
			 "at_s", pct(s->reached, s->at_s), "window_s", s->window_s,
			 "iops_dev_pct", pct(s->checked, s->iops.dev_pct),
			 "iops_slope_pct", pct(s->checked, s->iops.slope_pct),
			 "lat_dev_pct", pct(lat, s->lat.dev_pct),
			 "lat_slope_pct", pct(lat, s->lat.slope_pct));
}
