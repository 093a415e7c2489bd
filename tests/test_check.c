/* The software ceiling's rules on settings filled by hand: each rule fires
 * on the bad value, stays silent on the good one and on an unknown one
 * (-1, ""), and says now, better and the fix; devices' findings come
 * first, in table order, the machine's last; a loop device or a file gets
 * only the queue's findings; the table names every kind once, and
 * docs/check.md has a section for each and the sources it cites. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/check/fix_cmd.h"
#include "model/check.h"
#include "cli/words/findings_words.h"
#include "tests/check_said.h"
#include "tests/helpers.h"
#include "topo/cpu.h"

/* A queue's CPUs or its interrupt's, as setup/ reads them: the set, and
 * the list written back beside it. */
static void set_list(struct topo_cpuset *set, char *text, size_t len, const char *list)
{
	CHECKF(!topo_cpuset_parse(list, TOPO_CPULIST_SYSFS, set), "bad list '%s'", list);
	if (text)
		snprintf(text, len, "%s", list);
}

#define HWQ_CPUS(h, list) set_list(&(h).cpuset, (h).cpus, sizeof((h).cpus), list)
#define HWQ_IRQ(h, list) set_list(&(h).irq_cpuset, (h).irq_cpus, sizeof((h).irq_cpus), list)


#define NQ 8

static struct setup_machine mach;
static struct setup_hwq hwq[2][NQ];
static struct setup_dev devs[2];
static struct check_ask ask;
static struct check_finding *found;
static int nfound;

/* A machine that costs nothing: 8 CPUs, 0-3 on node 0 and 4-7 on node 1. */
static void good_machine(struct setup_machine *m)
{
	int cpu;

	memset(m, 0, sizeof(*m));
	snprintf(m->kernel, sizeof(m->kernel), "6.14.2-amd64");
	snprintf(m->arch, sizeof(m->arch), "x86_64");
	m->kernel_major = 6;
	m->kernel_minor = 14;
	snprintf(m->cmdline, sizeof(m->cmdline), "BOOT_IMAGE=/vmlinuz root=/dev/sda1 mitigations=off");
	m->sockets = 2;
	m->cores = 8;
	m->pus = 8;
	snprintf(m->smt_control, sizeof(m->smt_control), "off");
	m->smt_active = 0;
	snprintf(m->governor, sizeof(m->governor), "performance");
	m->ncpufreq = 8;
	m->ncpufreq_slow = 0;
	m->boost = 1;
	snprintf(m->idle_governor, sizeof(m->idle_governor), "menu");
	snprintf(m->deepest_cstate, sizeof(m->deepest_cstate), "C1");
	m->deepest_cstate_us = 2;
	m->vulns = (struct setup_vulns){ 1, 3, 16, 20, 0 };
	m->io_uring_disabled = 0;
	m->memlock_bytes = INT64_MAX;
	m->nvme_poll_queues = 4;
	m->nvme_write_queues = 0;
	m->nvme_ps_max_latency_us = 0;
	m->nvme_builtin = 0;
	m->io_uring_group = -1;
	m->numa_balancing = 0;
	m->nnodes = 2;
	m->selinux_enforce = -1;
	m->kconfig = (struct setup_kconfig){ 0, 0, 0, 0, 0, 250, 1, 1, 1, 1, 1, 0 };
	m->ncpus = 8;
	for (cpu = 0; cpu < SETUP_MAX_CPUS; cpu++)
		m->cpu_node[cpu] = -1;
	for (cpu = 0; cpu < 8; cpu++)
		m->cpu_node[cpu] = (short)(cpu / 4);
}

/* A machine of which nothing could be read. */
static void unknown_machine(struct setup_machine *m)
{
	int cpu;

	memset(m, 0, sizeof(*m));
	m->kernel_major = m->kernel_minor = -1;
	m->sockets = m->cores = m->pus = -1;
	m->smt_active = -1;
	m->ncpufreq = 0;
	m->ncpufreq_slow = 0;
	m->boost = -1;
	m->deepest_cstate_us = -1;
	m->io_uring_disabled = -1;
	m->memlock_bytes = -1;
	m->nvme_poll_queues = m->nvme_write_queues = -1;
	m->nvme_ps_max_latency_us = -1;
	m->nvme_builtin = -1;
	m->io_uring_group = -1;
	m->numa_balancing = -1;
	m->nnodes = -1;
	m->selinux_enforce = -1;
	m->kconfig = (struct setup_kconfig){ -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
	m->ncpus = 0;
	for (cpu = 0; cpu < SETUP_MAX_CPUS; cpu++)
		m->cpu_node[cpu] = -1;
}

/* An NVMe namespace that costs nothing: a queue per CPU, each queue's
 * interrupt on its own CPU, on node 0. */
static void good_dev(struct setup_dev *d, struct setup_hwq *q, unsigned ctrl)
{
	unsigned i;

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "nvme%un1", ctrl);
	snprintf(d->disk, sizeof(d->disk), "nvme%un1", ctrl);
	d->nvme = true;
	snprintf(d->controller, sizeof(d->controller), "nvme%u", ctrl);
	snprintf(d->pci, sizeof(d->pci), "0000:0%u:00.0", ctrl + 1);
	d->capacity_bytes = (int64_t)1 << 40;
	d->logical_block_size = 512;
	snprintf(d->scheduler, sizeof(d->scheduler), "none");
	d->iostats = 0;
	d->nomerges = 2;
	d->io_poll = 1;
	d->rotational = 0;
	d->wbt_lat_usec = 0;
	d->nr_requests = 1023;
	d->numa_node = 0;
	snprintf(d->iommu_type, sizeof(d->iommu_type), "identity");
	d->link_gts = d->link_max_gts = 16;
	d->link_width = d->link_max_width = 4;
	d->apst_latency_us = 0;
	d->apst_supported = 1;
	d->iostats_passthrough = 0;
	d->rq_affinity = 1;
	d->read_ahead_kb = 128;
	d->power_state = d->apst_enabled = -1;	/* it does not answer Get Features */
	d->l1_aspm = d->l0s_aspm = 0;
	d->cg_riops = d->cg_rbps = d->cg_latency_us = -1;
	d->cg_iocost = 0;
	snprintf(d->devt, sizeof(d->devt), "259:%u", ctrl);
	snprintf(d->cgroup, sizeof(d->cgroup), "/user.slice");
	for (i = 0; i < NQ; i++) {
		char one[12];

		snprintf(one, sizeof(one), "%u", i);
		HWQ_CPUS(q[i], one);
		q[i].irq = 100 + (int)(ctrl * NQ + i);
		HWQ_IRQ(q[i], one);
	}
	d->nhwq = NQ;
	d->hwq = q;
	d->nirq_queues = NQ;
}

/* A device of which nothing but its name could be read. */
static void unknown_dev(struct setup_dev *d, bool nvme)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "nvme0n1");
	d->nvme = nvme;
	d->capacity_bytes = -1;
	d->logical_block_size = -1;
	d->iostats = d->nomerges = d->io_poll = d->rotational = -1;
	d->wbt_lat_usec = -1;
	d->nr_requests = -1;
	d->numa_node = -1;
	d->link_gts = d->link_max_gts = -1;
	d->link_width = d->link_max_width = -1;
	d->apst_latency_us = -1;
	d->apst_supported = -1;
	d->iostats_passthrough = -1;
	d->rq_affinity = -1;
	d->read_ahead_kb = -1;
	d->power_state = d->apst_enabled = -1;
	d->l1_aspm = d->l0s_aspm = -1;
	d->cg_riops = d->cg_rbps = d->cg_latency_us = -1;
	d->cg_iocost = -1;
}

