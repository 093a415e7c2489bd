/* CPU lists ("0-3,8,10-11", and blk-mq's "0, 1, 2, 3") and CPU sets: the
 * one parser and the one formatter. A list is parsed once, where it is
 * read, into a topo_cpuset; sets are passed on, never text, and a list is
 * written back from a set only for people and files.
 *
 * The set is a plain fixed-size bitset rather than hwloc_bitmap_t:
 * setup/, model/ and cli/ use it and must not include hwloc (topo/ is the
 * only module that does); a value type needs no allocation and no error
 * path, can be copied and compared, and sits inside a struct. Its size is
 * the kernel's largest NR_CPUS (8192, x86's MAXSMP): 1 KiB. topo/ turns it
 * into an hwloc bitmap where it places workers. */
#ifndef TOPO_CPU_H
#define TOPO_CPU_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TOPO_CPUSET_MAX 8192	/* CPUs 0..8191 */

struct topo_cpuset {
	uint64_t w[TOPO_CPUSET_MAX / 64];
};

/* A list as sysfs writes it, besides "a,b-c": blanks after a comma
 * (blk-mq's mq/N/cpu_list, "0, 1, 2"), "" for the empty list (a CPU-less
 * node's cpulist), one newline at its end. Without it (the CLI's --cpus)
 * only "a,b-c" and at least one element. */
#define TOPO_CPULIST_SYSFS 1u

/* Walks a CPU list element by element, in the order written: fn gets each
 * range [lo, hi], every CPU below limit (at most 1 << 20). Returns 0, what
 * fn returned when not 0, or -EINVAL for an element that is not a CPU or a
 * range lo-hi with lo <= hi below limit (*bad, when bad is not NULL,
 * points at it). Numbers are checked digit by digit, so none overflows. */
typedef int (*topo_cpu_range_fn)(void *ctx, unsigned lo, unsigned hi);
int topo_cpulist_walk(const char *s, unsigned limit, unsigned flags, topo_cpu_range_fn fn,
		      void *ctx, const char **bad);

/* The CPUs of list s (flags: 0 or TOPO_CPULIST_SYSFS) into *set: 0, or -EINVAL
 * (*set then says nothing) for a list that is not one or names a CPU at
 * or above TOPO_CPUSET_MAX. */
int topo_cpuset_parse(const char *s, unsigned flags, struct topo_cpuset *set);
/* The set as a list in ranges, "0-3,8", into buf: the length, or -ENOSPC
 * when it does not fit (buf then holds the whole ranges that fit: never a
 * cut number). "" for the empty set. */
int topo_cpuset_format(const struct topo_cpuset *set, char *buf, size_t len);

static inline void topo_cpuset_zero(struct topo_cpuset *s)
{
	*s = (struct topo_cpuset){ { 0 } };
}

/* Adds cpu: 0, or -ERANGE at or above TOPO_CPUSET_MAX (or below 0). */
static inline int topo_cpuset_add(struct topo_cpuset *s, int cpu)
{
	if (cpu < 0 || cpu >= TOPO_CPUSET_MAX)
		return -ERANGE;
	s->w[cpu / 64] |= (uint64_t)1 << (cpu % 64);
	return 0;
}

static inline bool topo_cpuset_has(const struct topo_cpuset *s, int cpu)
{
	return cpu >= 0 && cpu < TOPO_CPUSET_MAX && (s->w[cpu / 64] >> (cpu % 64) & 1);
}

/* How many CPUs the set holds. */
unsigned topo_cpuset_count(const struct topo_cpuset *s);
/* The lowest CPU above prev (prev -1: the first), -1 when none: for
 * (c = topo_cpuset_next(s, -1); c >= 0; c = topo_cpuset_next(s, c)). */
int topo_cpuset_next(const struct topo_cpuset *s, int prev);

/* The set as a sorted array (malloc'd, NULL when empty), for callers
 * that index its CPUs. Returns the count or -ENOMEM. */
int topo_cpuset_array(const struct topo_cpuset *set, int **cpus);

#endif
