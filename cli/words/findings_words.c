/* The words table: each finding kind's sentence parts, from the values
 * model/ and topo/ state. The only place a finding becomes English. */
#include "cli/words/findings_words.h"
#include "cli/words/notes_words.h"

#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

/* A bounded text: what does not fit is cut, as snprintf cuts. */
struct sb {
	char *b;
	size_t len, at;
};

static void say(struct sb *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct sb *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!s->len || s->at >= s->len - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->b + s->at, s->len - s->at, fmt, ap);
	va_end(ap);
	if (n > 0)
		s->at = (size_t)n >= s->len - s->at ? s->len - 1 : s->at + (size_t)n;
}

static const char *plural(double n)
{
	return n == 1 ? "" : "s";
}

/* ---- check: the software ceiling's findings ---- */

typedef void (*check_say_fn)(struct sb *s, const struct check_finding *f);

#define N(i) ((long long)f->num[i])
#define WORDS(name, ...)							\
	static void name(struct sb *s, const struct check_finding *f)		\
	{									\
		(void)f;							\
		say(s, __VA_ARGS__);						\
	}

WORDS(dma_strict, "DMA (strict)")
WORDS(dma_lazy, "DMA-FQ (lazy)")
WORDS(identity, "identity (passthrough)")
WORDS(scheduler, "%s", f->name[0])
WORDS(none, "none")
WORDS(figure, "%lld", N(0))
WORDS(zero, "0")
WORDS(one, "1")
WORDS(two, "2")
WORDS(need, "%lld", N(1))
WORDS(rq_affinity, "%lld (%lld interrupt queue%s for %lld CPUs: an IPI per completion)", N(0),
      N(1), plural(f->num[1]), N(2))
WORDS(read_ahead, "%lld KiB", N(0))
WORDS(read_ahead_better, "0 (only what is asked)")
WORDS(no_poll_queues, "no poll queues")
WORDS(poll_queues_better, "poll_queues=%lld", N(0))
WORDS(write_queues, "write_queues=%lld", N(0))
WORDS(write_queues_better, "write_queues=0")
WORDS(apst_better, "0 (APST off)")
WORDS(link, "%g GT/s x%lld", f->num[0], N(1))
WORDS(link_better, "%g GT/s x%lld", f->num[2], N(3))
WORDS(few_queues, "%lld %s queue%s for %lld workers", N(0), f->num[2] ? "poll" : "interrupt",
      plural(f->num[0]), N(1))
WORDS(few_queues_better, "a queue per worker (%lld)", N(1))
WORDS(one_cpu_irqs, "every queue's interrupt lands on CPU %lld", N(0))
WORDS(one_cpu_irqs_better, "each queue's interrupt on its own CPUs")
WORDS(irq_remote, "CPUs %s (node %lld) take their interrupts on node %lld", f->name[0], N(0),
      N(1))
WORDS(irq_remote_better, "each worker's queue interrupts its own node")
WORDS(aspm_better, "0 (ASPM off on the drive's link)")
WORDS(governor, "%s (%lld of %lld CPUs not performance)", f->name[0][0] ? f->name[0] : "mixed",
      N(0), N(1))
WORDS(performance, "performance")
WORDS(boost, "%lld (off)", N(0))
WORDS(boost_better, "1 (on)")
WORDS(cstate_better, "no state deeper than %lld us", N(1))
WORDS(smt, "on, %lld workers on %lld cores (%lld CPUs)", N(0), N(1), N(2))
WORDS(smt_better, "one worker per core")
WORDS(mitigations, "%lld of %lld mitigated", N(0), N(1))
WORDS(mitigations_better, "mitigations=off (only on a machine that runs nothing untrusted)")
WORDS(kernel, "%s", f->name[0][0] ? f->name[0] : "?")
WORDS(kernel_better, "%lld.%lld or newer (%s)", N(0), N(1),
      f->form == CHECK_FORM_KERNEL_HYBRID ? "hybrid polling" : "polled passthrough")
WORDS(io_uring_disabled, "%lld (%s)", N(0),
      f->num[0] == 1 ? "only CAP_SYS_ADMIN and kernel.io_uring_group" : "off for all")
WORDS(memlock, "%lld KiB", N(0))
WORDS(memlock_better, "unlimited, or at least %lld KiB", N(1))
WORDS(numa_balancing, "%lld (on, %lld nodes)", N(0), N(1))
WORDS(selinux, "on (%s)", f->num[0] ? "enforcing" : "permissive")
WORDS(selinux_better, "off (only on a machine that runs nothing untrusted)")
WORDS(debug_kernel_better, "a kernel built without them")

static void apst(struct sb *s, const struct check_finding *f)
{
	if (f->form == CHECK_FORM_APST_ANY)
		say(s, "pm_qos_latency_tolerance_us any (no limit)");
	else if (f->form == CHECK_FORM_APST_DRIVE)
		say(s, "APST on in the drive");
	else
		say(s, "pm_qos_latency_tolerance_us %lld", N(0));
	if (f->num[1] >= 0)
		say(s, ", the drive in power state %lld%s", N(1), f->num[1] ? " now" : "");
}

static void shared_poll(struct sb *s, const struct check_finding *f)
{
	if (f->name[0][0])
		say(s, "CPUs %s: ", f->name[0]);
	say(s, "%lld polling workers on %lld poll queue%s", N(0), N(1), plural(f->num[1]));
}

