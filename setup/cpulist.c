/* cpulists as sysfs writes them ("0-3,8,10-11", and blk-mq's "0, 1, 2"):
 * membership, the nodes a list's CPUs sit on, one spelling for both. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "setup/setup_int.h"

static int number(const char **p, int *out)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	v = strtol(*p, &end, 10);
	if (v > INT_MAX)
		return -EINVAL;
	*p = end;
	*out = (int)v;
	return 0;
}

int setup_cpulist_next(const char **p, int *lo, int *hi)
{
	const char *s = *p;
	int a, b;

	if (!*s || *s == '\n')
		return 0;
	if (*s == ',')
		for (s++; *s == ' '; s++)
			;
	if (number(&s, &a))
		return -EINVAL;
	b = a;
	if (*s == '-') {
		s++;
		if (number(&s, &b) || b < a)
			return -EINVAL;
	}
	if (*s && *s != ',' && *s != '\n')
		return -EINVAL;
	if (*s == ',' && (!s[1] || s[1] == '\n'))
		return -EINVAL;
	*p = s;
	*lo = a;
	*hi = b;
	return 1;
}

int setup_cpulist_norm(const char *in, char *out, size_t len)
{
	const char *p = in;
	int lo, hi, a = -1, b = -1, ret;
	size_t used = 0;
	char run[32];

	if (!len)
		return -EINVAL;
	out[0] = '\0';
	/* a run is written once the next range cannot extend it; a run that
	 * does not fit ends the list rather than leave a cut number */
	for (;;) {
		ret = setup_cpulist_next(&p, &lo, &hi);
		if (ret < 0) {
			out[0] = '\0';
			return ret;
		}
		if (ret && a >= 0 && lo == b + 1) {
			b = hi;
			continue;
		}
		if (a >= 0) {
			int n = a == b ? snprintf(run, sizeof(run), "%s%d", used ? "," : "", a) :
				snprintf(run, sizeof(run), "%s%d-%d", used ? "," : "", a, b);

			if ((size_t)n >= len - used)
				return 0;
			memcpy(out + used, run, (size_t)n + 1);
			used += (size_t)n;
		}
		if (!ret)
			return 0;
		a = lo;
		b = hi;
	}
}

bool setup_cpulist_has(const char *cpulist, int cpu)
{
	const char *p = cpulist;
	bool has = false;
	int lo, hi, ret;

	if (!p)
		return false;
	/* the whole list is checked, so a bad tail is a bad list */
	while ((ret = setup_cpulist_next(&p, &lo, &hi)) > 0)
		if (cpu >= lo && cpu <= hi)
			has = true;
	return ret == 0 && has;
}

uint64_t setup_cpulist_nodes(const struct setup_machine *m, const char *cpulist)
{
	const char *p = cpulist;
	uint64_t nodes = 0;
	int lo, hi, cpu;

	if (!m || !p)
		return 0;
	while (setup_cpulist_next(&p, &lo, &hi) > 0)
		for (cpu = lo; cpu <= hi && cpu < m->ncpus; cpu++)
			if (m->cpu_node[cpu] >= 0 && m->cpu_node[cpu] < 64)
				nodes |= (uint64_t)1 << m->cpu_node[cpu];
	return nodes;
}
