/* A device's drop, found and said: see drop.h. */
#include "cli/report/drop.h"

#include <errno.h>
#include <stdlib.h>

#include "cli/runner/drive.h"
#include "model/drop.h"
#include "model/health.h"

#define MIN_DT_S 0.5

int cli_drop_of(const struct cli_dev *d, struct cli_drop *x)
{
	const struct cli_tl_sample *s = d->tl.s, *at;
	const struct cli_drive *dr;
	struct model_health_change c;
	struct model_drop m;
	unsigned i, n = 0, *idx;
	double *v;
	int found = 0;

	v = malloc((d->tl.n ? d->tl.n : 1) * sizeof(*v));
	idx = malloc((d->tl.n ? d->tl.n : 1) * sizeof(*idx));
	if (!v || !idx) {
		found = -ENOMEM;
		goto out;
	}
	for (i = 0; i < d->tl.n; i++) {
		if (s[i].dt_s < MIN_DT_S)
			continue;
		v[n] = s[i].iops;
		idx[n++] = i;
	}
	if (!model_drop_find(v, n, &m))
		goto out;
	at = &s[idx[m.at]];
	dr = d->path[0] ? cli_drive_find(d->path) : NULL;
	*x = (struct cli_drop){
		.at_s = at->t_s - at->dt_s, .iops_before = m.before, .iops_after = m.after,
		.fall_pct = m.fall_pct, .errors_at = at->errors, .throttled_s = -1,
	};
	if (dr && dr->has_before && dr->has_after) {
		cli_drive_change(dr, &c);
		x->throttled_s = c.throttled_s;
	}
	found = 1;
out:
	free(v);
	free(idx);
	return found;
}

void cli_drop_print(FILE *f, const struct cli_report *r)
{
	struct cli_drop x;
	unsigned i;

	for (i = 0; i < r->ndev; i++) {
		if (cli_drop_of(&r->dev[i], &x) != 1)
			continue;
		fprintf(f, "%s: IOPS dropped at %.0f s into the window, from %.0f to %.0f (-%.0f%%), "
			"and stayed there; %llu IO%s failed in that second",
			r->dev[i].name, x.at_s, x.iops_before, x.iops_after, x.fall_pct,
			(unsigned long long)x.errors_at, x.errors_at == 1 ? "" : "s");
		if (x.throttled_s > 0)
			fprintf(f, "; the drive's log says it throttled %lld s during the run",
				(long long)x.throttled_s);
		else if (!x.throttled_s)
			fputs("; the drive's log says it did not throttle", f);
		fputc('\n', f);
	}
}

json_t *cli_drop_json(const struct cli_dev *d)
{
	struct cli_drop x;

	if (cli_drop_of(d, &x) != 1)
		return json_null();
	return json_pack("{s:f, s:f, s:f, s:f, s:I, s:o}", "at_s", x.at_s,
			 "iops_before", x.iops_before, "iops_after", x.iops_after,
			 "fall_pct", x.fall_pct, "errors_at", (json_int_t)x.errors_at,
			 "throttled_s", x.throttled_s < 0 ? json_null() : json_integer(x.throttled_s));
}