static void shared_poll_better(struct sb *s, const struct check_finding *f)
{
	say(s, "a poll queue each");
	if (f->name[1][0])
		say(s, ": CPUs %s", f->name[1]);
}

static void aspm(struct sb *s, const struct check_finding *f)
{
	say(s, "%s on", f->num[0] && f->num[1] ? "L0s and L1" : f->num[0] ? "L1" : "L0s");
	if (f->name[0][0])
		say(s, " (pcie_aspm.policy %s)", f->name[0]);
}

static void blk_cgroup(struct sb *s, const struct check_finding *f)
{
	if (f->form == CHECK_FORM_CG_LATENCY) {
		say(s, "io.latency target=%lld us in cgroup %s", N(2), f->name[0]);
	} else if (f->form == CHECK_FORM_CG_COST) {
		say(s, "io.cost on (io.cost.qos enable=1)");
	} else if (f->form == CHECK_FORM_CG_V1) {
		say(s, "blkio.throttle");
		if (f->num[0] >= 0)
			say(s, " read_iops_device=%lld", N(0));
		if (f->num[1] >= 0)
			say(s, " read_bps_device=%lld", N(1));
		say(s, " in cgroup v1 %s", f->name[0]);
	} else {
		say(s, "io.max");
		if (f->num[0] >= 0)
			say(s, " riops=%lld", N(0));
		if (f->num[1] >= 0)
			say(s, " rbps=%lld", N(1));
		say(s, " in cgroup %s", f->name[0]);
	}
}

static void blk_cgroup_better(struct sb *s, const struct check_finding *f)
{
	say(s, "%s on %s", f->form == CHECK_FORM_CG_LATENCY ? "no io.latency target" :
		f->form == CHECK_FORM_CG_COST ? "io.cost off" :
		f->form == CHECK_FORM_CG_V1 ? "no blkio.throttle read limit" : "no io.max limit",
	    f->name[1]);
}

static void cstate(struct sb *s, const struct check_finding *f)
{
	say(s, "%s, exit latency %lld us", f->name[0], N(0));
	if (f->name[1][0])
		say(s, " (idle governor %s)", f->name[1]);
}

static void debug_kernel(struct sb *s, const struct check_finding *f)
{
	static const char *const opts[] = { "lockdep", "KASAN", "kmemleak", "DEBUG_PAGEALLOC on" };
	unsigned i, n = 0;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (f->num[i])
			say(s, "%s%s", n++ ? ", " : "", opts[i]);
	say(s, " (%s", f->name[0][0] ? f->name[0] : "?");
	if (f->num[4] > 0)
		say(s, ", HZ=%lld", N(4));
	say(s, ")");
}

/* ---- what a kind costs, from its figures (model/check_table.c) ---- */

typedef void (*check_cost_fn)(struct sb *s, const struct check_cost *c);

/* IOPS as the sources write them: "570K", "5.01M". */
static void iops(struct sb *s, double v)
{
	if (v >= 1e6)
		say(s, "%gM", v / 1e6);
	else if (v >= 1e3)
		say(s, "%gK", v / 1e3);
	else
		say(s, "%g", v);
}

/* The IOPS as found: "112-113M" for a range in one unit. */
static void iops_found(struct sb *s, const struct check_cost *c)
{
	if (c->iops_hi > c->iops_lo && c->iops_lo >= 1e6)
		say(s, "%g-", c->iops_lo / 1e6);
	else if (c->iops_hi > c->iops_lo) {
		iops(s, c->iops_lo);
		say(s, "-");
	}
	iops(s, c->iops_hi > c->iops_lo ? c->iops_hi : c->iops_lo);
}

static void optane_drives(struct sb *s, unsigned n)
{
	if (n == 1)
		say(s, "one Optane drive");
	else
		say(s, "%u Optane drives", n);
}

static void iommu_cost(struct sb *s, const struct check_cost *c, const char *mode)
{
	iops_found(s, c);
	say(s, " IOPS %s against ", mode);
	iops(s, c->better_iops);
	say(s, " passthrough on ");
	optane_drives(s, c->drives);
	if (c->other_iops > 0) {
		say(s, " (");
		iops(s, c->other_iops);
		say(s, " lazy)");
	}
}

static void iommu_strict_cost(struct sb *s, const struct check_cost *c)
{
	iommu_cost(s, c, "strict");
}

static void iommu_lazy_cost(struct sb *s, const struct check_cost *c)
{
	iommu_cost(s, c, "lazy");
}

static void iostats_cost(struct sb *s, const struct check_cost *c)
{
	say(s, "about %g%% at the top end: ", c->loss_pct);
	iops(s, c->better_iops);
	say(s, " IOPS against ");
	iops_found(s, c);
}

static void poll_cost(struct sb *s, const struct check_cost *c)
{
	say(s, "polling took ");
	optane_drives(s, c->drives);
	say(s, " from ");
	iops_found(s, c);
	say(s, " to ");
	iops(s, c->better_iops);
	say(s, " IOPS");
}

/* The sources of the costs, by docs/check.md's anchors, as a reader
 * cites them (its "Sources" section quotes each as it was given). */
static const struct {
	const char *anchor, *cite;
} check_sources[] = {
	{ "src-linux-nvme-2025-11", "linux-nvme list, 2025-11" },
	{ "src-axboe-iostats", "Jens Axboe's iostats measurement" },
	{ "src-fio-poll", "fio/t/io_uring polled runs" },
};

/* Each check kind's words: its now and better, what it is about (with
 * the knobs model/check_table.c names: "IO accounting (queue/iostats)",
 * or after them for a sysctl), its name in the one-line summary, and its
 * cost from the figures where a source gives them. */
