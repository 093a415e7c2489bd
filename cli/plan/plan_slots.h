/* plan's --free-slots list: which host bridges have empty slots a drive
 * can go into, and how many ("0000:40=2,0001:00=1"). */
#ifndef CLI_PLAN_SLOTS_H
#define CLI_PLAN_SLOTS_H

#include <stddef.h>

#define CLI_PLAN_MAX_SLOT_BRIDGES 64	/* entries in one list */
#define CLI_PLAN_MAX_SLOTS 64		/* free slots under one host bridge */

struct cli_plan_slot {
	char bridge[8];		/* "0000:40", lower case, as plan names it */
	unsigned count;		/* 0: none free there */
};

struct cli_plan_slots {
	unsigned n;
	struct cli_plan_slot v[CLI_PLAN_MAX_SLOT_BRIDGES];
};

/* s into l: BRIDGE=N entries, commas between, each bridge named once as
 * plan and topo name it (domain:bus in hex), N in 0..CLI_PLAN_MAX_SLOTS.
 * 0, or -EINVAL with err naming the entry and what is wrong. */
int cli_plan_slots_parse(const char *s, struct cli_plan_slots *l, char *err, size_t errlen);

#endif
