/* iostorm-mpi: the thin MPI layer over iostorm's own code. Each
 * rank is one host; the ranks agree on every step with a collective that
 * is also a barrier, run the same engine, topology and report code as
 * iostorm, and send their results to rank 0 as JSON text. Built only by
 * `make mpi`; nothing in engine/, topo/, model/ or cli/ includes this. */
#ifndef IMPI_INT_H
#define IMPI_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "cli/runner/demo.h"
#include "cli/opts/opts.h"
#include "engine/hist.h"

/* IMPI_ (iostorm-mpi), not MPI_: the MPI standard reserves MPI_ and PMPI_
 * for its own names, and an mpi.h may define any of them. */
#define IMPI_HOST_LEN 64
#define IMPI_MAX_RES 16		/* shared resources per host */
#define IMPI_RES_LEN 256

/* This rank, and where its lines on stderr go. */
struct mpi_ctx {
	int rank, size;
	int local;			/* the rank's index among its host's
					 * (MPI_COMM_TYPE_SHARED) */
	char host[IMPI_HOST_LEN];	/* gethostname() */
	const char *verb;		/* "saturate", "run", "tune" */
	const char *targets_file;	/* --targets-file, NULL: none */
	bool hold;			/* keep lines back (setup) */
	bool quiet_others;		/* only rank 0 says (option parsing) */
	char held[8][1024];		/* the first lines held */
	unsigned nheld;
	char last[1024];		/* the last line said or held */
	bool abandon;			/* workers stalled in the kernel: end
					 * with cli_command_abandon after
					 * MPI_Finalize */
};

/* ---- comm.c: lines, agreement, gathering ---- */

