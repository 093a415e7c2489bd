/* check's queue rules past a device's own block queue, on recorded trees:
 * tests/fixtures/queues-multipath, written to match the rig's multipath
 * layout on 7.2 (namespace 1 of subsystem 0 through nvme0 on node 0 and
 * nvme1 on node 1, a CPU per node, iopolicy numa), where path nvme0c1n1
 * runs mq-deadline with nr_requests 64 and has one IO queue whose vector
 * lands on CPU 1; and tests/fixtures/queues-poll, a drive whose 2 poll
 * queues serve CPUs 0-1 and 2-3 of 4, as blk_mq_map_queues spreads them.
 * The head's own queue says nothing of either: the findings must name the
 * path and the iopolicy, also where the head has no multipath/ folder
 * (before 6.14). Then pollq_spread, which placement uses, on the same map. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/check.h"
#include "cli/words/findings_words.h"
#include "model/pollq.h"
#include "setup/setup.h"
#include "tests/check_said.h"
#include "tests/helpers.h"


static char fx[2048];
static char sysfs[4096], procfs[4096];
static struct setup_machine m;	/* big: not on the stack */
static struct setup_dev dev;
static struct check_finding *found;
static int nfound;

static const struct setup_roots *at(const char *dir, const char *name)
{
	static struct setup_roots r;

	snprintf(sysfs, sizeof(sysfs), "%s/%s/sys", dir, name);
	snprintf(procfs, sizeof(procfs), "%s/%s/proc", dir, name);
	r.sysfs = sysfs;
	r.procfs = procfs;
	return &r;
}

/* the machine and device name of fixture name (below dir) */
static int load(const char *dir, const char *fixture, const char *name)
{
	int ret;

	setup_dev_free(&dev);
	ret = setup_machine_read(at(dir, fixture), &m);
	CHECKF(ret == 0, "%s: machine: %s", fixture, strerror(-ret));
	if (!ret)
		ret = setup_dev_read(at(dir, fixture), name, &dev);
	CHECKF(ret == 0, "%s %s: %s", fixture, name, strerror(-ret));
	return ret;
}

static void run(const struct check_ask *ask)
{
	free(found);
	found = NULL;
	nfound = check_findings(&m, &dev, 1, ask, &found);
	CHECKF(nfound >= 0, "check_findings: %s", strerror(-nfound));
}

static void show(void)
{
	int i;

	for (i = 0; i < nfound; i++)
		fprintf(stderr, "    %s: now '%s', better '%s', fix act %d %s=%s\n",
			check_kind_info(found[i].kind)->name, said_now(&found[i]), said_better(&found[i]),
			found[i].fix.act, found[i].fix.key, found[i].fix.value);
}

static const struct check_finding *find(enum check_kind k, const char *in_now)
{
	int i;

	for (i = 0; i < nfound; i++)
		if (found[i].kind == k && (!in_now || strstr(said_now(&found[i]), in_now)))
			return &found[i];
	return NULL;
}

static int count(enum check_kind k)
{
	int i, n = 0;

	for (i = 0; i < nfound; i++)
		n += found[i].kind == k;
	return n;
}

#define WANT(f, k, in_now, line) do {					\
	(f) = find(k, in_now);						\
	if (!(f)) {							\
		fprintf(stderr, "%s:%d: want a %s finding with '%s' in now; got:\n", \
			__FILE__, line, check_kind_info(k)->name, in_now); \
		show();							\
		t_note_fail(__FILE__, line, "finding");			\
	}								\
} while (0)
#define TEXT(f, field, want) do {					\
	if (f)								\
		CHECKF(!strcmp(said(f, field), want), "%s: '%s', want '%s'", \
		       #field, said(f, field), want);			\
} while (0)

/* The fix as values: act, key (a sysfs path below /sys, an option) and
 * the value to write; cli/check/fix_cmd.c makes the words. */
#define FIX(f, a, k, v) do {						\
	if (f)								\
		CHECKF((f)->fix.act == (a) && !strcmp((f)->fix.key, k) &&	\
		       !strcmp((f)->fix.value, v), "fix: act %d %s=%s, want %d %s=%s", \
		       (f)->fix.act, (f)->fix.key, (f)->fix.value, a, k, v);	\
} while (0)

