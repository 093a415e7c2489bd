/* iostorm topo --dot: the PCIe tree as a Graphviz drawing (render it with
 * `dot -Tsvg`). */
#ifndef CLI_TOPO_DOT_H
#define CLI_TOPO_DOT_H

#include <stdio.h>

#include "topo/topo.h"

/* Writes to f a digraph of t: NUMA nodes, their host bridges, the root
 * ports, switches and ports below them, and devs with their links; a drive
 * a finding of f names is filled orange, a NUMA node the imbalance finding
 * calls crowded too, and a link below its maximum drawn red. source names
 * the topology in the title (NULL: this machine). 0, or -ENOMEM. */
int cli_topo_dot(FILE *f, struct topo *t, const char *source,
		 const struct topo_dev *const *devs, unsigned ndevs,
		 const struct topo_finding *fnd, int nf);

#endif
