/* A lasting drop in a device's IOPS during its run (model/drop.h), found
 * in its timeline, with what else changed: the IOs that failed in the
 * second it began, and whether the drive's own log says it throttled
 * during the run (cli/runner/drive.h). Every run's report names it: a
 * line, devices[].drop in the JSON, a mark on plot's timeline. */
#ifndef CLI_DROP_H
#define CLI_DROP_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/report/record.h"

struct cli_drop {
	double at_s;			/* when the first slow second began,
					 * seconds into the window */
	double iops_before, iops_after;	/* the mean of each side's seconds */
	double fall_pct;		/* 100 * (before - after) / before */
	uint64_t errors_at;		/* IOs failed in that second */
	int64_t throttled_s;		/* the drive's log: seconds throttled
					 * during the run; -1 unknown */
};

/* Whether d's timeline holds a drop: 1 and x, 0 none, or -ENOMEM. A
 * sample shorter than half a second (a window's remainder) is left out:
 * its rate is too few IOs to weigh like a second. */
int cli_drop_of(const struct cli_dev *d, struct cli_drop *x);
/* One line per device whose IOPS dropped. */
void cli_drop_print(FILE *f, const struct cli_report *r);
/* devices[].drop: the object, or null without a drop. */
json_t *cli_drop_json(const struct cli_dev *d);

#endif
