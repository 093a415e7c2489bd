/* The cluster gap (iostorm-mpi saturate): each host alone (all
 * its devices at once, no other host running) against the same host
 * within the cluster run (every host at once), the cluster's sum of the
 * hosts alone against all hosts at once, and the rules that attribute the
 * gap: which hosts lost, and whether the loss follows a resource several
 * hosts share (a switch named in the targets file, an NVMe-oF subsystem
 * NQN). Pure like model/gap.c: no I/O, no MPI, tested on given numbers.
 * The thresholds are model/gap.h's. */
#ifndef MODEL_CGAP_H
#define MODEL_CGAP_H

#include <stdbool.h>

#include "model/gap.h"

#define MODEL_CGAP_MAX_FIND 16
/* Windows that started further apart than this share of the measured
 * time overlap only in part: the cluster figure is then too kind. */
#define MODEL_CGAP_SPREAD_PCT 10.0

struct model_cgap_host {
	const char *name;		/* "node7", or "rank 3" */
	double qd1_alone, qd1_cluster;	/* IOPS, or MODEL_GAP_UNKNOWN */
	double qdn_alone, qdn_cluster;
	/* shared resources, as labels compared whole: "switch leaf2",
	 * "nqn nqn.2014-08.org.example:array1" */
	const char *const *res;
	unsigned nres;
};

struct model_cgap_in {
	const struct model_cgap_host *host;
	unsigned nhost;
	double window_s;		/* measured time per step */
	double spread_s;		/* how far apart the hosts' cluster
					 * windows started (the larger of QD1
					 * and QDn); < 0: unknown */
};

enum model_cgap_kind {
	MODEL_CGAP_NO_GAP,		/* the hosts add up */
	MODEL_CGAP_HOST_LOSS,		/* which hosts lost most */
	MODEL_CGAP_SHARED,		/* the losing hosts share a resource
					 * the others do not */
	MODEL_CGAP_SHARED_ALL,		/* every host shares it: consistent,
					 * nothing to compare against */
	MODEL_CGAP_SPREAD,		/* the windows overlapped in part */
	MODEL_CGAP_NKINDS
};

enum model_cgap_verdict {
	MODEL_CGAP_V_INCOMPLETE,	/* not enough was measured */
	MODEL_CGAP_V_NONE,		/* no significant gap */
	MODEL_CGAP_V_SHARED,		/* the loss follows a shared resource */
	MODEL_CGAP_V_HOSTS,		/* some hosts lost, no shared cause */
	MODEL_CGAP_V_UNEXPLAINED,	/* spread over every host */
	MODEL_CGAP_NVERDICTS
};

/* A finding states values, never words: cli/words/findings_words.c says
 * each kind from them. */
struct model_cgap_finding {
	enum model_cgap_kind kind;
	char what[128];			/* the resource, or "" */
	/* no_gap: the share of the sum alone, the gap threshold; host_loss:
	 * hosts lost, hosts, the loss threshold; shared_all: the loss;
	 * shared: its hosts, their loss, the other hosts, their loss (< 0 a
	 * gain); spread: the seconds apart, their share of the window, the
	 * window */
	double num[4];
	/* host_loss: the worst hosts, their loss in percent, IOPS alone and
	 * in the cluster */
	char top[3][64];
	double top_loss[3], top_alone[3], top_cluster[3];
	unsigned ntop;
};

struct model_cgap {
	unsigned nhost;			/* hosts the sums cover: all figures known */
	double qd1_alone, qd1_cluster, qd1_gap, qd1_gap_pct;
	double qdn_alone, qdn_cluster, qdn_gap, qdn_gap_pct;
	struct model_cgap_finding find[MODEL_CGAP_MAX_FIND];
	unsigned nfind;
	enum model_cgap_verdict verdict;
	/* what the verdict's words are said from beside the sums: the hosts
	 * given, the hosts that lost, the resource the loss follows (V_SHARED),
	 * and whether every host shares one (a shared_all finding) */
	unsigned nhost_in, nlost;
	char verdict_what[128];
	bool shared_all;
};

/* The sums, the findings and the verdict. */
void model_cgap_analyse(const struct model_cgap_in *in, struct model_cgap *out);
const char *model_cgap_kind_name(enum model_cgap_kind k);
const char *model_cgap_verdict_name(enum model_cgap_verdict v);
const char *model_cgap_value_name(enum model_cgap_kind k, unsigned i);

#endif
