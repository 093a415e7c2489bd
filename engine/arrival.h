/* Open loop (eng_job.rate): when each IO of a worker is due. IOs are due
 * on a schedule fixed in advance, evenly spaced or as a Poisson process,
 * whatever the device does: one due while the depth is full waits, and
 * its latency counts from when it was due (no coordinated omission). */
#ifndef ENG_ARRIVAL_H
#define ENG_ARRIVAL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/rng.h"

enum eng_arrival_kind {
	ENG_ARRIVAL_UNIFORM,	/* every 1/rate seconds */
	ENG_ARRIVAL_POISSON,	/* exponential gaps of mean 1/rate */
};

/*
 * How the open loop waits for the next due IO (docs/engine.md, "Open
 * loop"). A gap shorter than ENG_RATE_SPIN_NS is spent asking the ring for
 * completions without sleeping: a sleep there would wake up later than
 * the IO is due. A longer one sleeps in io_uring's wait with a timeout
 * (which also wakes for a completion) until ENG_RATE_SPIN_NS before the IO
 * is due, then spins the rest, so the timer's wake-up latency is not added
 * to every IO. A sleep lasts at most ENG_RATE_SLEEP_MAX_NS, so a stop is
 * seen soon even at a few IOs per second. Polled rings always spin: their
 * wait polls the device and ignores the timeout.
 */
#define ENG_RATE_SPIN_NS 50000ull
#define ENG_RATE_SLEEP_MAX_NS 1000000ull
/* An IO submitted more than this after it was due started late: the
 * device (a full depth) or the machine (a descheduled worker) held it. */
#define ENG_RATE_LATE_NS 100000ull
/* The most due IOs eng_arrival_due walks one by one (about a millisecond
 * of log()s, at the window's end: within the drain's grace); past it the
 * rest of a Poisson backlog is counted at the mean rate. */
#define ENG_ARRIVAL_WALK_MAX (1ull << 16)

struct eng_arrival {
	uint64_t next_ns;	/* when the next IO is due, the worker's clock */
	uint64_t start_ns;	/* when the schedule began */
	double t_ns;		/* next_ns - start_ns, unrounded: no drift */
	double gap_ns;		/* the mean gap, 1e9 / rate */
	bool poisson;
	struct eng_rng rng;	/* the gaps' own generator, not the offsets' */
};

/* A schedule of rate IOs per second (> 0) from start_ns, its first IO due
 * phase (in [0, 1)) of a mean gap after it. 0 or -EINVAL. */
int eng_arrival_init(struct eng_arrival *a, double rate, enum eng_arrival_kind kind,
		     uint64_t seed, uint64_t start_ns, double phase);

/* The next gap: the mean, or an exponential draw of it by inverse
 * transform from a uniform in (0, 1] (53 bits, never 0: no log(0)). */
static inline double eng_arrival_gap(struct eng_arrival *a)
{
	double u;

	if (!a->poisson)
		return a->gap_ns;
	u = (double)((eng_rng_next(&a->rng) >> 11) + 1) * 0x1p-53;
	return -log(u) * a->gap_ns;
}

/* When the next IO is due, in ns after start_ns: next_ns - start_ns.
 * Through int64_t: one conversion instruction, where uint64_t takes a
 * test and two; t_ns stays far below 2^63 ns. */
static inline __attribute__((always_inline)) uint64_t eng_arrival_offset(const struct eng_arrival *a)
{
	return (uint64_t)(int64_t)a->t_ns;
}

/* The IO due now was issued: the one after it becomes due. This leaves
 * next_ns behind, for a loop that works on the offsets and sets it once
 * at its end (engine/uring_loop_int.h); poisson is a->poisson, a constant
 * in a loop compiled once per kind of schedule. */
static inline __attribute__((always_inline)) void eng_arrival_step_as(struct eng_arrival *a,
								       const bool poisson)
{
	a->t_ns += poisson ? eng_arrival_gap(a) : a->gap_ns;
}

/* The IO due at next_ns was issued: the one after it becomes next. */
static inline void eng_arrival_advance(struct eng_arrival *a)
{
	eng_arrival_step_as(a, a->poisson);
	a->next_ns = a->start_ns + eng_arrival_offset(a);
}

/* How many IOs are due by end_ns (inclusive) and not yet issued: the
 * backlog when the run ends. Walks a copy of the schedule; a is not
 * changed. */
uint64_t eng_arrival_due(const struct eng_arrival *a, uint64_t end_ns);

/* Drops from the schedule every IO due by until_ns (inclusive) and not
 * yet issued, as eng_arrival_due counts them: the next IO is then the
 * first one due after it. Returns how many were dropped. */
uint64_t eng_arrival_skip(struct eng_arrival *a, uint64_t until_ns);

#endif
