/* CPU lists ("0-3,8,10-11"): the one parser, element by element, for the
 * CLI's --cpus (kept in the order written) and for the topology's own lists
 * (a sorted set). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "topo/topo.h"

#define TOPO_MAX_CPU (1u << 20)	/* above any machine; bounds the array */

/* Decimal digits from s, before stop; NULL when there are none or the
 * number reaches limit (checked per digit, so it cannot overflow). */
static const char *cpu_number(const char *s, const char *stop, unsigned limit,
			      unsigned *v)
{
	const char *p;
	unsigned n = 0;

	for (p = s; p < stop && *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (unsigned)(*p - '0');
		if (n >= limit)
			return NULL;
	}
	*v = n;
	return p == s ? NULL : p;
}

/* One "a" or "a-b" element, exactly s..stop. */
static int cpu_range(const char *s, const char *stop, unsigned limit,
		     unsigned *lo, unsigned *hi)
{
	const char *end = cpu_number(s, stop, limit, lo);

	if (!end)
		return -EINVAL;
	*hi = *lo;
	if (end < stop && *end == '-') {
		end = cpu_number(end + 1, stop, limit, hi);
		if (!end || *hi < *lo)
			return -EINVAL;
	}
	return end == stop ? 0 : -EINVAL;
}

int topo_cpulist_walk(const char *s, unsigned limit, topo_cpu_range_fn fn,
		      void *ctx, const char **bad)
{
	const char *p = s, *stop;
	unsigned lo, hi;
	int ret;

	if (limit > TOPO_MAX_CPU)
		limit = TOPO_MAX_CPU;
	for (;;) {
		stop = strchrnul(p, ',');
		if (cpu_range(p, stop, limit, &lo, &hi)) {
			if (bad)
				*bad = p;
			return -EINVAL;
		}
		ret = fn(ctx, lo, hi);
		if (ret)
			return ret;
		if (!*stop)
			return 0;
		p = stop + 1;
	}
}

struct cpu_array {
	int *a;
	unsigned n, cap;
};

static int append_range(void *ctx, unsigned lo, unsigned hi)
{
	struct cpu_array *c = ctx;
	unsigned cpu;
	int *a;

	for (cpu = lo; cpu <= hi; cpu++) {
		if (c->n == c->cap) {
			a = realloc(c->a, (c->cap ? 2 * c->cap : 64) * sizeof(*a));
			if (!a)
				return -ENOMEM;
			c->a = a;
			c->cap = c->cap ? 2 * c->cap : 64;
		}
		c->a[c->n++] = (int)cpu;
	}
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int topo_cpulist_parse(const char *s, int **cpus)
{
	struct cpu_array c = { NULL, 0, 0 };
	unsigned i, k = 0;
	int ret;

	ret = topo_cpulist_walk(s, TOPO_MAX_CPU, append_range, &c, NULL);
	if (ret) {
		free(c.a);
		return ret;
	}
	/* a set: sorted, each CPU once */
	qsort(c.a, c.n, sizeof(*c.a), cmp_int);
	for (i = 0; i < c.n; i++)
		if (!k || c.a[k - 1] != c.a[i])
			c.a[k++] = c.a[i];
	*cpus = c.a;
	return (int)k;
}
