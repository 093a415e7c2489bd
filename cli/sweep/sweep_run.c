/* Running sweep's points: the closed-loop maximum a sweep by load is a
 * share of, then each depth or rate in turn with every target that has
 * not failed, each point's figures kept for the summary and the JSON. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report/out.h"
#include "cli/runner/repeat.h"
#include "cli/runner/runner.h"
#include "cli/runner/stop.h"
#include "cli/sweep/sweep_int.h"


/* A target with failed IOs, a stall or an error that stopped it at point
 * i is named and left out of the deeper points. */
static void check_failed(struct failed *fl, unsigned t, unsigned i,
			 const struct point *p, const struct cli_dev *d)
{
	if (!d->errors && !d->stalled && !d->fatal)
		return;
	if (d->stalled)
		snprintf(fl->why[t], sizeof(fl->why[t]), "stalled at QD%u", p->qd);
	else if (d->fatal)
		snprintf(fl->why[t], sizeof(fl->why[t]), "%s stopped it at QD%u",
			 cli_errno_name(d->fatal), p->qd);
	else
		snprintf(fl->why[t], sizeof(fl->why[t]), "%llu %s error%s at QD%u",
			 (unsigned long long)d->errors, cli_errno_name(d->errs.first),
			 d->errors == 1 ? "" : "s", p->qd);
	fl->at[t] = i;
	fl->any = true;
	fl->stalled |= d->stalled;
	cli_say("%s: %s; left out of the deeper points", d->name, fl->why[t]);
}

/* The targets' own figures at point p, in the order they ran. */
static void keep_devices(struct point *p, struct cli_report *rep)
{
	unsigned t;

	p->dev = calloc(rep->ndev ? rep->ndev : 1, sizeof(*p->dev));
	for (t = 0; p->dev && t < rep->ndev; t++) {
		p->dev[t].d = rep->dev[t];
		p->dev[t].d.hist = NULL;
		p->dev[t].d.cpus = NULL;
		p->dev[t].d.tl = (struct cli_tl_series){ NULL, 0, 0 };
		p->dev[t].d.open.svc_hist = NULL;	/* its figures stay */
		rep->dev[t].reps = NULL;	/* moved */
	}
}


/* Point p's rate for each target it runs (tp's order, idx their indexes
 * in the sweep): its entry, or its load of the target's maximum. *top
 * gets the highest, at least 1 (the runner's checks of an open loop). */
static void point_rates(const struct point *p, const double *max, const unsigned *idx,
			unsigned n, double per, double *rates, uint64_t *top)
{
	unsigned t;

	*top = 1;
	for (t = 0; t < n; t++) {
		rates[t] = p->load_pct >= 0 ? p->load_pct / 100.0 * max[idx[t]] : p->rate;
		/* at least one IO per second per worker (a target whose maximum
		 * was tiny), as the runner's checks ask */
		rates[t] = rates[t] < per ? per : rates[t];
		if ((uint64_t)ceil(rates[t]) > *top)
			*top = (uint64_t)ceil(rates[t]);
	}
}

/* The first run's placement notes, moved from its report. */
static void keep_notes(struct topo_notes **notes, struct cli_report *rep)
{
	if (!*notes) {
		*notes = rep->place_notes;
		rep->place_notes = NULL;
	}
}

