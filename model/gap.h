/* The arithmetic behind saturate: losses, NUMA node subtotals, the system
 * gap, and the rules that attribute the gap to a cause. Pure: no I/O,
 * no topology calls, so every rule is tested on given numbers. A figure that
 * was not measured (an interrupted run) is MODEL_GAP_UNKNOWN and is skipped. */
#ifndef MODEL_GAP_H
#define MODEL_GAP_H

#include <math.h>
#include <stdbool.h>

#include "model/stats.h"

/* Thresholds of the attribution rules (docs/saturate.md explains them). */
#define MODEL_GAP_SIGNIFICANT_PCT 10.0	/* a system gap below this is noise */
#define MODEL_GAP_LOSS_PCT 10.0		/* a device or group "lost" from here */
#define MODEL_GAP_TOGETHER_PTS 10.0	/* a group's loss above the others' by */
#define MODEL_GAP_CPU_BUSY_PCT 90.0	/* a worker this busy is CPU-bound */
#define MODEL_GAP_LAT_RISE 1.5		/* QD1 p99 all / solo that counts */
#define MODEL_GAP_NUMA_PCT 10.0		/* remote placement loss that counts */
#define MODEL_GAP_REPEAT_PCT MODEL_REPEAT_AGREE_PCT	/* repeats of a step
					 * that differ by more disagree */

/* The one value for a figure that was not measured (a step an interrupt
 * skipped) or cannot be worked out (a loss against nothing), in and out:
 * below every real figure, negative losses included, so no threshold rule
 * fires on it. Test with model_gap_known() before printing. A measured
 * input (IOPS, ns, CPU percent) is never negative, so any negative one is
 * taken as unknown too. */
#define MODEL_GAP_UNKNOWN (-INFINITY)

#define MODEL_GAP_MAX_NODES 64
#define MODEL_GAP_MAX_BRIDGES 64
#define MODEL_GAP_MAX_FIND 32
/* Room for the devices a finding names, "a, b, c" (cut at a whole name),
 * and for a failed device's why. */
#define MODEL_GAP_TEXT 360
#define MODEL_GAP_NUMS 4	/* a finding's figures */
#define MODEL_GAP_TOP 3		/* device_loss names the worst three */

struct model_gap_dev {
	const char *name;
	int node;			/* local NUMA node (OS index), -1: none */
	const char *host_bridge;	/* "0000:80"; NULL or "": unknown */
	const char *upstream;		/* root port bus id; NULL or "": unknown */
	double qd1_solo, qd1_all;	/* IOPS; or MODEL_GAP_UNKNOWN */
	double qdn_solo, qdn_all;
	double qd1_solo_p99, qd1_all_p99;	/* ns; or MODEL_GAP_UNKNOWN */
	double cpu_pct;			/* busiest worker in the all-QDn step,
					 * user+sys over wall time; or
					 * MODEL_GAP_UNKNOWN */
	const int *cpus;		/* CPU each worker ran on, -1: unpinned */
	unsigned nworkers;
	bool off_node;			/* a worker ran outside the local node */
	double qdn_remote;		/* all-QDn with remote placement, or
					 * MODEL_GAP_UNKNOWN: not run */
	unsigned throttled_s;		/* seconds the drive's own SMART / Health
					 * log says it throttled (TMT1 + TMT2)
					 * during the command; 0 none or unknown */
	const char *backing;		/* a loop device: the block device its
					 * file lives on ("8:1"); NULL or "": none */
	/* Each step's noise, from its own per-second IOPS: the upper end of
	 * the alone steps' 95% intervals, the lower end of the all-at-once
	 * steps'; 0 or unknown: no interval (too few seconds) */
	double qd1_solo_hi, qd1_all_lo, qdn_solo_hi, qdn_all_lo;
	/* With --repeat: how far the repeats of each QDn step spread, 100 x
	 * (max - min) / mean; 0 or unknown: one run */
	double qdn_solo_rep_pct, qdn_all_rep_pct;
	/* What else the machine did during the alone steps: other tasks'
	 * share of the workers' CPUs (noise.other_cpu_pct), or unknown */
	double qd1_solo_other_pct, qdn_solo_other_pct;
};

