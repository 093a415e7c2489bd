/* Findings helpers shared by the topology tests. */
#ifndef TESTS_TOPO_FINDINGS_H
#define TESTS_TOPO_FINDINGS_H

#include <string.h>

#include "cli/words/findings_words.h"
#include "topo/topo.h"

#define T_MAX_DEVS 16

/* Finding f's sentence, as the words table says it (one buffer: the
 * last call's). */
static inline const char *said(const struct topo_finding *f)
{
	static char buf[CLI_TOPO_WORDS_MAX];

	if (!f)
		return "";
	cli_topo_text(f, buf, sizeof(buf));
	return buf;
}

/* The first finding of kind k (about dev, or any when dev is NULL). */
static inline const struct topo_finding *find(const struct topo_finding *f, int n,
					      enum topo_finding_kind k, const char *dev)
{
	int i;

	for (i = 0; i < n; i++)
		if (f[i].kind == k && (!dev || !strcmp(f[i].device, dev)))
			return &f[i];
	return NULL;
}

/* Findings about every discovered device (the first T_MAX_DEVS). */
static inline int all_findings(struct topo *t, struct topo_finding **f)
{
	const struct topo_dev *devs[T_MAX_DEVS];
	unsigned i, n = topo_ndevs(t);

	for (i = 0; i < n && i < T_MAX_DEVS; i++)
		devs[i] = topo_dev(t, i);
	return topo_findings(t, devs, n < T_MAX_DEVS ? n : T_MAX_DEVS, f);
}

#endif
