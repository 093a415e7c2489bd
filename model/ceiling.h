/* The ceiling: which part of the machine caps the IOPS, and which drives
 * to move to which free slots, one after another. Resources (drives,
 * PCIe links, switches, host bridges, node memory, node CPUs) form a tree
 * from each drive up to its node's memory, and each drive also uses its
 * node's CPU. Each has a capacity in IOPS, given or worked out from facts
 * (a link's speed and width, a memory bandwidth in bytes/s, IOs per
 * CPU-second and cores); each drive demands its solo IOPS. A max-min fair share (water-filling)
 * through the tree predicts each drive's IOPS, the total, and the
 * resource that binds. Pure: no I/O, no printing; everything is allocated
 * in model_ceil_init and freed in model_ceil_free. docs/ceiling.md. */
#ifndef MODEL_CEILING_H
#define MODEL_CEILING_H

#include <stdbool.h>

#include "model/pcie.h"

enum model_ceil_kind {
	MODEL_CEIL_DRIVE,
	MODEL_CEIL_LINK,	/* a PCIe link: a drive's, a root port's */
	MODEL_CEIL_SWITCH,	/* a switch, by its upstream link */
	MODEL_CEIL_HOST_BRIDGE,
	MODEL_CEIL_MEMORY,	/* one node's memory */
	MODEL_CEIL_CPU,		/* one node's cores */
};

#define MODEL_CEIL_NAME 64
/* Resources from a drive up to the top of the tree, the drive included. */
#define MODEL_CEIL_MAX_DEPTH 24
/* A move must raise the ceiling by this share of it to count. */
#define MODEL_CEIL_MIN_GAIN 0.01

/*
 * One resource. Its capacity in IOPS is, first that is known: iops > 0;
 * bytes_s > 0 over bs; from the kind's facts (a link or switch: link; a
 * CPU: ios_per_cpu_s x cores x smt; a host bridge: the sum of its root
 * ports, its children and the free ports under it, which its ports reach
 * first, so it is shown and never binds); else unknown, which limits
 * nothing. A drive's iops is its demand, its solo IOPS (>= 0).
 */
struct model_ceil_res {
	enum model_ceil_kind kind;
	char name[MODEL_CEIL_NAME];	/* "nvme0n1", "0000:40:01.1", "node 0" */
	int parent;		/* the next resource towards memory: drive ->
				 * its link -> switch links -> root port link
				 * -> host bridge -> memory; -1: the top. Never
				 * a drive. */
	int node;		/* host bridge, memory, CPU: the NUMA node's OS
				 * index; -1: unknown (never a move's target) */
	double iops;
	double bytes_s;		/* memory: its write bandwidth, measured */
	/* A link or switch: the link. A drive: the link it can train to
	 * (its max speed and width), what a move gives it in a new slot;
	 * unknown: its parent link's. */
	struct model_pcie_link link;
	/* A CPU: IOs per CPU-second the workers did in the solo steps, with
	 * the completion mode in use (a polled worker is busy all the time,
	 * so its rate is per worker); cores local to the node; what both PUs
	 * of a core do over one PU (1 or less: SMT adds nothing). */
	double ios_per_cpu_s;
	unsigned cores;
	double smt;
	int cpu;		/* a drive: the CPU resource serving it; -1 none */
};

/* A free root port (an empty slot) a drive may move to. */
struct model_ceil_port {
	char name[MODEL_CEIL_NAME];	/* its bus id, "0000:c0:03.1"; "" where
					 * nothing names it */
	int host_bridge;		/* index of its host bridge resource */
	struct model_pcie_link link;	/* what the slot can run; unknown: a
					 * drive there runs at its own link */
	bool assumed;			/* the input supposes it, no fact shows
					 * it: it never adds to its bridge's sum */
};

