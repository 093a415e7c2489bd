/* The settings that cost IOPS on the winner's targets, as check finds
 * them at the winner's depth, workers and completion, and the `iostorm
 * check --measure` command that A/Bs those a run can change: tune itself
 * writes nothing to sysfs (docs/tune.md). */
#include <stdlib.h>
#include <string.h>

#include "cli/check/check.h"
#include "cli/tune/tune.h"

int tune_settings(struct tune *t)
{
	struct cli_opts *w = malloc(sizeof(*w));
	struct cli_check c;
	const struct check_kind_info *k;
	size_t at = 0;
	unsigned i, j;
	bool runtime = false;
	int rc, n;

	t->nsettings = 0;
	t->measure_cmd[0] = '\0';
	if (!w)
		return -ENOMEM;
	/* check reads a run's depth, workers and mode from options: a copy
	 * with the winner's (check.h takes no run spec) */
	*w = *t->o;
	w->qd = t->best.qd;
	w->jobs_per_device = t->best.jobs;
	w->backend = t->best.backend;
	w->mode = t->best.mode;
	w->mode_auto = false;
	w->ncpus = t->best.ncpus;
	memcpy(w->cpus, t->best.cpus, t->best.ncpus * sizeof(w->cpus[0]));
	rc = cli_check_gather(w, (const char *const *)w->targets, w->ntargets, &c);
	for (i = 0; !rc && i < c.nf; i++) {
		k = check_kind_info(c.f[i].kind);
		if (!k)
			continue;
		for (j = 0; j < t->nsettings && strcmp(t->settings[j], k->name); j++)
			;
		if (j == t->nsettings && t->nsettings < TUNE_MAX_SETTINGS)
			t->settings[t->nsettings++] = k->name;
		runtime |= k->runtime;
	}
	if (!rc && runtime) {
		n = snprintf(t->measure_cmd, sizeof(t->measure_cmd),
			     "iostorm check --measure --qd %u --completion %s", t->best.qd,
			     eng_mode_name(t->best.mode));
		at = n > 0 ? (size_t)n : 0;
		for (i = 0; i < w->ntargets && at < sizeof(t->measure_cmd); i++) {
			n = snprintf(t->measure_cmd + at, sizeof(t->measure_cmd) - at, " %s",
				     w->targets[i]);
			at += n > 0 ? (size_t)n : 0;
		}
		if (at >= sizeof(t->measure_cmd))
			t->measure_cmd[0] = '\0';	/* cut: no command rather than half */
	}
	if (!rc)
		t->settings_read = true;
	cli_check_free(&c);
	free(w);
	return rc;
}
