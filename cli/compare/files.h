/* compare's operands as report files: a '--' between one side's runs and
 * the next side's (told apart from a file by its address once getopt has
 * moved the operands), each report loaded and checked against the first
 * (its command, --bs, --qd and how it bounded its repeats), and the sides
 * they form. Each refusal is one line (cli_say) and -EINVAL. */
#ifndef CLI_COMPARE_FILES_H
#define CLI_COMPARE_FILES_H

#include <jansson.h>
#include <stdbool.h>

#include "cli/compare/compare.h"
#include "cli/opts/opts.h"

#define CMP_MAX_REPORTS 64

/* argv with every '--' after the verb made the separator, into args
 * (argc + 1 entries); with --ab (before the first '--'), argv as it is:
 * its operands are two command lines. */
void cmp_files_mark(int argc, char **argv, char **args);
/* The operands as sides: without a separator each report is a side of
 * one run; with them, the runs between two are one side. The first side
 * is the base. start[] and len[] have room for CMP_MAX_REPORTS. */
int cmp_files_split(const struct cli_opts *o, unsigned *start, unsigned *len, unsigned *nsides);
/* Every report, checked against the first; r[i] and cmd[i] stay NULL for
 * a separator. A file that cannot be read is its -errno. */
int cmp_files_load(const struct cli_opts *o, json_t **r, const char **cmd);
/* Whether a report of command cmd holds rows to compare (run, nop,
 * latency, sweep, saturate): the one list of them. */
bool cmp_is_comparable(const char *cmd);
/* How report r bounded its repeats: by IOs (--ios), and whether --rate
 * held its IOs (a sweep by load too). */
struct cmp_bound cmp_bound_of(const json_t *r);

#endif
