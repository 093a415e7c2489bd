/* placecheck PID: where a running process's threads and NUMA-placed
 * buffers really are, read back from the kernel (for the rig's placement
 * test). One line per thread:
 *     thread TID cpus CPULIST          (sched_getaffinity)
 * and one per mapping with a NUMA policy other than the default:
 *     buffer START POLICY pages N node0 A node1 B ... absent C
 * where each page's node comes from move_pages(2) asked without a target
 * (it only reports). Exit 0, or 1 with one line on stderr. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_NODES 64

static void print_cpus(const cpu_set_t *set)
{
	const char *sep = "";
	int c, start = -1;

	for (c = 0; c <= CPU_SETSIZE; c++) {
		int on = c < CPU_SETSIZE && CPU_ISSET(c, set);

		if (on && start < 0)
			start = c;
		if (!on && start >= 0) {
			if (start == c - 1)
				printf("%s%d", sep, start);
			else
				printf("%s%d-%d", sep, start, c - 1);
			sep = ",";
			start = -1;
		}
	}
}

static int show_threads(pid_t pid)
{
	char path[64];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		cpu_set_t set;
		pid_t tid;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		tid = (pid_t)atoi(e->d_name);
		if (sched_getaffinity(tid, sizeof(set), &set))
			continue;	/* the thread ended meanwhile */
		printf("thread %d cpus ", (int)tid);
		print_cpus(&set);
		printf("\n");
	}
	closedir(d);
	return 0;
}

/* The end of the mapping that starts at start, from /proc/PID/maps. */
static uintptr_t map_end(pid_t pid, uintptr_t start)
{
	char path[64], line[512];
	uintptr_t s, e, end = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!end && fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &s, &e) == 2 && s == start)
			end = e;
	fclose(f);
	return end;
}

static int show_buffer(pid_t pid, uintptr_t start, uintptr_t end, const char *policy)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long n = (end - start) / (uintptr_t)page, i;
	unsigned long counts[MAX_NODES] = { 0 }, absent = 0;
	void **pages = calloc(n, sizeof(*pages));
	int *status = calloc(n, sizeof(*status));
	int ret = 0, node;

	if (!pages || !status) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		pages[i] = (void *)(start + i * (uintptr_t)page);
	if (syscall(SYS_move_pages, pid, n, pages, NULL, status, 0) < 0) {
		ret = -errno;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (status[i] >= 0 && status[i] < MAX_NODES)
			counts[status[i]]++;
		else
			absent++;
	}
	printf("buffer %" PRIxPTR " %s pages %lu", start, policy, n);
	for (node = 0; node < MAX_NODES; node++)
		if (counts[node])
			printf(" node%d %lu", node, counts[node]);
	printf(" absent %lu\n", absent);
out:
	free(pages);
	free(status);
	return ret;
}

static int show_buffers(pid_t pid)
{
	char path[64], line[1024], policy[64];
	uintptr_t start, end;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/numa_maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!ret && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNxPTR " %63s", &start, policy) != 2)
			continue;
		if (!strcmp(policy, "default"))
			continue;
		end = map_end(pid, start);
		if (end > start)
			ret = show_buffer(pid, start, end, policy);
	}
	fclose(f);
	return ret;
}

int main(int argc, char **argv)
{
	pid_t pid;
	int ret;

	if (argc != 2 || (pid = (pid_t)atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: placecheck PID\n");
		return 2;
	}
	ret = show_threads(pid);
	if (!ret)
		ret = show_buffers(pid);
	if (ret) {
		fprintf(stderr, "placecheck: pid %d: %s\n", (int)pid, strerror(-ret));
		return 1;
	}
	return 0;
}
