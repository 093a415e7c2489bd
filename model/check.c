/* The rules of the software ceiling: each reads the facts setup/ gave and
 * says nothing unless they are known and cost IOPS. A fact setup/ could
 * not read is "" or -1, never a zero, so every rule tests for known first.
 * docs/check.md explains each rule, its fix and its cost. */
#include "model/check.h"
#include "model/check_queues.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel command line is changed through GRUB: the parameter goes
 * first in GRUB_CMDLINE_LINUX, so an existing value after it is kept. */
#define GRUB_FIX(param) "sed -i 's/^GRUB_CMDLINE_LINUX=\"/&" param " /' " \
	"/etc/default/grub && update-grub && reboot"

#define NODE_BITS 64
#define CPU_WORDS ((SETUP_MAX_CPUS + 63) / 64)

struct cpuset {
	uint64_t w[CPU_WORDS];
};

struct list {
	struct check_finding *f;
	unsigned n, cap;
	int err;
};

static void cs_set(struct cpuset *s, int cpu)
{
	s->w[cpu / 64] |= (uint64_t)1 << (cpu % 64);
}

static bool cs_has(const struct cpuset *s, int cpu)
{
	return s->w[cpu / 64] >> (cpu % 64) & 1;
}

static bool cs_empty(const struct cpuset *s)
{
	unsigned i;

	for (i = 0; i < CPU_WORDS; i++)
		if (s->w[i])
			return false;
	return true;
}

/* The set as a cpulist, "0-3,8"; cut at a whole range when it does not fit. */
static void cs_format(const struct cpuset *s, char *buf, size_t len)
{
	size_t at = 0;
	int cpu = 0, end;
	int n;

	buf[0] = '\0';
	while (cpu < SETUP_MAX_CPUS) {
		if (!cs_has(s, cpu)) {
			cpu++;
			continue;
		}
		for (end = cpu; end + 1 < SETUP_MAX_CPUS && cs_has(s, end + 1); end++)
			;
		if (end == cpu)
			n = snprintf(buf + at, len - at, "%s%d", at ? "," : "", cpu);
		else
			n = snprintf(buf + at, len - at, "%s%d-%d", at ? "," : "", cpu, end);
		if (n < 0 || (size_t)n >= len - at) {
			buf[at] = '\0';
			return;
		}
		at += (size_t)n;
		cpu = end + 1;
	}
}

/* Reads a cpulist into a set; false when it is unknown ("") or bad. */
static bool cs_parse(const char *list, struct cpuset *s)
{
	int cpu;

	memset(s, 0, sizeof(*s));
	if (!list || !*list)
		return false;
	for (cpu = 0; cpu < SETUP_MAX_CPUS; cpu++)
		if (setup_cpulist_has(list, cpu))
			cs_set(s, cpu);
	return !cs_empty(s);
}

/* The only CPU of a cpulist, or -1 when it has none or several. */
static int only_cpu(const char *list)
{
	struct cpuset s;
	int cpu, found = -1;

	if (!cs_parse(list, &s))
		return -1;
	for (cpu = 0; cpu < SETUP_MAX_CPUS; cpu++) {
		if (!cs_has(&s, cpu))
			continue;
		if (found >= 0)
			return -1;
		found = cpu;
	}
	return found;
}

static int cpu_node(const struct setup_machine *m, int cpu)
{
	if (!m || cpu < 0 || cpu >= m->ncpus || cpu >= SETUP_MAX_CPUS)
		return -1;
	return m->cpu_node[cpu];
}

/* The lowest node in a mask, for naming it. */
static int first_node(uint64_t nodes)
{
	int n;

	for (n = 0; n < NODE_BITS; n++)
		if (nodes >> n & 1)
			return n;
	return -1;
}

static bool has(const char *s)
{
	return s && *s;
}

