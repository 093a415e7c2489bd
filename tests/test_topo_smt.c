/* topo_smt_pair on hand-written exports: the first core with two PUs,
 * inside a cpulist or the whole machine; none where no core has two
 * (SMT off, or a list that splits every core); a bad list refused. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/helpers.h"
#include "topo/smt.h"

static struct topo *load(const char *name)
{
	const char *src = getenv("IOSTORM_SRC");
	char path[4200];
	struct topo *t;
	int ret;

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", src && src[0] ? src : ".", name);
	ret = topo_load(&t, path, NULL);
	CHECKF(ret == 0, "%s: %d", path, ret);
	return ret ? NULL : t;
}

/* a cpulist as the set topo_smt_pair takes */
static const struct topo_cpuset *set_of(const char *list)
{
	static struct topo_cpuset s;

	CHECK(topo_cpuset_parse(list, 0, &s) == 0);
	return &s;
}

int main(void)
{
	struct topo *t = load("topo-2node-imbalance.xml");
	int a = -1, b = -1, ret;

	if (t) {
		ret = topo_smt_pair(t, NULL, &a, &b);
		CHECKF(ret == 0 && a == 0 && b == 4, "machine: %d, %d %d", ret, a, b);
		ret = topo_smt_pair(t, set_of("2-3,6-7"), &a, &b);
		CHECKF(ret == 0 && a == 2 && b == 6, "node 1: %d, %d %d", ret, a, b);
		/* a device's local set, as topo_lookup gives it */
		a = b = -1;
		ret = topo_smt_pair(t, set_of("0-3"), &a, &b);
		CHECKF(ret == -ENOENT && a == -1 && b == -1, "split cores: %d", ret);
		topo_free(t);
	}
	t = load("topo-multipath.xml");
	if (t) {
		ret = topo_smt_pair(t, NULL, &a, &b);
		CHECKF(ret == -ENOENT, "no SMT: %d", ret);
		topo_free(t);
	}
	return t_result();
}