/* A Debian machine's tools: the fixes' text as cli/ builds it there. */
static const struct cli_boot debian = { "/etc/default/grub", "update-grub", false,
					"update-initramfs -u", "reboot" };
static char fixbuf[CLI_FIX_MAX];

static const char *fixtext(const struct check_finding *f)
{
	fixbuf[0] = '\0';
	if (f && cli_fix_text(f, &debian, fixbuf, sizeof(fixbuf)) < 0)
		t_note_fail(__FILE__, __LINE__, "the fix's text does not fit");
	return fixbuf;
}

static void reset(void)
{
	good_machine(&mach);
	good_dev(&devs[0], hwq[0], 0);
	good_dev(&devs[1], hwq[1], 1);
	ask = (struct check_ask){ .qd = 32, .workers_per_dev = 4 };
}

static void run(unsigned ndevs)
{
	free(found);
	found = NULL;
	nfound = check_findings(&mach, devs, ndevs, &ask, &found);
	CHECKF(nfound >= 0, "check_findings: %d", nfound);
	if (nfound == 0)
		CHECK(found == NULL);
}

static void show(void)
{
	int i;

	for (i = 0; i < nfound; i++)
		fprintf(stderr, "  found %s dev %d: now '%s' better '%s' fix '%s'\n",
			check_kind_info(found[i].kind)->name, found[i].dev, said_now(&found[i]),
			said_better(&found[i]), fixtext(&found[i]));
}

static int count(enum check_kind k)
{
	int i, n = 0;

	for (i = 0; i < nfound; i++)
		n += found[i].kind == k;
	return n;
}

static const struct check_finding *find(enum check_kind k)
{
	int i;

	for (i = 0; i < nfound; i++)
		if (found[i].kind == k)
			return &found[i];
	return NULL;
}

/* Runs on one device and checks that the only finding is one of kind k,
 * with all three texts said; returns it, or NULL. */
static const struct check_finding *one(enum check_kind k, int line)
{
	run(1);
	if (nfound != 1 || found[0].kind != k) {
		fprintf(stderr, "%s:%d: want one %s, got %d:\n", __FILE__, line,
			check_kind_info(k)->name, nfound);
		show();
		t_note_fail(__FILE__, line, "one finding of the kind");
		return NULL;
	}
	CHECK(found[0].dev == (check_kind_info(k)->scope == CHECK_SCOPE_DEVICE ? 0 : -1));
	CHECK(*said_now(&found[0]) && *said_better(&found[0]) && *fixtext(&found[0]));
	CHECK(strlen(said_now(&found[0])) < CLI_CHECK_WORDS_MAX - 1);
	CHECK(strlen(said_better(&found[0])) < CLI_CHECK_WORDS_MAX - 1);

	return &found[0];
}

static void none_at(int line)
{
	run(1);
	if (nfound) {
		fprintf(stderr, "%s:%d: want no finding, got %d:\n", __FILE__, line, nfound);
		show();
		t_note_fail(__FILE__, line, "no finding");
	}
}

#define ONE(k) one(k, __LINE__)
#define NONE() none_at(__LINE__)
#define TEXT(f, field, want) do {					\
	if (f)								\
		CHECKF(!strcmp(said(f, field), want), "%s: '%s', want '%s'", \
		       #field, said(f, field), want);			\
} while (0)
#define FIX_IS(f, want) do {						\
	if (f)								\
		CHECKF(!strcmp(fixtext(f), want), "fix: '%s', want '%s'",	\
		       fixbuf, want);					\
} while (0)
#define FIX_HAS(f, part) do {						\
	if (f)								\
		CHECKF(strstr(fixtext(f), part) != NULL, "fix: '%s' lacks '%s'", \
		       fixbuf, part);					\
} while (0)
/* A fix on the kernel command line: param=value, dropping drop. */
#define CMDLINE(f, param, val, dr) do {					\
	if (f)								\
		CHECKF((f)->fix.act == CHECK_ACT_CMDLINE &&		\
		       !strcmp((f)->fix.key, param) && !strcmp((f)->fix.value, val) && \
		       !strcmp((f)->fix.drop, dr),			\
		       "fix: act %d %s=%s drop '%s'", (f)->fix.act, (f)->fix.key, \
		       (f)->fix.value, (f)->fix.drop);			\
} while (0)
/* A fix that writes val into /sys/path. */
#define SYSFS(f, path, val) do {					\
	if (f)								\
		CHECKF((f)->fix.act == CHECK_ACT_SYSFS && !strcmp((f)->fix.key, path) && \
		       !strcmp((f)->fix.value, val), "fix: act %d %s <- %s",	\
		       (f)->fix.act, (f)->fix.key, (f)->fix.value);	\
} while (0)
#define HOLDS(f, field, part) do {					\
	if (f)								\
		CHECKF(strstr(said(f, field), part) != NULL, "%s: '%s' lacks '%s'", \
		       #field, said(f, field), part);			\
} while (0)

static void test_clean(void)
{
	reset();
	NONE();
	run(2);
	CHECKF(nfound == 0, "two good drives: %d findings", nfound);
	/* a polled run on drives with poll queues */
	ask.poll = true;
	NONE();
}

/* Nothing known: no finding, whatever the run asks. */
static void test_unknown(void)
{
	unknown_machine(&mach);
	unknown_dev(&devs[0], true);
	unknown_dev(&devs[1], false);
	snprintf(devs[1].disk, sizeof(devs[1].disk), "loop3");
	ask = (struct check_ask){ .qd = 128, .workers_per_dev = 8, .poll = true, .hybrid = true,
				  .passthrough = true, .fixed_buffer_bytes = 1 << 30 };
	run(2);
	CHECKF(nfound == 0, "unknown facts: %d findings", nfound);
	if (nfound)
		show();
	ask.poll = ask.hybrid = false;
	run(2);
	CHECKF(nfound == 0, "unknown facts, irq: %d findings", nfound);
	/* a known disk, its queue's facts unknown */
	snprintf(devs[0].disk, sizeof(devs[0].disk), "nvme0n1");
	run(1);
	CHECKF(nfound == 0, "unknown queue: %d findings", nfound);
}

