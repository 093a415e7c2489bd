/* topo_io_poll: a disk's queue/io_poll by device number, a partition's
 * disk's, a missing or garbled file, on a made-up sysfs tree; then every
 * block device of this machine answers 1 or 0, and a loop device 0.
 * topo_loop_attached: a loop device with and without a backing file. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tests/helpers.h"
#include "topo/topo.h"

static char root[] = "/tmp/iostorm-io-poll.XXXXXX";

static void cleanup(void)
{
	char cmd[PATH_MAX];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
}

/* mkdir -p root/rel */
static void mkdirs(const char *rel)
{
	char cmd[PATH_MAX];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", root, rel);
	if (system(cmd) != 0) {
		fprintf(stderr, "%s\n", cmd);
		exit(T_EXIT_FAIL);
	}
}

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(T_EXIT_FAIL);
	}
}

/* root/dev/block/maj:min -> ../../devices/<target>, as sysfs links them */
static void link_dev(unsigned maj, unsigned min, const char *target)
{
	char path[PATH_MAX], to[PATH_MAX];

	snprintf(path, sizeof(path), "%s/dev/block/%u:%u", root, maj, min);
	snprintf(to, sizeof(to), "../../devices/%s", target);
	if (symlink(to, path)) {
		perror(path);
		exit(T_EXIT_FAIL);
	}
}

static void fake_tree(void)
{
	if (!mkdtemp(root)) {
		perror(root);
		exit(T_EXIT_FAIL);
	}
	atexit(cleanup);
	mkdirs("dev/block");
	mkdirs("devices/nvme/nvme0n1/queue");
	mkdirs("devices/nvme/nvme0n1/nvme0n1p1");
	mkdirs("devices/nvme/nvme1n1/queue");
	mkdirs("devices/virtual/loop0/queue");
	mkdirs("devices/virtual/odd0/queue");
	mkdirs("devices/virtual/noqueue0");
	put("devices/nvme/nvme0n1/queue/io_poll", "1\n");
	put("devices/nvme/nvme1n1/queue/io_poll", "0\n");
	put("devices/virtual/loop0/queue/io_poll", "0\n");
	put("devices/virtual/odd0/queue/io_poll", "yes\n");
	link_dev(259, 0, "nvme/nvme0n1");
	link_dev(259, 1, "nvme/nvme0n1/nvme0n1p1");
	link_dev(259, 2, "nvme/nvme1n1");
	link_dev(7, 0, "virtual/loop0");
	link_dev(7, 9, "virtual/odd0");
	link_dev(7, 10, "virtual/noqueue0");
	mkdirs("block/loop0/loop");
	mkdirs("block/loop1");
	mkdirs("block/loop2/loop");
	put("block/loop0/loop/backing_file", "/dev/shm/a rather long path to a backing file\n");
	put("block/loop2/loop/backing_file", "");
}

static void test_fake(void)
{
	fake_tree();
	CHECK(topo_io_poll(root, makedev(259, 0)) == 1);
	/* a partition answers for its disk */
	CHECK(topo_io_poll(root, makedev(259, 1)) == 1);
	CHECK(topo_io_poll(root, makedev(259, 2)) == 0);
	CHECK(topo_io_poll(root, makedev(7, 0)) == 0);
	CHECK(topo_io_poll(root, makedev(7, 9)) == -EINVAL);
	CHECK(topo_io_poll(root, makedev(7, 10)) == -ENOENT);
	CHECK(topo_io_poll(root, makedev(8, 0)) == -ENOENT);
	CHECK(topo_loop_attached(root, "loop0") == 1);
	CHECK(topo_loop_attached(root, "loop1") == 0);
	CHECK(topo_loop_attached(root, "loop2") == 1);
	CHECK(topo_loop_attached(root, "loop9") == 0);
}

/* Whatever this machine's devices are, each answers 1 or 0; a loop device
 * has no poll queues. */
static void test_live(void)
{
	unsigned maj, min, n = 0;
	struct dirent *e;
	DIR *d = opendir("/sys/dev/block");
	int ret;

	if (!d) {
		printf("skip: no /sys/dev/block here (%s)\n", strerror(errno));
		return;
	}
	while ((e = readdir(d))) {
		if (sscanf(e->d_name, "%u:%u", &maj, &min) != 2)
			continue;
		ret = topo_io_poll(NULL, makedev(maj, min));
		CHECKF(ret == 0 || ret == 1, "%s: %d", e->d_name, ret);
		if (maj == 7)
			CHECKF(ret == 0, "loop device %s polls", e->d_name);
		n++;
	}
	closedir(d);
	printf("%u live block devices answered\n", n);
}

int main(void)
{
	test_fake();
	test_live();
	return t_result();
}
