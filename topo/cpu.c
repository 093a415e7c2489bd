/* CPU lists and sets (topo/cpu.h): the one parser, element by element,
 * for the CLI's --cpus (kept in the order written) and for every list
 * sysfs writes (a set); the one formatter, from a set. */
#include "topo/cpu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/cpu_int.h"

#define TOPO_MAX_CPU (1u << 20)	/* above any machine; bounds a walk */

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

int topo_cpulist_walk(const char *s, unsigned limit, unsigned flags, topo_cpu_range_fn fn,
		      void *ctx, const char **bad)
{
	const char *p = s, *end = s + strlen(s), *stop;
	bool sysfs = flags & TOPO_CPULIST_SYSFS;
	unsigned lo, hi;
	int ret;

	if (limit > TOPO_MAX_CPU)
		limit = TOPO_MAX_CPU;
	if (sysfs && end > s && end[-1] == '\n')
		end--;
	if (sysfs && end == s)
		return 0;
	for (;;) {
		stop = memchr(p, ',', (size_t)(end - p));
		if (!stop)
			stop = end;
		if (cpu_range(p, stop, limit, &lo, &hi)) {
			if (bad)
				*bad = p;
			return -EINVAL;
		}
		ret = fn(ctx, lo, hi);
		if (ret)
			return ret;
		if (stop == end)
			return 0;
		p = stop + 1;
		if (sysfs)
			while (p < end && *p == ' ')
				p++;
	}
}

static int add_range(void *ctx, unsigned lo, unsigned hi)
{
	struct topo_cpuset *set = ctx;
	unsigned cpu;

	for (cpu = lo; cpu <= hi; cpu++)
		set->w[cpu / 64] |= (uint64_t)1 << (cpu % 64);
	return 0;
}

int topo_cpuset_parse(const char *s, unsigned flags, struct topo_cpuset *set)
{
	struct topo_cpuset got;
	int ret;

	topo_cpuset_zero(&got);
	ret = topo_cpulist_walk(s, TOPO_CPUSET_MAX, flags, add_range, &got, NULL);
	if (!ret)
		*set = got;
	return ret;
}

unsigned topo_cpuset_count(const struct topo_cpuset *s)
{
	unsigned i, n = 0;

	for (i = 0; i < TOPO_CPUSET_MAX / 64; i++)
		n += (unsigned)__builtin_popcountll(s->w[i]);
	return n;
}

int topo_cpuset_next(const struct topo_cpuset *s, int prev)
{
	unsigned cpu = prev < 0 ? 0 : (unsigned)prev + 1, i;
	uint64_t w;

	if (cpu >= TOPO_CPUSET_MAX)
		return -1;
	i = cpu / 64;
	w = s->w[i] & (~(uint64_t)0 << (cpu % 64));
	while (!w) {
		if (++i == TOPO_CPUSET_MAX / 64)
			return -1;
		w = s->w[i];
	}
	return (int)(i * 64 + (unsigned)__builtin_ctzll(w));
}

int topo_cpuset_format(const struct topo_cpuset *set, char *buf, size_t len)
{
	int cpu, end, n;
	size_t at = 0;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	for (cpu = topo_cpuset_next(set, -1); cpu >= 0; cpu = topo_cpuset_next(set, end)) {
		for (end = cpu; topo_cpuset_has(set, end + 1); end++)
			;
		n = end == cpu ? snprintf(buf + at, len - at, "%s%d", at ? "," : "", cpu) :
			snprintf(buf + at, len - at, "%s%d-%d", at ? "," : "", cpu, end);
		/* a range that does not fit ends the list, never a cut number */
		if (n < 0 || (size_t)n >= len - at) {
			buf[at] = '\0';
			return -ENOSPC;
		}
		at += (size_t)n;
	}
	return (int)at;
}

int topo_cpuset_array(const struct topo_cpuset *set, int **cpus)
{
	int *a = NULL, cpu, n = (int)topo_cpuset_count(set), k = 0;

	if (n && !(a = malloc((size_t)n * sizeof(*a))))
		return -ENOMEM;
	for (cpu = topo_cpuset_next(set, -1); cpu >= 0; cpu = topo_cpuset_next(set, cpu))
		a[k++] = cpu;
	*cpus = a;
	return n;
}

/* ---- inside topo/: hwloc's bitmap where it places, the set elsewhere ---- */

int topo_cpuset_from_hwloc(hwloc_const_bitmap_t b, struct topo_cpuset *s)
{
	struct topo_cpuset got;
	int i, ret = 0;

	topo_cpuset_zero(&got);
	hwloc_bitmap_foreach_begin(i, b)
		if (!ret)
			ret = topo_cpuset_add(&got, i);
	hwloc_bitmap_foreach_end();
	if (!ret)
		*s = got;
	return ret;
}

void topo_cpuset_to_hwloc(const struct topo_cpuset *s, hwloc_bitmap_t b)
{
	int cpu;

	hwloc_bitmap_zero(b);
	for (cpu = topo_cpuset_next(s, -1); cpu >= 0; cpu = topo_cpuset_next(s, cpu))
		hwloc_bitmap_set(b, (unsigned)cpu);
}

int topo_cpuset_asprintf(const struct topo_cpuset *s, char **out)
{
	/* "8191," at most per CPU; a range says more in less */
	size_t len = (size_t)topo_cpuset_count(s) * 6 + 1;
	char *buf = malloc(len);

	if (!buf)
		return -ENOMEM;
	topo_cpuset_format(s, buf, len);
	*out = buf;
	return 0;
}
