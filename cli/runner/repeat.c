/* Several measurements of one spec merged into one report (repeat.h). */
#include "cli/runner/repeat.h"
#include "cli/report/openloop.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report/out.h"
#include "cli/report/spread.h"
#include "cli/runner/stop.h"
#include "model/stats.h"

static int add_rep(struct cli_dev *d, const struct cli_rep *x)
{
	struct cli_rep *p = realloc(d->reps, (d->nreps + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	p[d->nreps++] = *x;
	d->reps = p;
	return 0;
}

/* Appends src's samples to dst, their times shifted past dst's windows. */
static int tl_append(struct cli_tl_series *dst, const struct cli_tl_series *src,
		     double shift_s)
{
	struct cli_tl_sample *p;
	unsigned i;

	if (!src->n)
		return 0;
	p = realloc(dst->s, (dst->n + src->n) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	dst->s = p;
	for (i = 0; i < src->n; i++) {
		p[dst->n] = src->s[i];
		p[dst->n++].t_s += shift_s;
	}
	dst->cap = dst->n;
	return 0;
}

/* The errors of two windows: the earliest first (its time shifted past
 * acc's window), the most frequent the one counted more. */
static void merge_errs(struct cli_dev *acc, const struct cli_dev *one, double shift_s)
{
	if (!one->errors)
		return;
	if (!acc->errors) {
		acc->errs = one->errs;
		acc->errs.first_s += shift_s;
		return;
	}
	if (one->errs.common == acc->errs.common)
		acc->errs.common_count += one->errs.common_count;
	else if (one->errs.common_count > acc->errs.common_count)
		acc->errs = (struct cli_errs){ acc->errs.first, acc->errs.first_s,
					       one->errs.common, one->errs.common_count };
}

/* one's counters, window, histogram and samples added to acc's. */
static int merge_dev(struct cli_dev *acc, struct cli_dev *one)
{
	double shift = acc->elapsed_s;

	merge_errs(acc, one, shift);
	cli_dev_add_counters(acc, one);
	if (one->busiest_s > acc->busiest_s)
		acc->busiest_s = one->busiest_s;
	acc->elapsed_s += one->elapsed_s;
	if (!acc->fatal)
		acc->fatal = one->fatal;
	acc->stalled |= one->stalled;
	acc->inflight_at_end = one->inflight_at_end;
	acc->wall_end_ns = one->wall_end_ns;
	if (one->hist && !acc->hist) {
		acc->hist = one->hist;
		one->hist = NULL;
	} else if (one->hist) {
		eng_hist_merge(acc->hist, one->hist);
	}
	cli_lat_from_hist(acc, acc->hist);
	cli_open_merge(acc, one);
	cli_dev_rates(acc);
	return tl_append(&acc->tl, &one->tl, shift);
}

/* one's batches of intervals after acc's (each of one's batches counted
 * as one interval of acc's), and the percentiles' intervals of acc's
 * devices and total worked out again over them. */
static void merge_batches(struct cli_report *acc, const struct cli_report *one)
{
	unsigned i, k;

	if (!acc->bat || !one->bat)
		return;
	for (i = 0; i <= acc->ndev; i++)
		for (k = 0; k < one->bat[i].n; k++)
			model_pct_batches_add(&acc->bat[i], &one->bat[i].h[k]);
	for (i = 0; i < acc->ndev; i++)
		if (acc->dev[i].has_lat)
			cli_lat_batched(&acc->dev[i].lat, acc->dev[i].hist, &acc->bat[i]);
	if (acc->total.has_lat)
		cli_lat_batched(&acc->total.lat, acc->total.hist, &acc->bat[acc->ndev]);
}

/* one (repeat 2 and later) into acc, the total recomputed from the
 * devices; the total's own samples and repeats are carried over. */
static int merge(struct cli_report *acc, struct cli_report *one)
{
	struct cli_tl_series tl = acc->total.tl;
	struct cli_rep *reps = acc->total.reps;
	unsigned nreps = acc->total.nreps;
	uint64_t wall_start = acc->total.wall_start_ns;
	double shift = acc->elapsed_s;
	unsigned i;
	int rc = 0;

	if (one->ndev != acc->ndev)
		return -EIO;
	for (i = 0; i < acc->ndev && !rc; i++)
		rc = merge_dev(&acc->dev[i], &one->dev[i]);
	acc->total.tl = (struct cli_tl_series){ NULL, 0, 0 };
	acc->total.reps = NULL;
	if (!rc)
		rc = tl_append(&tl, &one->total.tl, shift);
	if (!rc)
		rc = cli_report_total(acc);
	acc->total.tl = tl;
	acc->total.reps = reps;
	acc->total.nreps = nreps;
	acc->total.wall_start_ns = wall_start;
	acc->total.wall_end_ns = one->total.wall_end_ns;
	acc->elapsed_s += one->elapsed_s;
	/* each repeat's longest window, summed, like its repeats' */
	acc->total.elapsed_s = acc->elapsed_s;
	acc->interrupted |= one->interrupted;
	acc->stalled |= one->stalled;
	acc->unfixed_bufs |= one->unfixed_bufs;
	if (!rc && !acc->steady.reached)
		merge_batches(acc, one);
	return rc;
}

/* Every device's and the total's figures of repeat `one` kept. */
static int keep_reps(struct cli_report *acc, const struct cli_report *one)
{
	struct cli_rep x;
	unsigned i;
	int rc = 0;

	for (i = 0; i < acc->ndev && !rc; i++) {
		cli_rep_of(&one->dev[i], &x);
		rc = add_rep(&acc->dev[i], &x);
	}
	cli_rep_of(&one->total, &x);
	return rc ? rc : add_rep(&acc->total, &x);
}

/* A repeat after which none is worth making: the user stopped it, or a
 * device stalled, failed out or went away. */
static bool last_one(const struct cli_report *r)
{
	unsigned i;

	if (r->interrupted || r->stalled || cli_runner_interrupted())
		return true;
	for (i = 0; i < r->ndev; i++)
		if (r->dev[i].fatal)
			return true;
	return false;
}

/* --repeat auto: whether every device's repeats so far agree (within
 * MODEL_REPEAT_AGREE_PCT), and the widest spread into *worst. A device
 * that did no IO has nothing to disagree on. */
static bool agree(const struct cli_report *r, double *worst)
{
	double v[CLI_REPEAT_AUTO_MAX], pct;
	unsigned i, k;
	bool ok = true;

	*worst = 0;
	for (i = 0; i < r->ndev; i++) {
		const struct cli_dev *d = &r->dev[i];

		for (k = 0; k < d->nreps && k < CLI_REPEAT_AUTO_MAX; k++)
			v[k] = d->reps[k].iops;
		pct = model_range_pct(v, k);
		if (!isfinite(pct))
			continue;
		*worst = fmax(*worst, pct);
		ok &= pct <= MODEL_REPEAT_AGREE_PCT;
	}
	return ok;
}

int cli_runner_repeat(const struct cli_opts *o, const struct cli_run_spec *spec,
		      struct cli_report *out, cli_repeat_fn each, void *ctx)
{
	unsigned n = spec->repeat > 1 ? spec->repeat : 1, r;
	struct cli_run_spec one_spec = *spec;
	struct cli_report one;
	char label[96];
	double worst;
	int rc;

	if (spec->repeat_auto)
		n = CLI_REPEAT_AUTO_MAX;
	for (r = 1; r <= n; r++) {
		if (n > 1) {
			snprintf(label, sizeof(label), spec->repeat_auto ? "%s %u/%u at most" :
				 "%s %u/%u", spec->label ? spec->label : "run", r, n);
			one_spec.label = label;
		}
		rc = cli_runner_run(o, &one_spec, r == 1 ? out : &one);
		if (rc && r == 1)
			return rc;
		if (rc) {
			cli_say("repeat %u of %u failed: the report holds the %u before it",
				r, n, r - 1);
			cli_report_free(&one);
			break;
		}
		if (r > 1 && one.elapsed_s <= 0) {
			/* stopped in its ramp: nothing of it to keep */
			cli_report_free(&one);
			out->interrupted = true;
			cli_say("stopping after repeat %u of %u: interrupted", r - 1, n);
			break;
		}
		if (each)
			each(ctx, r == 1 ? out : &one, r);
		rc = keep_reps(out, r == 1 ? out : &one);
		if (!rc && r > 1)
			rc = merge(out, &one);
		if (r > 1)
			cli_report_free(&one);
		if (rc) {
			cli_say("out of memory");
			return rc;
		}
		out->repeats = r;
		if (n > 1 && !spec->quiet)
			cli_say("repeat %u/%u: %.0f IOPS%s", r, n, out->total.reps[r - 1].iops,
				out->interrupted ? " (interrupted)" : "");
		if (spec->repeat_auto && r >= CLI_REPEAT_AUTO_MIN && agree(out, &worst)) {
			if (!spec->quiet)
				cli_say("repeat auto: %u repeats agree within %.0f%% (the widest "
					"spread %.1f%%)", r, MODEL_REPEAT_AGREE_PCT, worst);
			break;
		}
		if (spec->repeat_auto && r == n && !agree(out, &worst))
			cli_say("repeat auto: %u repeats still spread %.1f%% (more than %.0f%%): "
				"their mean is reported, and the spread below says how far to "
				"trust it", r, worst, MODEL_REPEAT_AGREE_PCT);
		if (last_one(out) && r < n) {
			cli_say("stopping after repeat %u of %u: %s", r, n,
				out->interrupted || cli_runner_interrupted() ? "interrupted" :
				out->stalled ? "a device stalled" : "a device failed");
			break;
		}
	}
	return 0;
}
