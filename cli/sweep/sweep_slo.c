/* sweep --slo: every target's closed-loop maximum at --qd, all at once as
 * a sweep by load measures it, then each target's search for the highest
 * open-loop rate within the bounds (cli/slo), all targets at once, each
 * at its own rate; a target whose search has ended sits out the points
 * left. Its summary and JSON. */
#include <errno.h>
#include <stdio.h>

#include "cli/live/stream.h"
#include "cli/report/out.h"
#include "cli/runner/stop.h"
#include "cli/slo/slo.h"
#include "cli/sweep/sweep_int.h"

/* A target that failed the maximum, or the search, makes the sweep exit
 * 1 after its summary. */
static bool any_failed(const struct cli_slo *sl, const struct failed *fl)
{
	unsigned i;

	for (i = 0; i < sl->n; i++)
		if (sl->dev[i].failed)
			return true;
	return fl->any || sl->io_errors;
}

int sweep_slo(const struct cli_opts *o, struct cli_targets *ts, struct failed *fl, FILE *f)
{
	const struct eng_target *tp[CLI_MAX_TARGETS];
	double max[CLI_MAX_TARGETS] = { 0 };
	struct cli_slo sl = { 0 };
	struct topo_notes *notes = NULL;
	struct sweep w;
	unsigned t;
	int rc, done;

	fprintf(f, "iostorm sweep --slo: %u target%s, bs %u, at QD%u (%s)\n", ts->n,
		ts->n == 1 ? "" : "s", o->bs, o->qd, cli_arrival_name(o->arrival));
	cli_slo_print_plan(f, o, ts->n);
	fprintf(f, "first the closed-loop maximum at QD%u: %.3gs ramp + %.3gs%s\n", o->qd,
		cli_secs(o->ramp_ns), cli_secs(o->time_ns), o->repeat > 1 ? ", repeated" : "");
	rc = sweep_measure_max(o, ts, fl, max, f, &notes);
	if (rc == -EINTR)
		rc = 0;		/* stopped before the search: said as such */
	for (t = 0; t < ts->n; t++)
		tp[t] = &ts->t[t];
	if (!rc)
		rc = cli_slo_init(&sl, o, tp, max, ts->n, "sweep");
	for (t = 0; !rc && t < ts->n; t++)
		if (fl->why[t][0])
			sl.dev[t].failed = true;	/* named by the maximum */
	if (!rc && !cli_runner_interrupted())
		rc = cli_slo_run(&sl, f);
	for (t = 0; sl.dev && t < sl.n; t++)
		fl->stalled |= sl.dev[t].stalled;
	if (sl.dev && rc != -EINVAL && rc != -ENOMEM) {
		cli_slo_print_summary(f, &sl);
		w = (struct sweep){ .o = o, .ts = ts, .fl = fl, .max = max, .has_max = true,
				    .interrupted = cli_runner_interrupted() || sl.interrupted,
				    .place_notes = notes };
		/* the report for --json, and for --stream's end line */
		done = cli_out_report_wanted(o) ?
			(cli_out_json(o->json, sweep_slo_json(&w, &sl), CLI_JSON_REPORT) ? -EIO : 0) : 0;
		rc = rc ? rc : done;
		if (!rc && any_failed(&sl, fl))
			rc = -EIO;
	}
	cli_slo_free(&sl);
	free(notes);
	return rc;
}
