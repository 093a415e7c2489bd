/* The rules of the software ceiling: each reads the facts setup/ gave and
 * says nothing unless they are known and cost IOPS. A fact setup/ could
 * not read is "" or -1, never a zero, so every rule tests for known first.
 * docs/check.md explains each rule, its fix and its cost. The device's
 * rules are here, the machine's in model/check_machine.c. */
#include "model/check.h"
#include "model/check_int.h"
#include "model/pcie.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NODE_BITS 64

/* The only CPU of a set, or -1 when it has none or several. */
static int only_cpu(const struct topo_cpuset *s)
{
	return topo_cpuset_count(s) == 1 ? topo_cpuset_next(s, -1) : -1;
}

static bool cpuset_empty(const struct topo_cpuset *s)
{
	return topo_cpuset_next(s, -1) < 0;
}

static int cpu_node(const struct setup_machine *m, int cpu)
{
	if (!m || cpu < 0 || cpu >= m->ncpus || cpu >= SETUP_MAX_CPUS)
		return -1;
	return m->cpu_node[cpu];
}

/* The nodes of a set's CPUs by m->cpu_node: bit n for node n < 64. */
static uint64_t cpuset_nodes(const struct setup_machine *m, const struct topo_cpuset *s)
{
	uint64_t nodes = 0;
	int cpu, node;

	for (cpu = topo_cpuset_next(s, -1); cpu >= 0; cpu = topo_cpuset_next(s, cpu)) {
		node = cpu_node(m, cpu);
		if (node >= 0 && node < NODE_BITS)
			nodes |= (uint64_t)1 << node;
	}
	return nodes;
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

/* What the rules of one device read. */
struct dev_ctx {
	const struct setup_machine *m;
	const struct setup_dev *d;
	const struct setup_dev *all;
	unsigned ndevs;
	const struct check_ask *ask;
	int i;
	unsigned workers;	/* at least 1 */
	const struct topo_cpuset *cpus;	/* the worker CPUs where not the ask's:
					 * a path's */
};

/* ---- the device's IOMMU and block queue ---- */

/* Passthrough by default: iommu=pt is x86's alone; iommu.passthrough=1
 * is the generic parameter (ARM64 and X86 in kernel-parameters.txt).
 * Each drops the other, so an older occurrence of either cannot win. */
static bool is_x86(const struct setup_machine *m)
{
	return m && (!strcmp(m->arch, "x86_64") || !strcmp(m->arch, "i686") ||
		     !strcmp(m->arch, "i386"));
}

static void iommu_fix(struct check_fix *fx, const struct setup_machine *m)
{
	if (is_x86(m))
		check_cmdline_fix(fx, "iommu", "pt", "iommu.passthrough");
	else
		check_cmdline_fix(fx, "iommu.passthrough", "1", "iommu");
}

static void rule_iommu(struct check_list *l, const struct dev_ctx *c)
{
	struct check_finding *f;

	if (!strcmp(c->d->iommu_type, "DMA")) {
		if (!(f = check_add(l, CHECK_IOMMU_STRICT, c->i)))
			return;
		iommu_fix(&f->fix, c->m);
		check_cmdline_fix(&f->also, "iommu.strict", "0", NULL);
	} else if (!strcmp(c->d->iommu_type, "DMA-FQ")) {
		if (!(f = check_add(l, CHECK_IOMMU_LAZY, c->i)))
			return;
		iommu_fix(&f->fix, c->m);
	}
}

/* The schedulers of the legacy single-queue block layer (before 5.0),
 * which offers no "none" to switch to. */
static bool legacy_scheduler(const char *s)
{
	return !strcmp(s, "noop") || !strcmp(s, "cfq") || !strcmp(s, "deadline");
}

static void rule_scheduler(struct check_list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;

	if (!check_has(d->scheduler) || !strcmp(d->scheduler, "none") || legacy_scheduler(d->scheduler))
		return;
	if (!(f = check_add(l, CHECK_SCHEDULER, c->i)))
		return;
	check_name(f, 0, d->scheduler);
	check_act(&f->fix, CHECK_ACT_SYSFS, "none", "block/%s/queue/scheduler", d->disk);
}

/* Block IO is accounted where iostats is 1. Passthrough IO is another
 * matter: kernels before 6.13 never account it (blk_account_io_start
 * returned on blk_rq_is_passthrough), and 6.13 on account it only where
 * iostats_passthrough is 1 as well (Keith Busch, "block: enable
 * passthrough command statistics", 2024-10). So a passthrough run pays
 * for iostats only where both are 1, and its fix is iostats_passthrough,
 * which leaves block IO's counters alone. */
static void rule_iostats(struct check_list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;

	if (d->iostats != 1)
		return;
	if (!c->ask->passthrough) {
		if (!(f = check_add(l, CHECK_IOSTATS, c->i)))
			return;
		f->num[0] = d->iostats;
		check_act(&f->fix, CHECK_ACT_SYSFS, "0", "block/%s/queue/iostats", d->disk);
		return;
	}
	if (d->iostats_passthrough != 1 || !(f = check_add(l, CHECK_IOSTATS_PASSTHROUGH, c->i)))
		return;
	f->num[0] = d->iostats_passthrough;
	check_act(&f->fix, CHECK_ACT_SYSFS, "0", "block/%s/queue/iostats_passthrough", d->disk);
}

static void rule_nomerges(struct check_list *l, const struct dev_ctx *c)
{
	struct check_finding *f;

	if (c->d->nomerges < 0 || c->d->nomerges >= 2 || !(f = check_add(l, CHECK_NOMERGES, c->i)))
		return;
	f->num[0] = c->d->nomerges;
	check_act(&f->fix, CHECK_ACT_SYSFS, "2", "block/%s/queue/nomerges", c->d->disk);
}

/* wbt_should_throttle (block/blk-wbt.c) throttles writes and discards
 * only; a read is tracked (WBT_READ) and passes the rq_qos hooks, which a
 * wbt_lat_usec of 0 leaves in place (it only turns wbt's work off). What
 * 0 saves a read-only run was measured below 1% of its CPU time
 * (docs/check.md#wbt), no cost to name: only a run that writes is told. */
static void rule_wbt(struct check_list *l, const struct dev_ctx *c)
{
	struct check_finding *f;

	if (!c->ask->writes || c->d->wbt_lat_usec <= 0 || !(f = check_add(l, CHECK_WBT, c->i)))
		return;
	f->num[0] = (double)c->d->wbt_lat_usec;
	check_act(&f->fix, CHECK_ACT_SYSFS, "0", "block/%s/queue/wbt_lat_usec", c->d->disk);
}

/* nr_requests is each hardware queue's depth: the workers spread over the
 * queues, so a queue holds the IOs of ceil(workers / queues) of them (all
 * of them when the queue count is not known). */
static void rule_nr_requests(struct check_list *l, const struct dev_ctx *c)
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
	if (d->nr_requests < 0 || d->nr_requests >= need || !(f = check_add(l, CHECK_NR_REQUESTS, c->i)))
		return;
	f->num[0] = (double)d->nr_requests;
	f->num[1] = (double)need;
	check_act(&f->fix, CHECK_ACT_SYSFS, "", "block/%s/queue/nr_requests", d->disk);
	snprintf(f->fix.value, sizeof(f->fix.value), "%lld", (long long)need);
}

