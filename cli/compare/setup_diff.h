/* What differs between the setups two reports were measured on: their
 * setup records (docs/json.md: kernel, command line, governor, queue
 * settings, IOMMU, firmware, iostorm's version), their options and where
 * their workers ran, flattened to one key per fact and compared. The
 * reader sees what was changed, and what else changed without being
 * asked. */
#ifndef CLI_COMPARE_SETUP_DIFF_H
#define CLI_COMPARE_SETUP_DIFF_H

#include <jansson.h>

struct cmp_change {
	char *key;		/* "setup.devices[loop0].queue.iostats" */
	char *base, *next;	/* the values as compact JSON; NULL: absent */
};

struct cmp_changes {
	struct cmp_change *c;
	unsigned n;
};

/* Every fact that differs between report base and report next, sorted by
 * key. Facts that differ between any two runs (the time, the clock-drawn
 * seed) are left out. 0 or -ENOMEM. */
int cmp_setup_diff(const json_t *base, const json_t *next, struct cmp_changes *out);
void cmp_changes_free(struct cmp_changes *c);

#endif