static const struct {
	check_say_fn now, better;
	const char *about;
	bool knob_first;	/* "sysctl kernel.numa_balancing" */
	const char *summary;
	check_cost_fn cost;	/* NULL: no figure is published */
} check_words[CHECK_NKINDS] = {
	[CHECK_IOMMU_STRICT] = { dma_strict, identity,
		"IOMMU domain", false, "IOMMU strict", iommu_strict_cost },
	[CHECK_IOMMU_LAZY] = { dma_lazy, identity,
		"IOMMU domain", false, "IOMMU lazy", iommu_lazy_cost },
	[CHECK_SCHEDULER] = { scheduler, none,
		"IO scheduler", false, "scheduler", NULL },
	[CHECK_IOSTATS] = { figure, zero,
		"IO accounting", false, "iostats", iostats_cost },
	[CHECK_IOSTATS_PASSTHROUGH] = { figure, zero,
		"passthrough IO accounting", false, "iostats passthrough", NULL },
	[CHECK_NOMERGES] = { figure, two,
		"merge lookups", false, "merges", NULL },
	[CHECK_WBT] = { figure, zero,
		"writeback throttling", false, "wbt", NULL },
	[CHECK_NR_REQUESTS] = { figure, need,
		"queue depth", false, "nr_requests", NULL },
	[CHECK_RQ_AFFINITY] = { rq_affinity, one,
		"completion CPU", false, "rq_affinity", NULL },
	[CHECK_READ_AHEAD] = { read_ahead, read_ahead_better,
		"readahead", false, "readahead", NULL },
	[CHECK_NO_POLL_QUEUES] = { no_poll_queues, poll_queues_better,
		"nvme poll queues", false, "no poll queues", poll_cost },
	[CHECK_WRITE_QUEUES] = { write_queues, write_queues_better,
		"nvme write queues", false, "write queues", NULL },
	[CHECK_APST] = { apst, apst_better,
		"NVMe autonomous power states", false, "APST", NULL },
	[CHECK_LINK] = { link, link_better,
		"PCIe link", false, "link", NULL },
	[CHECK_FEW_QUEUES] = { few_queues, few_queues_better,
		"hardware queues", false, "few queues", NULL },
	[CHECK_ONE_CPU_IRQS] = { one_cpu_irqs, one_cpu_irqs_better,
		"queue interrupts' CPUs", false, "one-CPU interrupts", NULL },
	[CHECK_IRQ_REMOTE] = { irq_remote, irq_remote_better,
		"queue interrupts' NUMA node", false, "remote interrupts", NULL },
	[CHECK_PATH_SCHEDULER] = { scheduler, none,
		"a multipath path's IO scheduler", false, "path scheduler", NULL },
	[CHECK_PATH_NR_REQUESTS] = { figure, need,
		"a multipath path's queue depth", false, "path nr_requests", NULL },
	[CHECK_SHARED_POLL_QUEUE] = { shared_poll, shared_poll_better,
		"poll queues' CPUs", false, "shared poll queue", NULL },
	[CHECK_ASPM] = { aspm, aspm_better,
		"PCIe ASPM", false, "ASPM", NULL },
	[CHECK_BLK_CGROUP] = { blk_cgroup, blk_cgroup_better,
		"blk-cgroup IO controllers", false, "blk-cgroup", NULL },
	[CHECK_GOVERNOR] = { governor, performance,
		"cpufreq governor", false, "governor", NULL },
	[CHECK_BOOST] = { boost, boost_better,
		"CPU boost (turbo)", false, "boost", NULL },
	[CHECK_CSTATE] = { cstate, cstate_better,
		"deepest C-state", false, "C-states", NULL },
	[CHECK_SMT] = { smt, smt_better,
		"SMT siblings", false, "SMT", NULL },
	[CHECK_MITIGATIONS] = { mitigations, mitigations_better,
		"speculation mitigations", false, "mitigations", NULL },
	[CHECK_KERNEL] = { kernel, kernel_better,
		"kernel version", false, "kernel", NULL },
	[CHECK_IO_URING_DISABLED] = { io_uring_disabled, zero,
		"sysctl", true, "io_uring disabled", NULL },
	[CHECK_MEMLOCK] = { memlock, memlock_better,
		"locked memory limit", false, "memlock", NULL },
	[CHECK_NUMA_BALANCING] = { numa_balancing, zero,
		"sysctl", true, "NUMA balancing", NULL },
	[CHECK_SELINUX] = { selinux, selinux_better,
		"SELinux (passthrough commands)", false, "SELinux", NULL },
	[CHECK_DEBUG_KERNEL] = { debug_kernel, debug_kernel_better,
		"kernel debug options", false, "debug kernel", NULL },
};

#undef N

bool cli_check_has_words(enum check_kind k)
{
	return (unsigned)k < CHECK_NKINDS && check_words[k].now && check_words[k].better &&
	       check_words[k].about && check_words[k].summary;
}

void cli_check_about(enum check_kind k, char *buf, size_t len)
{
	const struct check_kind_info *in = check_kind_info(k);
	struct sb s = { buf, len, 0 };
	unsigned i;

	if (!len)
		return;
	buf[0] = '\0';
	if (!in || !cli_check_has_words(k))
		return;
	say(&s, "%s", check_words[k].about);
	for (i = 0; i < CHECK_KNOBS && in->knobs[i]; i++) {
		const char *knob = in->knobs[i], *slash = strrchr(knob, '/');

		/* a second knob in the first's folder is named without it:
		 * "link/l1_aspm, l0s_aspm" */
		if (i && slash && !strncmp(knob, in->knobs[0], (size_t)(slash - knob + 1)))
			knob = slash + 1;
		say(&s, "%s%s", !i ? (check_words[k].knob_first ? " " : " (") : ", ", knob);
	}
	if (i && !check_words[k].knob_first)
		say(&s, ")");
}