/* blk_mq_complete_need_ipi (block/blk-mq.c): a completion that comes in
 * on another CPU than the one that submitted is sent back to it by an IPI
 * when rq_affinity is 2 (QUEUE_FLAG_SAME_FORCE), and only across a cache
 * domain when it is 1. With fewer interrupt queues than CPUs a queue's
 * interrupt serves several submitting CPUs, so at 2 most completions cost
 * an IPI; a polled run completes on the submitting CPU. */
static void rule_rq_affinity(struct check_list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;

	if (c->ask->poll || d->rq_affinity != 2 || !d->nirq_queues || !c->m || c->m->pus <= 0 ||
	    d->nirq_queues >= (unsigned)c->m->pus || !(f = check_add(l, CHECK_RQ_AFFINITY, c->i)))
		return;
	f->num[0] = d->rq_affinity;
	f->num[1] = d->nirq_queues;
	f->num[2] = c->m->pus;
	check_act(&f->fix, CHECK_ACT_SYSFS, "1", "block/%s/queue/rq_affinity", d->disk);
}

/* A buffered read that misses the page cache goes through
 * page_cache_sync_ra (mm/readahead.c): a random one reads only what was
 * asked, unless it follows the previous read of the file or the pages just
 * before it are cached, when it is taken for a stream and read ahead up to
 * read_ahead_kb. A random run over a range the cache fills meets cached
 * neighbours more and more, and reads pages nobody asked for. At 0 the
 * kernel reads just the asked range (do_forced_ra). Direct IO never reads
 * ahead. */