static void test_iommu(void)
{
	const struct check_finding *f;

	reset();
	snprintf(devs[0].iommu_type, sizeof(devs[0].iommu_type), "DMA");
	f = ONE(CHECK_IOMMU_STRICT);
	TEXT(f, now, "DMA (strict)");
	TEXT(f, better, "identity (passthrough)");
	/* x86's own parameter, and the generic one it must outlast */
	CMDLINE(f, "iommu", "pt", "iommu.passthrough");
	FIX_HAS(f, "\\1iommu=pt /;t");
	FIX_HAS(f, "update-grub && reboot");
	FIX_HAS(f, "iommu.strict=0");
	snprintf(devs[0].iommu_type, sizeof(devs[0].iommu_type), "DMA-FQ");
	f = ONE(CHECK_IOMMU_LAZY);
	TEXT(f, now, "DMA-FQ (lazy)");
	CMDLINE(f, "iommu", "pt", "iommu.passthrough");
	/* iommu=pt is x86's alone: arm64 (and an unknown arch) get the
	 * generic parameter */
	snprintf(mach.arch, sizeof(mach.arch), "aarch64");
	f = ONE(CHECK_IOMMU_LAZY);
	CMDLINE(f, "iommu.passthrough", "1", "iommu");
	CHECKF(f && !strstr(fixtext(f), "iommu=pt"), "arm64: %s", fixbuf);
	mach.arch[0] = '\0';
	f = ONE(CHECK_IOMMU_LAZY);
	CMDLINE(f, "iommu.passthrough", "1", "iommu");
	snprintf(devs[0].iommu_type, sizeof(devs[0].iommu_type), "identity");
	NONE();
	devs[0].iommu_type[0] = '\0';
	NONE();
}

static void test_scheduler(void)
{
	const struct check_finding *f;

	reset();
	snprintf(devs[0].scheduler, sizeof(devs[0].scheduler), "mq-deadline");
	f = ONE(CHECK_SCHEDULER);
	TEXT(f, now, "mq-deadline");
	TEXT(f, better, "none");
	FIX_IS(f, "echo none > /sys/block/nvme0n1/queue/scheduler");
	SYSFS(f, "block/nvme0n1/queue/scheduler", "none");
	/* the legacy block layer's offer no none */
	snprintf(devs[0].scheduler, sizeof(devs[0].scheduler), "cfq");
	NONE();
	snprintf(devs[0].scheduler, sizeof(devs[0].scheduler), "none");
	NONE();
	devs[0].scheduler[0] = '\0';
	NONE();
}

static void test_iostats(void)
{
	const struct check_finding *f;

	reset();
	devs[0].iostats = 1;
	f = ONE(CHECK_IOSTATS);
	TEXT(f, now, "1");
	TEXT(f, better, "0");
	FIX_IS(f, "echo 0 > /sys/block/nvme0n1/queue/iostats");
	SYSFS(f, "block/nvme0n1/queue/iostats", "0");
	devs[0].iostats = 0;
	NONE();
	devs[0].iostats = -1;
	NONE();
}

/* A passthrough run is accounted only where iostats and
 * iostats_passthrough are both 1 (6.13 on); before 6.13 (no such file)
 * never: iostats alone costs it nothing. */
static void test_iostats_passthrough(void)
{
	const struct check_finding *f;

	reset();
	ask.passthrough = true;
	devs[0].iostats = 1;
	devs[0].iostats_passthrough = 0;
	NONE();
	devs[0].iostats_passthrough = -1;	/* before 6.13 */
	NONE();
	devs[0].iostats_passthrough = 1;
	f = ONE(CHECK_IOSTATS_PASSTHROUGH);
	TEXT(f, now, "1");
	TEXT(f, better, "0");
	SYSFS(f, "block/nvme0n1/queue/iostats_passthrough", "0");
	FIX_IS(f, "echo 0 > /sys/block/nvme0n1/queue/iostats_passthrough");
	/* iostats 0 turns off both */
	devs[0].iostats = 0;
	NONE();
	/* block IO pays for iostats, never for iostats_passthrough */
	ask.passthrough = false;
	devs[0].iostats = 1;
	ONE(CHECK_IOSTATS);
	devs[0].iostats = 0;
	NONE();
}

static void test_nomerges(void)
{
	const struct check_finding *f;

	reset();
	devs[0].nomerges = 0;
	f = ONE(CHECK_NOMERGES);
	TEXT(f, now, "0");
	TEXT(f, better, "2");
	FIX_IS(f, "echo 2 > /sys/block/nvme0n1/queue/nomerges");
	SYSFS(f, "block/nvme0n1/queue/nomerges", "2");
	devs[0].nomerges = 1;
	f = ONE(CHECK_NOMERGES);
	TEXT(f, now, "1");
	devs[0].nomerges = 2;
	NONE();
	devs[0].nomerges = -1;
	NONE();
}

static void test_wbt(void)
{
	const struct check_finding *f;

	reset();
	devs[0].wbt_lat_usec = 2000;
	/* wbt_should_throttle throttles writes and discards only: a read-only
	 * run is not told (docs/check.md#wbt measures what it costs a read) */
	NONE();
	ask.writes = true;
	f = ONE(CHECK_WBT);
	TEXT(f, now, "2000");
	TEXT(f, better, "0");
	FIX_IS(f, "echo 0 > /sys/block/nvme0n1/queue/wbt_lat_usec");
	SYSFS(f, "block/nvme0n1/queue/wbt_lat_usec", "0");
	devs[0].wbt_lat_usec = 0;
	NONE();
	devs[0].wbt_lat_usec = -1;
	NONE();
}

/* Each hardware queue holds the IOs of the workers on it: 4 workers on 8
 * queues need 32 (qd) each, on 2 queues 64, on an unknown count 128. */
/* A multipath head before 6.5 shows nr_requests 128 on its bio-based
 * queue: no IO waits on it (nvme_ns_head_submit_bio hands each bio to a
 * path) and queue_requests_store refuses it, so only the path's counts. */
static void nr_requests_head(void)
{
	static struct setup_dev path;
	const struct check_finding *f;

	reset();
	ask.qd = 512;
	ask.workers_per_dev = 1;
	path = devs[0];
	path.nhwq = path.nirq_queues = 0;
	path.hwq = NULL;
	snprintf(path.name, sizeof(path.name), "nvme0c0n1");
	snprintf(path.disk, sizeof(path.disk), "nvme0c0n1");
	path.nr_requests = 1023;
	devs[0].paths = &path;
	devs[0].npaths = 1;
	devs[0].nr_requests = 128;
	NONE();
	path.nr_requests = 64;
	f = ONE(CHECK_PATH_NR_REQUESTS);
	FIX_IS(f, "echo 512 > /sys/block/nvme0c0n1/queue/nr_requests");
	devs[0].paths = NULL;
	devs[0].npaths = 0;
	f = ONE(CHECK_NR_REQUESTS);
	FIX_IS(f, "echo 512 > /sys/block/nvme0n1/queue/nr_requests");
}

static void test_nr_requests(void)
{
	const struct check_finding *f;

	reset();
	devs[0].nr_requests = 31;
	f = ONE(CHECK_NR_REQUESTS);
	TEXT(f, now, "31");
	TEXT(f, better, "32");
	FIX_IS(f, "echo 32 > /sys/block/nvme0n1/queue/nr_requests");
	devs[0].nr_requests = 32;
	NONE();
	/* two queues for four workers: few_queues says so too */
	devs[0].nhwq = devs[0].nirq_queues = 2;
	run(1);
	f = find(CHECK_NR_REQUESTS);
	CHECKF(f && nfound == 2, "%d findings", nfound);
	TEXT(f, better, "64");
	devs[0].nr_requests = 64;
	run(1);
	CHECKF(!find(CHECK_NR_REQUESTS) && nfound == 1, "%d findings", nfound);
	devs[0].nhwq = devs[0].nirq_queues = 0;
	devs[0].nr_requests = 127;
	f = ONE(CHECK_NR_REQUESTS);
	TEXT(f, better, "128");
	devs[0].nr_requests = 128;
	NONE();
	/* a need beyond the cap asks for the cap */
	reset();
	ask.qd = 4096;
	devs[0].nr_requests = CHECK_NR_REQUESTS_CAP - 1;
	f = ONE(CHECK_NR_REQUESTS);
	FIX_IS(f, "echo 2048 > /sys/block/nvme0n1/queue/nr_requests");
	devs[0].nr_requests = CHECK_NR_REQUESTS_CAP;
	NONE();
	nr_requests_head();
	devs[0].nr_requests = -1;
	NONE();
}

