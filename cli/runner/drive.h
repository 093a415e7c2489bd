/* What each target's drive says of a run (issue 31): the share of its
 * read range that reads as zeros, sampled before the first measured IO
 * (never-written or trimmed blocks, which a drive answers without reading
 * flash), and its SMART / Health log before the command's first run and
 * after each one. cli_runner_run samples and reads the log once the run's
 * last refusal is passed, before its first IO (a target seen before keeps
 * its first account), and reads the log again after each run; every report
 * finds a target's account by its path. One command runs in a process, so
 * the accounts are the process's: the reports of every command (run's
 * devices, saturate's, the setup record of all) reach them without each
 * command threading them through. */
#ifndef CLI_RUNNER_DRIVE_H
#define CLI_RUNNER_DRIVE_H

#include <limits.h>
#include <stdbool.h>

#include "cli/opts/opts.h"
#include "engine/target.h"
#include "engine/zeroes.h"
#include "model/health.h"
#include "setup/health.h"

#define CLI_ZERO_BLOCKS 256		/* blocks sampled per target */
#define CLI_ZERO_BUDGET_NS 100000000ull	/* and at most this long */

struct cli_drive {
	char path[PATH_MAX];		/* the target as given */
	char name[64];
	double zero_pct;		/* 0-100; -1 not sampled */
	struct eng_zero_sample zs;
	int dealloc_read;		/* setup_dev.dealloc_read; -1 unknown */
	bool nvme;
	char ctrl[64];			/* "nvme0"; "" not NVMe */
	int health_err;			/* the first read's -errno; 0 read */
	bool has_before, has_after;
	struct setup_health before, after;
};

/* Samples each target's range and reads its drive's log, saying in one
 * line each a high share of zeros and a critical warning, and once that
 * the log cannot be read (not root). A target opened before in this
 * process keeps its account. Nothing fails: what cannot be known is left
 * unknown. */
void cli_drive_before(const struct cli_opts *o, const struct eng_target *const *t, unsigned n);
/* Reads the log of each target's drive again after a run, saying in one
 * line a drive whose log moved during it (throttling, time above a
 * temperature, errors, a new warning). */
void cli_drive_after(const struct eng_target *const *t, unsigned n);
/* The account of the target opened as path; NULL none. */
const struct cli_drive *cli_drive_find(const char *path);
/* What moved from the first read to the last: whether anything a reader
 * must be told did; false, c zeroed, without both reads. */
bool cli_drive_change(const struct cli_drive *d, struct model_health_change *c);

/* The words of the lines, for their tests. The Critical Warning bits of
 * w (enum setup_health_warn), "; "-separated; "" none: */
void cli_drive_warn_words(char *buf, size_t len, unsigned w);
/* "NAME: the drive's own log moved during the run: throttled 12 s (TMT1:
 * 3 transitions, 10 s; TMT2: 1, 2 s); 31 C before, 48 C after", of what
 * moved (model_health_change): */
void cli_drive_moved_words(char *buf, size_t len, const char *name,
			   const struct model_health_change *c);

#endif
