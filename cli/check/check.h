/* The settings that cost IOPS on some targets, gathered once: the facts
 * (setup/), what the run asks of them (from the options) and the findings
 * (model/check). For iostorm check, and for the one line run, sweep and
 * saturate print before their table. */
#ifndef CLI_CHECK_CHECK_H
#define CLI_CHECK_CHECK_H

#include <stddef.h>
#include <stdio.h>

#include "cli/check/fix_cmd.h"
#include "cli/opts/opts.h"
#include "model/check.h"
#include "setup/setup.h"
#include "topo/cpu.h"

#define CLI_CHECK_ROUNDS 3			/* --rounds' default */
#define CLI_CHECK_MAX_ROUNDS 100
#define CLI_CHECK_TIME_NS 2000000000ull		/* --time: each trial's */
#define CLI_CHECK_RAMP_NS 500000000ull

struct cli_check {
	struct setup_machine *m;	/* malloc'd (it is large) */
	struct setup_dev *devs;		/* ndevs, each from setup_dev_read */
	unsigned ndevs;
	const char *const *paths;	/* the targets, as given (not owned) */
	struct check_ask ask;
	struct topo_cpuset *worker_cpus;	/* --cpus as a set for each of
						 * ndevs, NULL: not given */
	struct check_finding *f;
	unsigned nf;
	struct cli_boot boot;		/* the tools the fixes name */
};

/* Reads the machine and paths[0..n), and finds what costs IOPS at the
 * options' depth, workers and completion. 0 or -errno, said (a target that
 * cannot be read names itself). Free with cli_check_free, also after a
 * failure. */
int cli_check_gather(const struct cli_opts *o, const char *const *paths, unsigned n,
		     struct cli_check *c);
void cli_check_free(struct cli_check *c);

/* The distinct kinds of c's findings, by their short names, comma
 * separated into buf ("iostats, scheduler, IOMMU strict"; cut to fit):
 * their count, and in *dev_kinds (may be NULL) how many are about devices. */
int cli_check_names(const struct cli_check *c, char *buf, size_t len, unsigned *dev_kinds);

/* The line run, sweep and saturate print before their table: "3 settings
 * cost IOPS on these targets: iostats, scheduler, IOMMU strict: iostorm
 * check". Nothing when none do, or with --quiet or --quiet-advice. */
void cli_check_say(const struct cli_opts *o, const struct cli_check *c);
/* cli_check_gather, then cli_check_say: nothing more when the facts cannot
 * be read (a run is not stopped by its check). */
void cli_check_summary(const struct cli_opts *o, const char *const *paths, unsigned n);

#endif
