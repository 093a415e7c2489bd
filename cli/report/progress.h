/* The live line on stderr: phase, elapsed, ETA, IOPS per device and in
 * total, rewritten in place once an interval (the measured window's from
 * its interval sets, cli/live/interval.h; the ramp's once a second), cleared
 * at the end. Only when
 * stderr is a terminal and --quiet is off. */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include <stdbool.h>

struct cli_progress_dev {
	const char *name;
	double iops;
};

bool cli_progress_enabled(bool quiet);
/* phase: "ramp", "run", or a command's own step label. total_s 0: no ETA. */
void cli_progress_show(const char *phase, double elapsed_s, double total_s,
		       const struct cli_progress_dev *dev, unsigned ndev);
/* Shows line (a command's own: fill's bytes and MB/s) in the live line's
 * place, cut to the terminal's width. */
void cli_progress_line(const char *line);
/* Erases the line if one was shown. */
void cli_progress_clear(void);

#endif
