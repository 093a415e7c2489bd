/* The arithmetic behind saturate and sweep: losses, NUMA node subtotals, the
 * system gap, and the rules that attribute the gap to a cause. Pure: no I/O,
 * no topology calls, so every rule is tested on given numbers. A figure that
 * was not measured (an interrupted run) is negative and is skipped. */
#ifndef CLI_GAP_H
#define CLI_GAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Thresholds of the attribution rules (docs/saturate.md explains them). */
#define CLI_GAP_SIGNIFICANT_PCT 10.0	/* a system gap below this is noise */
#define CLI_GAP_LOSS_PCT 10.0		/* a device or group "lost" from here */
#define CLI_GAP_TOGETHER_PTS 10.0	/* a group's loss above the others' by */
#define CLI_GAP_CPU_BUSY_PCT 90.0	/* a worker this busy is CPU-bound */
#define CLI_GAP_LAT_RISE 1.5		/* QD1 p99 all / solo that counts */
#define CLI_GAP_NUMA_PCT 10.0		/* remote placement loss that counts */
#define CLI_GAP_KNEE_FRAC 0.9		/* sweep: knee at 90% of the best */

#define CLI_GAP_MAX_NODES 64
#define CLI_GAP_MAX_FIND 32
#define CLI_GAP_TEXT 360

struct cli_gap_dev {
	const char *name;
	int node;			/* local NUMA node (OS index), -1: none */
	const char *host_bridge;	/* "0000:80"; NULL or "": unknown */
	const char *upstream;		/* root port bus id; NULL or "": unknown */
	double qd1_solo, qd1_all;	/* IOPS; < 0: not measured */
	double qdn_solo, qdn_all;
	double qd1_solo_p99, qd1_all_p99;	/* ns; < 0: not measured */
	double cpu_pct;			/* busiest worker in the all-QDn step,
					 * user+sys over wall time; < 0: unknown */
	const int *cpus;		/* CPU each worker ran on, -1: unpinned */
	unsigned nworkers;
	bool off_node;			/* a worker ran outside the local node */
	double qdn_remote;		/* all-QDn with remote placement; < 0: not run */
};

struct cli_gap_in {
	const struct cli_gap_dev *dev;
	unsigned ndev;
	unsigned qd;			/* the QDn used */
	unsigned host_cpus;		/* CPUs this process may use; 0: unknown */
};

struct cli_gap_node {
	int os_index;			/* -1: devices without a node */
	unsigned ndev;
	double qd1_solo, qd1_all, qdn_solo, qdn_all;	/* sums; < 0: unknown */
	double loss_pct;		/* QDn all against solo; < 0: unknown */
};

struct cli_gap_sys {
	double qd1_solo, qd1_all, qd1_gap, qd1_gap_pct;
	double qdn_solo, qdn_all, qdn_gap, qdn_gap_pct;
};

enum cli_gap_kind {
	CLI_GAP_NO_GAP,		/* the devices add up */
	CLI_GAP_DEVICE_LOSS,	/* which devices lost most */
	CLI_GAP_NODE_LOSS,	/* which node lost most */
	CLI_GAP_CPU_BOUND,	/* workers near 100% CPU */
	CLI_GAP_CPU_SHARED,	/* several workers on one CPU */
	CLI_GAP_SHARED_LINK,	/* devices behind one port lost together */
	CLI_GAP_OFF_NODE,	/* workers ran off their local node */
	CLI_GAP_LATENCY,	/* QD1 latency rose with the neighbours busy */
	CLI_GAP_NUMA_PENALTY,	/* remote placement cost IOPS */
};

struct cli_gap_finding {
	enum cli_gap_kind kind;
	char device[64];		/* "" when about several */
	char text[CLI_GAP_TEXT];
};

/* What the verdict blames, first match wins in this order. */
enum cli_gap_verdict {
	CLI_GAP_V_INCOMPLETE,	/* not enough was measured */
	CLI_GAP_V_NONE,		/* no significant gap */
	CLI_GAP_V_HOST,		/* CPU-bound or shared cores */
	CLI_GAP_V_LINK,		/* a shared upstream link */
	CLI_GAP_V_PLACEMENT,	/* workers off their node */
	CLI_GAP_V_DEVICES,	/* some devices lost, no cause singled out */
	CLI_GAP_V_UNEXPLAINED,
};

struct cli_gap {
	struct cli_gap_node nodes[CLI_GAP_MAX_NODES];
	unsigned nnodes;
	struct cli_gap_sys sys;
	struct cli_gap_finding find[CLI_GAP_MAX_FIND];
	unsigned nfind;
	enum cli_gap_verdict verdict;
	char verdict_text[CLI_GAP_TEXT];
};

/* 100 * (solo - all) / solo; negative when all beat solo; NAN-free: returns
 * -1000 (never a real loss) when either is unknown or solo is 0. Use
 * cli_gap_known() before printing. */
#define CLI_GAP_UNKNOWN (-1000.0)
double cli_gap_loss_pct(double solo, double all);
bool cli_gap_known(double v);

/* Node subtotals, the system block, the findings and the verdict. */
void cli_gap_analyse(const struct cli_gap_in *in, struct cli_gap *out);
const char *cli_gap_kind_name(enum cli_gap_kind k);
const char *cli_gap_verdict_name(enum cli_gap_verdict v);

/* ---- sweep ---- */

#define CLI_MAX_QDS 64
/* "1,2,4,8" (each 1..65536, increasing, no duplicates) into qds. Returns
 * the count or -EINVAL with err filled. */
int cli_qd_list_parse(const char *s, uint32_t *qds, unsigned max, char *err,
		      size_t errlen);
/* Index of the smallest depth reaching CLI_GAP_KNEE_FRAC of the best IOPS;
 * -1 when none measured. */
int cli_sweep_knee(const double *iops, unsigned n);
/* Index of the first depth whose p99 is at least twice the first depth's;
 * -1 when it never doubles (or nothing measured). */
int cli_sweep_p99_double(const double *p99, unsigned n);

#endif