static void test_paths_read(void)
{
	if (load(fx, "queues-multipath", "nvme0n1"))
		return;
	CHECKF(dev.nvme && !strcmp(dev.controller, "nvme0"), "%d %s", dev.nvme, dev.controller);
	CHECKF(!strcmp(dev.iopolicy, "numa"), "'%s'", dev.iopolicy);
	CHECKF(dev.nhwq == 0, "the head has no hardware queue of its own: %u", dev.nhwq);
	CHECKF(dev.npaths == 2, "%u paths", dev.npaths);
	if (dev.npaths != 2)
		return;
	CHECKF(!strcmp(dev.paths[0].disk, "nvme0c0n1") && !strcmp(dev.paths[1].disk, "nvme0c1n1"),
	       "%s %s", dev.paths[0].disk, dev.paths[1].disk);
	CHECKF(!strcmp(dev.paths[0].controller, "nvme0") && !strcmp(dev.paths[1].controller, "nvme1"),
	       "%s %s", dev.paths[0].controller, dev.paths[1].controller);
	CHECKF(dev.paths[0].numa_node == 0 && dev.paths[1].numa_node == 1, "%d %d",
	       dev.paths[0].numa_node, dev.paths[1].numa_node);
	CHECKF(!strcmp(dev.paths[1].scheduler, "mq-deadline") && dev.paths[1].nr_requests == 64,
	       "%s %lld", dev.paths[1].scheduler, (long long)dev.paths[1].nr_requests);
	CHECKF(dev.paths[0].nhwq == 4 && dev.paths[0].nirq_queues == 2, "%u %u",
	       dev.paths[0].nhwq, dev.paths[0].nirq_queues);
	CHECKF(dev.paths[1].nhwq == 1 && dev.paths[1].hwq[0].irq == 28 &&
	       !strcmp(dev.paths[1].hwq[0].irq_cpus, "1"), "%u", dev.paths[1].nhwq);
	CHECKF(pollq_count(&dev.paths[0]) == 2 && pollq_count(&dev.paths[1]) == 0, "%u %u",
	       pollq_count(&dev.paths[0]), pollq_count(&dev.paths[1]));
	/* a path read alone is a device with no paths of its own */
	setup_dev_free(&dev);
	if (!setup_dev_read(at(fx, "queues-multipath"), "nvme0c1n1", &dev))
		CHECKF(dev.npaths == 0 && !strcmp(dev.controller, "nvme1"), "%u %s", dev.npaths,
		       dev.controller);
}

static char tmp[] = "/tmp/iostorm-queues.XXXXXX";

static void cleanup(void)
{
	char cmd[PATH_MAX];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
}

/* Before 6.14 a head has no multipath/ folder (the 6.12 rig's has none):
 * its paths are the hidden disks nvme0cYn1, found by name. A namespace of
 * its own controller (nvme0c1n1 read alone) is no head. */