/* Why model_ceil_plan stopped. */
enum model_ceil_stop {
	MODEL_CEIL_STOP_MET,		/* every drive gets its demand */
	MODEL_CEIL_STOP_NO_SLOT,	/* no free port is left (or none was) */
	MODEL_CEIL_STOP_NO_GAIN,	/* no move raises the ceiling by
					 * MODEL_CEIL_MIN_GAIN: what binds is
					 * not relieved by a move */
};

struct model_ceil_in {
	const struct model_ceil_res *res;
	unsigned nres;
	const struct model_ceil_port *ports;	/* may be NULL with nports 0 */
	unsigned nports;
	unsigned bs;		/* bytes per IO */
};

/* What the model says about one resource. */
struct model_ceil_fig {
	double capacity;	/* IOPS; INFINITY: unknown */
	double demand;		/* sum of the demands of the drives through it */
	double allocated;	/* sum of their predicted IOPS */
	double utilization;	/* allocated / capacity; 0 when unknown */
	double held_back;	/* demand it kept from drives it capped */
	double gain;		/* IOPS the ceiling rises by per IOPS of
				 * capacity added here (0..1), for the ones
				 * that held drives back; else 0 */
	unsigned ndrives;	/* drives through it; 0: unused */
	unsigned ncapped;	/* drives it capped first (their limit) */
	bool implied;		/* a host bridge's sum of its root ports: shown,
				 * never a limit of its own (they are full
				 * before it is) */
	bool saturated;
	int limit;		/* a drive: the resource that capped it, itself
				 * when it got its demand */
};

struct model_ceil_move {
	unsigned drive;		/* resource index */
	int from_bridge;	/* its host bridge before the move */
	int from_port;		/* the resource right below that bridge */
	int to_bridge;
	unsigned to_port;	/* index into the input's ports */
	int link;		/* the resource of its new link */
	double ceiling_after;
};

struct model_ceil {
	unsigned bs;
	unsigned nres;		/* the input's, then one link per free port */
	unsigned nin;		/* the input's */
	unsigned nports;
	struct model_ceil_res *res;
	struct model_ceil_fig *fig;
	struct model_ceil_port *port;
	bool *port_used;
	double demand;		/* sum of the drives' demands */
	double predicted;	/* sum of their predicted IOPS */
	int binding;		/* the full resource that binds: the highest
				 * gain, then the most held back; -1: every
				 * drive got its demand */
	struct model_ceil_move *move;	/* after model_ceil_plan */
	unsigned nmoves;
	enum model_ceil_stop stop;	/* after model_ceil_plan */
	/* the solver's: per resource */
	double *rate, *fixed;
	unsigned *nfree;
	bool *frozen, *moved;
};

/* Checks the tree and copies it, works out every capacity. -EINVAL: bs 0,
 * a bad kind, parent, cpu or host bridge index, a parent that is a drive,
 * a chain longer than MODEL_CEIL_MAX_DEPTH (or a loop), a drive without a
 * demand; -ENOMEM. On failure m holds nothing to free. */
int model_ceil_init(struct model_ceil *m, const struct model_ceil_in *in);
void model_ceil_free(struct model_ceil *m);
/* Water-filling: every drive's predicted IOPS, the total, each
 * resource's figures, into m. Then, for each resource that held drives
 * back, its gain (one more fill with its capacity a little higher), and
 * the binding resource. Each fill is O(drives x depth) per round, at most
 * one round per drive. */
void model_ceil_solve(struct model_ceil *m);
/* Moves drives to free ports one after another, each time the move that
 * raises the ceiling most on the layout the moves before it left, while
 * one raises it by MODEL_CEIL_MIN_GAIN or more: the ceilings after the
 * moves rise strictly. A drive moves once, a port takes one drive, a host
 * bridge whose node is unknown is never a target, and neither is a node
 * without a CPU resource for a drive that has one. Leaves m solved after
 * the last move, says why it stopped (m->stop) and returns how many
 * (m->move, m->nmoves). */
int model_ceil_plan(struct model_ceil *m);
/* "drive", "link", "switch", "host_bridge", "memory", "cpu". */
const char *model_ceil_kind_name(enum model_ceil_kind k);

#endif
