/* What a run measured, per device and in total, as data: filled by
 * cli_runner_run (or by hand in tests), read by the table (report.h), the
 * JSON (json.h) and the sections beside them (openloop, spread, drop),
 * which include this and not the table, so none of them is in a circle
 * with the report that prints them all. */
#ifndef CLI_REPORT_RECORD_H
#define CLI_REPORT_RECORD_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>
#include <stdio.h>

#include "engine/engine.h"
#include "engine/hist.h"
#include "cli/report/timeline.h"
#include "model/cost.h"
#include "model/pctci.h"
#include "model/steady.h"

struct cli_lat {
	double mean, stddev;		/* ns */
	uint64_t min, p50, p90, p99, p999, p9999, max;	/* ns */
	uint64_t ios;			/* the IOs they rest on */
	/* each percentile's 95% interval, model_pct_list's order (p50, p90,
	 * p99, p99.9, p99.99): from the order statistics alone, widened by
	 * batch means where the run's intervals were kept (cli_lat_batched) */
	struct model_pct_ci ci[MODEL_PCT_N];
	unsigned ci_batches;		/* the batches of intervals they were
					 * widened by; 0: order statistics alone */
};

/* One repeat's own figures (--repeat): what 'iostorm compare' tests, and
 * what the spread over repeats is worked out from. */
struct cli_rep {
	uint64_t ios;
	double elapsed_s, iops;
	double user_s, sys_s;		/* the workers' CPU time... */
	uint64_t cpu_ios;		/* ...and the IOs it was spent on */
	double tick_s;			/* the split's resolution (cli_dev's) */
	bool has_lat;
	double mean_ns;
	uint64_t p50_ns, p99_ns, p999_ns;
};

/* How a device's failed IOs failed (valid when errors > 0): errno 0 is a
 * short read, ENG_ERR_OTHER an errno above ENG_ERRNO_MAX. */
struct cli_errs {
	int first;			/* errno of the earliest failure */
	double first_s;			/* its time into the measured window */
	int common;			/* the most frequent errno */
	uint64_t common_count;
};

/* An open loop's figures (--rate), summed over a device's workers; the
 * device's lat is then from when each IO was due (cli/report/openloop.h). */
struct cli_open {
	bool on;
	double asked;			/* IOs per second asked */
	uint64_t late;			/* good IOs submitted more than
					 * ENG_RATE_LATE_NS after they were due */
	uint64_t backlog;		/* due by the end, never submitted */
	uint64_t dropped;		/* due in the ramp, never submitted:
					 * dropped when the window began */
	double inflight_ns;		/* IOs in flight integrated over the
					 * window (IO x ns) */
	uint64_t late_oct[ENG_LATE_N];	/* IOs issued by how late
						 * (eng_result.late_oct) */
	struct eng_hist *svc_hist;	/* from submission; NULL without
					 * latency; owned */
	bool has_svc;
	struct cli_lat svc;		/* the service time, from svc_hist */
};

/* What else the machine did on the workers' CPUs over the measured
 * window, as sums (seconds, counts), so that devices, repeats and steps
 * add up and a sum's percentages are those of its sums (cli_noise_pct).
 * known false: not measured (a merged stream's report). */
struct cli_noise {
	unsigned parts;			/* the records summed into it */
	bool known;
	double cap_s;			/* the window times the workers' CPUs */
	double steal_s;			/* the hypervisor's: /proc/stat steal */
	double other_s;			/* the tasks' time on those CPUs less
					 * every worker's own runtime */
	double irq_s;			/* hard and soft interrupt time there,
					 * every source's */
	double res_s;			/* how far each of those three can be
					 * off (/proc/stat's ticks) */
	double thread_s;		/* the workers' windows summed */
	double delay_s;			/* of it, waiting runnable for a CPU
					 * (schedstat run_delay) */
	bool delay_known;
	uint64_t nivcsw;		/* involuntary context switches */
	int cpu;			/* the one CPU of it all, -1: several */
	bool own_share;			/* a worker shares its CPU with another
					 * of the run (or is unpinned): its wait
					 * may be the run's own doing */
};

/* A noise figure in percent, NAN where unknown; res: how far steal,
 * other and irq can be off, percentage points. */
struct cli_noise_pct {
	double steal, other, irq, run_delay;
	double res;
};

struct cli_dev {
	char name[64];
	char path[PATH_MAX];
	unsigned nworkers;
	int *cpus;			/* nworkers entries, -1: unpinned */
	unsigned devices_per_worker;	/* devices its busiest-shared worker
					 * drives (--group); 1: its own */
	const char *engine;		/* backend used: "io_uring", "libaio" */
	uint64_t ios, bytes, errors, calls;
	struct cli_errs errs;
	double elapsed_s;		/* longest worker's measured window */
	double iops, bw_bytes;		/* per second */
	double user_s, sys_s;		/* summed over the device's workers:
					 * the tick-sampled split of cpu_s */
	double cpu_s;			/* their runtime, exact: user_s +
					 * sys_s, within rounding */
	double tick_s;			/* the split's resolution: a part
					 * below it is below resolution, not
					 * a figure; 0 unknown */
	struct cli_noise noise;
	uint64_t cpu_ios;		/* IOs, good and failed, of the workers
					 * whose CPU time is known (all but a
					 * stalled one's): what the cost per IO
					 * divides by */
	double busiest_s;		/* user+sys of its busiest worker */
	double ios_per_call;
	bool has_lat;
	struct cli_lat lat;
	struct eng_hist *hist;		/* merged, NULL without latency */
	int fatal;			/* errno of the IO error that stopped its
					 * workers before the end (a device that
					 * went away); 0: none */
	bool stalled;			/* still held IOs after the drain grace */
	uint64_t inflight_at_end;	/* how many, over its workers */
	struct cli_tl_series tl;	/* a sample per second; owned */
	/* CLOCK_REALTIME (ns) when the run's measured window began and
	 * ended, the same for every device of a run: lines up runs made on
	 * several hosts (iostorm-mpi); 0: no window */
	uint64_t wall_start_ns, wall_end_ns;
	/* with --repeat: each repeat's figures, in order (the fields above
	 * are then over all of them together); NULL, 0: one run, the fields
	 * above are its figures. Owned. */
	struct cli_rep *reps;
	unsigned nreps;
	struct cli_open open;		/* --rate; open.on false: closed loop */
};

