/* Running --slo's searches: every target whose search has a rate to
 * measure runs at once, each at its own rate (cli_run_spec.rates), in an
 * open loop whose latency counts from when each IO was due; each point's
 * percentiles and their intervals come from the target's merged histogram
 * (of up to MODEL_SLO_WINDOWS windows, where the first left it undecided)
 * and go to model_slo_judge and model_slo_add. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report/openloop.h"
#include "cli/report/out.h"
#include "cli/runner/runner.h"
#include "cli/runner/stop.h"
#include "cli/slo/slo.h"
#include "engine/hist.h"

int cli_slo_init(struct cli_slo *sl, const struct cli_opts *o, const struct eng_target *const *t,
		 const double *max, unsigned n, const char *label)
{
	unsigned i, reps = o->repeat > 1 ? o->repeat : 1;

	memset(sl, 0, sizeof(*sl));
	sl->o = o;
	sl->label = label;
	sl->only = -1;
	sl->dev = calloc(n ? n : 1, sizeof(*sl->dev));
	if (!sl->dev)
		goto nomem;
	sl->n = n;
	for (i = 0; i < n; i++) {
		sl->dev[i].t = t[i];
		sl->dev[i].max = max[i];
		sl->dev[i].failed = !(max[i] > 0);
		sl->dev[i].cappt = reps * cli_slo_cap(o);
		sl->dev[i].pt = calloc(sl->dev[i].cappt, sizeof(*sl->dev[i].pt));
		sl->dev[i].caps = calloc(reps, sizeof(*sl->dev[i].caps));
		if (!sl->dev[i].pt || !sl->dev[i].caps)
			goto nomem;
	}
	return 0;
nomem:
	cli_say("out of memory");
	return -ENOMEM;
}

void cli_slo_free(struct cli_slo *sl)
{
	unsigned i;

	for (i = 0; sl->dev && i < sl->n; i++) {
		free(sl->dev[i].pt);
		free(sl->dev[i].caps);
	}
	free(sl->dev);
	sl->dev = NULL;
}

/* A target that failed IOs, stalled or was stopped is named and left out
 * of the points after. */
static void check_failed(struct cli_slo *sl, struct cli_slo_dev *sd, const struct cli_dev *d)
{
	if (!d->errors && !d->stalled && !d->fatal)
		return;
	sd->failed = true;
	sd->stalled |= d->stalled;
	sl->io_errors = true;
	if (d->stalled)
		snprintf(sd->why, sizeof(sd->why), "stalled in its --slo search");
	else if (d->fatal)
		snprintf(sd->why, sizeof(sd->why), "%s stopped it in its --slo search",
			 cli_errno_name(d->fatal));
	else
		snprintf(sd->why, sizeof(sd->why), "%llu %s error%s in its --slo search",
			 (unsigned long long)d->errors, cli_errno_name(d->errs.first),
			 d->errors == 1 ? "" : "s");
	cli_say("%s: %s; left out of the later points", d->name, sd->why);
}

/* A point's windows so far, one target's: the histograms merged (from
 * due and from submission), each window's own as a batch (model/pctci.h),
 * and the open loop's counts summed. */
struct slo_acc {
	struct eng_hist due, svc, win[MODEL_SLO_WINDOWS];
	uint64_t ios, late, late_oct[ENG_LATE_N];
	double elapsed_s, inflight_ns, depth_max;
	double delay_s, thread_s;	/* the workers' wait for a CPU, and
					 * their windows (cli_noise) */
	unsigned windows;
	bool has_lat, has_svc, behind, delay_unknown;
};

