/* One sample per interval (--interval, 1 s by default) per device of a
 * measured run: IOPS and latency over that interval (a drive that
 * throttles when hot shows as a step down). Once an interval every
 * worker copies its running counters and histogram (an engine snapshot);
 * a sample is the difference from the previous copy, and the last one is
 * the final figures less the last copy. So every IO of the measured
 * window is in exactly one sample: a device's samples add up to its row.
 * The runner keeps one per run; commands read it through each_second and
 * the report's devices.
 *
 * The timeline is also where each interval's set (cli/live/interval.h) is
 * made: the same differences, with the interval's whole histogram, bytes,
 * IOs in flight and CPU time, handed by the runner to every sink
 * (cli/live/live.h): the live line, --stream, --listen. */
#ifndef CLI_TIMELINE_H
#define CLI_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/live/cpu.h"
#include "cli/live/interval.h"
#include "engine/engine.h"
#include "model/pctci.h"

struct cli_tl_sample {
	double t_s;		/* end of the interval, seconds into the window */
	double dt_s;		/* its length */
	uint64_t ios;		/* completed OK in it */
	uint64_t errors;	/* completed with an error in it */
	double iops;
	bool has_lat;		/* latency measured and some IO completed */
	double mean_ns;
	uint64_t p50_ns, p99_ns, max_ns;	/* max: its highest bucket's
						 * bound, capped by the max */
	struct model_pct_ci p50_ci, p99_ci;	/* their 95% intervals, from
						 * the interval's own IOs */
	bool has_temp;		/* --temperature-every read the drive at its end */
	int32_t temp_c;		/* composite temperature, whole degrees C */
};

/* A device's (or the total's) samples. */
struct cli_tl_series {
	struct cli_tl_sample *s;
	unsigned n, cap;
};

struct cli_timeline {
	unsigned ndev, per;		/* devices, workers each */
	struct cli_tl_series *dev;	/* ndev + 1: the last is all devices */
	struct eng_snapshot *prev;	/* per worker: its last copy seen */
	bool *have;
	struct eng_hist *sum, *part, *before;	/* scratch */
	/* --steady: the latency of each device's last keep samples, so a
	 * window's percentiles are its own: sample k of device d at
	 * ring[(k % keep) * ndev + d]; keep 0: none */
	unsigned keep;
	struct eng_hist *ring;
	/* the last interval's set: the devices that answered, packed, then
	 * the total at iv[ndev]; ivd[k]: the device of iv[k] */
	struct cli_interval_set set;
	struct cli_interval *iv;
	struct eng_hist *ivh;
	unsigned *ivd;
	double *t1;			/* ndev + 1: where its last interval ended */
	uint64_t *wios;			/* per worker: IOs in the last interval */
	uint64_t *wcpu;			/* per worker: its thread's CPU, user,
					 * sys ns in it (3 each) */
	uint64_t *cpu;			/* per device: CPU, user, sys ns given
					 * so far (3 each) */
	uint64_t grid_ns;		/* the interval being taken ends here on the
					 * --interval grid; 0: at its own end */
	/* each device's (and at [ndev] the total's) intervals as batches of
	 * histograms, for the percentiles' batch-means intervals
	 * (model/pctci.h); NULL without latency. bat[0].h holds all of
	 * them, MODEL_PCT_BATCHES each */
	struct model_pct_batches *bat;
	uint32_t bs;			/* bytes per IO; 0: none (nop) */
	bool lat;			/* latency measured */
	const char *const *names;	/* the devices' */
};

int cli_tl_init(struct cli_timeline *tl, unsigned ndev, unsigned per);
void cli_tl_free(struct cli_timeline *tl);
/* Keeps the latency of each device's last keep samples from now on (the
 * ones cli_tl_second takes). 0 or -ENOMEM. */
int cli_tl_keep(struct cli_timeline *tl, unsigned keep);
/* Device d's latency over its samples [from, to), merged into h (reset
 * first): 0, or -ERANGE where they are no longer (or never were) kept. */
int cli_tl_window_hist(const struct cli_timeline *tl, unsigned d, unsigned from,
		       unsigned to, struct eng_hist *h);
/* One sample per device and one for all, from a snapshot of run r taken
 * now, the set's interval ending at grid_ns into the window (where it was
 * due; the samples keep the snapshot's own times): a worker that does not answer within wait_ns (a long IO) is left
 * out of this sample and counted in the next. 0 or -ENOMEM. */
int cli_tl_second(struct cli_timeline *tl, struct eng_run *r, uint64_t wait_ns,
		  uint64_t grid_ns);
/* The set of the interval cli_tl_second or cli_tl_last just took: a device
 * that did not answer is not in it (its IOs are in the next one); NULL
 * when there was none. The last one has last set. Valid until the next. */
const struct cli_interval_set *cli_tl_set(const struct cli_timeline *tl);
/* The last samples: the window's final figures (run r joined, or its
 * stalled workers' published counters) less the last copies. Nothing when
 * the rest is empty. 0 or -ENOMEM. */
int cli_tl_last(struct cli_timeline *tl, const struct eng_run *r);
/* The measured window starts: what its sets carry (names: one per device,
 * kept by the caller). */
void cli_tl_window(struct cli_timeline *tl, const char *const *names, uint32_t bs,
		   bool lat, unsigned run, const char *label, uint64_t wall_start_ns);
/* The workers' CPU time over the interval just taken by cli_tl_second
 * (from their snapshots, a shared thread's shared by c) into its set. */
void cli_tl_cpu(struct cli_timeline *tl, const struct cli_cpu *c);
/* Device d's samples (d == ndev: all devices), moved out: the caller owns
 * them (free(series.s)). */
struct cli_tl_series cli_tl_take(struct cli_timeline *tl, unsigned d);
/* The batches of every device and the total (ndev + 1), moved out: the
 * caller frees them with cli_tl_batches_free. NULL without latency. */
struct model_pct_batches *cli_tl_take_batches(struct cli_timeline *tl);
void cli_tl_batches_free(struct model_pct_batches *bat);
/* Device d's batches of its samples [from, to) alone (a --steady window),
 * into bat, whose histograms h holds (MODEL_PCT_BATCHES): 0, or -ERANGE
 * as cli_tl_window_hist. */
int cli_tl_window_batches(const struct cli_timeline *tl, unsigned d, unsigned from,
			  unsigned to, struct model_pct_batches *bat, struct eng_hist *h);

#endif
