/* Per-interval CPU time of the workers: see cpu.h. */
#include "cli/live/cpu.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME "iostorm-w"

int cli_cpu_init(struct cli_cpu *c, const struct eng_job *jobs, unsigned njobs)
{
	unsigned i, k;
	long tck = sysconf(_SC_CLK_TCK);

	memset(c, 0, sizeof(*c));
	c->njobs = njobs;
	c->ns_per_tick = tck > 0 ? 1000000000ull / (uint64_t)tck : 10000000ull;
	c->lead = calloc(njobs, sizeof(*c->lead));
	c->tid = calloc(njobs, sizeof(*c->tid));
	c->user = calloc(njobs, sizeof(*c->user));
	c->sys = calloc(njobs, sizeof(*c->sys));
	c->have = calloc(njobs, sizeof(*c->have));
	if (!c->lead || !c->tid || !c->user || !c->sys || !c->have) {
		cli_cpu_free(c);
		return -ENOMEM;
	}
	/* the engine's rule: one thread per group's first job */
	for (i = 0; i < njobs; i++) {
		for (k = 0; jobs[i].group && k < i && jobs[k].group != jobs[i].group; k++)
			;
		c->lead[i] = jobs[i].group ? k : i;
	}
	return 0;
}

void cli_cpu_free(struct cli_cpu *c)
{
	free(c->lead);
	free(c->tid);
	free(c->user);
	free(c->sys);
	free(c->have);
	memset(c, 0, sizeof(*c));
}

/* Thread tid's utime and stime in ns: 0, or -errno (it has gone). */
static int read_stat(const struct cli_cpu *c, pid_t tid, uint64_t *user, uint64_t *sys)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the name, in parentheses, may hold spaces: the fields follow the
	 * last ')'; utime and stime are fields 14 and 15 (proc(5)) */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		return -EPROTO;
	*user = ut * c->ns_per_tick;
	*sys = st * c->ns_per_tick;
	return 0;
}

/* The workers' threads, by their names; a name seen twice (a stalled
 * thread of an earlier run still in the kernel) is the newest thread's. */
static void find_threads(struct cli_cpu *c)
{
	char path[300], comm[32], *end;
	struct dirent *e;
	unsigned long idx;
	DIR *d = opendir("/proc/self/task");
	FILE *f;
	pid_t tid;

	while (d && (e = readdir(d))) {
		tid = (pid_t)strtol(e->d_name, &end, 10);
		if (tid <= 0 || *end)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (!fgets(comm, sizeof(comm), f) || strncmp(comm, NAME, strlen(NAME))) {
			fclose(f);
			continue;
		}
		fclose(f);
		idx = strtoul(comm + strlen(NAME), &end, 10);
		if (idx < c->njobs && c->lead[idx] == idx && tid > c->tid[idx])
			c->tid[idx] = tid;
	}
	if (d)
		closedir(d);
}

void cli_cpu_start(struct cli_cpu *c)
{
	unsigned i;

	memset(c->have, 0, c->njobs * sizeof(*c->have));
	memset(c->tid, 0, c->njobs * sizeof(*c->tid));
	find_threads(c);
	for (i = 0; i < c->njobs; i++)
		c->have[i] = c->tid[i] && !read_stat(c, c->tid[i], &c->user[i], &c->sys[i]);
}

void cli_cpu_read(struct cli_cpu *c, const uint64_t *ios, uint64_t *user, uint64_t *sys)
{
	uint64_t u, s, du, ds, sum;
	unsigned i, k, lanes;

	memset(user, 0, c->njobs * sizeof(*user));
	memset(sys, 0, c->njobs * sizeof(*sys));
	for (i = 0; i < c->njobs; i++) {
		if (c->lead[i] != i || !c->have[i] || read_stat(c, c->tid[i], &u, &s))
			continue;
		du = u > c->user[i] ? u - c->user[i] : 0;
		ds = s > c->sys[i] ? s - c->sys[i] : 0;
		c->user[i] = u;
		c->sys[i] = s;
		for (sum = 0, lanes = 0, k = i; k < c->njobs; k++)
			if (c->lead[k] == i) {
				sum += ios[k];
				lanes++;
			}
		for (k = i; k < c->njobs; k++) {
			if (c->lead[k] != i)
				continue;
			user[k] = sum ? (uint64_t)((double)du * (double)ios[k] / (double)sum) :
				  du / lanes;
			sys[k] = sum ? (uint64_t)((double)ds * (double)ios[k] / (double)sum) :
				 ds / lanes;
		}
	}
}
