/* An open loop's part of a report (--rate): the service time beside the
 * latency from when IOs were due, and whether each device kept up. */
#ifndef CLI_OPENLOOP_H
#define CLI_OPENLOOP_H

#include <jansson.h>
#include <stdio.h>

#include "cli/report/record.h"

/* A device is overloaded when, at the end, more IOs were due and never
 * issued than this share of those asked in the window: it fell behind
 * its schedule and stayed behind. Not "achieved below asked": a Poisson
 * window holds a random number of arrivals (a standard deviation of 1.8%
 * of 3000), and a device that keeps up ends with next to no backlog. */
#define CLI_OPEN_BEHIND 0.01

/* d runs an open loop at asked IOs per second; with latency, it keeps a
 * service-time histogram. 0 or -ENOMEM. */
int cli_open_init(struct cli_dev *d, double asked, bool latency);
/* One worker's open-loop figures added to d's (a stalled worker has no
 * histogram). */
void cli_open_add(struct cli_dev *d, const struct eng_result *res);
/* --repeat: one repeat's open loop added to acc's (the backlogs, each
 * left at its repeat's end, summed), its figures recomputed. */
void cli_open_merge(struct cli_dev *acc, struct cli_dev *one);
/* d's service-time figures from its merged histogram. */
void cli_open_finish(struct cli_dev *d);
/* The devices' sums into r->total.open. 0 or -ENOMEM. */
int cli_open_total(struct cli_report *r);
/* Whether d ran an open loop and ended more than CLI_OPEN_BEHIND behind. */
bool cli_open_overloaded(const struct cli_dev *d);
/* The window's mean IOs in flight of d's open loop. */
double cli_open_depth(const struct cli_dev *d);
/* A line per open-loop device: its service time and depth; when the IOs
 * its window began by dropping (eng_result.dropped) were more than
 * CLI_OPEN_BEHIND of those asked, one more with their count; and when it
 * was overloaded one more: achieved against asked, the backlog at the
 * end and the share of IOs that started late. Nothing for a closed loop. */
void cli_open_print(FILE *f, const struct cli_report *r);
/* The share of d's IOs issued more than ENG_RATE_LATE_NS after due. */
double cli_open_late_share(const struct cli_dev *d);

#endif