/* Whether the kernel command line holds word, a whole parameter. */
static bool cmdline_has(const char *cmdline, const char *word)
{
	size_t len = strlen(word);
	const char *p = cmdline;

	while ((p = strstr(p, word))) {
		bool starts = p == cmdline || p[-1] == ' ';
		bool ends = p[len] == '\0' || p[len] == ' ' || p[len] == '\n';

		if (starts && ends)
			return true;
		p += len;
	}
	return false;
}

static struct check_finding *add(struct list *l, enum check_kind k, int dev)
{
	struct check_finding *f;

	if (l->err)
		return NULL;
	if (l->n == l->cap) {
		unsigned cap = l->cap ? 2 * l->cap : 16;

		f = realloc(l->f, cap * sizeof(*f));
		if (!f) {
			l->err = -ENOMEM;
			return NULL;
		}
		l->f = f;
		l->cap = cap;
	}
	f = &l->f[l->n++];
	memset(f, 0, sizeof(*f));
	f->kind = k;
	f->dev = dev;
	return f;
}

static void say(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

#define NOW(f, ...) say((f)->now, sizeof((f)->now), __VA_ARGS__)
#define BETTER(f, ...) say((f)->better, sizeof((f)->better), __VA_ARGS__)
#define FIX(f, ...) say((f)->fix, sizeof((f)->fix), __VA_ARGS__)

/* What the rules of one device read. */
struct dev_ctx {
	const struct setup_machine *m;
	const struct setup_dev *d;
	const struct setup_dev *all;
	unsigned ndevs;
	const struct check_ask *ask;
	int i;
	unsigned workers;	/* at least 1 */
	const char *cpus;	/* the worker CPUs where not the ask's: a path's */
};

/* ---- the device's IOMMU and block queue ---- */

static void rule_iommu(struct list *l, const struct dev_ctx *c)
{
	struct check_finding *f;

	if (!strcmp(c->d->iommu_type, "DMA")) {
		if (!(f = add(l, CHECK_IOMMU_STRICT, c->i)))
			return;
		NOW(f, "DMA (strict)");
		BETTER(f, "identity (passthrough)");
		FIX(f, GRUB_FIX("iommu=pt") "  # or iommu.strict=0: lazy");
	} else if (!strcmp(c->d->iommu_type, "DMA-FQ")) {
		if (!(f = add(l, CHECK_IOMMU_LAZY, c->i)))
			return;
		NOW(f, "DMA-FQ (lazy)");
		BETTER(f, "identity (passthrough)");
		FIX(f, GRUB_FIX("iommu=pt"));
	}
}

/* The schedulers of the legacy single-queue block layer (before 5.0),
 * which offers no "none" to switch to. */
static bool legacy_scheduler(const char *s)
{
	return !strcmp(s, "noop") || !strcmp(s, "cfq") || !strcmp(s, "deadline");
}

static void rule_scheduler(struct list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;

	if (!has(d->scheduler) || !strcmp(d->scheduler, "none") || legacy_scheduler(d->scheduler))
		return;
	if (!(f = add(l, CHECK_SCHEDULER, c->i)))
		return;
	NOW(f, "%s", d->scheduler);
	BETTER(f, "none");
	FIX(f, "echo none > /sys/block/%s/queue/scheduler", d->disk);
}

static void rule_iostats(struct list *l, const struct dev_ctx *c)
{
	struct check_finding *f;

	if (c->d->iostats != 1 || !(f = add(l, CHECK_IOSTATS, c->i)))
		return;
	NOW(f, "1");
	BETTER(f, "0");
	FIX(f, "echo 0 > /sys/block/%s/queue/iostats", c->d->disk);
}

static void rule_nomerges(struct list *l, const struct dev_ctx *c)
{
	struct check_finding *f;

	if (c->d->nomerges < 0 || c->d->nomerges >= 2 || !(f = add(l, CHECK_NOMERGES, c->i)))
		return;
	NOW(f, "%d", c->d->nomerges);
	BETTER(f, "2");
	FIX(f, "echo 2 > /sys/block/%s/queue/nomerges", c->d->disk);
}

static void rule_wbt(struct list *l, const struct dev_ctx *c)
{
	struct check_finding *f;

	if (c->d->wbt_lat_usec <= 0 || !(f = add(l, CHECK_WBT, c->i)))
		return;
	NOW(f, "%lld", (long long)c->d->wbt_lat_usec);
	BETTER(f, "0");
	FIX(f, "echo 0 > /sys/block/%s/queue/wbt_lat_usec", c->d->disk);
}

/* nr_requests is each hardware queue's depth: the workers spread over the
 * queues, so a queue holds the IOs of ceil(workers / queues) of them (all
 * of them when the queue count is not known). */
static void rule_nr_requests(struct list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;
	unsigned queues = d->nhwq ? d->nhwq : 1;
	unsigned per_queue;
	int64_t need;

	if (queues > c->workers)
		queues = c->workers;
	per_queue = (c->workers + queues - 1) / queues;
	need = (int64_t)c->ask->qd * per_queue;
	if (need > CHECK_NR_REQUESTS_CAP)
		need = CHECK_NR_REQUESTS_CAP;
	if (d->nr_requests < 0 || d->nr_requests >= need || !(f = add(l, CHECK_NR_REQUESTS, c->i)))
		return;
	NOW(f, "%lld", (long long)d->nr_requests);
	BETTER(f, "%lld", (long long)need);
	FIX(f, "echo %lld > /sys/block/%s/queue/nr_requests", (long long)need, d->disk);
}

static void rule_queue(struct list *l, const struct dev_ctx *c)
{
	/* a file on a file system without a disk (tmpfs) has no queue */
	if (!has(c->d->disk))
		return;
	rule_scheduler(l, c);
	rule_iostats(l, c);
	rule_nomerges(l, c);
	rule_wbt(l, c);
	rule_nr_requests(l, c);
}

/* ---- the nvme driver's queues and the controller ---- */

#define MODPROBE_FIX(file, opt) "echo \"options nvme " opt "\" > /etc/modprobe.d/" file \
	" && update-initramfs -u && reboot"

/* queue/io_poll says whether the queue has poll queues; the module's
 * poll_queues stands in where it could not be read. */
static void rule_poll_queues(struct list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;
	bool none;

	if (!c->ask->poll)
		return;
	none = d->io_poll == 0 || (d->io_poll < 0 && c->m && c->m->nvme_poll_queues == 0);
	if (!none || !(f = add(l, CHECK_NO_POLL_QUEUES, c->i)))
		return;
	NOW(f, "no poll queues");
	BETTER(f, "poll_queues=%u", c->workers);
	FIX(f, MODPROBE_FIX("nvme-poll.conf", "poll_queues=%u"), c->workers);
}

static void rule_write_queues(struct list *l, const struct dev_ctx *c)
{
	struct check_finding *f;

	if (!c->m || c->m->nvme_write_queues <= 0 || !(f = add(l, CHECK_WRITE_QUEUES, c->i)))
		return;
	NOW(f, "write_queues=%d", c->m->nvme_write_queues);
	BETTER(f, "write_queues=0");
	FIX(f, MODPROBE_FIX("nvme-write.conf", "write_queues=0"));
}

/* The controller's latency tolerance is what APST obeys now; the module's
 * default is what a controller probed later gets. */
/* The controller's APST limit: setup/ reads "any" (no limit: every power
 * state allowed) as INT64_MAX. */
static void apst_now(struct check_finding *f, int64_t us)
{
	if (us == INT64_MAX)
		NOW(f, "pm_qos_latency_tolerance_us any (no limit)");
	else
		NOW(f, "pm_qos_latency_tolerance_us %lld", (long long)us);
}

/* The drive's own word wins: APST off in the drive (Get Features) costs
 * nothing whatever the kernel's limit says; on, it does even where the
 * kernel's limit cannot be read. */
static void rule_apst(struct list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;
	int64_t mod = c->m ? c->m->nvme_ps_max_latency_us : -1;
	bool limit = d->apst_latency_us > 0 || (d->apst_latency_us < 0 && mod > 0);
	size_t n;

	if (d->apst_enabled == 0 || (!limit && d->apst_enabled != 1))
		return;
	if (!(f = add(l, CHECK_APST, c->i)))
		return;
	if (d->apst_latency_us > 0)
		apst_now(f, d->apst_latency_us);
	else if (d->apst_latency_us < 0 && mod > 0)
		NOW(f, "default_ps_max_latency_us=%lld", (long long)mod);
	else
		NOW(f, "APST on in the drive");
	n = strlen(f->now);
	if (d->power_state >= 0)
		snprintf(f->now + n, sizeof(f->now) - n, ", the drive in power state %d%s",
			 d->power_state, d->power_state ? " now" : "");
	BETTER(f, "0 (APST off)");
	if (d->apst_latency_us > 0 && has(d->controller))
		FIX(f, "echo 0 > /sys/class/nvme/%s/power/pm_qos_latency_tolerance_us"
		    "  # lasting: nvme_core.default_ps_max_latency_us=0 on the kernel command line",
		    d->controller);
	else
		FIX(f, GRUB_FIX("nvme_core.default_ps_max_latency_us=0"));
}

static void rule_link(struct list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;

	if (d->link_gts <= 0 || d->link_max_gts <= 0 || d->link_width <= 0 ||
	    d->link_max_width <= 0)
		return;
	if (d->link_gts >= d->link_max_gts && d->link_width >= d->link_max_width)
		return;
	if (!(f = add(l, CHECK_LINK, c->i)))
		return;
	NOW(f, "%g GT/s x%d", d->link_gts, d->link_width);
	BETTER(f, "%g GT/s x%d", d->link_max_gts, d->link_max_width);
	FIX(f, "reseat %s in a slot of full width (x%d) and check the BIOS's PCIe link settings",
	    has(d->pci) ? d->pci : "the drive", d->link_max_width);
}

/* The queues a run's IO goes through: the poll queues when it polls (the
 * ones without an interrupt), else the ones with an interrupt. */
static void rule_few_queues(struct list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;
	unsigned q;

	/* no hardware queues listed, or none with an interrupt (which an
	 * nvme controller always has): /proc/interrupts was not read */
	if (!d->nhwq || !d->nirq_queues || d->nirq_queues > d->nhwq)
		return;
	q = c->ask->poll ? d->nhwq - d->nirq_queues : d->nirq_queues;
	/* polled with no poll queue at all is no_poll_queues */
	if (!q || q >= c->workers || !(f = add(l, CHECK_FEW_QUEUES, c->i)))
		return;
	NOW(f, "%u %s queue%s for %u workers", q, c->ask->poll ? "poll" : "interrupt",
	    q == 1 ? "" : "s",
	    c->workers);
	BETTER(f, "a queue per worker (%u)", c->workers);
	if (c->ask->poll)
		FIX(f, MODPROBE_FIX("nvme-poll.conf", "poll_queues=%u"), c->workers);
	else
		FIX(f, "--jobs-per-device %u", q);
}

/* The CPU every interrupt queue of d lands on, or -1: none known, or the
 * interrupts are on more than one CPU. */
static int one_irq_cpu(const struct setup_dev *d)
{
	int cpu = -1, one;
	unsigned q, n = 0;

	for (q = 0; q < d->nhwq; q++) {
		if (d->hwq[q].irq < 0)
			continue;
		one = only_cpu(d->hwq[q].irq_cpus);
		if (one < 0 || (cpu >= 0 && one != cpu))
			return -1;
		cpu = one;
		n++;
	}
	return n ? cpu : -1;
}

/* Whether another NVMe target's interrupts also land on cpu. */
static bool cpu_shared(const struct dev_ctx *c, int cpu)
{
	unsigned i, q;

	for (i = 0; i < c->ndevs; i++) {
		const struct setup_dev *o = &c->all[i];

		/* another namespace of the same controller counts: its
		 * workers' completions come in on the same vectors */
		if ((int)i == c->i || !o->nvme)
			continue;
		for (q = 0; q < o->nhwq; q++)
			if (o->hwq[q].irq >= 0 && setup_cpulist_has(o->hwq[q].irq_cpus, cpu))
				return true;
	}
	return false;
}

/* nvme's IO queue vectors are managed: the kernel spreads them over the
 * CPUs when the driver probes the drive, and /proc/irq/N/smp_affinity_list
 * refuses a write to them (EPERM, seen on 6.12 and 7.2), so no fix may
 * tell a user to move one. */
#define MANAGED_NOTE_BARE "the kernel places nvme's queue vectors: /proc/irq refuses to move them"
#define MANAGED_NOTE "# polled queues take no interrupt; " MANAGED_NOTE_BARE

static void rule_one_cpu_irqs(struct list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;
	int cpu = one_irq_cpu(d);

	if (cpu < 0 || (c->workers < 2 && !cpu_shared(c, cpu)))
		return;
	if (!(f = add(l, CHECK_ONE_CPU_IRQS, c->i)))
		return;
	NOW(f, "every queue's interrupt lands on CPU %d", cpu);
	BETTER(f, "each queue's interrupt on its own CPUs");
	if (d->io_poll == 1)
		FIX(f, "--completion poll  " MANAGED_NOTE);
	else
		FIX(f, "--jobs-per-device 1  # or poll queues (no_poll_queues) and --completion poll; "
		    MANAGED_NOTE_BARE);
}

/* The queue with an interrupt whose CPUs hold cpu, or NULL. */
static const struct setup_hwq *queue_of(const struct setup_dev *d, int cpu)
{
	unsigned q;

	for (q = 0; q < d->nhwq; q++)
		if (d->hwq[q].irq >= 0 && setup_cpulist_has(d->hwq[q].cpus, cpu))
			return &d->hwq[q];
	return NULL;
}

/* Whether cpu's queue interrupts a CPU of cpu's own node: 1 yes, 0 no,
 * -1 not known (no queue, its interrupt's CPUs or a node unknown). *at
 * gets the nodes the interrupt lands on. */
static int irq_local(const struct dev_ctx *c, int cpu, const struct setup_hwq **hq,
		     uint64_t *at)
{
	const struct setup_hwq *h = queue_of(c->d, cpu);
	int node = cpu_node(c->m, cpu);
	uint64_t nodes;

	if (!h || node < 0 || node >= NODE_BITS || !has(h->irq_cpus))
		return -1;
	nodes = setup_cpulist_nodes(c->m, h->irq_cpus);
	if (!nodes)
		return -1;
	*hq = h;
	*at = nodes;
	return (nodes >> node & 1) ? 1 : 0;
}

/* The worker CPUs of the device: the ones asked, else its node's. */
static bool worker_set(const struct dev_ctx *c, struct cpuset *s)
{
	const char *asked = c->cpus ? c->cpus :
		c->ask->worker_cpus ? c->ask->worker_cpus[c->i] : NULL;
	int cpu;

	if (has(asked))
		return cs_parse(asked, s);
	memset(s, 0, sizeof(*s));
	if (c->d->numa_node < 0)
		return false;
	for (cpu = 0; cpu < c->m->ncpus && cpu < SETUP_MAX_CPUS; cpu++)
		if (c->m->cpu_node[cpu] == c->d->numa_node)
			cs_set(s, cpu);
	return !cs_empty(s);
}

/* Polled IO takes no interrupt, so only an interrupt-driven run asks. */
static void rule_irq_remote(struct list *l, const struct dev_ctx *c)
{
	const struct setup_hwq *h, *first = NULL;
	struct cpuset workers, remote = { { 0 } }, good = { { 0 } };
	char rlist[96], glist[96];
	struct check_finding *f;
	uint64_t at, lands = 0, from = 0;
	int cpu, node;

	if (c->ask->poll || !c->m || !worker_set(c, &workers))
		return;
	for (cpu = 0; cpu < SETUP_MAX_CPUS; cpu++) {
		if (!cs_has(&workers, cpu) || irq_local(c, cpu, &h, &at) != 0)
			continue;
		cs_set(&remote, cpu);
		from |= (uint64_t)1 << cpu_node(c->m, cpu);
		lands |= at;
		if (!first)
			first = h;
	}
	if (!first || !(f = add(l, CHECK_IRQ_REMOTE, c->i)))
		return;
	/* the CPUs a run could use instead: the device's node's (any node's
	 * when it has none) whose queue interrupts their own node */
	for (cpu = 0; cpu < c->m->ncpus && cpu < SETUP_MAX_CPUS; cpu++) {
		node = cpu_node(c->m, cpu);
		if ((c->d->numa_node < 0 || node == c->d->numa_node) &&
		    irq_local(c, cpu, &h, &at) == 1)
			cs_set(&good, cpu);
	}
	cs_format(&remote, rlist, sizeof(rlist));
	cs_format(&good, glist, sizeof(glist));
	node = first_node(lands & ~from);
	if (node < 0)
		node = first_node(lands);
	NOW(f, "CPUs %s (node %d) take their interrupts on node %d", rlist,
	    first_node(from), node);
	BETTER(f, "each worker's queue interrupts its own node");
	if (*glist)
		FIX(f, "--cpus %s", glist);
	else if (c->d->io_poll == 1)
		FIX(f, "--completion poll  " MANAGED_NOTE);
	else
		FIX(f, "poll queues (no_poll_queues), then --completion poll  " MANAGED_NOTE);
}

/* A multipath head's IO goes through its paths' blk-mq queues: the queue
 * and interrupt rules on each path, under the path's name
 * (model/check_queues.c). */
static void path_rules(struct list *l, const struct dev_ctx *c)
{
	const char *asked = c->ask->worker_cpus ? c->ask->worker_cpus[c->i] : NULL;
	char cpus[CHECK_PATH_CPUS_MAX];
	struct dev_ctx pc;
	unsigned p, from;
	int take = 1;	/* none asked: the path's node's CPUs stand in */

	for (p = 0; p < c->d->npaths && !l->err; p++) {
		pc = *c;
		pc.d = &c->d->paths[p];
		from = l->n;
		rule_scheduler(l, &pc);
		rule_nr_requests(l, &pc);
		if (has(asked))
			take = check_path_cpus(c->m, c->d, p, asked, cpus, sizeof(cpus));
		if (take < 0)
			l->err = take;
		else if (take && has(asked))
			pc.cpus = cpus;
		if (take > 0 && pc.d->nvme) {
			rule_few_queues(l, &pc);
			rule_one_cpu_irqs(l, &pc);
			rule_irq_remote(l, &pc);
		}
		if (!l->err)
			check_path_name(l->f + from, l->n - from, c->d, p);
	}
}

static void rule_shared_poll(struct list *l, const struct dev_ctx *c)
{
	struct check_finding f, *to;
	int ret = check_shared_poll(c->m, c->d, (unsigned)c->i, c->ask, &f);

	if (ret < 0)
		l->err = ret;
	else if (ret && (to = add(l, f.kind, c->i)))
		*to = f;
}

static void dev_rules(struct list *l, const struct dev_ctx *c)
{
	rule_iommu(l, c);
	rule_queue(l, c);
	if (!c->d->nvme)
		return;
	rule_poll_queues(l, c);
	rule_write_queues(l, c);
	rule_apst(l, c);
	rule_link(l, c);
	rule_few_queues(l, c);
	rule_one_cpu_irqs(l, c);
	rule_irq_remote(l, c);
	path_rules(l, c);
	rule_shared_poll(l, c);
}

/* ---- the machine ---- */

static void rule_governor(struct list *l, const struct setup_machine *m)
{
	struct check_finding *f;

	if (m->ncpufreq <= 0 || m->ncpufreq_slow <= 0 || !(f = add(l, CHECK_GOVERNOR, -1)))
		return;
	NOW(f, "%s (%d of %d CPUs not performance)", has(m->governor) ? m->governor : "mixed",
	    m->ncpufreq_slow, m->ncpufreq);
	BETTER(f, "performance");
	FIX(f, "cpupower frequency-set -g performance");
}

static void rule_boost(struct list *l, const struct setup_machine *m)
{
	struct check_finding *f;

	if (m->boost != 0 || !(f = add(l, CHECK_BOOST, -1)))
		return;
	NOW(f, "0 (off)");
	BETTER(f, "1 (on)");
	FIX(f, "echo 1 > /sys/devices/system/cpu/cpufreq/boost 2>/dev/null"
	    " || echo 0 > /sys/devices/system/cpu/intel_pstate/no_turbo");
}

static void rule_cstate(struct list *l, const struct setup_machine *m)
{
	struct check_finding *f;

	if (!has(m->deepest_cstate) || m->deepest_cstate_us <= CHECK_CSTATE_MAX_US)
		return;
	if (!(f = add(l, CHECK_CSTATE, -1)))
		return;
	if (has(m->idle_governor))
		NOW(f, "%s, exit latency %d us (idle governor %s)", m->deepest_cstate,
		    m->deepest_cstate_us, m->idle_governor);
	else
		NOW(f, "%s, exit latency %d us", m->deepest_cstate, m->deepest_cstate_us);
	BETTER(f, "no state deeper than %d us", CHECK_CSTATE_MAX_US);
	FIX(f, "cpupower idle-set -D %d  # lasting: intel_idle.max_cstate=1 or "
	    "processor.max_cstate=1 on the kernel command line", CHECK_CSTATE_MAX_US);
}

/* SMT costs a run only when two of its workers share a core: placement
 * fills one worker per core first, so only a run with more workers than
 * cores (workers: the run's, 0 when it has no target) gets a finding. */
static void rule_smt(struct list *l, const struct setup_machine *m, unsigned workers)
{
	struct check_finding *f;

	if (m->smt_active != 1 || m->cores <= 0 || workers <= (unsigned)m->cores ||
	    !(f = add(l, CHECK_SMT, -1)))
		return;
	NOW(f, "on, %u workers on %d cores (%d CPUs)", workers, m->cores, m->pus);
	BETTER(f, "one worker per core");
	FIX(f, "echo off > /sys/devices/system/cpu/smt/control"
	    "  # or no more workers than cores: --placement local fills one per core first");
}

static void rule_mitigations(struct list *l, const struct setup_machine *m)
{
	struct check_finding *f;

	/* spectre_v1 says "Mitigation" even under mitigations=off, so the
	 * command line decides, and an unread one says nothing */
	if (!m->vulns.total || !m->vulns.mitigated || !has(m->cmdline) ||
	    cmdline_has(m->cmdline, "mitigations=off"))
		return;
	if (!(f = add(l, CHECK_MITIGATIONS, -1)))
		return;
	NOW(f, "%u of %u mitigated", m->vulns.mitigated, m->vulns.total);
	BETTER(f, "mitigations=off (only on a machine that runs nothing untrusted)");
	FIX(f, GRUB_FIX("mitigations=off"));
}

static bool kernel_before(const struct setup_machine *m, int major, int minor)
{
	if (m->kernel_major < 0 || m->kernel_minor < 0)
		return false;
	return m->kernel_major < major || (m->kernel_major == major && m->kernel_minor < minor);
}

static void rule_kernel(struct list *l, const struct setup_machine *m,
			const struct check_ask *ask)
{
	struct check_finding *f;
	const char *kernel = has(m->kernel) ? m->kernel : "?";

	if (ask->hybrid && kernel_before(m, 6, 13)) {
		if (!(f = add(l, CHECK_KERNEL, -1)))
			return;
		NOW(f, "%s", kernel);
		BETTER(f, "6.13 or newer (hybrid polling)");
		FIX(f, "--completion poll  # or boot a 6.13 or newer kernel");
	} else if (ask->passthrough && ask->poll && kernel_before(m, 6, 1)) {
		if (!(f = add(l, CHECK_KERNEL, -1)))
			return;
		NOW(f, "%s", kernel);
		BETTER(f, "6.1 or newer (polled passthrough)");
		FIX(f, "boot a 6.1 or newer kernel");
	}
}

static void rule_io_uring_disabled(struct list *l, const struct setup_machine *m)
{
	struct check_finding *f;

	if (m->io_uring_disabled <= 0 || !(f = add(l, CHECK_IO_URING_DISABLED, -1)))
		return;
	NOW(f, "%d (%s)", m->io_uring_disabled,
	    m->io_uring_disabled == 1 ? "only kernel.io_uring_group" : "off for all");
	BETTER(f, "0");
	FIX(f, "sysctl -w kernel.io_uring_disabled=0");
}

static int64_t kib_up(int64_t bytes)
{
	return bytes / 1024 + (bytes % 1024 != 0);
}

static void rule_memlock(struct list *l, const struct setup_machine *m,
			 const struct check_ask *ask)
{
	struct check_finding *f;

	/* unlimited is INT64_MAX, above any size */
	if (ask->fixed_buffer_bytes <= 0 || m->memlock_bytes < 0 ||
	    ask->fixed_buffer_bytes <= m->memlock_bytes)
		return;
	if (!(f = add(l, CHECK_MEMLOCK, -1)))
		return;
	NOW(f, "%lld KiB", (long long)kib_up(m->memlock_bytes));
	BETTER(f, "unlimited, or at least %lld KiB", (long long)kib_up(ask->fixed_buffer_bytes));
	FIX(f, "ulimit -l unlimited  # lasting: '* - memlock unlimited' in "
	    "/etc/security/limits.conf");
}

static void machine_rules(struct list *l, const struct setup_machine *m,
			  const struct check_ask *ask, unsigned workers)
{
	rule_governor(l, m);
	rule_boost(l, m);
	rule_cstate(l, m);
	/* the idle governor has no rule of its own: cstate names it */
	rule_smt(l, m, workers);
	rule_mitigations(l, m);
	rule_kernel(l, m, ask);
	rule_io_uring_disabled(l, m);
	rule_memlock(l, m, ask);
}

int check_findings(const struct setup_machine *m, const struct setup_dev *devs,
		   unsigned ndevs, const struct check_ask *ask,
		   struct check_finding **out)
{
	static const struct check_ask none = { 0 };
	struct list l = { NULL, 0, 0, 0 };
	struct dev_ctx c;
	unsigned i;

	if (!ask)
		ask = &none;
	for (i = 0; i < ndevs && devs; i++) {
		c = (struct dev_ctx){ m, &devs[i], devs, ndevs, ask, (int)i,
				      ask->workers_per_dev ? ask->workers_per_dev : 1, NULL };
		dev_rules(&l, &c);
	}
	if (m)
		machine_rules(&l, m, ask, ndevs * (ask->workers_per_dev ? ask->workers_per_dev : 1));
	if (l.err) {
		free(l.f);
		return l.err;
	}
	/* nothing was added: l.f is still NULL */
	*out = l.f;
	return (int)l.n;
}
