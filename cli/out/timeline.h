/* One sample per second per device of a measured run: IOPS and latency
 * over that second (a drive that throttles when hot shows as a
 * step down). Once a second every worker copies its running counters and
 * histogram (an engine snapshot); a sample is the difference from the
 * previous copy, and the last one is the final figures less the last copy.
 * So every IO of the measured window is in exactly one sample: a device's
 * samples add up to its row. The runner keeps one per run; commands read
 * it through each_second and the report's devices. */
#ifndef CLI_TIMELINE_H
#define CLI_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

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
 * now: a worker that does not answer within wait_ns (a long IO) is left
 * out of this sample and counted in the next. 0 or -ENOMEM. */
int cli_tl_second(struct cli_timeline *tl, struct eng_run *r, uint64_t wait_ns);
/* The last samples: the window's final figures (run r joined, or its
 * stalled workers' published counters) less the last copies. Nothing when
 * the rest is empty. 0 or -ENOMEM. */
int cli_tl_last(struct cli_timeline *tl, const struct eng_run *r);
/* Device d's samples (d == ndev: all devices), moved out: the caller owns
 * them (free(series.s)). */
struct cli_tl_series cli_tl_take(struct cli_timeline *tl, unsigned d);

#endif