/* rq_affinity 2 sends every completion back to its submitting CPU by an
 * IPI: a cost where a queue's interrupt serves several CPUs. */
static void test_rq_affinity(void)
{
	const struct check_finding *f;

	reset();
	devs[0].rq_affinity = 2;
	/* a queue per CPU: the interrupt lands on the submitter */
	NONE();
	devs[0].nhwq = devs[0].nirq_queues = 2;
	ask.workers_per_dev = 2;
	f = ONE(CHECK_RQ_AFFINITY);
	TEXT(f, now, "2 (2 interrupt queues for 8 CPUs: an IPI per completion)");
	SYSFS(f, "block/nvme0n1/queue/rq_affinity", "1");
	/* polled completions are the submitter's own */
	ask.poll = true;
	NONE();
	ask.poll = false;
	devs[0].rq_affinity = 1;
	NONE();
	devs[0].rq_affinity = -1;
	NONE();
}

/* Readahead costs only reads through the page cache. */
static void test_read_ahead(void)
{
	const struct check_finding *f;

	reset();
	NONE();
	ask.buffered = true;
	ask.bs = 4096;
	f = ONE(CHECK_READ_AHEAD);
	TEXT(f, now, "128 KiB");
	SYSFS(f, "block/nvme0n1/queue/read_ahead_kb", "0");
	/* no more than the IO asks for */
	devs[0].read_ahead_kb = 4;
	NONE();
	ask.bs = 1 << 20;
	devs[0].read_ahead_kb = 1024;
	NONE();
	devs[0].read_ahead_kb = -1;
	NONE();
}

static void test_poll_queues(void)
{
	const struct check_finding *f;

	reset();
	ask.poll = true;
	devs[0].io_poll = 0;
	f = ONE(CHECK_NO_POLL_QUEUES);
	TEXT(f, now, "no poll queues");
	TEXT(f, better, "poll_queues=4");
	FIX_IS(f, "echo \"options nvme poll_queues=4\" > /etc/modprobe.d/nvme-poll_queues.conf"
	     " && update-initramfs -u && reboot");
	/* nvme built in ignores modprobe.d: the kernel command line */
	mach.nvme_builtin = 1;
	f = ONE(CHECK_NO_POLL_QUEUES);
	CHECK(f && f->fix.act == CHECK_ACT_MODULE && f->fix.builtin);
	FIX_HAS(f, "\\1nvme.poll_queues=4 /;t");
	CHECKF(f && !strstr(fixtext(f), "modprobe.d"), "built in: %s", fixbuf);
	/* where the initramfs tool is not known, the fix says so */
	mach.nvme_builtin = 0;
	f = ONE(CHECK_NO_POLL_QUEUES);
	if (f) {
		struct cli_boot bare = { "", "", false, "", "reboot" };

		cli_fix_text(f, &bare, fixbuf, sizeof(fixbuf));
		CHECKF(!strstr(fixbuf, "update-initramfs") && strstr(fixbuf, "rebuild the initramfs"),
		       "no initramfs tool: %s", fixbuf);
	}
	/* io_poll unknown: the module's parameter says */
	devs[0].io_poll = -1;
	mach.nvme_poll_queues = 0;
	ONE(CHECK_NO_POLL_QUEUES);
	mach.nvme_poll_queues = -1;
	NONE();
	/* io_poll known wins over the module */
	devs[0].io_poll = 1;
	mach.nvme_poll_queues = 0;
	NONE();
	devs[0].io_poll = 0;
	ask.poll = false;
	NONE();
}

static void test_write_queues(void)
{
	const struct check_finding *f;

	reset();
	mach.nvme_write_queues = 2;
	f = ONE(CHECK_WRITE_QUEUES);
	TEXT(f, now, "write_queues=2");
	TEXT(f, better, "write_queues=0");
	FIX_HAS(f, "options nvme write_queues=0");
	mach.nvme_write_queues = 0;
	NONE();
	mach.nvme_write_queues = -1;
	NONE();
}

static void test_apst(void)
{
	const struct check_finding *f;

	reset();
	devs[0].apst_latency_us = 100000;
	f = ONE(CHECK_APST);
	TEXT(f, now, "pm_qos_latency_tolerance_us 100000");
	TEXT(f, better, "0 (APST off)");
	SYSFS(f, "class/nvme/nvme0/power/pm_qos_latency_tolerance_us", "0");
	FIX_HAS(f, "echo 0 > /sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us");
	FIX_HAS(f, "# lasting: nvme_core.default_ps_max_latency_us=0 on the kernel command line");
	/* "any" and "auto" are no limit at all */
	devs[0].apst_latency_us = INT64_MAX;
	f = ONE(CHECK_APST);
	TEXT(f, now, "pm_qos_latency_tolerance_us any (no limit)");
	/* a steady run (a closed loop) never idles the drive long enough */
	ask.steady = true;
	NONE();
	ask.steady = false;
	/* a controller without APST has no such file, whatever the module's
	 * default says: nothing to turn off */
	devs[0].apst_supported = 0;
	devs[0].apst_latency_us = -1;
	mach.nvme_ps_max_latency_us = 100000;
	NONE();
	/* not known whether it has APST: nothing said */
	devs[0].apst_supported = -1;
	NONE();
	/* the controller's own 0 wins over the module's default */
	devs[0].apst_supported = 1;
	devs[0].apst_latency_us = 0;
	NONE();
	/* the drive's own word wins over both: on, with the limit at 0 */
	devs[0].apst_enabled = 1;
	devs[0].power_state = 3;
	f = ONE(CHECK_APST);
	TEXT(f, now, "APST on in the drive, the drive in power state 3 now");
	SYSFS(f, "class/nvme/nvme0/power/pm_qos_latency_tolerance_us", "0");
	/* on in the drive, no file: the command line */
	devs[0].apst_supported = 0;
	f = ONE(CHECK_APST);
	CMDLINE(f, "nvme_core.default_ps_max_latency_us", "0", "");
	devs[0].apst_supported = 1;
	/* off in the drive, whatever the kernel's limit */
	devs[0].apst_enabled = 0;
	devs[0].apst_latency_us = 100000;
	NONE();
	/* its power state is said beside the kernel's limit */
	devs[0].apst_enabled = 1;
	devs[0].power_state = 0;
	f = ONE(CHECK_APST);
	TEXT(f, now, "pm_qos_latency_tolerance_us 100000, the drive in power state 0");
}

