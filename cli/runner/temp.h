/* --temperature-every: the runner reads each NVMe drive's composite
 * temperature through the nvme driver's hwmon (setup/health.h) on every
 * DURATION-th second of the measured window, after that second's sample,
 * into the sample's temp_c; it times each read, since the driver sends
 * the drive an admin command for it (fio #1554: such commands during a
 * run cost IOPS). Never on the hot path: the workers do not see it. */
#ifndef CLI_RUNNER_TEMP_H
#define CLI_RUNNER_TEMP_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/opts/opts.h"
#include "cli/report/record.h"
#include "cli/report/timeline.h"
#include "engine/target.h"

struct cli_temp_watch {
	unsigned ndev, every_s;		/* every_s 0: off */
	char (*path)[PATH_MAX];		/* per device: its temp1_input; "" none */
	struct cli_temp *t;		/* the report's account */
	unsigned long long ns;		/* time spent reading */
};

/* Finds each target's hwmon, saying in one line each target without one
 * (not NVMe, or no hwmon). 0 or -ENOMEM; off without the option. */
int cli_temp_start(struct cli_temp_watch *w, const struct cli_opts *o,
		   const struct eng_target *const *t, unsigned n, struct cli_temp *acct);
/* After second sec (from 1) of the window is in tl: its reads, when due. */
void cli_temp_second(struct cli_temp_watch *w, unsigned sec, struct cli_timeline *tl);
void cli_temp_free(struct cli_temp_watch *w);
/* The line under the table: reads, their cost, IOPS of the seconds that
 * ended with a read against the others. */
void cli_temp_print(FILE *f, const struct cli_report *r);
/* The report's temperature: null without the option. */
json_t *cli_temp_json(const struct cli_report *r);

#endif
