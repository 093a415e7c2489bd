/* Open-loop schedule setup, its backlog, and dropping it; the per-IO steps
 * are inline in arrival.h. */
#include "engine/arrival.h"

#include <errno.h>
#include <string.h>

int eng_arrival_init(struct eng_arrival *a, double rate, enum eng_arrival_kind kind,
		     uint64_t seed, uint64_t start_ns, double phase)
{
	struct eng_arrival n;

	if (!(rate > 0) || !isfinite(rate) || !(phase >= 0 && phase < 1) ||
	    (kind != ENG_ARRIVAL_UNIFORM && kind != ENG_ARRIVAL_POISSON))
		return -EINVAL;
	memset(&n, 0, sizeof(n));
	n.gap_ns = 1e9 / rate;
	n.poisson = kind == ENG_ARRIVAL_POISSON;
	n.start_ns = start_ns;
	n.t_ns = phase * n.gap_ns;
	n.next_ns = start_ns + (uint64_t)n.t_ns;
	/* a range of one block of one byte: only its raw draws are used */
	if (eng_rng_init(&n.rng, seed, 0, 1, 1))
		return -EINVAL;
	*a = n;
	return 0;
}

uint64_t eng_arrival_due(const struct eng_arrival *a, uint64_t end_ns)
{
	struct eng_arrival c = *a;
	uint64_t n = 0;

	if (c.next_ns > end_ns)
		return 0;
	if (!c.poisson)
		return (uint64_t)((double)(end_ns - c.next_ns) / c.gap_ns) + 1;
	while (c.next_ns <= end_ns && n < ENG_ARRIVAL_WALK_MAX) {
		eng_arrival_advance(&c);
		n++;
	}
	if (c.next_ns <= end_ns)
		n += (uint64_t)((double)(end_ns - c.next_ns) / c.gap_ns) + 1;
	return n;
}

uint64_t eng_arrival_skip(struct eng_arrival *a, uint64_t until_ns)
{
	uint64_t n = 0;

	if (a->next_ns > until_ns)
		return 0;
	if (!a->poisson) {
		/* whole gaps at once, then the step or two that rounding
		 * leaves, so that the count is eng_arrival_due's */
		n = (uint64_t)((double)(until_ns - a->next_ns) / a->gap_ns);
		a->t_ns += (double)n * a->gap_ns;
		a->next_ns = a->start_ns + eng_arrival_offset(a);
		for (; a->next_ns <= until_ns; n++)
			eng_arrival_advance(a);
		return n;
	}
	for (; a->next_ns <= until_ns && n < ENG_ARRIVAL_WALK_MAX; n++)
		eng_arrival_advance(a);
	if (a->next_ns <= until_ns) {
		/* past the walk, counted as eng_arrival_due counts them; a
		 * Poisson process is memoryless, so the first arrival after
		 * until_ns is a gap drawn anew from it */
		n += (uint64_t)((double)(until_ns - a->next_ns) / a->gap_ns) + 1;
		a->t_ns = (double)(until_ns - a->start_ns) + eng_arrival_gap(a);
		a->next_ns = a->start_ns + eng_arrival_offset(a);
	}
	return n;
}