/* ASPM costs the first IO after an idle gap: not a steady run. */
static void test_aspm(void)
{
	const struct check_finding *f;

	reset();
	devs[0].l1_aspm = 1;
	snprintf(mach.aspm_policy, sizeof(mach.aspm_policy), "default");
	f = ONE(CHECK_ASPM);
	TEXT(f, now, "L1 on (pcie_aspm.policy default)");
	SYSFS(f, "bus/pci/devices/0000:01:00.0/link/l1_aspm", "0");
	FIX_HAS(f, "# lasting: pcie_aspm.policy=performance on the kernel command line");
	ask.steady = true;
	NONE();
	ask.steady = false;
	devs[0].l1_aspm = 0;
	devs[0].l0s_aspm = 1;
	f = ONE(CHECK_ASPM);
	SYSFS(f, "bus/pci/devices/0000:01:00.0/link/l0s_aspm", "0");
	devs[0].l0s_aspm = -1;
	devs[0].l1_aspm = -1;
	NONE();
}

/* io.max caps the cgroup's IOs; the fix lifts it where it was found. */
static void test_blk_cgroup(void)
{
	const struct check_finding *f;

	reset();
	devs[0].cg_riops = 10000;
	snprintf(devs[0].cg_max_at, sizeof(devs[0].cg_max_at), "/system.slice");
	f = ONE(CHECK_BLK_CGROUP);
	TEXT(f, now, "io.max riops=10000 in cgroup /system.slice");
	SYSFS(f, "fs/cgroup/system.slice/io.max", "259:0 riops=max rbps=max");
	FIX_IS(f, "echo '259:0 riops=max rbps=max' > /sys/fs/cgroup/system.slice/io.max");
	devs[0].cg_riops = -1;
	NONE();
	devs[0].cg_iocost = 1;
	f = ONE(CHECK_BLK_CGROUP);
	SYSFS(f, "fs/cgroup/io.cost.qos", "259:0 enable=0");
	/* cgroup v1: the own cgroup's blkio.throttle file, one limit each */
	devs[0].cg_iocost = 0;
	devs[0].cg_v1 = true;
	devs[0].cg_riops = 20000;
	snprintf(devs[0].cg_max_at, sizeof(devs[0].cg_max_at), "/system.slice/a.service");
	f = ONE(CHECK_BLK_CGROUP);
	CHECKF(f && f->form == CHECK_FORM_CG_V1, "form %d", f ? (int)f->form : -1);
	TEXT(f, now, "blkio.throttle read_iops_device=20000 in cgroup v1 /system.slice/a.service");
	TEXT(f, better, "no blkio.throttle read limit on 259:0");
	SYSFS(f, "fs/cgroup/blkio/system.slice/a.service/blkio.throttle.read_iops_device", "259:0 0");
	devs[0].cg_riops = -1;
	devs[0].cg_rbps = 1 << 20;
	snprintf(devs[0].cg_max_at, sizeof(devs[0].cg_max_at), "/");
	f = ONE(CHECK_BLK_CGROUP);
	SYSFS(f, "fs/cgroup/blkio/blkio.throttle.read_bps_device", "259:0 0");
	devs[0].cg_rbps = -1;
	NONE();
	devs[0].cg_v1 = false;
	/* the disk's number unknown: nothing to write */
	devs[0].devt[0] = '\0';
	NONE();
}

static void test_link(void)
{
	const struct check_finding *f;

	reset();
	devs[0].link_gts = 8;
	devs[0].link_width = 2;
	f = ONE(CHECK_LINK);
	TEXT(f, now, "8 GT/s x2");
	TEXT(f, better, "16 GT/s x4");
	FIX_HAS(f, "reseat 0000:01:00.0 in a slot of full width (x4)");
	devs[0].link_gts = 16;
	f = ONE(CHECK_LINK);
	TEXT(f, now, "16 GT/s x2");
	devs[0].link_width = 4;
	devs[0].link_gts = 2.5;
	f = ONE(CHECK_LINK);
	TEXT(f, now, "2.5 GT/s x4");
	devs[0].link_gts = 16;
	NONE();
	devs[0].link_gts = 8;
	devs[0].link_max_gts = -1;
	NONE();
	devs[0].link_max_gts = 16;
	devs[0].link_gts = -1;
	NONE();
	devs[0].link_gts = 16;
	devs[0].link_max_width = -1;
	devs[0].link_width = 2;
	NONE();
	devs[0].link_max_width = 4;
	devs[0].link_max_gts = 16;
	devs[0].link_width = -1;
	devs[0].link_gts = 16;
	NONE();
}

static void test_few_queues(void)
{
	const struct check_finding *f;

	reset();
	devs[0].nhwq = devs[0].nirq_queues = 3;
	f = ONE(CHECK_FEW_QUEUES);
	TEXT(f, now, "3 interrupt queues for 4 workers");
	TEXT(f, better, "a queue per worker (4)");
	FIX_IS(f, "--jobs-per-device 3");
	devs[0].nhwq = devs[0].nirq_queues = 4;
	NONE();
	/* no interrupt found: /proc/interrupts was not read */
	devs[0].nhwq = 2;
	devs[0].nirq_queues = 0;
	NONE();
	/* polled: the queues without an interrupt count */
	reset();
	ask.poll = true;
	devs[0].hwq[6].irq = devs[0].hwq[7].irq = -1;
	devs[0].nirq_queues = 6;
	f = ONE(CHECK_FEW_QUEUES);
	TEXT(f, now, "2 poll queues for 4 workers");
	FIX_HAS(f, "options nvme poll_queues=4");
	devs[0].hwq[2].irq = devs[0].hwq[3].irq = -1;
	devs[0].nirq_queues = 4;
	NONE();
	/* no interrupt found is not "all poll queues" */
	devs[0].nhwq = 2;
	devs[0].nirq_queues = 0;
	NONE();
}

static void all_irqs_on(struct setup_dev *d, const char *cpus)
{
	unsigned q;

	for (q = 0; q < d->nhwq; q++)
		HWQ_IRQ(d->hwq[q], cpus);
}

static void test_one_cpu_irqs(void)
{
	const struct check_finding *f;

	reset();
	all_irqs_on(&devs[0], "0");
	f = ONE(CHECK_ONE_CPU_IRQS);
	TEXT(f, now, "every queue's interrupt lands on CPU 0");
	/* nvme's vectors are the kernel's: the fix is a run that polls */
	FIX_HAS(f, "--completion poll");
	CHECKF(f && !strstr(fixtext(f), "smp_affinity"), "an nvme vector cannot be moved: %s",
	       fixbuf);
	/* a poll queue's missing interrupt does not count */
	devs[0].hwq[7].irq = -1;
	HWQ_IRQ(devs[0].hwq[7], "");
	ONE(CHECK_ONE_CPU_IRQS);
	/* one worker on one drive: nobody shares the CPU */
	ask.workers_per_dev = 1;
	NONE();
	/* ... but a second drive's interrupts on the same CPU do */
	all_irqs_on(&devs[1], "0");
	run(2);
	CHECKF(count(CHECK_ONE_CPU_IRQS) == 2 && nfound == 2, "%d of %d", count(CHECK_ONE_CPU_IRQS),
	       nfound);
	/* ... also a second namespace of the same controller */
	snprintf(devs[1].controller, sizeof(devs[1].controller), "nvme0");
	run(2);
	CHECKF(count(CHECK_ONE_CPU_IRQS) == 2 && nfound == 2, "%d of %d", count(CHECK_ONE_CPU_IRQS),
	       nfound);
	snprintf(devs[1].controller, sizeof(devs[1].controller), "nvme1");
	/* the second drive's on CPU 5 (node 1): that one is remote, and
	 * neither shares a CPU */
	all_irqs_on(&devs[1], "5");
	run(2);
	CHECKF(nfound == 1 && found[0].kind == CHECK_IRQ_REMOTE && found[0].dev == 1,
	       "%d findings", nfound);
	ask.workers_per_dev = 4;
	all_irqs_on(&devs[0], "0-1");
	NONE();
	all_irqs_on(&devs[0], "0");
	HWQ_IRQ(devs[0].hwq[3], "");
	NONE();
}