static void rule_read_ahead(struct check_list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;
	int64_t asked = c->ask->bs ? (c->ask->bs + 1023) / 1024 : 4;

	if (!c->ask->buffered || d->read_ahead_kb < 0 || d->read_ahead_kb <= asked ||
	    !(f = check_add(l, CHECK_READ_AHEAD, c->i)))
		return;
	f->num[0] = d->read_ahead_kb;
	check_act(&f->fix, CHECK_ACT_SYSFS, "0", "block/%s/queue/read_ahead_kb", d->disk);
}

static void rule_queue(struct check_list *l, const struct dev_ctx *c)
{
	/* a file on a file system without a disk (tmpfs) has no queue */
	if (!check_has(c->d->disk))
		return;
	rule_scheduler(l, c);
	rule_iostats(l, c);
	rule_nomerges(l, c);
	rule_wbt(l, c);
	/* A multipath head's queue is bio-based: nvme_ns_head_submit_bio
	 * hands each bio to a path's blk-mq queue, whose nr_requests is the
	 * depth that counts (path_rules judge it). Kernels that still show
	 * nr_requests on the head (before 6.5: blk_mq_queue_attr_visible
	 * hides it since) show a number no IO waits on, and
	 * queue_requests_store refuses a bio-based queue with EINVAL. */
	if (!c->d->npaths)
		rule_nr_requests(l, c);
	rule_rq_affinity(l, c);
	rule_read_ahead(l, c);
}

/* ---- the nvme driver's queues and the controller ---- */

/* poll_queues=N of the nvme module */
static void poll_queues_fix(struct check_fix *fx, const struct dev_ctx *c)
{
	char n[16];

	snprintf(n, sizeof(n), "%u", c->workers);
	check_module_fix(fx, c->m, "nvme", "poll_queues", n);
}

/* queue/io_poll says whether the queue has poll queues; the module's
 * poll_queues stands in where it could not be read. */
static void rule_poll_queues(struct check_list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;
	bool none;

	if (!c->ask->poll)
		return;
	none = d->io_poll == 0 || (d->io_poll < 0 && c->m && c->m->nvme_poll_queues == 0);
	if (!none || !(f = check_add(l, CHECK_NO_POLL_QUEUES, c->i)))
		return;
	f->num[0] = c->workers;
	poll_queues_fix(&f->fix, c);
}

static void rule_write_queues(struct check_list *l, const struct dev_ctx *c)
{
	struct check_finding *f;

	if (!c->m || c->m->nvme_write_queues <= 0 || !(f = check_add(l, CHECK_WRITE_QUEUES, c->i)))
		return;
	f->num[0] = c->m->nvme_write_queues;
	check_module_fix(&f->fix, c->m, "nvme", "write_queues", "0");
}

/* APST moves an idle drive to a lower power state once it has been idle
 * for the transition time nvme_configure_apst sets (apst_primary_timeout_ms,
 * 100 ms by default): only the first IO after such a gap pays the wake-up,
 * so a closed loop, which never leaves the drive idle, pays nothing. The
 * kernel shows pm_qos_latency_tolerance_us only for a controller with
 * APST: without it there is nothing to turn off, whatever nvme_core's
 * default_ps_max_latency_us says. The drive's own word wins: APST off in
 * the drive (Get Features) costs nothing; on, it does even where the
 * kernel's limit cannot be read. */
