/* topo/cpu.h: the one cpulist parser (the CLI's strict spelling and the
 * ones sysfs writes), the set it fills and the one formatter. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "topo/cpu.h"
#include "tests/helpers.h"

static void parse_ok(const char *s, unsigned flags, const char *want)
{
	struct topo_cpuset set;
	char buf[256];
	int rc = topo_cpuset_parse(s, flags, &set);

	CHECKF(rc == 0, "'%s' -> %d", s, rc);
	if (rc)
		return;
	rc = topo_cpuset_format(&set, buf, sizeof(buf));
	CHECKF(rc == (int)strlen(want) && !strcmp(buf, want), "'%s' -> '%s' (%d), want '%s'", s,
	       buf, rc, want);
}

static void parse_bad(const char *s, unsigned flags)
{
	struct topo_cpuset set;

	topo_cpuset_zero(&set);
	topo_cpuset_add(&set, 7);
	CHECKF(topo_cpuset_parse(s, flags, &set) == -EINVAL, "'%s' parsed", s);
	/* a failed parse writes nothing */
	CHECK(topo_cpuset_has(&set, 7) && topo_cpuset_count(&set) == 1);
}

static void spellings(void)
{
	parse_ok("0-3,8,10-11", 0, "0-3,8,10-11");
	parse_ok("8,0-3,2,9", 0, "0-3,8-9");
	parse_ok("5", 0, "5");
	parse_ok("0, 1, 2, 3, 8", TOPO_CPULIST_SYSFS, "0-3,8");
	parse_ok("0-1,4\n", TOPO_CPULIST_SYSFS, "0-1,4");
	parse_ok("", TOPO_CPULIST_SYSFS, "");
	parse_ok("\n", TOPO_CPULIST_SYSFS, "");
	parse_ok("8191", 0, "8191");
	/* the strict spelling (--cpus) takes no blanks, no newline, no "" */
	parse_bad("0, 1", 0);
	parse_bad("0\n", 0);
	parse_bad("", 0);
	parse_bad(" 1", TOPO_CPULIST_SYSFS);
	parse_bad("1,", TOPO_CPULIST_SYSFS);
	parse_bad(",", 0);
	parse_bad("0,,1", TOPO_CPULIST_SYSFS);
	parse_bad("3-1", 0);
	parse_bad("1-", 0);
	parse_bad("-1", 0);
	parse_bad("a", 0);
	parse_bad("1-2x", 0);
	parse_bad("8192", 0);
	parse_bad("0-99999999999999999999", 0);
}

static int collect(void *ctx, unsigned lo, unsigned hi)
{
	char *s = ctx;
	size_t n = strlen(s);

	snprintf(s + n, 64 - n, "[%u-%u]", lo, hi);
	return lo == 99 ? -E2BIG : 0;
}

static void walk(void)
{
	char got[64] = "";
	const char *bad = NULL;

	/* in the order written, repeats and all */
	CHECK(topo_cpulist_walk("7,2-3,3", 16, 0, collect, got, &bad) == 0);
	CHECKF(!strcmp(got, "[7-7][2-3][3-3]"), "%s", got);
	got[0] = '\0';
	CHECK(topo_cpulist_walk("1,16,2", 16, 0, collect, got, &bad) == -EINVAL);
	CHECKF(bad && !strcmp(bad, "16,2") && !strcmp(got, "[1-1]"), "%s at %s", got, bad);
	got[0] = '\0';
	CHECK(topo_cpulist_walk("1,99", 128, 0, collect, got, NULL) == -E2BIG);
}

static void set_and_format(void)
{
	struct topo_cpuset set;
	char buf[16];
	int *a = NULL;

	topo_cpuset_zero(&set);
	CHECK(topo_cpuset_next(&set, -1) == -1 && topo_cpuset_count(&set) == 0);
	CHECK(topo_cpuset_add(&set, 0) == 0 && topo_cpuset_add(&set, 63) == 0 &&
	      topo_cpuset_add(&set, 64) == 0 && topo_cpuset_add(&set, 8191) == 0);
	CHECK(topo_cpuset_add(&set, 8192) == -ERANGE && topo_cpuset_add(&set, -1) == -ERANGE);
	CHECK(!topo_cpuset_has(&set, 8192) && !topo_cpuset_has(&set, -1));
	CHECK(topo_cpuset_count(&set) == 4);
	CHECK(topo_cpuset_next(&set, -1) == 0 && topo_cpuset_next(&set, 0) == 63 &&
	      topo_cpuset_next(&set, 63) == 64 && topo_cpuset_next(&set, 64) == 8191 &&
	      topo_cpuset_next(&set, 8191) == -1);
	CHECK(topo_cpuset_format(&set, buf, sizeof(buf)) == 12 && !strcmp(buf, "0,63-64,8191"));
	/* a range that does not fit ends the list: never a cut number */
	CHECK(topo_cpuset_format(&set, buf, 12) == -ENOSPC && !strcmp(buf, "0,63-64"));
	CHECK(topo_cpuset_format(&set, buf, 1) == -ENOSPC && !strcmp(buf, ""));

	/* the sorted array, for callers that index CPUs */
	CHECK(topo_cpuset_parse("8,2-3,3", 0, &set) == 0 && topo_cpuset_array(&set, &a) == 3 &&
	      a[0] == 2 && a[1] == 3 && a[2] == 8);
	free(a);
	topo_cpuset_zero(&set);
	a = (int *)&set;
	CHECK(topo_cpuset_array(&set, &a) == 0 && !a);
}

int main(void)
{
	spellings();
	walk();
	set_and_format();
	return t_result();
}
