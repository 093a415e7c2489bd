/* The ceiling model's input from a topology and the figures a person gave
 * or saturate measured: one drive per PCI function, its own link, each
 * switch's upstream link, its host bridge, its node's memory and CPU, and
 * every free root port. What is not known stays unknown (the model takes
 * it as no limit) and is counted here, so a report can say so. Builds
 * only: no printing (cli/plan/cmd_plan.c prints). */
#ifndef CLI_PLAN_H
#define CLI_PLAN_H

#include <stdbool.h>

#include "cli/plan/plan_slots.h"
#include "model/ceiling.h"
#include "topo/topo.h"

/* A drive's measured solo IOPS (saturate's qdn.solo), by device name. */
struct cli_plan_rate {
	char name[TOPO_NAME_MAX];
	double iops;
};

/* A node's CPU, measured: IOs per CPU-second and what SMT adds. */
struct cli_plan_cpu {
	unsigned node;		/* OS index */
	double ios_per_cpu_s;
	double smt;		/* <= 1: SMT adds nothing known */
};

/* A node's memory write bandwidth, measured (topo/membw.h). */
struct cli_plan_mem {
	unsigned node;		/* OS index */
	double bytes_s;
};

struct cli_plan_figs {
	unsigned bs;			/* bytes per IO */
	double drive_iops;		/* every drive's demand; 0: not given */
	const struct cli_plan_rate *rates;	/* measured ones, first */
	unsigned nrates;
	double memory_bytes_s;		/* every node's not in mems; 0: unknown */
	double bridge_bytes_s;		/* every host bridge's; 0: the sum of
					 * its root ports (never binds) */
	const struct cli_plan_mem *mems;
	unsigned nmems;
	const struct cli_plan_cpu *cpus;
	unsigned ncpus;
	/* The drives: these devices, one drive resource each, named by names[i]
	 * (saturate's targets; two files on one disk share its link), their
	 * rates matched by that name. A device without PCI (a loop device, a
	 * file on tmpfs) hangs off its node's memory and CPU: its own node, or
	 * the machine's only one. NULL: every NVMe function of the topology. */
	const struct topo_dev *const *devs;
	const char *const *names;
	unsigned ndevs;
	/* The free slots the user named (--free-slots); NULL: the topology's
	 * free root ports, else one assumed per host bridge with devices. */
	const struct cli_plan_slots *slots;
};

/* Where the free slots came from. */
enum cli_plan_slots_src {
	CLI_PLAN_SLOTS_LISTED,	/* the topology's empty root ports */
	CLI_PLAN_SLOTS_GIVEN,	/* --free-slots */
	CLI_PLAN_SLOTS_ASSUMED,	/* none known: one per host bridge with
				 * devices, of known node */
};

struct cli_plan {
	struct model_ceil_in in;	/* over res and ports below */
	struct model_ceil_res *res;
	unsigned nres, rescap;
	struct model_ceil_port *ports;
	unsigned nports, portcap;
	const struct topo_dev **dev;	/* per resource: a drive's device (its
					 * root port: dev->upstream); else NULL */
	/* What the input lacks, for the report. */
	char left_out[256];		/* drives without a rate: "nvme4n1, ..." */
	unsigned nleft_out;
	char no_bridge[256];		/* drives without a host bridge */
	unsigned nno_bridge;
	unsigned nlinks_unknown;	/* links without speed, width or GB/s */
	unsigned nports_unknown_node;	/* free ports under a bridge of no node */
	unsigned ndrives;
	enum cli_plan_slots_src slots;
	char no_such_bridge[16];	/* a --free-slots bridge the topology
					 * lacks (-ENOENT) */
};

/* Builds p from t and f. 0; -ENOMEM; -ENODATA when no drive has a rate;
 * -ENOENT when f->slots names a host bridge t lacks (p->no_such_bridge).
 * p is freed with cli_plan_free, whatever this returned. */
int cli_plan_build(struct topo *t, const struct cli_plan_figs *f, struct cli_plan *p);
void cli_plan_free(struct cli_plan *p);

#endif