/* One window of d into a. */
static void acc_add(struct slo_acc *a, const struct cli_dev *d, unsigned qd)
{
	unsigned k;

	/* the first window (acc is calloc'ed per point) */
	if (!a->windows) {
		eng_hist_reset(&a->due);
		eng_hist_reset(&a->svc);
		a->has_lat = a->has_svc = true;
	}
	a->has_lat &= d->has_lat && d->hist;
	if (a->has_lat) {
		eng_hist_merge(&a->due, d->hist);
		a->win[a->windows] = *d->hist;
	}
	a->has_svc &= d->open.svc_hist != NULL;
	if (a->has_svc)
		eng_hist_merge(&a->svc, d->open.svc_hist);
	a->ios += d->ios;
	a->late += d->open.late;
	for (k = 0; k < ENG_LATE_N; k++)
		a->late_oct[k] += d->open.late_oct[k];
	a->elapsed_s += d->elapsed_s;
	a->inflight_ns += d->open.inflight_ns;
	a->delay_unknown |= !d->noise.delay_known;
	a->delay_s += d->noise.delay_s;
	a->thread_s += d->noise.thread_s;
	/* behind in any window: the rate was not served */
	a->behind |= cli_open_overloaded(d);
	a->depth_max = (double)qd * (d->nworkers ? d->nworkers : 1);
	a->windows++;
}

/* The intervals of every percentile of h, with the windows as batches. */
static bool acc_cis(const struct slo_acc *a, const struct eng_hist *h, const struct eng_hist *win,
		    struct model_pct_ci *ci)
{
	unsigned i, nb = win && a->windows >= MODEL_PCT_MIN_BATCHES ? a->windows : 0;

	for (i = 0; i < MODEL_SLO_NPCT; i++)
		if (model_pct_ci(h, nb ? win : NULL, nb, model_slo_pcts[i].pct, MODEL_PCT_CONF, &ci[i]))
			return false;
	return true;
}

/* The point of a's windows at rate, judged against slo. */
static void acc_point(struct cli_slo_pt *p, const struct slo_acc *a, double rate,
		      const struct model_slo *slo)
{
	struct model_slo_obs ob = { 0 };
	int i;

	memset(p, 0, sizeof(*p));
	p->rate = rate;
	p->windows = a->windows;
	p->ios = a->ios;
	p->iops = a->elapsed_s > 0 ? (double)a->ios / a->elapsed_s : 0;
	p->late = a->late;
	memcpy(p->late_oct, a->late_oct, sizeof(p->late_oct));
	p->depth = a->elapsed_s > 0 ? a->inflight_ns / (a->elapsed_s * 1e9) : 0;
	p->depth_share = a->depth_max > 0 ? p->depth / a->depth_max : 0;
	p->delay_pct = a->delay_unknown || !(a->thread_s > 0) ? NAN : 100.0 * a->delay_s / a->thread_s;
	p->delay_ns_per_io = a->delay_unknown || !p->ios ? NAN : a->delay_s * 1e9 / (double)p->ios;
	p->has_lat = a->has_lat && a->due.count && acc_cis(a, &a->due, a->win, p->ci);
	p->has_svc = p->has_lat && a->has_svc && a->svc.count && acc_cis(a, &a->svc, NULL, p->svc);
	for (i = 0; p->has_lat && i < MODEL_SLO_NPCT; i++)
		p->ns[i] = p->ci[i].value;
	if (!p->has_lat) {
		/* no latency: nothing was served to judge */
		p->verdict = MODEL_SLO_BEHIND;
		return;
	}
	ob.due = p->ci;
	ob.late_oct = p->late_oct;
	ob.ios = p->ios;
	ob.behind = a->behind;
	ob.delay_ns_per_io = a->delay_unknown || !p->ios ? NAN : a->delay_s * 1e9 / (double)p->ios;
	p->verdict = model_slo_judge(slo, &ob);
}

double cli_slo_late_share(const struct cli_slo_pt *p)
{
	return p->ios ? (double)p->late / (double)p->ios : 0.0;
}

/* One window of the targets marked in on[], each at rates[i], into acc[]
 * and pts[]. 0 or -errno (said). */