/* --steady: whether and when the run settled (cli/runner/steady.h). */
struct cli_steady {
	bool asked;			/* --steady given */
	bool reached;
	bool checked;			/* a whole window was looked at */
	double at_s;			/* reached: the window's end, seconds
					 * into the measured run */
	double window_s;
	struct model_steady iops, lat;	/* the window reached, or the last
					 * looked at; lat only with steady_lat */
};

/* --temperature-every: what reading the drives' temperature cost. */
struct cli_temp {
	bool asked;
	unsigned reads;			/* of every drive, all together */
	double read_us;			/* the mean time of one, microseconds */
};

struct cli_report {
	const char *command;		/* "run", "nop", ... */
	const char *engine;		/* backend of the first worker */
	enum eng_mode mode;		/* completion mode used */
	unsigned ndev;
	struct cli_dev *dev;
	struct cli_dev total;		/* sums; latency merged over all */
	double elapsed_s;
	bool interrupted;
	bool stalled;			/* some device stalled: its workers are
					 * still in the kernel, so write the
					 * report and _exit (cli_command_abandon) */
	bool unfixed_bufs;		/* io_uring read into unregistered
					 * buffers: RLIMIT_MEMLOCK refused them */
	unsigned repeats;		/* measurements made (--repeat): 0 or 1
					 * for one */
	struct cli_steady steady;	/* --steady; the devices' figures are
					 * then the window's once reached */
	/* each device's intervals in batches, then the total's (ndev + 1),
	 * that the percentiles' intervals were worked out from (and a
	 * repeat's are merged into); NULL without latency. Owned */
	struct model_pct_batches *bat;
	struct cli_temp temp;		/* --temperature-every */
	/* what placement noted of where the workers ran (a remote node,
	 * shared cores, an efficiency core: cli/runner/place.c), the first
	 * run's with --repeat; NULL: nothing placed them. Owned */
	struct topo_notes *place_notes;
};

/* An errno as its symbolic name ("EIO") and as text ("Input/output
 * error"); 0 is a short read, anything unknown "unknown". */
const char *cli_errno_name(int err);
const char *cli_errno_text(int err);
/* d->errs from per-errno counts (ENG_ERR_SLOTS of them) and the earliest
 * failure; nothing when d has no errors. */
void cli_dev_errs(struct cli_dev *d, const uint64_t *count, int first, double first_s);
/* Fills lat from a histogram (has_lat false when it is NULL or empty). */
void cli_lat_from_hist(struct cli_dev *d, const struct eng_hist *h);
/* The same into any cli_lat: whether h has any IO. */
bool cli_lat_fill(struct cli_lat *l, const struct eng_hist *h);
/* l's intervals again, from h (its histogram) and b, the run's batches of
 * intervals whose IOs make h (NULL or none usable: the order statistics
 * alone): model/pctci.h. */
void cli_lat_batched(struct cli_lat *l, const struct eng_hist *h,
		     const struct model_pct_batches *b);
/* Percentile k (model_pct_list's) of l as every table prints one
 * (cli_fmt_pct_ci, cli/report/say.h). */
const char *cli_fmt_pct(char *buf, size_t len, const struct cli_lat *l, bool has, unsigned k,
			unsigned *marks);
/* d's IOs, bytes, errors, calls and CPU seconds added to t's. */
void cli_dev_add_counters(struct cli_dev *t, const struct cli_dev *d);
/* d's CPU cost per IO (model/cost.h) from its CPU seconds and cpu_ios;
 * every figure unknown where they make none, and a part of the split
 * (user_ns_per_io, sys_ns_per_io, user_share) unknown where that part is
 * below the tick (cli_cpu_below). */
void cli_dev_cost(const struct cli_dev *d, struct model_cost *c);
/* Whether a user or system time of v seconds, resolved to tick_s, is
 * below its resolution: less than one tick (tick 0: never). */
bool cli_cpu_below(double v, double tick_s);
/* n's percentages (NAN where unknown, or where /proc/stat's ticks leave
 * them more than CLI_NOISE_RES_MAX_PCT off: a window of a few ticks). */
void cli_noise_pct(const struct cli_noise *n, struct cli_noise_pct *p);
/* Whether a noise figure p (percent, off by up to res) moves the figures
 * beside it: CLI_NOISE_SAY_PCT or more even at its low end, in a window
 * of CLI_NOISE_MIN_S or more (what a shorter one's IOs waited is theirs,
 * but too few to say of the device). */
bool cli_noise_high(double p, double res, double window_s);
/* The threshold from which a noise figure is said (percent): about what
 * it takes to move a rate or a cost per IO beyond run-to-run noise. */
#define CLI_NOISE_SAY_PCT 5.0
#define CLI_NOISE_RES_MAX_PCT 20.0
#define CLI_NOISE_MIN_S 0.1
/* Rates from the counters and elapsed_s. */
void cli_dev_rates(struct cli_dev *d);
/* Frees what the record owns (histograms, samples, repeats) and zeroes it. */
void cli_report_free(struct cli_report *r);

#endif
