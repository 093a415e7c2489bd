/* Hardware queues (block/DISK/mq/N) and where their interrupts land. The
 * nvme driver names a queue's vector CTRLqQID in /proc/interrupts, QID 0
 * being the admin queue, so hardware queue N is QID N+1; poll queues come
 * last in mq/ and have no vector at all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "setup/setup_int.h"

/* a read cpulist before it is cut to a whole range: blk-mq's spelling of
 * SETUP_MAX_CPUS CPUs one by one fits */
#define LIST_MAX (SETUP_MAX_CPUS * 8)

/* A list as sysfs writes it into a queue's set, and the set back as its
 * text (cut at a whole range); both stay empty for a list that is not one. */
static void cpus_of(const char *list, struct topo_cpuset *set, char *text, size_t len)
{
	if (setup_cpuset_read(list, set))
		return;
	/* a list longer than text is cut there; the set has it whole */
	topo_cpuset_format(set, text, len);
}

/* Whether tok is ctrl "q" QID exactly (nvme0q1, not nvme0q10 for q1):
 * the QID, or -1. */
static int queue_id(const char *tok, const char *ctrl)
{
	size_t n = strlen(ctrl);
	unsigned qid;
	int end = 0;

	if (strncmp(tok, ctrl, n) || tok[n] != 'q' ||
	    sscanf(tok + n + 1, "%u%n", &qid, &end) != 1 || tok[n + 1 + end] ||
	    tok[n + 1] < '0' || tok[n + 1] > '9' || qid > INT_MAX)
		return -1;
	return (int)qid;
}

/* One /proc/interrupts line: "  45:  0  12  PCI-MSIX-0000:01:00.0  1-edge
 * nvme0q1"; a shared vector lists its actions as "nvme0q0, nvme0q1". */
static void match_line(char *line, const char *ctrl, struct setup_dev *d, const int *num)
{
	char *tok, *save = NULL, *end;
	long irq;
	int qid;
	unsigned i;

	irq = strtol(line, &end, 10);
	if (end == line || *end != ':' || irq < 0 || irq > INT_MAX)
		return;
	for (tok = strtok_r(end + 1, " \t\n,", &save); tok; tok = strtok_r(NULL, " \t\n,", &save)) {
		qid = queue_id(tok, ctrl);
		if (qid < 1)
			continue;
		for (i = 0; i < d->nhwq; i++)
			if (num[i] + 1 == qid)
				d->hwq[i].irq = (int)irq;
	}
}

static void vectors(const struct setup_at *at, const char *ctrl, struct setup_dev *d,
		    const int *num, char *list)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned i;
	FILE *f;

	if (topo_sys_fopen(at->proc, &f, "interrupts"))
		return;
	while (getline(&line, &cap, f) > 0)
		match_line(line, ctrl, d, num);
	free(line);
	fclose(f);
	for (i = 0; i < d->nhwq; i++) {
		if (d->hwq[i].irq < 0)
			continue;
		d->nirq_queues++;
		if (!topo_sys_read(at->proc, list, LIST_MAX, "irq/%d/effective_affinity_list",
				d->hwq[i].irq))
			cpus_of(list, &d->hwq[i].irq_cpuset, d->hwq[i].irq_cpus,
				sizeof(d->hwq[i].irq_cpus));
	}
}

int setup_hwq_read(const struct setup_at *at, const char *ddir, const char *ctrl,
		   struct setup_dev *d)
{
	char (*names)[SETUP_NAME_MAX] = NULL, *list;
	int n, i, k, *num;
	unsigned q;

	n = topo_sys_list(at->sys, &names, "%s/mq", ddir);
	if (n <= 0)
		return n == -ENOMEM ? n : 0;	/* no mq/: a bio-based disk */
	d->hwq = calloc((size_t)n, sizeof(*d->hwq));
	num = calloc((size_t)n, sizeof(*num));
	list = malloc(LIST_MAX);
	if (!d->hwq || !num || !list) {
		free(list);
		free(num);
		free(d->hwq);
		d->hwq = NULL;
		free(names);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (sscanf(names[i], "%d%n", &num[d->nhwq], &k) != 1 || names[i][k] || num[d->nhwq] < 0)
			continue;
		q = d->nhwq++;
		d->hwq[q].irq = -1;
		/* blk-mq lists a queue's CPUs one by one, "0, 1, 2, 3" */
		if (!topo_sys_read(at->sys, list, LIST_MAX, "%s/mq/%s/cpu_list", ddir, names[i]))
			cpus_of(list, &d->hwq[q].cpuset, d->hwq[q].cpus, sizeof(d->hwq[q].cpus));
	}
	free(names);
	if (ctrl[0])
		vectors(at, ctrl, d, num, list);
	free(list);
	free(num);
	return 0;
}