static int run_window(struct cli_slo *sl, const bool *on, const double *rates,
		      struct slo_acc *acc, struct cli_slo_pt *pts)
{
	const struct eng_target *tp[CLI_MAX_TARGETS];
	unsigned idx[CLI_MAX_TARGETS], i, k;
	double r[CLI_MAX_TARGETS], top = 1;
	struct cli_run_spec spec = cli_run_spec_of(sl->o, ENG_OP_READ);
	struct cli_report rep;
	char label[64];
	int rc;

	for (i = 0; i < sl->n; i++) {
		if ((on && !on[i]) || sl->dev[i].failed)
			continue;
		idx[spec.ntargets] = i;
		r[spec.ntargets] = rates[i];
		top = rates[i] > top ? rates[i] : top;
		tp[spec.ntargets++] = sl->dev[i].t;
	}
	if (!spec.ntargets)
		return 0;
	spec.targets = tp;
	spec.rates = r;
	spec.repeat = 1;	/* --repeat runs the search again, not a point */
	spec.rate = (uint64_t)ceil(top);
	snprintf(label, sizeof(label), "%s --slo point %u%s", sl->label, sl->points + 1,
		 acc[idx[0]].windows ? ", measured on" : "");
	spec.label = label;
	rc = cli_runner_run(sl->o, &spec, &rep);
	if (!rc) {
		sl->interrupted |= rep.interrupted;
		for (k = 0; k < rep.ndev && k < spec.ntargets; k++) {
			i = idx[k];
			acc_add(&acc[i], &rep.dev[k], sl->o->qd);
			acc_point(&pts[i], &acc[i], rates[i], &sl->o->slo);
			check_failed(sl, &sl->dev[i], &rep.dev[k]);
		}
		cli_report_print_errors(cli_out_text(sl->o), &rep);
	}
	cli_report_free(&rep);
	return rc;
}

int cli_slo_point(struct cli_slo *sl, const bool *on, const double *rates,
		  struct cli_slo_pt *pts)
{
	struct slo_acc *acc = calloc(sl->n ? sl->n : 1, sizeof(*acc));
	bool *more = calloc(sl->n ? sl->n : 1, sizeof(*more));
	unsigned i, k;
	int rc = 0;

	if (!acc || !more) {
		cli_say("out of memory");
		rc = -ENOMEM;
		goto out;
	}
	rc = run_window(sl, on, rates, acc, pts);
	/* an undecided point is measured on, its windows merged, until it is
	 * decided or has MODEL_SLO_WINDOWS */
	while (!rc && !sl->interrupted && !cli_runner_interrupted()) {
		for (k = 0, i = 0; i < sl->n; i++) {
			more[i] = (!on || on[i]) && !sl->dev[i].failed && acc[i].windows &&
				  acc[i].windows < MODEL_SLO_WINDOWS &&
				  pts[i].verdict == MODEL_SLO_UNDECIDED;
			k += more[i];
		}
		if (!k)
			break;
		rc = run_window(sl, more, rates, acc, pts);
	}
	if (!rc)
		sl->points++;
out:
	free(acc);
	free(more);
	return rc;
}

/* Each target's search from its maximum: the floor is MODEL_SLO_FLOOR of
 * it, or an IO a second per worker where that is more (the open loop's
 * least). */
static void start(struct cli_slo *sl)
{
	unsigned i, cap = cli_slo_cap(sl->o);
	double floor;

	for (i = 0; i < sl->n; i++) {
		struct cli_slo_dev *d = &sl->dev[i];

		if (d->failed || (sl->only >= 0 && i != (unsigned)sl->only))
			continue;
		floor = MODEL_SLO_FLOOR * d->max;
		if (floor < sl->o->jobs_per_device)
			floor = sl->o->jobs_per_device;
		if (floor > d->max)
			floor = d->max;
		/* max > 0 and cap in range: the model takes it */
		model_slo_search_init(&d->s, d->max, floor, cap);
		/* where the closed loop's own latency says the bounds can hold
		 * (Little's law over its depth), not at its maximum, at which
		 * an open loop falls behind */
		d->start = model_slo_start(&sl->o->slo, d->max,
					   (double)sl->o->qd * sl->o->jobs_per_device);
		d->start = d->start > floor ? d->start : floor;
		model_slo_search_start(&d->s, d->start);
	}
}