static void rule_apst(struct check_list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;
	bool limit = d->apst_supported == 1 && d->apst_latency_us > 0;

	if (c->ask->steady || d->apst_enabled == 0 || (!limit && d->apst_enabled != 1))
		return;
	if (!(f = check_add(l, CHECK_APST, c->i)))
		return;
	/* the kernel's limit: setup/ reads "any" and "auto" (no limit: every
	 * power state allowed) as INT64_MAX */
	f->form = !limit ? CHECK_FORM_APST_DRIVE :
		  d->apst_latency_us == INT64_MAX ? CHECK_FORM_APST_ANY : CHECK_FORM_PLAIN;
	f->num[0] = f->form == CHECK_FORM_PLAIN ? (double)d->apst_latency_us : -1;
	f->num[1] = d->power_state;
	if (d->apst_supported == 1 && check_has(d->controller)) {
		check_act(&f->fix, CHECK_ACT_SYSFS, "0", "class/nvme/%s/power/pm_qos_latency_tolerance_us",
		    d->controller);
		check_cmdline_fix(&f->also, "nvme_core.default_ps_max_latency_us", "0", NULL);
		f->also_lasting = true;
	} else {
		check_cmdline_fix(&f->fix, "nvme_core.default_ps_max_latency_us", "0", NULL);
	}
}

/* model_pcie_judge's one rule, topo's findings' too: a link below the
 * most both its ends support. One the slot limits is no setting's cost,
 * and nothing here moves a drive (topo's finding says where to). */
static void rule_link(struct check_list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	/* the port above the device, from topo's reader (setup/dev.c): -1
	 * where it is not known, which judges against the device's own */
	struct model_pcie_ends e = { d->link_gts, d->link_max_gts, d->port_max_gts, d->link_width,
				     d->link_max_width, d->port_max_width };
	struct check_finding *f;
	double want_gts;
	int want_width;

	if (model_pcie_judge(&e, &want_gts, &want_width) != MODEL_PCIE_DEGRADED ||
	    !(f = check_add(l, CHECK_LINK, c->i)))
		return;
	f->num[0] = d->link_gts;
	f->num[1] = d->link_width;
	f->num[2] = want_gts;
	f->num[3] = want_width;
	check_act(&f->fix, CHECK_ACT_NONE, "", "%s", d->pci);
	snprintf(f->fix.value, sizeof(f->fix.value), "%d", want_width);
}

/* The queues a run's IO goes through: the poll queues when it polls (the
 * ones without an interrupt), else the ones with an interrupt. */
static void rule_few_queues(struct check_list *l, const struct dev_ctx *c)
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
	if (!q || q >= c->workers || !(f = check_add(l, CHECK_FEW_QUEUES, c->i)))
		return;
	f->num[0] = q;
	f->num[1] = c->workers;
	f->num[2] = c->ask->poll;
	if (c->ask->poll)
		poll_queues_fix(&f->fix, c);
	else
		check_option_fix(&f->fix, "--jobs-per-device", "%u", q);
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
		one = only_cpu(&d->hwq[q].irq_cpuset);
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
			if (o->hwq[q].irq >= 0 && topo_cpuset_has(&o->hwq[q].irq_cpuset, cpu))
				return true;
	}
	return false;
}

/* nvme's IO queue vectors are managed: the kernel spreads them over the
 * CPUs when the driver probes the drive, and /proc/irq/N/smp_affinity_list
 * refuses a write to them (EPERM, seen on 6.12 and 7.2), so no fix may
 * tell a user to move one: the fixes are runs that take no interrupt. */