/* Node 0's CPUs 0-3, node 1's 4-7. Queues 0 and 1 interrupt CPU 4. */
static void test_irq_remote(void)
{
	struct topo_cpuset cpus[2];
	const struct check_finding *f;

	reset();
	HWQ_IRQ(devs[0].hwq[0], "4");
	HWQ_IRQ(devs[0].hwq[1], "4-5");
	f = ONE(CHECK_IRQ_REMOTE);
	TEXT(f, now, "CPUs 0-1 (node 0) take their interrupts on node 1");
	TEXT(f, better, "each worker's queue interrupts its own node");
	FIX_IS(f, "--cpus 2-3");
	/* the workers asked are the ones looked at */
	topo_cpuset_zero(&cpus[1]);
	ask.worker_cpus = cpus;
	set_list(&cpus[0], NULL, 0, "1,3");
	f = ONE(CHECK_IRQ_REMOTE);
	TEXT(f, now, "CPUs 1 (node 0) take their interrupts on node 1");
	set_list(&cpus[0], NULL, 0, "2-3");
	NONE();
	/* a worker on node 1 whose interrupt lands on node 1 is local,
	 * though the drive is on node 0 */
	set_list(&cpus[0], NULL, 0, "4-7");
	NONE();
	HWQ_IRQ(devs[0].hwq[5], "1");
	f = ONE(CHECK_IRQ_REMOTE);
	TEXT(f, now, "CPUs 5 (node 1) take their interrupts on node 0");
	ask.worker_cpus = NULL;
	HWQ_IRQ(devs[0].hwq[5], "5");
	/* no local CPU left: the fix moves the vector */
	HWQ_IRQ(devs[0].hwq[2], "6");
	HWQ_IRQ(devs[0].hwq[3], "7");
	f = ONE(CHECK_IRQ_REMOTE);
	TEXT(f, now, "CPUs 0-3 (node 0) take their interrupts on node 1");
	FIX_HAS(f, "--completion poll");
	CHECKF(f && !strstr(fixtext(f), "smp_affinity"), "an nvme vector cannot be moved: %s",
	       fixbuf);
	/* polled IO takes no interrupt */
	ask.poll = true;
	NONE();
	ask.poll = false;
	/* unknown: the drive's node, the CPUs' nodes, the interrupt's CPUs */
	devs[0].numa_node = -1;
	NONE();
	devs[0].numa_node = 0;
	mach.cpu_node[4] = mach.cpu_node[5] = mach.cpu_node[6] = mach.cpu_node[7] = -1;
	NONE();
	reset();
	HWQ_IRQ(devs[0].hwq[0], "");
	NONE();
}

static void test_governor(void)
{
	const struct check_finding *f;

	reset();
	snprintf(mach.governor, sizeof(mach.governor), "powersave");
	mach.ncpufreq_slow = 3;
	f = ONE(CHECK_GOVERNOR);
	TEXT(f, now, "powersave (3 of 8 CPUs not performance)");
	TEXT(f, better, "performance");
	FIX_IS(f, "cpupower frequency-set -g performance");
	mach.ncpufreq_slow = 0;
	NONE();
	mach.ncpufreq = 0;
	mach.ncpufreq_slow = 3;
	NONE();
}

static void test_boost(void)
{
	const struct check_finding *f;

	reset();
	mach.boost = 0;
	f = ONE(CHECK_BOOST);
	SYSFS(f, "devices/system/cpu/cpufreq/boost", "1");
	FIX_IS(f, "echo 1 > /sys/devices/system/cpu/cpufreq/boost");
	/* read from intel_pstate: the fix writes there */
	mach.boost_no_turbo = true;
	f = ONE(CHECK_BOOST);
	SYSFS(f, "devices/system/cpu/intel_pstate/no_turbo", "0");
	mach.boost_no_turbo = false;
	mach.boost = 1;
	NONE();
	mach.boost = -1;
	NONE();
}

static void test_cstate(void)
{
	const struct check_finding *f;

	reset();
	snprintf(mach.deepest_cstate, sizeof(mach.deepest_cstate), "C6");
	mach.deepest_cstate_us = 133;
	f = ONE(CHECK_CSTATE);
	TEXT(f, now, "C6, exit latency 133 us (idle governor menu)");
	TEXT(f, better, "no state deeper than 10 us");
	/* -D N disables N and above: a state of exactly 10 us is kept */
	FIX_IS(f, "cpupower idle-set -D 11");
	CHECK(f && f->fix.act == CHECK_ACT_IDLE_BELOW && atoi(f->fix.value) == CHECK_CSTATE_MAX_US + 1);
	mach.deepest_cstate_us = CHECK_CSTATE_MAX_US + 1;
	ONE(CHECK_CSTATE);
	mach.deepest_cstate_us = CHECK_CSTATE_MAX_US;
	NONE();
	mach.deepest_cstate_us = -1;
	NONE();
	mach.deepest_cstate_us = 133;
	mach.deepest_cstate[0] = '\0';
	NONE();
	/* the idle governor is said in the cstate finding, never alone */
	snprintf(mach.idle_governor, sizeof(mach.idle_governor), "haltpoll");
	NONE();
	snprintf(mach.deepest_cstate, sizeof(mach.deepest_cstate), "C6");
	f = ONE(CHECK_CSTATE);
	HOLDS(f, now, "haltpoll");
}

static void test_smt(void)
{
	const struct check_finding *f;

	reset();
	mach.smt_active = 1;
	mach.cores = 4;
	mach.pus = 8;
	/* a worker per core at most: no sibling is shared */
	ask.workers_per_dev = 4;
	NONE();
	ask.workers_per_dev = 5;
	f = ONE(CHECK_SMT);
	TEXT(f, now, "on, 5 workers on 4 cores (8 CPUs)");
	TEXT(f, better, "one worker per core");
	FIX_HAS(f, "echo off > /sys/devices/system/cpu/smt/control");
	mach.smt_active = 0;
	NONE();
	mach.smt_active = -1;
	NONE();
	/* cores unknown: whether workers share one is too */
	mach.smt_active = 1;
	mach.cores = -1;
	NONE();
}

