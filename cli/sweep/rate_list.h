/* sweep's --rate list: loads as percentages of a closed-loop maximum
 * ("10%,50%,100%") or rates in IOs per second per device ("1k,5k,20k"). */
#ifndef CLI_RATE_LIST_H
#define CLI_RATE_LIST_H

#include <stdbool.h>
#include <stddef.h>

#define CLI_MAX_RATES 64	/* entries in one list */
#define CLI_MAX_LOAD_PCT 1000	/* the highest load: ten times the maximum */

struct cli_rate_list {
	bool pct;		/* the values are percentages of the maximum */
	unsigned n;
	double v[CLI_MAX_RATES];	/* increasing */
};

/* s into l: every entry of one kind, increasing, each a percentage in
 * (0, CLI_MAX_LOAD_PCT] or a count of 1..CLI_MAX_RATE (k, m suffixes).
 * 0, or -EINVAL with err naming the list and what is wrong. */
int cli_rate_list_parse(const char *s, struct cli_rate_list *l, char *err, size_t errlen);

#endif