static void rule_one_cpu_irqs(struct check_list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;
	int cpu = one_irq_cpu(d);

	if (cpu < 0 || (c->workers < 2 && !cpu_shared(c, cpu)))
		return;
	if (!(f = check_add(l, CHECK_ONE_CPU_IRQS, c->i)))
		return;
	f->num[0] = cpu;
	if (d->io_poll == 1) {
		check_option_fix(&f->fix, "--completion", "poll");
	} else {
		check_option_fix(&f->fix, "--jobs-per-device", "1");
		poll_queues_fix(&f->also, c);
	}
}

/* The queue with an interrupt whose CPUs hold cpu, or NULL. */
static const struct setup_hwq *queue_of(const struct setup_dev *d, int cpu)
{
	unsigned q;

	for (q = 0; q < d->nhwq; q++)
		if (d->hwq[q].irq >= 0 && topo_cpuset_has(&d->hwq[q].cpuset, cpu))
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

	if (!h || node < 0 || node >= NODE_BITS)
		return -1;
	nodes = cpuset_nodes(c->m, &h->irq_cpuset);
	if (!nodes)
		return -1;
	*hq = h;
	*at = nodes;
	return (nodes >> node & 1) ? 1 : 0;
}

/* The worker CPUs the ask gives device c->i; NULL when not asked. */
static const struct topo_cpuset *asked_cpus(const struct dev_ctx *c)
{
	const struct topo_cpuset *s = c->ask->worker_cpus ? &c->ask->worker_cpus[c->i] : NULL;

	return s && !cpuset_empty(s) ? s : NULL;
}

/* The worker CPUs of the device: the ones asked, else its node's. */
static bool worker_set(const struct dev_ctx *c, struct topo_cpuset *s)
{
	const struct topo_cpuset *asked = c->cpus ? c->cpus : asked_cpus(c);
	int cpu;

	if (asked && !cpuset_empty(asked)) {
		*s = *asked;
		return true;
	}
	topo_cpuset_zero(s);
	if (c->d->numa_node < 0)
		return false;
	for (cpu = 0; cpu < c->m->ncpus && cpu < SETUP_MAX_CPUS; cpu++)
		if (c->m->cpu_node[cpu] == c->d->numa_node)
			topo_cpuset_add(s, cpu);
	return !cpuset_empty(s);
}

/* Polled IO takes no interrupt, so only an interrupt-driven run asks. */
static void rule_irq_remote(struct check_list *l, const struct dev_ctx *c)
{
	const struct setup_hwq *h, *first = NULL;
	struct topo_cpuset workers, remote, good;
	char glist[96];
	struct check_finding *f;
	uint64_t at, lands = 0, from = 0;
	int cpu, node;

	if (c->ask->poll || !c->m || !worker_set(c, &workers))
		return;
	topo_cpuset_zero(&remote);
	topo_cpuset_zero(&good);
	for (cpu = topo_cpuset_next(&workers, -1); cpu >= 0; cpu = topo_cpuset_next(&workers, cpu)) {
		if (irq_local(c, cpu, &h, &at) != 0)
			continue;
		topo_cpuset_add(&remote, cpu);
		from |= (uint64_t)1 << cpu_node(c->m, cpu);
		lands |= at;
		if (!first)
			first = h;
	}
	if (!first || !(f = check_add(l, CHECK_IRQ_REMOTE, c->i)))
		return;
	/* the CPUs a run could use instead: the device's node's (any node's
	 * when it has none) whose queue interrupts their own node */
	for (cpu = 0; cpu < c->m->ncpus && cpu < SETUP_MAX_CPUS; cpu++) {
		node = cpu_node(c->m, cpu);
		if ((c->d->numa_node < 0 || node == c->d->numa_node) &&
		    irq_local(c, cpu, &h, &at) == 1)
			topo_cpuset_add(&good, cpu);
	}
	/* the remote CPUs, cut at a whole range past 95 characters */
	topo_cpuset_format(&remote, f->name[0], 96);
	topo_cpuset_format(&good, glist, sizeof(glist));
	node = first_node(lands & ~from);
	if (node < 0)
		node = first_node(lands);
	f->num[0] = first_node(from);
	f->num[1] = node;
	if (*glist) {
		check_option_fix(&f->fix, "--cpus", "%s", glist);
	} else if (c->d->io_poll == 1) {
		check_option_fix(&f->fix, "--completion", "poll");
	} else {
		poll_queues_fix(&f->fix, c);
		check_option_fix(&f->also, "--completion", "poll");
	}
}