static void test_mitigations(void)
{
	const struct check_finding *f;

	reset();
	snprintf(mach.cmdline, sizeof(mach.cmdline), "BOOT_IMAGE=/vmlinuz quiet");
	f = ONE(CHECK_MITIGATIONS);
	TEXT(f, now, "3 of 20 mitigated");
	HOLDS(f, better, "runs nothing untrusted");
	CMDLINE(f, "mitigations", "off", "");
	FIX_HAS(f, "\\1mitigations=off /;t");
	/* a word that only holds it */
	snprintf(mach.cmdline, sizeof(mach.cmdline), "xmitigations=off mitigations=offx");
	ONE(CHECK_MITIGATIONS);
	snprintf(mach.cmdline, sizeof(mach.cmdline), "quiet mitigations=off\n");
	NONE();
	/* the last occurrence is the one in force */
	snprintf(mach.cmdline, sizeof(mach.cmdline), "mitigations=off quiet mitigations=auto");
	ONE(CHECK_MITIGATIONS);
	snprintf(mach.cmdline, sizeof(mach.cmdline), "mitigations=auto quiet mitigations=off");
	NONE();
	/* what mitigations=off leaves (arm64's spectre_v1, l1tf's PTE
	 * inversion) is no finding: its fix would not clear it */
	snprintf(mach.cmdline, sizeof(mach.cmdline), "quiet");
	mach.vulns.mitigated = 2;
	mach.vulns.mitigated_kept = 2;
	NONE();
	mach.vulns.mitigated = 3;
	f = ONE(CHECK_MITIGATIONS);
	TEXT(f, now, "1 of 20 mitigated");
	mach.vulns.mitigated_kept = 0;
	mach.cmdline[0] = '\0';
	NONE();
	snprintf(mach.cmdline, sizeof(mach.cmdline), "quiet");
	mach.vulns.mitigated = 0;
	NONE();
	mach.vulns = (struct setup_vulns){ 0, 0, 0, 0, 0 };
	NONE();
}

static void test_numa_balancing(void)
{
	const struct check_finding *f;

	reset();
	mach.numa_balancing = 1;
	f = ONE(CHECK_NUMA_BALANCING);
	TEXT(f, now, "1 (on, 2 nodes)");
	FIX_IS(f, "sysctl -w kernel.numa_balancing=0");
	/* one node: nothing to balance */
	mach.nnodes = 1;
	NONE();
	mach.nnodes = 2;
	mach.numa_balancing = 0;
	NONE();
	mach.numa_balancing = -1;
	NONE();
}

/* Only passthrough commands go through security_uring_cmd. */
static void test_selinux(void)
{
	const struct check_finding *f;

	reset();
	mach.selinux_enforce = 1;
	NONE();
	ask.passthrough = true;
	f = ONE(CHECK_SELINUX);
	TEXT(f, now, "on (enforcing)");
	CMDLINE(f, "selinux", "0", "");
	/* permissive still checks every command */
	mach.selinux_enforce = 0;
	f = ONE(CHECK_SELINUX);
	TEXT(f, now, "on (permissive)");
	mach.selinux_enforce = -1;
	NONE();
}