const char *cli_check_summary_name(enum check_kind k)
{
	return cli_check_has_words(k) ? check_words[k].summary : "";
}

void cli_check_cost(enum check_kind k, char *buf, size_t len)
{
	const struct check_kind_info *in = check_kind_info(k);
	struct sb s = { buf, len, 0 };

	if (!len)
		return;
	buf[0] = '\0';
	if (in && in->cost.source && cli_check_has_words(k) && check_words[k].cost)
		check_words[k].cost(&s, &in->cost);
}

const char *cli_check_cost_cite(enum check_kind k)
{
	const struct check_kind_info *in = check_kind_info(k);
	size_t i;

	for (i = 0; in && in->cost.source && i < sizeof(check_sources) / sizeof(check_sources[0]);
	     i++)
		if (!strcmp(check_sources[i].anchor, in->cost.source))
			return check_sources[i].cite;
	return "";
}

void cli_check_now(const struct check_finding *f, char *buf, size_t len)
{
	struct sb s = { buf, len, 0 };

	if (!len)
		return;
	buf[0] = '\0';
	if (!cli_check_has_words(f->kind))
		return;
	check_words[f->kind].now(&s, f);
	/* a multipath path's finding names the path and the head's policy */
	if (f->path[0] && f->iopolicy[0])
		say(&s, " (path %s, iopolicy %s)", f->path, f->iopolicy);
	else if (f->path[0])
		say(&s, " (path %s)", f->path);
}

void cli_check_better(const struct check_finding *f, char *buf, size_t len)
{
	struct sb s = { buf, len, 0 };

	if (!len)
		return;
	buf[0] = '\0';
	if (cli_check_has_words(f->kind))
		check_words[f->kind].better(&s, f);
}

/* ---- saturate: the gap's findings and verdict ---- */

typedef void (*gap_say_fn)(struct sb *s, const struct model_gap_finding *f);

#define U(i) ((unsigned)f->num[i])
#define GAP_WORDS(name, ...)							\
	static void name(struct sb *s, const struct model_gap_finding *f)	\
	{									\
		(void)f;							\
		say(s, __VA_ARGS__);						\
	}

GAP_WORDS(no_gap, "All devices at once delivered %.0f%% of the sum of their solo QD%u IOPS: "
	  "no gap worth attributing.", f->num[0], U(1))
GAP_WORDS(node_loss, "The devices of node %d lost %.0f%% of their solo IOPS together, those of "
	  "the other nodes %.0f%%: look at node %d's host bridges, memory and cores.",
	  (int)f->num[0], f->num[1], f->num[2], (int)f->num[0])
GAP_WORDS(cpu_bound, "The workers of %s were busy up to %.0f%% of the time on their CPU at "
	  "QD%u: the host, not the drives, is the limit (more --jobs-per-device, faster cores, "
	  "or --completion poll).", f->names, f->num[0], U(1))
GAP_WORDS(shared_link, "%s behind %s %s lost %.0f%% together while the other devices lost "
	  "%.0f%%: they share one link to the CPU; move some to slots under another %s.",
	  f->names, f->form ? "host bridge" : "upstream port", f->other, f->num[0], f->num[1],
	  f->form ? "host bridge" : "upstream port")
GAP_WORDS(off_node, "The workers of %s ran off their local NUMA node: each IO crossed the "
	  "interconnect (free local cores, or see iostorm topo).", f->names)
GAP_WORDS(latency, "%s's QD1 p99 latency rose from %.1f to %.1f us with its neighbours busy.",
	  f->device, f->num[0], f->num[1])
GAP_WORDS(numa_penalty, "%s delivered %.0f%% fewer IOPS with its workers on a remote node "
	  "(%.0f against %.0f): keep its workers local, and mind which slot it sits in.",
	  f->device, f->num[0], f->num[1], f->num[2])
GAP_WORDS(failed_device, "%s failed: %s. It is left out of the later steps and of every sum "
	  "here.", f->device, f->why)
GAP_WORDS(throttled, "%s throttled for %u s (its own SMART / Health log) and lost %.0f%% of "
	  "its solo QD%u IOPS all at once: cool it (airflow, a heatsink) before its figures "
	  "count.", f->device, U(0), f->num[1], U(2))

static void shared_backing(struct sb *s, const struct model_gap_finding *f)
{
	say(s, "%s read files on one backing device (%s) and lost %.0f%% together", f->names,
	    f->other, f->num[0]);
	if (!f->form)
		say(s, " (the other devices %.0f%%)", f->num[1]);
	say(s, ": that device, not the targets themselves, is the limit; give each its own.");
}

static void alone_below(struct sb *s, const struct model_gap_finding *f)
{
	say(s, "%s alone at QD%u did %.0f IOPS, below its %.0f all at once by more than both "
	    "steps' noise: the machine disturbed the alone step", f->device, U(0), f->num[1],
	    f->num[2]);
	if (isfinite(f->num[3]))
		say(s, " (other processes used %.0f%% of its workers' CPUs then)", f->num[3]);
	say(s, ", so the losses worked out from it are understated; run again with --repeat 3 "
	    "or --repeat auto.");
}