/* A device that failed a step (IO errors, a stall, gone): left out of
 * the later steps, of the sums and of the rules, and named first. */
struct model_gap_failed {
	const char *name;
	const char *why;		/* "stalled in step alone QD1" */
};

struct model_gap_in {
	const struct model_gap_dev *dev;	/* the healthy devices */
	unsigned ndev;
	const struct model_gap_failed *failed;
	unsigned nfailed;
	unsigned qd;			/* the QDn used */
	unsigned host_cpus;		/* CPUs this process may use; 0: unknown */
};

struct model_gap_node {
	int os_index;			/* -1: devices without a node */
	unsigned ndev;
	double qd1_solo, qd1_all, qdn_solo, qdn_all;	/* sums, or UNKNOWN */
	double loss_pct;		/* QDn all against solo, or UNKNOWN */
};

/* The same sums by host bridge (root complex): on one NUMA node with
 * several (AMD NPS1), the loss shows by root complex only here. */
struct model_gap_bridge {
	char id[24];			/* "0000:40"; "" devices without PCI */
	unsigned ndev;
	double qd1_solo, qd1_all, qdn_solo, qdn_all;	/* sums, or UNKNOWN */
	double loss_pct;		/* QDn all against solo, or UNKNOWN */
};

/* The gap is solo - all, UNKNOWN with either; a known one can be negative. */
struct model_gap_sys {
	unsigned ndev;			/* devices the sums cover: in->ndev */
	double qd1_solo, qd1_all, qd1_gap, qd1_gap_pct;
	double qdn_solo, qdn_all, qdn_gap, qdn_gap_pct;
};

enum model_gap_kind {
	MODEL_GAP_NO_GAP,		/* the devices add up */
	MODEL_GAP_DEVICE_LOSS,	/* which devices lost most */
	MODEL_GAP_NODE_LOSS,	/* which node lost most */
	MODEL_GAP_CPU_BOUND,	/* workers near 100% CPU */
	MODEL_GAP_CPU_SHARED,	/* several workers on one CPU */
	MODEL_GAP_SHARED_LINK,	/* devices behind one port lost together */
	MODEL_GAP_OFF_NODE,	/* workers ran off their local node */
	MODEL_GAP_LATENCY,	/* QD1 latency rose with the neighbours busy */
	MODEL_GAP_NUMA_PENALTY,	/* remote placement cost IOPS */
	MODEL_GAP_FAILED_DEVICE,	/* a device failed a step: named first */
	MODEL_GAP_THROTTLED,	/* a device that lost throttled (its own log) */
	MODEL_GAP_SHARED_BACKING,	/* loop devices on one backing device lost
					 * together */
	MODEL_GAP_ALONE_BELOW,	/* a device alone did worse than all at once,
				 * by more than the steps' noise */
	MODEL_GAP_REPEATS_DISAGREE,	/* a step's repeats differ by more than
					 * MODEL_GAP_REPEAT_PCT */
	MODEL_GAP_NKINDS
};

/* A finding states values, never words: cli/words/findings_words.c says
 * each kind from its figures (num, named by model_gap_num_names) and the
 * names below. */
struct model_gap_finding {
	enum model_gap_kind kind;
	char device[64];		/* "" when about several */
	int form;			/* cpu_shared: 1 more workers than CPUs,
					 * 0 two pinned to one; shared_link: 1
					 * behind a host bridge, 0 an upstream port;
					 * shared_backing: 1 every device shares
					 * it (no others to set against) */
	double num[MODEL_GAP_NUMS];
	char names[MODEL_GAP_TEXT / 2];	/* the devices it is about, "a, b" */
	char other[64];			/* cpu_shared's second device; shared_link's
					 * port or host bridge; shared_backing's disk */
	char why[MODEL_GAP_TEXT];	/* failed_device: why */
	/* device_loss: the worst devices, their losses in percent */
	char top[MODEL_GAP_TOP][64];
	double top_pct[MODEL_GAP_TOP];
	unsigned ntop;
};