/* ASPM lets an idle link drop to L0s or L1; like APST, only the first IO
 * after an idle gap pays its exit latency, so a steady run pays nothing.
 * L1 is the deeper state: its fix comes first. */
static void rule_aspm(struct check_list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;
	bool l1 = d->l1_aspm == 1, l0s = d->l0s_aspm == 1;

	if (c->ask->steady || (!l1 && !l0s) || !check_has(d->pci) || !(f = check_add(l, CHECK_ASPM, c->i)))
		return;
	f->num[0] = l1;
	f->num[1] = l0s;
	if (c->m)
		check_name(f, 0, c->m->aspm_policy);
	check_act(&f->fix, CHECK_ACT_SYSFS, "0", "bus/pci/devices/%s/link/%s", d->pci,
	    l1 ? "l1_aspm" : "l0s_aspm");
	check_cmdline_fix(&f->also, "pcie_aspm.policy", "performance", NULL);
	f->also_lasting = true;
}

/* What a blk_cgroup finding states: its form, the limits, the cgroup that
 * holds the one in force and the disk's number. */
static void cg_values(struct check_finding *f, const struct setup_dev *d, enum check_form form,
		      const char *at)
{
	f->form = form;
	bool max = form == CHECK_FORM_CG_MAX || form == CHECK_FORM_CG_V1;

	f->num[0] = max ? (double)d->cg_riops : -1;
	f->num[1] = max ? (double)d->cg_rbps : -1;
	f->num[2] = form == CHECK_FORM_CG_LATENCY ? (double)d->cg_latency_us : -1;
	check_name(f, 0, at);
	check_name(f, 1, d->devt);
}

/* cgroup v1's blk-throttle: the own cgroup's blkio.throttle files, one
 * limit a file; writing 0 removes it (tg_set_conf). The IOPS limit is
 * named first; where a bps limit is set too, check names it next. */
static void cg_v1_fix(struct check_fix *fx, const struct setup_dev *d)
{
	check_act(fx, CHECK_ACT_SYSFS, "", "fs/cgroup/blkio%s/blkio.throttle.read_%s_device",
		  strcmp(d->cg_max_at, "/") ? d->cg_max_at : "", d->cg_riops >= 0 ? "iops" : "bps");
	snprintf(fx->value, sizeof(fx->value), "%s 0", d->devt);
}

/* blk-throttle caps the cgroup's IOs on the disk at io.max's riops and
 * rbps (on cgroup v1, blkio.throttle.read_iops_device and read_bps_device,
 * the same limits: throtl_legacy_files), whatever the drive can do;
 * io.cost (blk-iocost) charges every IO against a cost model. On v2 a
 * limit up the tree applies as much as our own. */