GAP_WORDS(repeats_disagree, "%s's repeats of the QD%u %s step differ by %.0f%% of their mean "
	  "(more than %.0f%%): one measurement does not tell its figure; --repeat auto repeats "
	  "until they agree.", f->device, U(2), f->num[1] > 0 ? "alone" : "all-at-once",
	  f->num[0], f->num[3])

static void device_loss(struct sb *s, const struct model_gap_finding *f)
{
	char list[MODEL_GAP_TEXT / 2] = "", piece[96];
	size_t at;
	unsigned i;

	/* "a 40%, b 30%": a piece that does not fit is dropped */
	for (i = 0; i < f->ntop && i < MODEL_GAP_TOP; i++) {
		snprintf(piece, sizeof(piece), "%.64s %.0f%%", f->top[i], f->top_pct[i]);
		at = strlen(list);
		if (at + strlen(piece) + 3 < sizeof(list))
			snprintf(list + at, sizeof(list) - at, "%s%s", at ? ", " : "", piece);
	}
	say(s, "%u of %u devices lost %.0f%% or more of their solo QD%u IOPS when all ran at "
	    "once; most: %s%s", U(0), U(1), f->num[2], U(3), list, U(0) > f->ntop ? ", ..." : ".");
}

static void cpu_shared(struct sb *s, const struct model_gap_finding *f)
{
	if (f->form)
		say(s, "%u workers ran on %u CPUs, so several shared a core: the host, not the "
		    "drives, is the limit here.", U(1), U(2));
	else
		say(s, "Workers of %s and %s shared CPU %d: the host, not the drives, is the limit "
		    "(give each worker its own core).", f->names, f->other, (int)f->num[0]);
}

static const gap_say_fn gap_words[MODEL_GAP_NKINDS] = {
	[MODEL_GAP_NO_GAP] = no_gap,
	[MODEL_GAP_DEVICE_LOSS] = device_loss,
	[MODEL_GAP_NODE_LOSS] = node_loss,
	[MODEL_GAP_CPU_BOUND] = cpu_bound,
	[MODEL_GAP_CPU_SHARED] = cpu_shared,
	[MODEL_GAP_SHARED_LINK] = shared_link,
	[MODEL_GAP_OFF_NODE] = off_node,
	[MODEL_GAP_LATENCY] = latency,
	[MODEL_GAP_NUMA_PENALTY] = numa_penalty,
	[MODEL_GAP_FAILED_DEVICE] = failed_device,
	[MODEL_GAP_THROTTLED] = throttled,
	[MODEL_GAP_SHARED_BACKING] = shared_backing,
	[MODEL_GAP_ALONE_BELOW] = alone_below,
	[MODEL_GAP_REPEATS_DISAGREE] = repeats_disagree,
};

#undef U

/* Each verdict's words, from the gap in percent and the QDn. */
static const char *const gap_verdicts[MODEL_GAP_NVERDICTS] = {
	[MODEL_GAP_V_FAILED] = "failing device%s: %s",
	[MODEL_GAP_V_INCOMPLETE] = "incomplete: not every step was measured, so there is no gap "
				   "to judge.",
	[MODEL_GAP_V_NONE] = "the devices add up: all at once they deliver %.0f%% of the sum of "
			     "each alone at QD%u.",
	[MODEL_GAP_V_HOST] = "host-bound: the %.0f%% gap at QD%u comes with CPU-bound or "
			     "core-sharing workers; the host, not the drives, is the limit.",
	[MODEL_GAP_V_LINK] = "link-bound: the %.0f%% gap at QD%u sits on devices that share an "
			     "upstream link.",
	[MODEL_GAP_V_PLACEMENT] = "placement: the %.0f%% gap at QD%u comes with workers off their "
				  "local node.",
	[MODEL_GAP_V_DEVICES] = "a %.0f%% gap at QD%u, carried by the devices named above; the "
				"measurements single out no host cause.",
	[MODEL_GAP_V_UNEXPLAINED] = "a %.0f%% gap at QD%u spread over all devices; the "
				    "measurements single out no cause.",
	[MODEL_GAP_V_THERMAL] = "thermal: the %.0f%% gap at QD%u comes with drives that throttled "
				"during the run, by their own logs; the drives ran hot, so their "
				"figures are not the host's limit.",
	[MODEL_GAP_V_BACKING] = "backing-bound: the %.0f%% gap at QD%u sits on loop devices whose "
				"files share one backing device.",
	[MODEL_GAP_V_NOISY] = "undecided: the %.0f%% gap at QD%u rests on figures that did not "
			      "hold still (named above: an alone step the machine disturbed, or "
			      "repeats that disagree); no cause is claimed. Measure again on a "
			      "quieter machine, with --repeat auto.",
};

bool cli_gap_has_words(enum model_gap_kind k)
{
	return (unsigned)k < MODEL_GAP_NKINDS && gap_words[k];
}

bool cli_gap_verdict_has_words(enum model_gap_verdict v)
{
	return (unsigned)v < MODEL_GAP_NVERDICTS && gap_verdicts[v];
}

void cli_gap_text(const struct model_gap_finding *f, char *buf, size_t len)
{
	struct sb s = { buf, len, 0 };

	if (!len)
		return;
	buf[0] = '\0';
	if (cli_gap_has_words(f->kind))
		gap_words[f->kind](&s, f);
}

