/* The open loop's figures in the report: sums, lines and JSON. */
#include "cli/report/openloop.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report/out.h"

int cli_open_init(struct cli_dev *d, double asked, bool latency)
{
	memset(&d->open, 0, sizeof(d->open));
	d->open.on = true;
	d->open.asked = asked;
	if (!latency)
		return 0;
	d->open.svc_hist = malloc(sizeof(*d->open.svc_hist));
	if (!d->open.svc_hist)
		return -ENOMEM;
	eng_hist_reset(d->open.svc_hist);
	return 0;
}

void cli_open_add(struct cli_dev *d, const struct eng_result *res)
{
	struct cli_open *op = &d->open;
	unsigned k;

	if (!op->on)
		return;
	op->late += res->late;
	op->backlog += res->backlog;
	op->dropped += res->dropped;
	op->inflight_ns += res->inflight_ns;
	for (k = 0; k < ENG_LATE_N; k++)
		op->late_oct[k] += res->late_oct[k];
	if (op->svc_hist && res->svc_hist && !res->stalled)
		eng_hist_merge(op->svc_hist, res->svc_hist);
}

/* o's counts and service times added to a's (repeats, devices). */
static void open_sum(struct cli_open *a, const struct cli_open *o)
{
	unsigned k;

	a->late += o->late;
	a->backlog += o->backlog;
	a->dropped += o->dropped;
	a->inflight_ns += o->inflight_ns;
	for (k = 0; k < ENG_LATE_N; k++)
		a->late_oct[k] += o->late_oct[k];
	if (a->svc_hist && o->svc_hist)
		eng_hist_merge(a->svc_hist, o->svc_hist);
}

void cli_open_merge(struct cli_dev *acc, struct cli_dev *one)
{
	if (!acc->open.on || !one->open.on)
		return;
	open_sum(&acc->open, &one->open);
	cli_open_finish(acc);
}

void cli_open_finish(struct cli_dev *d)
{
	d->open.has_svc = d->open.on && cli_lat_fill(&d->open.svc, d->open.svc_hist);
}

int cli_open_total(struct cli_report *r)
{
	struct cli_open *t = &r->total.open;
	unsigned i;

	for (i = 0; i < r->ndev; i++) {
		const struct cli_open *op = &r->dev[i].open;

		if (!op->on)
			continue;
		if (!t->on && cli_open_init(&r->total, 0, op->svc_hist != NULL))
			return -ENOMEM;
		t->asked += op->asked;
		open_sum(t, op);
	}
	cli_open_finish(&r->total);
	return 0;
}

/* More than CLI_OPEN_BEHIND of the IOs asked in d's window. */
static bool open_behind(const struct cli_dev *d, uint64_t n)
{
	return d->open.on && (double)n > CLI_OPEN_BEHIND * d->open.asked * d->elapsed_s;
}

bool cli_open_overloaded(const struct cli_dev *d)
{
	return open_behind(d, d->open.backlog);
}

double cli_open_depth(const struct cli_dev *d)
{
	return d->elapsed_s > 0 ? d->open.inflight_ns / (d->elapsed_s * 1e9) : 0.0;
}

double cli_open_late_share(const struct cli_dev *d)
{
	return d->ios ? (double)d->open.late / (double)d->ios : 0.0;
}

static void print_one(FILE *f, const struct cli_dev *d)
{
	const struct cli_lat *l = &d->open.svc;
	char a[32], b[32], c[32], e[32];

	fprintf(f, "%s: open loop at %.0f IOPS asked; service time (from submission) mean %s p50 %s p99 %s p99.9 %s us; mean depth %.2f\n",
		d->name, d->open.asked,
		cli_fmt_us(a, sizeof(a), l->mean, d->open.has_svc),
		cli_fmt_pct(b, sizeof(b), l, d->open.has_svc, 0, NULL),
		cli_fmt_pct(c, sizeof(c), l, d->open.has_svc, 2, NULL),
		cli_fmt_pct(e, sizeof(e), l, d->open.has_svc, 3, NULL), cli_open_depth(d));
	if (open_behind(d, d->open.dropped))
		fprintf(f, "%s: began behind its schedule: %llu IO%s due in the ramp and never issued, dropped when the window began\n",
			d->name, (unsigned long long)d->open.dropped, d->open.dropped == 1 ? "" : "s");
	if (!cli_open_overloaded(d))
		return;
	fprintf(f, "%s: overloaded: %.0f of %.0f IOPS asked (%.1f%%), %llu IO%s due and never issued at the end, %.1f%% started over %lluus late\n",
		d->name, d->iops, d->open.asked,
		d->open.asked > 0 ? 100.0 * d->iops / d->open.asked : 0.0,
		(unsigned long long)d->open.backlog, d->open.backlog == 1 ? "" : "s",
		100.0 * cli_open_late_share(d), (unsigned long long)(ENG_RATE_LATE_NS / 1000));
}

void cli_open_print(FILE *f, const struct cli_report *r)
{
	unsigned i;

	for (i = 0; i < r->ndev; i++)
		if (r->dev[i].open.on)
			print_one(f, &r->dev[i]);
}