int sweep_run_points(const struct cli_opts *o, struct cli_targets *ts,
		      struct point *pt, unsigned n, struct failed *fl, FILE *f,
		      const double *max, struct topo_notes **notes)
{
	const struct eng_target *tp[CLI_MAX_TARGETS];
	unsigned idx[CLI_MAX_TARGETS];
	double rates[CLI_MAX_TARGETS];
	struct cli_run_spec spec = cli_run_spec_of(o, ENG_OP_READ);	/* each point's */
	struct cli_report rep;
	char label[64], col[24];
	unsigned i, t, marks = 0;
	int rc = 0;

	spec.targets = tp;
	if (n && pt[0].rated)
		fprintf(f, "%7s %10s %10s %8s %8s %8s %8s %8s %7s   (latency in us from when due, all targets; svc: from submission; ns/IO: the workers' CPU per IO)\n",
			pt[0].load_pct >= 0 ? "load" : "rate", "asked", "IOPS", "mean", "p50", "p99",
			"p99.99", "svc p99", "ns/IO");
	else
		fprintf(f, "%6s %10s %9s %8s %8s %8s %8s %7s   (latency in us, all targets; ns/IO: the workers' CPU per IO)\n",
			"qd", "IOPS", "MiB/s", "mean", "p50", "p99", "p99.99", "ns/IO");
	for (i = 0; i < n && !rc && !cli_runner_interrupted(); i++) {
		for (spec.ntargets = 0, t = 0; t < ts->n; t++) {
			if (fl->why[t][0])
				continue;
			idx[spec.ntargets] = t;
			tp[spec.ntargets++] = &ts->t[t];
		}
		if (!spec.ntargets)
			break;		/* every target failed */
		pt[i].ndev = spec.ntargets;
		spec.qd = pt[i].qd;
		snprintf(label, sizeof(label), "sweep QD%u (%u/%u)", spec.qd, i + 1, n);
		if (pt[i].rated) {
			point_rates(&pt[i], max, idx, spec.ntargets, o->jobs_per_device, rates,
				    &spec.rate);
			spec.rates = rates;
			sweep_rate_col(&pt[i], col, sizeof(col));
			snprintf(label, sizeof(label), "sweep %s (%u/%u)", col, i + 1, n);
		}
		spec.label = label;
		rc = cli_runner_repeat(o, &spec, &rep, NULL, NULL);
		/* a point cut short keeps what it measured, like a run; one
		 * stopped in its ramp measured nothing */
		if (!rc && (!rep.interrupted || rep.total.ios + rep.total.errors)) {
			pt[i].partial = rep.interrupted;
			pt[i].total = rep.total;
			pt[i].total.hist = NULL;
			pt[i].total.cpus = NULL;
			memset(&rep.total.tl, 0, sizeof(rep.total.tl));	/* moved */
			rep.total.reps = NULL;	/* moved */
			rep.total.open.svc_hist = NULL;	/* moved */
			pt[i].done = true;
			pt[i].unfixed = rep.unfixed_bufs;
			keep_devices(&pt[i], &rep);
			sweep_print_point(f, &pt[i], &marks);
		}
		if (!rc) {
			keep_notes(notes, &rep);
			cli_report_print_errors(f, &rep);
		}
		for (t = 0; !rc && t < rep.ndev; t++)
			check_failed(fl, idx[t], i, &pt[i], &rep.dev[t]);
		cli_report_free(&rep);
	}
	cli_pct_legend(f, marks);
	sweep_print_spread(pt, n, o->repeat, f);
	return rc;
}


/* The closed-loop maximum a sweep by load is a share of: every target at
 * once at --qd, as at a depth sweep's point; a target that fails there is
 * left out of the sweep. 0 or -errno (said). */
int sweep_measure_max(const struct cli_opts *o, struct cli_targets *ts, struct failed *fl,
		       double *max, FILE *f, struct topo_notes **notes)
{
	const struct eng_target *tp[CLI_MAX_TARGETS];
	struct cli_run_spec spec = cli_run_spec_of(o, ENG_OP_READ);
	struct cli_report rep;
	unsigned t;
	int rc;

	spec.targets = tp;
	spec.ntargets = ts->n;
	spec.label = "sweep maximum";
	spec.rate = 0;		/* the closed loop */
	for (t = 0; t < ts->n; t++)
		tp[t] = &ts->t[t];
	rc = cli_runner_repeat(o, &spec, &rep, NULL, NULL);
	if (!rc) {
		keep_notes(notes, &rep);
		fprintf(f, "maximum, closed loop at QD%u:", o->qd);
		for (t = 0; t < rep.ndev; t++) {
			const struct cli_dev *d = &rep.dev[t];

			max[t] = d->iops;
			fprintf(f, "%s %s %.0f IOPS", t ? "," : "", d->name, d->iops);
			if (d->errors || d->stalled || d->fatal || !(d->iops > 0)) {
				snprintf(fl->why[t], sizeof(fl->why[t]), "failed in the closed-loop maximum");
				fl->at[t] = BEFORE_POINTS;
				fl->any = true;
				fl->stalled |= d->stalled;
			}
		}
		fputc('\n', f);
		cli_report_print_errors(f, &rep);
		for (t = 0; t < rep.ndev; t++)
			if (fl->why[t][0])
				cli_say("%s: %s; left out of the sweep", rep.dev[t].name, fl->why[t]);
		if (rep.interrupted)
			rc = -EINTR;
	}
	cli_report_free(&rep);
	return rc;
}
