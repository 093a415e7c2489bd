/* The sparse histogram (mhist.h): two arrays in step, grown by doubling,
 * merged in place from the back like two sorted runs. */
#include "cli/merge/mhist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void mg_hist_init(struct mg_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

void mg_hist_clear(struct mg_hist *h)
{
	h->count = h->sum_ns = h->max_ns = 0;
	h->sumsq = 0;
	h->min_ns = UINT64_MAX;
	h->len = 0;
}

void mg_hist_free(struct mg_hist *h)
{
	free(h->idx);
	free(h->n);
	mg_hist_init(h);
}

/* Room for cap buckets; 0 or -ENOMEM (h unchanged). */
static int reserve(struct mg_hist *h, unsigned cap)
{
	uint16_t *idx;
	uint64_t *n;

	if (cap <= h->cap)
		return 0;
	idx = realloc(h->idx, cap * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	h->idx = idx;
	n = realloc(h->n, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	h->n = n;
	h->cap = cap;
	return 0;
}

int mg_hist_push(struct mg_hist *h, unsigned idx, uint64_t count)
{
	unsigned cap = h->cap ? 2 * h->cap : 16;

	if (!count)
		return 0;
	if (h->len == h->cap && reserve(h, cap < ENG_HIST_BUCKETS ? cap : ENG_HIST_BUCKETS))
		return -ENOMEM;
	h->idx[h->len] = (uint16_t)idx;
	h->n[h->len++] = count;
	return 0;
}

/* Buckets of src that dst lacks. */
static unsigned new_buckets(const struct mg_hist *dst, const struct mg_hist *src)
{
	unsigned i = 0, k = 0, fresh = 0;

	while (k < src->len) {
		if (i < dst->len && dst->idx[i] < src->idx[k]) {
			i++;
		} else {
			fresh += i == dst->len || dst->idx[i] != src->idx[k];
			i += i < dst->len && dst->idx[i] == src->idx[k];
			k++;
		}
	}
	return fresh;
}

int mg_hist_add(struct mg_hist *dst, const struct mg_hist *src)
{
	unsigned fresh, i = dst->len, k = src->len, at;

	if (!src->count)
		return 0;
	fresh = new_buckets(dst, src);
	if (dst->len + fresh > dst->cap && reserve(dst, dst->len + fresh))
		return -ENOMEM;
	/* from the back, so that no bucket of dst is overwritten unread */
	at = dst->len + fresh;
	while (k > 0) {
		if (i > 0 && dst->idx[i - 1] > src->idx[k - 1]) {
			dst->idx[--at] = dst->idx[--i];
			dst->n[at] = dst->n[i];
		} else if (i > 0 && dst->idx[i - 1] == src->idx[k - 1]) {
			dst->idx[--at] = dst->idx[--i];
			dst->n[at] = dst->n[i] + src->n[--k];
		} else {
			dst->idx[--at] = src->idx[--k];
			dst->n[at] = src->n[k];
		}
	}
	dst->len += fresh;
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	dst->sumsq += src->sumsq;
	if (src->count && src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->count && src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	return 0;
}

void mg_hist_into(struct eng_hist *d, const struct mg_hist *h)
{
	unsigned i;

	if (!h->count)
		return;
	for (i = 0; i < h->len; i++)
		d->b[h->idx[i]] += h->n[i];
	d->count += h->count;
	d->sum_ns += h->sum_ns;
	d->sumsq += h->sumsq;
	if (h->min_ns < d->min_ns)
		d->min_ns = h->min_ns;
	if (h->max_ns > d->max_ns)
		d->max_ns = h->max_ns;
}

size_t mg_hist_bytes(const struct mg_hist *h)
{
	return h->cap * (sizeof(*h->idx) + sizeof(*h->n));
}