/* Routes cli_say through m: "iostorm-mpi VERB: HOST: line" on stderr. */
void mpi_log_init(struct mpi_ctx *m);
/* A line of the cluster's own (rank 0's), without a host. */
void mpi_say(const struct mpi_ctx *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Setup done here with status rc (CLI_EXIT_*), its reason the last line
 * held: every rank learns the worst status; rank 0 says one line per rank
 * that failed ("HOST (rank R): reason"). Lines held by a rank that
 * succeeded are said then. Returns the worst status. */
int mpi_agree(struct mpi_ctx *m, int rc);
/* A barrier that carries each rank's status and interrupt: returns the
 * worst status; *intr true when any rank was interrupted. Waits by polling
 * with short sleeps, so a waiting rank does not spin a core. */
int mpi_sync(const struct mpi_ctx *m, int rc, bool *intr);
/* Every rank's j (whose reference it takes; NULL: null) as JSON text to
 * rank 0, which gets them in rank order in *out (a new array); NULL
 * elsewhere. 0 or -ENOMEM / -EIO (same on every rank). */
int mpi_gather_json(const struct mpi_ctx *m, json_t *j, json_t **out);
/* Sums every rank's histogram into *sum at rank 0 (bucket by bucket; min
 * and max of the mins and maxes). h NULL: an empty one. 0 or -EIO. */
int mpi_reduce_hist(const struct mpi_ctx *m, const struct eng_hist *h,
		    struct eng_hist *sum);
/* The worst of every rank's v; the sum of every rank's v. */
int mpi_max(int v);
int mpi_sum(int v);

/* ---- tfile.c: the targets file ---- */

struct mpi_tline {
	unsigned line;			/* 0: no line for this host */
	char **targets;			/* owned */
	unsigned ntargets;
	char res[IMPI_MAX_RES][IMPI_RES_LEN];	/* "switch NAME", "nqn NQN" */
	unsigned nres;
	char sw[IMPI_RES_LEN];		/* the switch= value, "" none */
};

/* Finds the line of rank (its number first) or host in text, the file's
 * contents (name for messages). Checks every line, so every rank
 * finds the same fault. 0 (t->line 0 when there is none), -EINVAL with
 * err "FILE:LINE: ...", or -ENOMEM. */
int mpi_tfile_find(const char *text, const char *name, int rank, const char *host,
		   struct mpi_tline *t, char *err, size_t errlen);
void mpi_tline_free(struct mpi_tline *t);
/* --targets-file's text read at rank 0 and sent to every rank: 0 with
 * *text (malloc'd), or a CLI_EXIT_* status, said by rank 0. */
int mpi_tfile_load(const struct mpi_ctx *m, char **text);

/* ---- hosts.c: this host's targets and resources ---- */

struct mpi_host {
	struct mpi_tline tl;		/* its line of the targets file */
	char **paths;			/* the targets to open */
	unsigned n;
	char **own;			/* NVMe paths found here, owned */
	unsigned nown;
	struct cli_demo demo;
	bool has_demo;
	const char *from;		/* "targets file", "command line", ... */
	char nqn[IMPI_MAX_RES][224];	/* NVMe subsystems seen here */
	unsigned nnqn;
	bool same;			/* failed alike on every rank */
};

/* Fills h: the targets-file line (or the operands, or --demo targets, or
 * this host's NVMe namespaces) and the NQNs; sets o->targets. Says why it
 * failed; returns a CLI_EXIT_* status, with h->same set when every rank
 * failed alike (a bad targets file: rank 0 said it once, and no rank
 * needs to agree). Call mpi_host_free in every case. */
int mpi_host_resolve(struct mpi_ctx *m, struct mpi_host *h, struct cli_opts *o,
		     const char *tfile_text, bool demo);
void mpi_host_free(struct mpi_host *h, bool quiet);
/* A host's entry of the report, what mrun and msat share: {"host", "rank",
 * "switch", "nqns": [...], "targets_from", "targets": [...], "devices"}; the
 * command adds its own figures. */
json_t *mpi_host_json(const struct mpi_ctx *m, const struct mpi_host *h, unsigned devices);

/* ---- the commands ---- */

/* Argument vectors without --targets-file (which goes to m): argv is
 * changed in place; returns the new argc. */
int mpi_take_targets_file(struct mpi_ctx *m, int argc, char **argv);
int mpi_saturate(struct mpi_ctx *m, int argc, char **argv);
int mpi_run(struct mpi_ctx *m, int argc, char **argv);
int mpi_tune(struct mpi_ctx *m, int argc, char **argv);

/* ---- stream.c: --stream, one per rank ---- */

/* This rank's --stream path into *path (NULL without --stream):
 * o->stream with %r the rank, %h the host's name and %% a '%'. Several
 * ranks need %r or %h in it (one file each), and none may write to
 * stdout: said, a usage error. Returns a CLI_EXIT_* status. */
int mpi_stream_path(const struct mpi_ctx *m, const struct cli_opts *o, const char **path);
/* pattern, a path every rank names for itself (opt, "--stream"), with %r
 * the rank, %h the host's name and %% a '%' into buf. Several ranks need
 * %r or %h in it: said, a usage error. Returns a CLI_EXIT_* status. */
int mpi_rank_path(const struct mpi_ctx *m, const char *opt, const char *pattern, char *buf,
		  size_t len);
/* This rank's entry own (whose reference it takes; NULL: null) ends its
 * stream, and goes to rank 0 with every other rank's: mpi_gather_json. */
int mpi_gather_hosts(const struct mpi_ctx *m, json_t *own, json_t **hosts);
/* ---- listen.c: --listen, a port per rank of a host ---- */

/* This rank's endpoint into *where (NULL without --listen): PORT + its
 * index among its host's ranks. CLI_EXIT_*, said. */
int mpi_listen_addr(const struct mpi_ctx *m, const struct cli_opts *o, const char **where);

/* ---- begin.c: the command's begin on this rank ---- */

/* The targets file read (into *tfile, the caller's to free), this host's
 * targets resolved into h and o (with demo: demo targets where it names
 * none), then cli_command_begin (cli/command.h) with this rank's outputs:
 * its own stream and port; the report's file on rank 0 only, which
 * writes it. Every rank calls it before any rank's first IO. *settled:
 * every rank knows the outcome already (the file could not be read, or
 * every rank failed alike, h->same), so the caller returns it at once;
 * else the caller adds its own setup and calls mpi_agree. CLI_EXIT_*,
 * said. */
int mpi_begin(struct mpi_ctx *m, struct mpi_host *h, struct cli_opts *o, char **tfile,
	      bool demo, bool *settled);
/* The rank's index among its host's ranks: collective, once, at start. */
int mpi_local_rank(void);

/* ---- report.c: rank 0's cluster report from the gathered hosts ---- */

/* The table, the cluster gap attributed (model/cgap.c) and the JSON where
 * o->json asks, from hosts[] (one entry per rank, null for a rank whose
 * entry was lost). Rank 0 only. 0, or a CLI_EXIT_* status. */
int mpi_sat_report(const struct mpi_ctx *m, const struct cli_opts *o, json_t *hosts,
		   bool interrupted);
/* Host i's name in the report: its host name, with "#RANK" where another
 * rank has the same one (several ranks on one machine). */
void mpi_host_name(const json_t *hosts, size_t i, char *buf, size_t len);
/* How far apart the hosts' cluster windows started and ended at step
 * ("qd1", "qdn", or NULL for run's single window), seconds; -1 with fewer
 * than two hosts that have one. */
double mpi_spread(const json_t *hosts, const char *step, const char *key);

#endif