/* The verdict on the healthy devices: the formats hold the gap, then the
 * QDn (100 less the gap for V_NONE, which says what adds up). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void healthy_verdict(struct sb *s, const struct model_gap *g)
{
	enum model_gap_verdict v = g->healthy;

	if (!cli_gap_verdict_has_words(v) || v == MODEL_GAP_V_FAILED)
		return;
	/* figures that did not hold still may put all at once above the sum
	 * alone: a gain, not a negative gap */
	if (v == MODEL_GAP_V_NOISY && g->verdict_pct < 0) {
		say(s, "undecided: all at once measured %.0f%% above the devices alone at QD%u, "
		    "on figures that did not hold still (named above: an alone step the machine "
		    "disturbed, or repeats that disagree); no cause is claimed. Measure again on "
		    "a quieter machine, with --repeat auto.", -g->verdict_pct, g->qd);
		return;
	}
	say(s, gap_verdicts[v], v == MODEL_GAP_V_NONE ? 100.0 - g->verdict_pct : g->verdict_pct,
	    g->qd);
}

void cli_gap_verdict_text(const struct model_gap *g, char *buf, size_t len)
{
	struct sb s = { buf, len, 0 };

	if (!len)
		return;
	buf[0] = '\0';
	if (g->verdict != MODEL_GAP_V_FAILED) {
		healthy_verdict(&s, g);
		return;
	}
	say(&s, gap_verdicts[MODEL_GAP_V_FAILED], g->nfailed == 1 ? "" : "s", g->failed);
	if (!g->sys.ndev) {
		say(&s, "; no healthy device was left to judge.");
		return;
	}
	say(&s, ". The other %u: ", g->sys.ndev);
	healthy_verdict(&s, g);
}
#pragma GCC diagnostic pop

/* ---- iostorm-mpi: the cluster gap's findings and verdict ---- */

typedef void (*cgap_say_fn)(struct sb *s, const struct model_cgap_finding *f);
typedef void (*cgap_verdict_fn)(struct sb *s, const struct model_cgap *g);

static void cgap_no_gap(struct sb *s, const struct model_cgap_finding *f)
{
	say(s, "all hosts at once reach %.0f%% of their sum alone at QDn (gap under %g%%)",
	    f->num[0], f->num[1]);
}

static void cgap_host_loss(struct sb *s, const struct model_cgap_finding *f)
{
	unsigned k, n = (unsigned)f->num[0], nhost = (unsigned)f->num[1];

	say(s, "%u of %u host%s lost %g%% or more of their IOPS alone in the cluster run:", n,
	    nhost, nhost == 1 ? "" : "s", f->num[2]);
	for (k = 0; k < f->ntop && k < 3; k++)
		say(s, "%s %s %.0f%% (%.0f alone, %.0f in the cluster)", k ? "," : "", f->top[k],
		    f->top_loss[k], f->top_alone[k], f->top_cluster[k]);
	if (n > f->ntop)
		say(s, ", and %u more", n - f->ntop);
}

static void cgap_shared(struct sb *s, const struct model_cgap_finding *f)
{
	say(s, "the loss follows %s: its %u hosts lost %.0f%% together, the other %u %s %.0f%%",
	    f->what, (unsigned)f->num[0], f->num[1], (unsigned)f->num[2],
	    f->num[3] < 0 ? "gained" : "lost", f->num[3] < 0 ? -f->num[3] : f->num[3]);
}

static void cgap_shared_all(struct sb *s, const struct model_cgap_finding *f)
{
	say(s, "every host shares %s and together they lost %.0f%%: consistent with %s as the "
	    "limit, but no host outside it to compare with", f->what, f->num[0], f->what);
}

static void cgap_spread(struct sb *s, const struct model_cgap_finding *f)
{
	say(s, "the hosts' measured windows started up to %.3f s apart (%.0f%% of the %.3g s "
	    "window): they overlapped in part, so the cluster figure is too kind", f->num[0],
	    f->num[1], f->num[2]);
}

static const cgap_say_fn cgap_words[MODEL_CGAP_NKINDS] = {
	[MODEL_CGAP_NO_GAP] = cgap_no_gap,
	[MODEL_CGAP_HOST_LOSS] = cgap_host_loss,
	[MODEL_CGAP_SHARED] = cgap_shared,
	[MODEL_CGAP_SHARED_ALL] = cgap_shared_all,
	[MODEL_CGAP_SPREAD] = cgap_spread,
};

static void cgap_v_incomplete(struct sb *s, const struct model_cgap *g)
{
	say(s, "incomplete: %u of %u hosts have every figure", g->nhost, g->nhost_in);
}

static void cgap_v_none(struct sb *s, const struct model_cgap *g)
{
	say(s, "the hosts add up: all at once deliver %.0f%% of their sum alone",
	    model_gap_known(g->qdn_gap_pct) ? 100.0 - g->qdn_gap_pct : 100.0);
}

static void cgap_v_shared(struct sb *s, const struct model_cgap *g)
{
	say(s, "shared resource: the cluster lost %.0f%%, and the loss follows %s", g->qdn_gap_pct,
	    g->verdict_what);
}

static void cgap_v_hosts(struct sb *s, const struct model_cgap *g)
{
	say(s, "hosts: the cluster lost %.0f%%, carried by %u of %u hosts, with no shared resource "
	    "the hosts report singled out", g->qdn_gap_pct, g->nlost, g->nhost);
}

