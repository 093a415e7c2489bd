/* topo on this machine: a file maps to the disk under its file system and
 * that disk's PCI function; a loop device and a tmpfs file have none; an
 * empty machine still shows its nodes; placement stays inside the allowed
 * CPUs and threads pinned to its answer read the same CPU back. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tests/helpers.h"
#include "tests/topo_findings.h"
#include "topo/topo.h"

static char file[] = "/var/tmp/iostorm-topo-live.XXXXXX";
static char shmfile[] = "/dev/shm/iostorm-topo-live.XXXXXX";
static char loopdev[64];
static int loopfd = -1;

static void cleanup(void)
{
	if (loopfd >= 0) {
		ioctl(loopfd, LOOP_CLR_FD, 0);
		close(loopfd);
	}
	unlink(file);
	unlink(shmfile);
}

/* The disk and PCI bus id sysfs names for path, read independently of
 * topo: "" when the path to the disk names no PCI function. */
static int expect_disk(const char *path, char *disk, size_t dlen, char *pci, size_t plen)
{
	char link[PATH_MAX + 16], real[PATH_MAX], *p, *last = NULL;
	struct stat st;

	if (stat(path, &st))
		return -1;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (!realpath(link, real))
		return -1;
	snprintf(link, sizeof(link), "%s/partition", real);
	if (!access(link, F_OK))
		*strrchr(real, '/') = '\0';
	snprintf(disk, dlen, "%s", strrchr(real, '/') + 1);
	pci[0] = '\0';
	for (p = strtok(real, "/"); p; p = strtok(NULL, "/")) {
		unsigned a, b, c, d;
		int end = 0;

		if (sscanf(p, "%x:%x:%x.%x%n", &a, &b, &c, &d, &end) == 4 && !p[end])
			last = p;
	}
	if (last)
		snprintf(pci, plen, "%s", last);
	return 0;
}

static void test_machine(struct topo *t)
{
	struct topo_finding *f = NULL;
	unsigned cores, pus;
	int n;

	CHECK(topo_is_live(t));
	CHECK(topo_sysfs_root(t) && !strcmp(topo_sysfs_root(t), "/sys"));
	CHECK(topo_nnodes(t) >= 1);
	topo_counts(t, &cores, &pus);
	CHECK(cores >= 1 && pus >= cores);
	CHECK(topo_node(t, 0)->pus >= 1 && topo_node(t, 0)->cpus[0]);
	n = topo_findings(t, NULL, 0, &f);
	CHECK(n >= 0);
	/* no NVMe here: say so */
	if (!topo_ndevs(t))
		CHECK(n >= 1 && f[0].kind == TOPO_FIND_NO_NVME && strstr(said(&f[0]), "no NVMe drive"));
	free(f);
}

static void test_file(struct topo *t)
{
	const struct topo_dev *d = NULL, *d2 = NULL;
	char disk[64], pci[32], dev[80];
	int fd = mkstemp(file), ret;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	if (expect_disk(file, disk, sizeof(disk), pci, sizeof(pci))) {
		printf("/var/tmp is on no block device here: file mapping not checked\n");
		return;
	}
	ret = topo_lookup(t, file, &d);
	CHECKF(ret == 0, "lookup %s: %s", file, strerror(-ret));
	if (ret)
		return;
	CHECKF(!strcmp(d->name, disk), "%s: disk %s, sysfs says %s", file, d->name, disk);
	CHECKF(d->has_pci == (pci[0] != '\0'), "%s: has_pci %d, sysfs path %s", file, d->has_pci, pci);
	if (pci[0]) {
		CHECKF(!strcmp(d->pci, pci), "%s: pci %s, want %s", file, d->pci, pci);
		CHECK(d->nnodes >= 1 && d->cpus && d->ncores >= 1 && d->host_bridge[0]);
	}
	/* the disk by its own node, when there is one: the same device */
	snprintf(dev, sizeof(dev), "/dev/%s", disk);
	if (!access(dev, F_OK)) {
		CHECK(topo_lookup(t, dev, &d2) == 0 && d2 == d);
	}
}

static void test_nopci(struct topo *t)
{
	const struct topo_dev *d = NULL;
	struct loop_info64 info;
	int ctl, fd = mkstemp(shmfile), n, bfd;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(ftruncate(fd, 1 << 20) == 0);
	close(fd);
	CHECK(topo_lookup(t, shmfile, &d) == 0);
	CHECK(d && !d->has_pci && d->no_pci != TOPO_NO_PCI_UNKNOWN && d->nnodes == 0);
	CHECK(topo_lookup(t, "/nonexistent/iostorm", &d) == -ENOENT);

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		printf("no /dev/loop-control (%s): loop device not checked\n", strerror(errno));
		return;
	}
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	if (n < 0)
		return;
	snprintf(loopdev, sizeof(loopdev), "/dev/loop%d", n);
	loopfd = open(loopdev, O_RDWR | O_CLOEXEC);
	bfd = open(shmfile, O_RDWR | O_CLOEXEC);
	if (loopfd < 0 || bfd < 0 || ioctl(loopfd, LOOP_SET_FD, bfd)) {
		printf("cannot attach %s: loop device not checked\n", loopdev);
		if (bfd >= 0)
			close(bfd);
		if (loopfd >= 0)
			close(loopfd);
		loopfd = -1;
		return;
	}
	close(bfd);
	memset(&info, 0, sizeof(info));
	info.lo_flags = LO_FLAGS_AUTOCLEAR;
	ioctl(loopfd, LOOP_SET_STATUS64, &info);
	CHECK(topo_lookup(t, loopdev, &d) == 0);
	CHECKF(d && !d->has_pci && d->no_pci == TOPO_NO_PCI_LOOP,
	       "%s: %s", loopdev, d ? topo_no_pci_name(d->no_pci) : "not found");
	CHECK(d && !strncmp(d->name, "loop", 4));
}