/* What the verdict blames, first match wins in this order. */
enum model_gap_verdict {
	MODEL_GAP_V_FAILED,		/* a device failed: it comes first, then
					 * the verdict on the others */
	MODEL_GAP_V_INCOMPLETE,	/* not enough was measured */
	MODEL_GAP_V_NONE,		/* no significant gap */
	MODEL_GAP_V_HOST,		/* CPU-bound or shared cores */
	MODEL_GAP_V_LINK,		/* a shared upstream link */
	MODEL_GAP_V_PLACEMENT,	/* workers off their node */
	MODEL_GAP_V_DEVICES,	/* some devices lost, no cause singled out */
	MODEL_GAP_V_UNEXPLAINED,
	MODEL_GAP_V_THERMAL,	/* a device that lost throttled: checked
				 * right after V_NONE, the drive's own word
				 * coming before any inference */
	MODEL_GAP_V_BACKING,	/* loop devices sharing a backing device */
	MODEL_GAP_V_NOISY,	/* undecided: a QDn alone step fell below its
				 * all-at-once figure by more than their noise,
				 * or its repeats disagree: the gap rests on a
				 * baseline the machine disturbed. Checked
				 * right after V_INCOMPLETE */
	MODEL_GAP_NVERDICTS
};

struct model_gap {
	struct model_gap_node nodes[MODEL_GAP_MAX_NODES];
	unsigned nnodes;
	struct model_gap_bridge bridges[MODEL_GAP_MAX_BRIDGES];
	unsigned nbridges;
	struct model_gap_sys sys;
	struct model_gap_finding find[MODEL_GAP_MAX_FIND];
	unsigned nfind;
	enum model_gap_verdict verdict;
	/* what the verdict's words are said from: the verdict on the healthy
	 * devices (verdict is V_FAILED where some failed), the gap in percent
	 * (unknown for V_INCOMPLETE), the QDn, and the failed devices */
	enum model_gap_verdict healthy;
	double verdict_pct;
	unsigned qd;
	char failed[MODEL_GAP_TEXT / 3];	/* "a, b" */
	unsigned nfailed;
};

/* 100 * (solo - all) / solo; negative when all beat solo; MODEL_GAP_UNKNOWN
 * when either is unknown or solo is 0. */
double model_gap_loss_pct(double solo, double all);
/* v is a figure, not MODEL_GAP_UNKNOWN. */
bool model_gap_known(double v);
/* CPU use in percent of the wall time: busy_s (user+sys) of nworkers
 * workers over elapsed_s, per worker; MODEL_GAP_UNKNOWN without a window
 * or a worker. A device's cpu_pct is its busiest worker's busy time with
 * nworkers 1: averaged over its workers, one saturated worker hides behind
 * idler siblings (100% and 60% read 80%). */
double model_gap_cpu_pct(double busy_s, double elapsed_s, unsigned nworkers);

/* A worker pinned (cpus[i] >= 0) to a CPU outside local, its device's
 * local cpuset, ran off its node. */
bool model_gap_off_node(const int *cpus, unsigned n, const int *local,
			unsigned nlocal);

/* Node subtotals, the system block, the findings and the verdict. */
void model_gap_analyse(const struct model_gap_in *in, struct model_gap *out);
const char *model_gap_kind_name(enum model_gap_kind k);
/* The names of kind k's figures, num[0..): NULL after the last. */
const char *const *model_gap_num_names(enum model_gap_kind k);
const char *model_gap_verdict_name(enum model_gap_verdict v);

#endif