static void cgap_v_unexplained(struct sb *s, const struct model_cgap *g)
{
	say(s, "unexplained: the cluster lost %.0f%%, spread over every host%s", g->qdn_gap_pct,
	    g->shared_all ? ", which all share one resource (above)" :
	    "; no shared resource singled out");
}

static const cgap_verdict_fn cgap_verdicts[MODEL_CGAP_NVERDICTS] = {
	[MODEL_CGAP_V_INCOMPLETE] = cgap_v_incomplete,
	[MODEL_CGAP_V_NONE] = cgap_v_none,
	[MODEL_CGAP_V_SHARED] = cgap_v_shared,
	[MODEL_CGAP_V_HOSTS] = cgap_v_hosts,
	[MODEL_CGAP_V_UNEXPLAINED] = cgap_v_unexplained,
};

bool cli_cgap_has_words(enum model_cgap_kind k)
{
	return (unsigned)k < MODEL_CGAP_NKINDS && cgap_words[k];
}

bool cli_cgap_verdict_has_words(enum model_cgap_verdict v)
{
	return (unsigned)v < MODEL_CGAP_NVERDICTS && cgap_verdicts[v];
}

void cli_cgap_text(const struct model_cgap_finding *f, char *buf, size_t len)
{
	struct sb s = { buf, len, 0 };

	if (!len)
		return;
	buf[0] = '\0';
	if (cli_cgap_has_words(f->kind))
		cgap_words[f->kind](&s, f);
}

void cli_cgap_verdict_text(const struct model_cgap *g, char *buf, size_t len)
{
	struct sb s = { buf, len, 0 };

	if (!len)
		return;
	buf[0] = '\0';
	if (cli_cgap_verdict_has_words(g->verdict))
		cgap_verdicts[g->verdict](&s, g);
}

/* ---- topo: where the drives sit ---- */

typedef void (*topo_say_fn)(struct sb *s, const struct topo_finding *f);

#define TU(i) ((unsigned)f->num[i])

/* A list the finding names the first few of, and how many more there are. */
static void list_more(struct sb *s, const char *list, unsigned n, unsigned shown)
{
	say(s, "%s", list);
	if (n > shown)
		say(s, " and %u more", n - shown);
}

static void topo_no_nvme(struct sb *s, const struct topo_finding *f)
{
	say(s, "no NVMe drive %s: nothing for iostorm to place; give targets by path (files, "
	    "loop devices) to measure those",
	    f->form == TOPO_FORM_LIVE ? "on this machine" : "in this topology");
}

static void topo_imbalance(struct sb *s, const struct topo_finding *f)
{
	char uhave[32], ports[160];
	struct sb p = { ports, sizeof(ports), 0 };
	int move = (int)f->num[5];
	unsigned i;

	if (f->num[4] < 1e-9)
		snprintf(uhave, sizeof(uhave), "none");
	else
		snprintf(uhave, sizeof(uhave), "%g", f->num[4]);
	say(s, "node %u hosts %g of %u drives and node %u %s: move %d drive%s to slots ", TU(0),
	    f->num[1], TU(2), TU(3), uhave, move, move == 1 ? "" : "s");
	if (f->form == TOPO_FORM_NO_BRIDGE) {
		say(s, "local to node %u (no host bridge of node %u is in the topology)", TU(3),
		    TU(3));
		return;
	}
	say(s, "under node %u's host bridges %s", TU(3), f->what);
	if (!f->num[6]) {
		say(s, " (no free root port under them in the topology)");
		return;
	}
	ports[0] = '\0';
	for (i = 0; i < f->nhbs && i < TOPO_FINDING_HBS; i++) {
		say(&p, "%s", i ? ", " : "");
		list_more(&p, f->hbs[i].list, f->hbs[i].n, 3);
	}
	say(s, " (free root port%s: %s)", f->num[6] == 1 ? "" : "s", ports);
}

static void topo_root_complex(struct sb *s, const struct topo_finding *f)
{
	unsigned i;

	say(s, "node %d has %u host bridges (root complexes) and its %u drive%s sit under ",
	    f->node, TU(0), TU(1), f->num[1] == 1 ? "" : "s");
	for (i = 0; i < f->ncrowded && i < TOPO_FINDING_HBS; i++) {
		say(s, "%s%s (%u: ", i ? ", " : "", f->hbs[i].name, f->hbs[i].n);
		list_more(s, f->hbs[i].list, f->hbs[i].n, 4);
		say(s, ")");
	}
	say(s, ", while ");
	for (i = f->ncrowded; i < f->nhbs && i < TOPO_FINDING_HBS; i++) {
		say(s, "%s%s has %u free root port%s (", i > f->ncrowded ? "; " : "",
		    f->hbs[i].name, f->hbs[i].n, f->hbs[i].n == 1 ? "" : "s");
		list_more(s, f->hbs[i].list, f->hbs[i].n, 3);
		say(s, ")");
	}
	say(s, ": each host bridge has its own bandwidth to memory, so move drives from %s to "
	    "those slots ('iostorm plan' says which and what it gains)", f->host_bridge);
	if (f->num[2])
		say(s, "; on AMD, NPS2 or NPS4 in the firmware setup exposes the quadrants as NUMA "
		    "nodes, so placement and this report see them");
}

static void topo_unknown_locality(struct sb *s, const struct topo_finding *f)
{
	say(s, "host bridge %s has no NUMA node (the firmware does not say which node it is "
	    "local to), so the locality of its %u drive%s (", f->host_bridge, TU(0),
	    f->num[0] == 1 ? "" : "s");
	list_more(s, f->names, TU(0), 4);
	say(s, ") is unknown: iostorm bases no advice on it and suggests no slot under it");
}