struct pin {
	pthread_t th;
	int want, got, err;
};

/* The one CPU this thread may run on, read back; -1 when more than one. */
static int bound_cpu(int *cpu)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return errno;
	*cpu = -1;
	for (i = 0; CPU_COUNT(&set) == 1 && i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			*cpu = i;
	return 0;
}

static void *pinned(void *arg)
{
	struct pin *p = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(p->want, &set);
	p->err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (!p->err)
		p->err = bound_cpu(&p->got);
	return NULL;
}

/* Pin one thread per slot as the engine does; each reads back its CPU. */
static void test_place(struct topo *t)
{
	const char *paths[] = { file, shmfile };
	struct topo_slot s[16];
	struct pin pins[16];
	cpu_set_t mine;
	unsigned nw[2], i, total;
	int ret, ncpu;

	CPU_ZERO(&mine);
	CHECK(sched_getaffinity(0, sizeof(mine), &mine) == 0);
	ncpu = CPU_COUNT(&mine);
	nw[0] = (unsigned)(ncpu < 8 ? ncpu : 8);
	nw[1] = 2;
	total = nw[0] + nw[1];
	ret = topo_place(t, TOPO_PLACE_LOCAL, paths, nw, 2, s, NULL);
	CHECKF(ret == 0, "topo_place: %s", strerror(-ret));
	if (ret)
		return;
	for (i = 0; i < total; i++) {
		CHECKF(s[i].cpu >= 0 && CPU_ISSET(s[i].cpu, &mine), "slot %u: cpu %d not allowed", i, s[i].cpu);
		CHECK(s[i].node >= 0);
		CHECK(s[i].dev == (i < nw[0] ? 0u : 1u));
	}
	/* one worker per CPU while there are free ones */
	for (i = 1; i < nw[0]; i++)
		CHECKF(s[i].cpu != s[0].cpu, "slot %u shares cpu %d with slot 0", i, s[i].cpu);
	for (i = 0; i < total; i++) {
		pins[i].want = s[i].cpu;
		pins[i].got = -2;
		CHECK(pthread_create(&pins[i].th, NULL, pinned, &pins[i]) == 0);
	}
	for (i = 0; i < total; i++) {
		pthread_join(pins[i].th, NULL);
		CHECKF(pins[i].err == 0 && pins[i].got == pins[i].want, "thread %u: want cpu %d, read back %d (err %d)",
		       i, pins[i].want, pins[i].got, pins[i].err);
	}
}

/* Under taskset, placement uses only the CPUs left to the process. */
static void test_allowed(void)
{
	const char *paths[] = { file };
	unsigned nw[] = { 3 }, i;
	struct topo_slot s[3];
	cpu_set_t mine, one;
	struct topo *t = NULL;
	int last = -1;

	CPU_ZERO(&mine);
	if (sched_getaffinity(0, sizeof(mine), &mine) || CPU_COUNT(&mine) < 2) {
		printf("one CPU only: the taskset case is not checked\n");
		return;
	}
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &mine))
			last = (int)i;
	CPU_ZERO(&one);
	CPU_SET(last, &one);
	CHECK(sched_setaffinity(0, sizeof(one), &one) == 0);
	CHECK(topo_load(&t, NULL, NULL) == 0);
	if (t) {
		CHECK(topo_place(t, TOPO_PLACE_LOCAL, paths, nw, 1, s, NULL) == 0);
		for (i = 0; i < 3; i++)
			CHECKF(s[i].cpu == last, "slot %u: cpu %d, only %d allowed", i, s[i].cpu, last);
		topo_free(t);
	}
	CHECK(sched_setaffinity(0, sizeof(mine), &mine) == 0);
}

int main(void)
{
	struct topo *t = NULL;
	int ret;

	atexit(cleanup);
	unsetenv("IOSTORM_SYSFS_ROOT");
	ret = topo_load(&t, NULL, NULL);
	if (ret) {
		fprintf(stderr, "topo_load(live): %s\n", strerror(-ret));
		return T_EXIT_FAIL;
	}
	test_machine(t);
	test_file(t);
	test_nopci(t);
	test_place(t);
	topo_free(t);
	test_allowed();
	return t_result();
}