/* The point each target measured goes to its search and its list. */
static void take(struct cli_slo *sl, const bool *on, const bool *again, struct cli_slo_pt *pts,
		 unsigned search, FILE *f)
{
	unsigned i;

	for (i = 0; i < sl->n; i++) {
		struct cli_slo_dev *d = &sl->dev[i];

		if (!on[i] || d->failed || d->npt >= d->cappt)
			continue;
		pts[i].search = search;
		pts[i].again = again[i];
		if (model_slo_add(&d->s, pts[i].rate, again[i], pts[i].verdict))
			continue;
		d->pt[d->npt++] = pts[i];
		cli_slo_print_point(f, sl, d, &pts[i]);
	}
}

/* One search of every target, all at once. */
static int search(struct cli_slo *sl, unsigned r, FILE *f)
{
	struct cli_slo_pt *pts = calloc(sl->n, sizeof(*pts));
	bool *on = calloc(sl->n, sizeof(*on)), *again = calloc(sl->n, sizeof(*again));
	double *rates = calloc(sl->n, sizeof(*rates));
	unsigned i, k;
	int rc = 0;

	if (!pts || !on || !again || !rates) {
		cli_say("out of memory");
		rc = -ENOMEM;
	}
	while (!rc && !cli_runner_interrupted()) {
		for (k = 0, i = 0; i < sl->n; i++) {
			on[i] = !sl->dev[i].failed && (sl->only < 0 || i == (unsigned)sl->only) &&
				!model_slo_next(&sl->dev[i].s, &rates[i], &again[i]);
			k += on[i];
		}
		if (!k)
			break;
		rc = cli_slo_point(sl, on, rates, pts);
		if (rc || sl->interrupted)
			break;	/* a point cut short is no verdict */
		take(sl, on, again, pts, r, f);
	}
	for (i = 0; !rc && !sl->interrupted && i < sl->n; i++)
		if (!sl->dev[i].failed && (sl->only < 0 || i == (unsigned)sl->only) &&
		    sl->dev[i].s.done)
			sl->dev[i].caps[sl->dev[i].nsearch++] = model_slo_capacity(&sl->dev[i].s);
	free(pts);
	free(on);
	free(again);
	free(rates);
	return rc;
}

int cli_slo_run(struct cli_slo *sl, FILE *f)
{
	unsigned r, reps = sl->o->repeat > 1 ? sl->o->repeat : 1;
	int rc = 0;

	cli_slo_print_head(f, &sl->o->slo);
	for (r = 1; r <= reps && !rc && !sl->interrupted && !cli_runner_interrupted(); r++) {
		start(sl);
		rc = search(sl, r, f);
	}
	sl->interrupted |= cli_runner_interrupted();
	return rc;
}

const struct cli_slo_pt *cli_slo_first_fail(const struct cli_slo_dev *d)
{
	const struct cli_slo_pt *best = NULL;
	unsigned i;

	for (i = 0; i < d->npt; i++)
		if (d->pt[i].search == d->nsearch && model_slo_broke(d->pt[i].verdict) &&
		    (!best || d->pt[i].rate < best->rate))
			best = &d->pt[i];
	return best;
}

const struct cli_slo_pt *cli_slo_lowest(const struct cli_slo_dev *d)
{
	const struct cli_slo_pt *best = NULL;
	unsigned i;

	/* of the points at the lowest rate, the last: the one that decided */
	for (i = 0; i < d->npt; i++)
		if (!best || d->pt[i].rate <= best->rate)
			best = &d->pt[i];
	return best;
}