static void topo_degraded_link(struct sb *s, const struct topo_finding *f)
{
	const char *port = f->what[0] ? f->what : "unknown";
	char cur[32], max[32];

	snprintf(cur, sizeof(cur), "%g GT/s x%d", f->num[0], (int)f->num[1]);
	snprintf(max, sizeof(max), "%g GT/s x%d", f->num[2], (int)f->num[3]);
	if (f->form == TOPO_FORM_SLOT)
		say(s, "%s's link runs at %s but the drive can do %s: its slot (port %s, max %g "
		    "GT/s x%d) limits it; move it to a slot that supports %s", f->names, cur, max,
		    port, f->num[4], (int)f->num[5], max);
	else
		say(s, "%s's link runs at %s but the drive and its port (%s) both support %g GT/s "
		    "x%d: reseat the drive, check the riser, cable or adapter, and look for PCIe "
		    "errors in dmesg", f->names, cur, port, f->num[6], (int)f->num[7]);
}

static void topo_cpuless_node(struct sb *s, const struct topo_finding *f)
{
	say(s, "%s is local to CPU-less node%s %s: its workers run on the nearest node %d and "
	    "every IO crosses the interconnect; move it to a slot under a node with cores",
	    f->names, f->num[0] > 1 ? "s" : "", f->what, (int)f->num[1]);
}

/* "nvme0 0000:21:00.0 node 0, nvme1 0000:41:00.0 node 1" */
static void topo_paths(char *buf, size_t len, const struct topo_finding *f)
{
	struct sb p = { buf, len, 0 };
	unsigned k;

	buf[0] = '\0';
	for (k = 0; k < f->npaths && k < TOPO_FINDING_PATHS; k++) {
		const struct topo_finding_path *x = &f->paths[k];

		say(&p, "%s%s %s node%s %s", k ? ", " : "", x->name,
		    x->pci[0] ? x->pci : "(bus unknown)", x->nnodes > 1 ? "s" : "",
		    x->nnodes ? x->nodes : "unknown");
	}
}

static void topo_multi_node(struct sb *s, const struct topo_finding *f)
{
	char paths[192];

	switch (f->form) {
	case TOPO_FORM_PATHS_NUMA:
		topo_paths(paths, sizeof(paths), f);
		say(s, "%s is one namespace with paths on nodes %s (%s): with iopolicy numa%s each "
		    "IO takes the path of its CPU's node, so its workers are spread over the cores "
		    "of nodes %s; nothing to move", f->names, f->what, paths,
		    f->iopolicy[0] ? "" : " (the kernel's default)", f->what);
		break;
	case TOPO_FORM_PATHS_OTHER:
		topo_paths(paths, sizeof(paths), f);
		say(s, "%s is one namespace with paths on nodes %s (%s), and with iopolicy %s its "
		    "IOs take every path whatever node their CPU is on, so some cross the "
		    "interconnect: for local IO, echo numa > /sys/block/%s/device/iopolicy",
		    f->names, f->what, paths, f->iopolicy, f->names);
		break;
	case TOPO_FORM_ONE_WITH_CPUS:
		say(s, "%s is local to nodes %s at once, and only one of them has CPUs of its own "
		    "(the others are HBM or far memory): its workers and their memory go to that "
		    "node; nothing to move", f->names, f->what);
		break;
	default:
		say(s, "%s is local to nodes %s at once (hwloc cannot tell which is nearer): its "
		    "workers are spread over their cores; measure with saturate before moving it",
		    f->names, f->what);
		break;
	}
}

static void topo_few_cores(struct sb *s, const struct topo_finding *f)
{
	say(s, "%u cores (CPUs %s) are local to %u drives (", TU(0),
	    f->what[0] ? f->what : "none", TU(1));
	list_more(s, f->names, TU(1), 4);
	say(s, "): at one core per drive at QDn the cores will limit IOPS before the drives do; "
	    "move drives to another node or measure with saturate");
}

static void topo_no_pci(struct sb *s, const struct topo_finding *f)
{
	const char *what = cli_no_pci_named(f->what);

	say(s, "%s is %s, without a PCI device: iostorm spreads its workers over the whole "
	    "machine", f->names, what ? what : "a device");
}

#undef TU

static const topo_say_fn topo_words[TOPO_FIND_NKINDS] = {
	[TOPO_FIND_NO_NVME] = topo_no_nvme,
	[TOPO_FIND_IMBALANCE] = topo_imbalance,
	[TOPO_FIND_ROOT_COMPLEX] = topo_root_complex,
	[TOPO_FIND_UNKNOWN_LOCALITY] = topo_unknown_locality,
	[TOPO_FIND_DEGRADED_LINK] = topo_degraded_link,
	[TOPO_FIND_CPULESS_NODE] = topo_cpuless_node,
	[TOPO_FIND_MULTI_NODE] = topo_multi_node,
	[TOPO_FIND_FEW_CORES] = topo_few_cores,
	[TOPO_FIND_NO_PCI] = topo_no_pci,
};

bool cli_topo_has_words(enum topo_finding_kind k)
{
	return (unsigned)k < TOPO_FIND_NKINDS && topo_words[k];
}

void cli_topo_text(const struct topo_finding *f, char *buf, size_t len)
{
	struct sb s = { buf, len, 0 };

	if (!len)
		return;
	buf[0] = '\0';
	if (cli_topo_has_words(f->kind))
		topo_words[f->kind](&s, f);
}