static void test_debug_kernel(void)
{
	const struct check_finding *f;

	reset();
	mach.kconfig.lockdep = 1;
	mach.kconfig.kasan = 1;
	f = ONE(CHECK_DEBUG_KERNEL);
	TEXT(f, now, "lockdep, KASAN (6.14.2-amd64, HZ=250)");
	FIX_HAS(f, "boot a kernel built without");
	mach.kconfig.lockdep = mach.kconfig.kasan = 0;
	NONE();
	/* DEBUG_PAGEALLOC built but off costs nothing; on by the command
	 * line, off by it */
	mach.kconfig.debug_pagealloc = 1;
	NONE();
	mach.kconfig.debug_pagealloc_on = 1;
	f = ONE(CHECK_DEBUG_KERNEL);
	CMDLINE(f, "debug_pagealloc", "off", "");
	/* kmemleak built in but off (DEFAULT_OFF, kmemleak=off, debugfs):
	 * kmemleak_alloc returns at once, and it is not in "now" */
	mach.kconfig.debug_pagealloc_on = 0;
	mach.kconfig.kmemleak = 1;
	mach.kconfig.kmemleak_on = 0;
	NONE();
	mach.kconfig.lockdep = 1;
	f = ONE(CHECK_DEBUG_KERNEL);
	TEXT(f, now, "lockdep (6.14.2-amd64, HZ=250)");
	mach.kconfig.lockdep = 0;
	mach.kconfig.kmemleak_on = 1;
	f = ONE(CHECK_DEBUG_KERNEL);
	TEXT(f, now, "kmemleak (6.14.2-amd64, HZ=250)");
	mach.kconfig.kmemleak_on = -1;
	NONE();
	mach.kconfig = (struct setup_kconfig){ -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
	NONE();
}

static void test_kernel(void)
{
	const struct check_finding *f;

	reset();
	ask.poll = ask.hybrid = true;
	mach.kernel_major = 6;
	mach.kernel_minor = 12;
	snprintf(mach.kernel, sizeof(mach.kernel), "6.12.48-amd64");
	f = ONE(CHECK_KERNEL);
	TEXT(f, now, "6.12.48-amd64");
	TEXT(f, better, "6.13 or newer (hybrid polling)");
	FIX_IS(f, "--completion poll  # or: boot a 6.13 or newer kernel");
	mach.kernel_major = 5;
	mach.kernel_minor = 15;
	ONE(CHECK_KERNEL);
	mach.kernel_major = 6;
	mach.kernel_minor = 13;
	NONE();
	mach.kernel_major = mach.kernel_minor = -1;
	NONE();
	ask.hybrid = false;
	ask.passthrough = true;
	mach.kernel_major = 6;
	mach.kernel_minor = 0;
	f = ONE(CHECK_KERNEL);
	TEXT(f, better, "6.1 or newer (polled passthrough)");
	FIX_IS(f, "boot a 6.1 or newer kernel");
	mach.kernel_minor = 1;
	NONE();
	mach.kernel_minor = 0;
	ask.poll = false;
	NONE();
}

static void test_io_uring_disabled(void)
{
	const struct check_finding *f;

	reset();
	mach.io_uring_disabled = 2;
	f = ONE(CHECK_IO_URING_DISABLED);
	TEXT(f, better, "0");
	FIX_IS(f, "sysctl -w kernel.io_uring_disabled=0");
	/* 2 refuses root too */
	ask.uring_privileged = true;
	ONE(CHECK_IO_URING_DISABLED);
	/* 1 refuses only who is neither CAP_SYS_ADMIN nor in the group */
	mach.io_uring_disabled = 1;
	NONE();
	ask.uring_privileged = false;
	f = ONE(CHECK_IO_URING_DISABLED);
	TEXT(f, now, "1 (only CAP_SYS_ADMIN and kernel.io_uring_group)");
	mach.io_uring_disabled = 0;
	NONE();
	mach.io_uring_disabled = -1;
	NONE();
}

static void test_memlock(void)
{
	const struct check_finding *f;

	reset();
	ask.fixed_buffer_bytes = 4 << 20;
	mach.memlock_bytes = 64 << 10;
	f = ONE(CHECK_MEMLOCK);
	TEXT(f, now, "64 KiB");
	TEXT(f, better, "unlimited, or at least 4096 KiB");
	FIX_HAS(f, "ulimit -l unlimited");
	mach.memlock_bytes = 4 << 20;
	NONE();
	mach.memlock_bytes = INT64_MAX;
	NONE();
	mach.memlock_bytes = -1;
	NONE();
	mach.memlock_bytes = 64 << 10;
	ask.fixed_buffer_bytes = 0;
	NONE();
}

/* Device 0's findings, then device 1's, each in table order, then the
 * machine's. */
static void test_order(void)
{
	static const struct { enum check_kind k; int dev; } want[] = {
		{ CHECK_IOMMU_STRICT, 0 }, { CHECK_IOSTATS, 0 }, { CHECK_LINK, 0 },
		{ CHECK_SCHEDULER, 1 }, { CHECK_APST, 1 },
		{ CHECK_GOVERNOR, -1 }, { CHECK_MEMLOCK, -1 },
	};
	unsigned i;

	reset();
	devs[0].link_gts = 8;
	devs[0].iostats = 1;
	snprintf(devs[0].iommu_type, sizeof(devs[0].iommu_type), "DMA");
	devs[1].apst_latency_us = 100000;
	snprintf(devs[1].scheduler, sizeof(devs[1].scheduler), "kyber");
	mach.memlock_bytes = 1024;
	ask.fixed_buffer_bytes = 1 << 20;
	mach.ncpufreq_slow = 1;
	run(2);
	CHECKF(nfound == (int)(sizeof(want) / sizeof(want[0])), "%d findings", nfound);
	for (i = 0; i < sizeof(want) / sizeof(want[0]) && (int)i < nfound; i++)
		CHECKF(found[i].kind == want[i].k && found[i].dev == want[i].dev,
		       "finding %u: %s dev %d", i, check_kind_info(found[i].kind)->name,
		       found[i].dev);
	if (t_failed)
		show();
}

/* A loop device gets the queue's findings only; a file without a disk
 * none at all. */
static void test_not_nvme(void)
{
	static const enum check_kind want[] = { CHECK_SCHEDULER, CHECK_IOSTATS, CHECK_NOMERGES,
						CHECK_NR_REQUESTS };
	struct setup_dev *d = &devs[0];
	unsigned i;

	reset();
	ask.poll = true;
	snprintf(d->name, sizeof(d->name), "loop3");
	snprintf(d->disk, sizeof(d->disk), "loop3");
	d->nvme = false;
	d->controller[0] = d->pci[0] = '\0';
	snprintf(d->scheduler, sizeof(d->scheduler), "mq-deadline");
	d->iostats = 1;
	d->nomerges = 0;
	d->wbt_lat_usec = 2000;
	d->nr_requests = 16;
	d->io_poll = 0;
	d->apst_latency_us = 100000;
	d->link_gts = 8;
	d->nhwq = d->nirq_queues = 1;
	all_irqs_on(d, "0");
	mach.nvme_write_queues = 2;
	run(1);
	CHECKF(nfound == (int)(sizeof(want) / sizeof(want[0])), "%d findings", nfound);
	for (i = 0; i < sizeof(want) / sizeof(want[0]) && (int)i < nfound; i++)
		CHECKF(found[i].kind == want[i], "finding %u: %s", i,
		       check_kind_info(found[i].kind)->name);
	if (nfound)
		FIX_IS(&found[0], "echo none > /sys/block/loop3/queue/scheduler");
	d->disk[0] = '\0';
	run(1);
	CHECKF(nfound == 0, "a file on tmpfs: %d findings", nfound);
}

static void test_table(void)
{
	unsigned k, j;

	for (k = 0; k < CHECK_NKINDS; k++) {
		const struct check_kind_info *in = check_kind_info((enum check_kind)k);

		CHECKF(in && in->name && *in->name, "kind %u has no name", k);
		if (!in || !in->name)
			continue;
		/* a source gives figures, and figures have a source */
		CHECKF(!in->cost.source == !(in->cost.iops_lo > 0 && in->cost.better_iops > 0),
		       "%s: a cost without its source, or a source without a cost", in->name);
		CHECKF(in->cost.iops_hi >= in->cost.iops_lo, "%s: cost range", in->name);
		CHECKF(in->scope == (k < CHECK_GOVERNOR ? CHECK_SCOPE_DEVICE : CHECK_SCOPE_MACHINE),
		       "%s: scope", in->name);
		for (j = 0; j < k; j++)
			CHECKF(strcmp(check_kind_info((enum check_kind)j)->name, in->name),
			       "%s twice", in->name);
	}
	CHECK(check_kind_info(CHECK_NKINDS) == NULL);
	CHECK(!strcmp(check_kind_info(CHECK_IOMMU_STRICT)->cost.source, "src-linux-nvme-2025-11"));
	CHECK(check_kind_info(CHECK_IOMMU_STRICT)->cost.iops_lo == 570e3);
	CHECK(check_kind_info(CHECK_IOSTATS)->cost.iops_hi == 113e6);
	CHECK(!strcmp(check_kind_info(CHECK_IOSTATS)->knobs[0], "queue/iostats"));
	CHECK(check_kind_info(CHECK_SCHEDULER)->runtime);
	CHECK(!check_kind_info(CHECK_IOMMU_STRICT)->runtime);
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	long len;

	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)len + 1))) {
		buf[fread(buf, 1, (size_t)len, fp)] = '\0';
	}
	fclose(fp);
	return buf;
}

/* docs/check.md has an anchor per kind and per source, and quotes each
 * source as the table cites it. */
static void test_docs(void)
{
	const char *src = getenv("IOSTORM_SRC");
	char path[512], anchor[128];
	char *doc;
	unsigned k;

	snprintf(path, sizeof(path), "%s/docs/check.md", src ? src : ".");
	doc = slurp(path);
	CHECKF(doc != NULL, "cannot read %s (run from the source tree or set IOSTORM_SRC)", path);
	if (!doc)
		return;
	for (k = 0; k < CHECK_NKINDS; k++) {
		const struct check_kind_info *in = check_kind_info((enum check_kind)k);

		snprintf(anchor, sizeof(anchor), "<a id=\"%s\"></a>", in->name);
		CHECKF(strstr(doc, anchor) != NULL, "%s lacks %s", path, anchor);
		snprintf(anchor, sizeof(anchor), "\n### %s\n", in->name);
		CHECKF(strstr(doc, anchor) != NULL, "%s lacks the heading ### %s", path, in->name);
		if (in->cost.source) {
			const char *cite = cli_check_cost_cite((enum check_kind)k);

			snprintf(anchor, sizeof(anchor), "<a id=\"%s\"></a>", in->cost.source);
			CHECKF(strstr(doc, anchor) != NULL, "%s lacks %s", path, anchor);
			CHECKF(*cite && strstr(doc, cite) != NULL, "%s does not cite '%s'", path,
			       cite);
		}
	}
	free(doc);
}

int main(void)
{
	test_clean();
	test_unknown();
	test_iommu();
	test_scheduler();
	test_iostats();
	test_iostats_passthrough();
	test_nomerges();
	test_wbt();
	test_nr_requests();
	test_rq_affinity();
	test_read_ahead();
	test_poll_queues();
	test_write_queues();
	test_apst();
	test_link();
	test_aspm();
	test_blk_cgroup();
	test_few_queues();
	test_one_cpu_irqs();
	test_irq_remote();
	test_governor();
	test_boost();
	test_cstate();
	test_smt();
	test_mitigations();
	test_kernel();
	test_numa_balancing();
	test_selinux();
	test_debug_kernel();
	test_io_uring_disabled();
	test_memlock();
	test_order();
	test_not_nvme();
	test_table();
	test_docs();
	free(found);
	return t_result();
}
