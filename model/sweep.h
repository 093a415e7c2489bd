/* The arithmetic behind sweep's summary: where the IOPS curve bends over
 * (the knee) and where the tail latency doubles. Pure: figures in, an
 * index out. */
#ifndef MODEL_SWEEP_H
#define MODEL_SWEEP_H

#define MODEL_SWEEP_KNEE_FRAC 0.9	/* the knee: 90% of the best IOPS */

/* Index of the smallest depth reaching MODEL_SWEEP_KNEE_FRAC of the best
 * IOPS; -1 when none measured. */
int model_sweep_knee(const double *iops, unsigned n);
/* Index of the first depth whose p99 is at least twice the first depth's;
 * -1 when it never doubles (or nothing measured). */
int model_sweep_p99_double(const double *p99, unsigned n);

#endif
