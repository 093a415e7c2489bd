/* Placement for a polled run (topo_place_polled) on the recorded
 * tests/fixtures/topo-1node-2hb.xml (one node, cores 0-3, nvme0n1 and
 * nvme1n1 local to all), with the poll queues' CPUs of the emulated rig's
 * 2 poll queues on 4 CPUs: 0-1 and 2-3. Plain placement puts two workers
 * on 0 and 1, one poll queue; polled placement on 0 and 2, one each, and
 * gives the cores back in the plain order once every poll queue is used;
 * never a core another device holds or one off the device's node
 * (topo-2node-free.xml). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"
#include "topo/topo.h"

static struct topo *load(const char *name)
{
	const char *src = getenv("IOSTORM_SRC");
	char path[4096];
	struct topo *t = NULL;
	int ret;

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", src ? src : ".", name);
	ret = topo_load(&t, path, NULL);
	CHECKF(ret == 0, "%s: %s", path, strerror(-ret));
	return ret ? NULL : t;
}

#define CPUS(s, ...) do {						\
	const int want_[] = { __VA_ARGS__ };				\
	unsigned i_;							\
	for (i_ = 0; i_ < sizeof(want_) / sizeof(want_[0]); i_++)	\
		CHECKF((s)[i_].cpu == want_[i_], "line %d: slot %u on CPU %d, want %d",	\
		       __LINE__, i_, (s)[i_].cpu, want_[i_]);		\
} while (0)

/* Poll queues' CPUs as the sets topo_pollq takes: a or a and b. */
static const struct topo_cpuset *sets(const char *a, const char *b)
{
	static struct topo_cpuset pool[16];
	static unsigned used;
	struct topo_cpuset *s = &pool[used];

	CHECK(used + 2 <= 16);
	CHECK(topo_cpuset_parse(a, 0, &s[0]) == 0);
	CHECK(!b || topo_cpuset_parse(b, 0, &s[1]) == 0);
	used += 2;
	return s;
}

int main(void)
{
	const struct topo_cpuset *halves = sets("0-1", "2-3"), *uneven = sets("0-2", "3"),
				 *one = sets("0-3", NULL);
	const char *paths[] = { "nvme0n1", "nvme1n1" };
	struct topo_pollq pq[2] = { { halves, 2 }, { halves, 2 } };
	struct topo_slot s[8];
	unsigned nw[2] = { 2, 2 };
	struct topo *t = load("topo-1node-2hb.xml");

	if (!t)
		return t_result();
	/* plain: the first two cores, which one poll queue serves */
	CHECK(topo_place(t, TOPO_PLACE_LOCAL, paths, nw, 1, s, NULL) == 0);
	CPUS(s, 0, 1);
	/* polled: a poll queue each */
	CHECK(topo_place_polled(t, TOPO_PLACE_LOCAL, paths, nw, 1, pq, s, NULL) == 0);
	CPUS(s, 0, 2);
	CHECK(s[0].node == 0 && s[1].node == 0);
	/* no map known, or one poll queue: as plain */
	CHECK(topo_place_polled(t, TOPO_PLACE_LOCAL, paths, nw, 1, NULL, s, NULL) == 0);
	CPUS(s, 0, 1);
	pq[0] = (struct topo_pollq){ one, 1 };
	CHECK(topo_place_polled(t, TOPO_PLACE_LOCAL, paths, nw, 1, pq, s, NULL) == 0);
	CPUS(s, 0, 1);
	/* four workers on two poll queues: one each first, then the free
	 * cores in order */
	pq[0] = (struct topo_pollq){ halves, 2 };
	nw[0] = 4;
	CHECK(topo_place_polled(t, TOPO_PLACE_LOCAL, paths, nw, 1, pq, s, NULL) == 0);
	CPUS(s, 0, 2, 1, 3);
	/* two devices of two workers: each its own poll queues, cores not
	 * shared across them */
	nw[0] = 2;
	CHECK(topo_place_polled(t, TOPO_PLACE_LOCAL, paths, nw, 2, pq, s, NULL) == 0);
	CPUS(s, 0, 2, 1, 3);
	/* queues of 3 CPUs and 1: the second worker goes to the lone one */
	pq[0] = (struct topo_pollq){ uneven, 2 };
	nw[0] = 3;
	CHECK(topo_place_polled(t, TOPO_PLACE_LOCAL, paths, nw, 1, pq, s, NULL) == 0);
	CPUS(s, 0, 3, 1);
	/* a queue whose only core another device's worker holds gives no
	 * free core: the plain pick, not a shared core */
	{
		const struct topo_cpuset *lone = sets("0", "1-3");
		struct topo_slot s3[3];

		nw[0] = 1;
		nw[1] = 2;
		pq[0] = (struct topo_pollq){ NULL, 0 };
		pq[1] = (struct topo_pollq){ lone, 2 };
		CHECK(topo_place_polled(t, TOPO_PLACE_LOCAL, paths, nw, 2, pq, s3, NULL) == 0);
		CPUS(s3, 0, 1, 2);
	}
	topo_free(t);
	/* topo-2node-free.xml: nvme0n1 on node 0 (CPUs 0-1), node 1 holds
	 * 2-3. A poll queue of node 1's CPUs is no place for a local worker:
	 * the plain pick stays on node 0 */
	t = load("topo-2node-free.xml");
	if (t) {
		const struct topo_cpuset *cross = sets("0-1", "2-3");

		nw[0] = 2;
		pq[0] = (struct topo_pollq){ cross, 2 };
		CHECK(topo_place_polled(t, TOPO_PLACE_LOCAL, paths, nw, 1, pq, s, NULL) == 0);
		CPUS(s, 0, 1);
		topo_free(t);
	}
	return t_result();
}
