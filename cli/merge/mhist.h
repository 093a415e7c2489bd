/* A latency histogram of the engine's layout (engine/hist.h), kept
 * sparse for merge: only its non-empty buckets, by index, in increasing
 * order. The engine's struct eng_hist holds all 4736 buckets (37 KiB)
 * whatever it counts; a device's merged intervals fill far fewer (a
 * second of 4K reads on a loop device about 700), 10 bytes each here. So
 * merge holds a device's histogram in a few KiB, and expands one
 * at a time into an eng_hist when a figure is read off it
 * (docs/merge.md: the cost per device). */
#ifndef CLI_MERGE_MHIST_H
#define CLI_MERGE_MHIST_H

#include <stddef.h>
#include <stdint.h>

#include "engine/hist.h"

_Static_assert(ENG_HIST_BUCKETS <= UINT16_MAX + 1, "a bucket index fits 16 bits");

struct mg_hist {
	uint64_t count, sum_ns;
	double sumsq;
	uint64_t min_ns, max_ns;	/* UINT64_MAX and 0 while empty */
	uint16_t *idx;			/* the non-empty buckets, increasing */
	uint64_t *n;			/* their counts, none 0 */
	unsigned len, cap;
};

/* An empty histogram (eng_hist_reset's figures), holding no memory. */
void mg_hist_init(struct mg_hist *h);
/* Empties h, keeping its memory for the next use. */
void mg_hist_clear(struct mg_hist *h);
void mg_hist_free(struct mg_hist *h);
/* count samples in bucket idx, after every bucket h holds (idx above
 * them): the figures (count, sum, min, max) are the caller's. 0 or
 * -ENOMEM. */
int mg_hist_push(struct mg_hist *h, unsigned idx, uint64_t count);
/* src added to dst bucket by bucket, as eng_hist_merge adds: 0, or
 * -ENOMEM with dst unchanged. The caller keeps the sums within 64 bits. */
int mg_hist_add(struct mg_hist *dst, const struct mg_hist *src);
/* h added to the dense d (eng_hist_merge's arithmetic). */
void mg_hist_into(struct eng_hist *d, const struct mg_hist *h);
/* The heap memory h holds, bytes. */
size_t mg_hist_bytes(const struct mg_hist *h);

#endif