static void rule_blk_cgroup(struct check_list *l, const struct dev_ctx *c)
{
	const struct setup_dev *d = c->d;
	struct check_finding *f;

	if (!check_has(d->devt))
		return;
	if (d->cg_v1 && (d->cg_riops >= 0 || d->cg_rbps >= 0)) {
		if (!(f = check_add(l, CHECK_BLK_CGROUP, c->i)))
			return;
		cg_values(f, d, CHECK_FORM_CG_V1, d->cg_max_at);
		cg_v1_fix(&f->fix, d);
	} else if (d->cg_riops >= 0 || d->cg_rbps >= 0) {
		if (!(f = check_add(l, CHECK_BLK_CGROUP, c->i)))
			return;
		cg_values(f, d, CHECK_FORM_CG_MAX, d->cg_max_at);
		check_act(&f->fix, CHECK_ACT_SYSFS, "", "fs/cgroup%s/io.max",
		    strcmp(d->cg_max_at, "/") ? d->cg_max_at : "");
		snprintf(f->fix.value, sizeof(f->fix.value), "%s riops=max rbps=max", d->devt);
	} else if (d->cg_latency_us > 0) {
		/* blk-iolatency times every bio on the disk once a target is
		 * set, and when a peer with a lower target misses it, scales
		 * the queue depth of the groups with higher ones down to 1 */
		if (!(f = check_add(l, CHECK_BLK_CGROUP, c->i)))
			return;
		cg_values(f, d, CHECK_FORM_CG_LATENCY, d->cg_latency_at);
		check_act(&f->fix, CHECK_ACT_SYSFS, "", "fs/cgroup%s/io.latency",
			  strcmp(d->cg_latency_at, "/") ? d->cg_latency_at : "");
		snprintf(f->fix.value, sizeof(f->fix.value), "%s target=max", d->devt);
	} else if (d->cg_iocost == 1) {
		if (!(f = check_add(l, CHECK_BLK_CGROUP, c->i)))
			return;
		cg_values(f, d, CHECK_FORM_CG_COST, "");
		check_act(&f->fix, CHECK_ACT_SYSFS, "", "fs/cgroup/io.cost.qos");
		snprintf(f->fix.value, sizeof(f->fix.value), "%s enable=0", d->devt);
	}
}

/* A multipath head's IO goes through its paths' blk-mq queues: the queue
 * and interrupt rules on each path, under the path's name
 * (model/check_queues.c). */
static void path_rules(struct check_list *l, const struct dev_ctx *c)
{
	const struct topo_cpuset *asked = asked_cpus(c);
	struct topo_cpuset cpus;
	struct dev_ctx pc;
	unsigned p, from;
	int take = 1;	/* none asked: the path's node's CPUs stand in */

	for (p = 0; p < c->d->npaths && !l->err; p++) {
		pc = *c;
		pc.d = &c->d->paths[p];
		from = l->n;
		rule_scheduler(l, &pc);
		rule_nr_requests(l, &pc);
		if (asked)
			take = check_path_cpus(c->m, c->d, p, asked, &cpus);
		if (take < 0)
			l->err = take;
		else if (take && asked)
			pc.cpus = &cpus;
		if (take > 0 && pc.d->nvme) {
			rule_few_queues(l, &pc);
			rule_one_cpu_irqs(l, &pc);
			rule_irq_remote(l, &pc);
		}
		if (!l->err)
			check_path_name(l->f + from, l->n - from, c->d, p);
	}
}

static void rule_shared_poll(struct check_list *l, const struct dev_ctx *c)
{
	struct check_finding f, *to;
	int ret = check_shared_poll(c->m, c->d, (unsigned)c->i, c->ask, &f);

	if (ret < 0)
		l->err = ret;
	else if (ret && (to = check_add(l, f.kind, c->i)))
		*to = f;
}

static void dev_rules(struct check_list *l, const struct dev_ctx *c)
{
	rule_iommu(l, c);
	rule_queue(l, c);
	if (check_has(c->d->disk))
		rule_blk_cgroup(l, c);
	if (!c->d->nvme)
		return;
	rule_poll_queues(l, c);
	rule_write_queues(l, c);
	rule_apst(l, c);
	rule_link(l, c);
	rule_few_queues(l, c);
	rule_one_cpu_irqs(l, c);
	rule_irq_remote(l, c);
	rule_aspm(l, c);
	path_rules(l, c);
	rule_shared_poll(l, c);
}

int check_findings(const struct setup_machine *m, const struct setup_dev *devs,
		   unsigned ndevs, const struct check_ask *ask,
		   struct check_finding **out)
{
	static const struct check_ask none = { 0 };
	struct check_list l = { NULL, 0, 0, 0 };
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
		check_machine_rules(&l, m, ask, ndevs * (ask->workers_per_dev ? ask->workers_per_dev : 1));
	if (l.err) {
		free(l.f);
		return l.err;
	}
	/* nothing was added: l.f is still NULL */
	*out = l.f;
	return (int)l.n;
}