static void test_paths_by_name(void)
{
	char cmd[3 * PATH_MAX];

	if (!mkdtemp(tmp)) {
		CHECKF(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	atexit(cleanup);
	snprintf(cmd, sizeof(cmd), "cp -a '%s/queues-multipath' '%s/' && rm -r '%s/queues-multipath/"
		 "sys/devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1/multipath'", fx, tmp, tmp);
	CHECKF(system(cmd) == 0, "%s", cmd);
	if (load(tmp, "queues-multipath", "nvme0n1"))
		return;
	CHECKF(dev.npaths == 2 && !strcmp(dev.controller, "nvme0"), "%u paths, controller '%s'",
	       dev.npaths, dev.controller);
	if (dev.npaths == 2)
		CHECKF(!strcmp(dev.paths[0].disk, "nvme0c0n1") &&
		       !strcmp(dev.paths[1].disk, "nvme0c1n1") &&
		       !strcmp(dev.paths[1].scheduler, "mq-deadline"), "%s %s",
		       dev.paths[0].disk, dev.paths[1].disk);
	setup_dev_free(&dev);
	if (!setup_dev_read(at(tmp, "queues-multipath"), "nvme0c1n1", &dev))
		CHECKF(dev.npaths == 0, "a path read alone has %u paths", dev.npaths);
}

/* The scheduler and nr_requests of the path that has them, named with the
 * iopolicy; the fix writes the path's own queue. */
static void test_path_queue(void)
{
	struct check_ask ask = { .qd = 128, .workers_per_dev = 1 };
	const struct check_finding *f;

	if (load(fx, "queues-multipath", "nvme0n1"))
		return;
	run(&ask);
	WANT(f, CHECK_PATH_SCHEDULER, "nvme0c1n1", __LINE__);
	TEXT(f, now, "mq-deadline (path nvme0c1n1, iopolicy numa)");
	TEXT(f, better, "none");
	FIX(f, CHECK_ACT_SYSFS, "block/nvme0c1n1/queue/scheduler", "none");
	if (f)
		CHECK(f->dev == 0);
	WANT(f, CHECK_PATH_NR_REQUESTS, "nvme0c1n1", __LINE__);
	TEXT(f, now, "64 (path nvme0c1n1, iopolicy numa)");
	TEXT(f, better, "128");
	FIX(f, CHECK_ACT_SYSFS, "block/nvme0c1n1/queue/nr_requests", "128");
	/* nvme0c0n1 runs none with 1023 tags; the head's own queue is none */
	CHECKF(count(CHECK_PATH_SCHEDULER) == 1 && count(CHECK_PATH_NR_REQUESTS) == 1 &&
	       count(CHECK_SCHEDULER) == 0 && count(CHECK_NR_REQUESTS) == 0,
	       "%d %d %d %d", count(CHECK_PATH_SCHEDULER), count(CHECK_PATH_NR_REQUESTS),
	       count(CHECK_SCHEDULER), count(CHECK_NR_REQUESTS));
	/* the path's knobs are not --measure's, which writes the head */
	CHECK(!check_kind_info(CHECK_PATH_SCHEDULER)->runtime);
	CHECK(!check_kind_info(CHECK_PATH_NR_REQUESTS)->runtime);
}

/* Interrupts: nvme0c1n1's one vector is on CPU 1. Two workers share it
 * (one_cpu_irqs, few_queues on the path). Under iopolicy numa a worker on
 * CPU 0 takes nvme0c0n1, whose queues interrupt their own CPUs: nothing;
 * under round-robin it takes nvme0c1n1 too, whose vector is on node 1. */
static void test_path_irqs(void)
{
	struct check_ask ask = { .qd = 32, .workers_per_dev = 2 };
	struct topo_cpuset cpu0[1];
	const struct check_finding *f;

	topo_cpuset_zero(&cpu0[0]);
	topo_cpuset_add(&cpu0[0], 0);

	if (load(fx, "queues-multipath", "nvme0n1"))
		return;
	run(&ask);
	WANT(f, CHECK_ONE_CPU_IRQS, "nvme0c1n1", __LINE__);
	TEXT(f, now, "every queue's interrupt lands on CPU 1 (path nvme0c1n1, iopolicy numa)");
	WANT(f, CHECK_FEW_QUEUES, "nvme0c1n1", __LINE__);
	TEXT(f, now, "1 interrupt queue for 2 workers (path nvme0c1n1, iopolicy numa)");
	CHECKF(count(CHECK_ONE_CPU_IRQS) == 1 && count(CHECK_FEW_QUEUES) == 1, "%d %d",
	       count(CHECK_ONE_CPU_IRQS), count(CHECK_FEW_QUEUES));

	ask.workers_per_dev = 1;
	ask.worker_cpus = cpu0;
	run(&ask);
	CHECKF(count(CHECK_IRQ_REMOTE) == 0, "numa: CPU 0 takes nvme0c0n1: %d",
	       count(CHECK_IRQ_REMOTE));
	if (count(CHECK_IRQ_REMOTE))
		show();
	/* a worker on each node: each takes its own node's path, whose
	 * queue interrupts that node */
	{
		struct topo_cpuset both[1];

		topo_cpuset_zero(&both[0]);
		topo_cpuset_add(&both[0], 0);
		topo_cpuset_add(&both[0], 1);
		ask.workers_per_dev = 2;
		ask.worker_cpus = both;
		run(&ask);
		CHECKF(count(CHECK_IRQ_REMOTE) == 0, "numa, CPUs 0-1: %d", count(CHECK_IRQ_REMOTE));
		ask.workers_per_dev = 1;
		ask.worker_cpus = cpu0;
	}
	snprintf(dev.iopolicy, sizeof(dev.iopolicy), "round-robin");
	run(&ask);
	WANT(f, CHECK_IRQ_REMOTE, "nvme0c1n1", __LINE__);
	TEXT(f, now, "CPUs 0 (node 0) take their interrupts on node 1 "
	     "(path nvme0c1n1, iopolicy round-robin)");
	CHECKF(count(CHECK_IRQ_REMOTE) == 1, "%d", count(CHECK_IRQ_REMOTE));
}

/* Two polling workers on CPUs 0 and 1 share the poll queue of CPUs 0-1,
 * while the one of CPUs 2-3 idles: named, with 0 and 2 as the way out.
 * On 0 and 2 each has its own: nothing. */
static void test_shared_poll(void)
{
	struct check_ask ask = { .qd = 32, .workers_per_dev = 2, .poll = true };
	const struct check_finding *f;
	int c01[] = { 0, 1 }, c02[] = { 0, 2 }, two[] = { 0, 1, 2, 3 };

	if (load(fx, "queues-poll", "nvme0n1"))
		return;
	CHECKF(pollq_count(&dev) == 2 && pollq_of(&dev, 1) == 4 && pollq_of(&dev, 2) == 5 &&
	       pollq_of(&dev, 0) == 4, "%u %d %d", pollq_count(&dev), pollq_of(&dev, 1),
	       pollq_of(&dev, 2));
	ask.cpus = c01;
	ask.ncpus = 2;
	run(&ask);
	WANT(f, CHECK_SHARED_POLL_QUEUE, "CPUs", __LINE__);
	TEXT(f, now, "CPUs 0,1: 2 polling workers on 1 poll queue");
	TEXT(f, better, "a poll queue each: CPUs 0,2");
	FIX(f, CHECK_ACT_OPTION, "--cpus", "0,2");
	if (f)
		CHECK(f->dev == 0);
	/* the counts alone (2 poll queues, 2 workers) are fine */
	CHECKF(count(CHECK_FEW_QUEUES) == 0 && count(CHECK_NO_POLL_QUEUES) == 0, "%d %d",
	       count(CHECK_FEW_QUEUES), count(CHECK_NO_POLL_QUEUES));

	ask.cpus = c02;
	run(&ask);
	CHECKF(count(CHECK_SHARED_POLL_QUEUE) == 0, "workers on 0 and 2: %d",
	       count(CHECK_SHARED_POLL_QUEUE));
	/* interrupts: no poll queue to share */
	ask.cpus = c01;
	ask.poll = false;
	run(&ask);
	CHECK(count(CHECK_SHARED_POLL_QUEUE) == 0);
	/* four workers on two poll queues: no free queue could help, which
	 * is few_queues' finding */
	ask.poll = true;
	ask.workers_per_dev = 4;
	ask.cpus = two;
	ask.ncpus = 4;
	run(&ask);
	CHECKF(count(CHECK_SHARED_POLL_QUEUE) == 0 && count(CHECK_FEW_QUEUES) == 1, "%d %d",
	       count(CHECK_SHARED_POLL_QUEUE), count(CHECK_FEW_QUEUES));
	/* the second of two devices gets the second pair of --cpus: the fix
	 * is the whole list with its pair replaced */
	{
		struct setup_dev both[2] = { dev, dev };
		int c0213[] = { 0, 2, 1, 3 }, c2301[] = { 2, 3, 0, 1 };

		ask.workers_per_dev = 2;
		ask.cpus = c0213;
		free(found);
		found = NULL;
		nfound = check_findings(&m, both, 2, &ask, &found);
		CHECKF(nfound >= 0 && count(CHECK_SHARED_POLL_QUEUE) == 0, "%d", nfound);
		ask.cpus = c2301;
		free(found);
		found = NULL;
		nfound = check_findings(&m, both, 2, &ask, &found);
		CHECKF(count(CHECK_SHARED_POLL_QUEUE) == 2, "%d", count(CHECK_SHARED_POLL_QUEUE));
		/* every CPU is taken: no way out by moving one */
		f = find(CHECK_SHARED_POLL_QUEUE, NULL);
		TEXT(f, better, "a poll queue each");
	}
}

/* What placement does with the map: keep the first worker on each poll
 * queue, move the others to a free CPU of an unused one, on their node. */
static void test_spread(void)
{
	short node[4] = { 0, 0, 1, 1 };
	struct pollq_where w = { node, 4, true, NULL, 0 };
	int c01[] = { 0, 1 }, c02[] = { 0, 2 }, out[2];
	int busy[] = { 2 };

	if (load(fx, "queues-poll", "nvme0n1"))
		return;
	CHECK(pollq_shared(&dev, c01, 2) == 1 && pollq_shared(&dev, c02, 2) == 0);
	/* CPUs 0-1 on node 0, 2-3 on node 1: the free queue is on the other
	 * node, where placement may not go */
	CHECK(pollq_spread(&dev, c01, 2, &w, out) == 0 && out[0] == 0 && out[1] == 1);
	w.same_node = false;
	CHECK(pollq_spread(&dev, c01, 2, &w, out) == 1 && out[0] == 0 && out[1] == 2);
	/* one node: 2 is taken by another device's worker, 3 is free */
	node[2] = node[3] = 0;
	w.same_node = true;
	w.busy = busy;
	w.nbusy = 1;
	CHECK(pollq_spread(&dev, c01, 2, &w, out) == 1 && out[0] == 0 && out[1] == 3);
	CHECK(pollq_spread(&dev, c02, 2, &w, out) == 0 && out[0] == 0 && out[1] == 2);
	CHECK(pollq_spread(&dev, c01, 2, NULL, out) == -EINVAL);
}

int main(void)
{
	const char *src = getenv("IOSTORM_SRC");

	snprintf(fx, sizeof(fx), "%s/tests/fixtures", src ? src : ".");
	test_paths_read();
	test_paths_by_name();
	test_path_queue();
	test_path_irqs();
	test_shared_poll();
	test_spread();
	setup_dev_free(&dev);
	free(found);
	return t_result();
}
