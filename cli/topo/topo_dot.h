/* iostorm topo --dot: the PCIe tree as a Graphviz drawing (render it with
 * `dot -Tsvg`). */
#ifndef CLI_TOPO_DOT_H
#define CLI_TOPO_DOT_H

#include <stdbool.h>
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

/* What plan adds to the drawing: the free root ports (dashed boxes), the
 * binding resource (a thick red outline: a port or switch by its bus id, a
 * host bridge by its name, a node's memory or CPU on its NUMA node), and
 * each move as a dashed blue arrow from the drive to its new port, or,
 * for a slot no bus id names (given by --free-slots, or assumed), to a
 * dashed box of its own under its host bridge. */
struct cli_dot_move {
	const char *drive;		/* the device's name */
	const char *port;		/* the free root port's bus id; "" none */
	const char *host_bridge;	/* the slot's host bridge */
	bool assumed;			/* no fact shows the slot */
	double ceiling_after;
};

struct cli_dot_plan {
	const char *binding;		/* resource name; NULL: none binds */
	const char *binding_kind;	/* model_ceil_kind_name() */
	int binding_node;		/* memory or CPU: OS index; else -1 */
	const char *binding_text;	/* the sentence, in the title */
	double predicted;
	const struct cli_dot_move *moves;
	unsigned nmoves;
};

/* cli_topo_dot with plan's overlay. */
int cli_topo_dot_plan(FILE *f, struct topo *t, const char *source,
		      const struct topo_dev *const *devs, unsigned ndevs,
		      const struct cli_dot_plan *plan);

#endif
