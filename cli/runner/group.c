/* Several devices per worker: the jobs placed on one CPU become one group
 * (eng_job.group), one thread and one ring for them all. Polled
 * completion spins a core per ring; with more drives than cores, pollers
 * sharing a core steal its time from each other, so there --group auto
 * puts them in one ring, which one poll loop drives. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/report/out.h"
#include "cli/runner/group.h"

#define GROUP_MAX_SAID 64
#define GROUP_LINE 512

int cli_group_check(const struct cli_run_spec *s)
{
	if (s->group != CLI_GROUP_ON)
		return 0;
	if (s->backend == ENG_BACKEND_LIBAIO) {
		cli_say("--group on shares an io_uring ring between devices: --engine libaio has none");
		return -EINVAL;
	}
	if (!s->mode_auto && s->mode == ENG_MODE_SQPOLL) {
		cli_say("--group on drives devices from one thread's ring: --completion sqpoll hands the ring to a kernel thread");
		return -EINVAL;
	}
	return 0;
}

static bool group_wanted(const struct cli_run_spec *s, enum eng_mode mode)
{
	/* an open loop's schedule is its worker's own (eng_job.rate) */
	if (s->backend == ENG_BACKEND_LIBAIO || mode == ENG_MODE_SQPOLL || s->rate)
		return false;
	if (s->group == CLI_GROUP_ON)
		return true;
	return s->group == CLI_GROUP_AUTO && (mode == ENG_MODE_POLL || mode == ENG_MODE_HYBRID);
}

/* Each line once per process: saturate and sweep place many runs. */
static void group_say_once(const char *line)
{
	static char said[GROUP_MAX_SAID][GROUP_LINE];
	static unsigned nsaid;
	unsigned i;

	for (i = 0; i < nsaid; i++)
		if (!strcmp(said[i], line))
			return;
	if (nsaid < GROUP_MAX_SAID)
		snprintf(said[nsaid++], GROUP_LINE, "%s", line);
	cli_say("%s", line);
}

/* "loop0, loop1, loop2 share one worker and ring on CPU 0 (--group on)",
 * the names in job order, each device once. */
static void group_say(const struct eng_job *jobs, unsigned n, unsigned lead,
		      const char *const *names, const char *why)
{
	char line[GROUP_LINE] = "";
	unsigned i, k, count = 0, len = 0;

	unsigned more = 0;

	for (i = lead; i < n; i++) {
		bool dup = false;
		size_t need;

		if (jobs[i].group != jobs[lead].group)
			continue;
		for (k = lead; k < i && !dup; k++)
			dup = jobs[k].group == jobs[i].group && !strcmp(names[k], names[i]);
		if (dup)
			continue;
		need = strlen(names[i]) + 2;
		if (more || len + need + 96 >= sizeof(line)) {
			more++;	/* the line names the rest as a count */
			continue;
		}
		len += (unsigned)snprintf(line + len, sizeof(line) - len, "%s%s", count ? ", " : "",
					  names[i]);
		count++;
	}
	if (more)
		len += (unsigned)snprintf(line + len, sizeof(line) - len, " and %u more", more);
	snprintf(line + len, sizeof(line) - len, " %s one worker and ring on CPU %d (--group %s)",
		 count + more > 1 ? "share" : "has", jobs[lead].cpu, why);
	group_say_once(line);
}

unsigned cli_group_jobs(const struct cli_run_spec *s, enum eng_mode mode, struct eng_job *jobs,
			unsigned n, const char *const *names)
{
	unsigned i, k, shared = 0, size;
	uint64_t qd;

	if (!group_wanted(s, mode))
		return 0;
	for (i = 0; i < n; i++) {
		if (jobs[i].cpu < 0 || jobs[i].group)
			continue;
		/* a group holds at most ENG_GROUP_MAX jobs and ENG_GROUP_MAX_QD
		 * IOs in flight; the rest of a CPU's jobs make another */
		for (k = i, size = 0, qd = 0; k < n; k++) {
			if (jobs[k].cpu != jobs[i].cpu || jobs[k].group)
				continue;
			if (size == ENG_GROUP_MAX || qd + jobs[k].qd > ENG_GROUP_MAX_QD)
				break;
			jobs[k].group = i + 1;
			qd += jobs[k].qd;
			size++;
		}
		if (size < 2) {
			jobs[i].group = 0;
			continue;
		}
		shared += size;
		group_say(jobs, n, i, names, s->group == CLI_GROUP_ON ? "on" : "auto: polled");
	}
	return shared;
}
