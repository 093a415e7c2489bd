/* The words table: each finding kind's sentence parts, from the values
 * model/ and topo/ state. The only place a finding becomes English. */
#include "cli/words/findings_words.h"

#include <stdarg.h>
#include <stdio.h>

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
		f->form == CHECK_FORM_CG_COST ? "io.cost off" : "no io.max limit", f->name[1]);
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

static const struct {
	check_say_fn now, better;
} check_words[CHECK_NKINDS] = {
	[CHECK_IOMMU_STRICT] = { dma_strict, identity },
	[CHECK_IOMMU_LAZY] = { dma_lazy, identity },
	[CHECK_SCHEDULER] = { scheduler, none },
	[CHECK_IOSTATS] = { figure, zero },
	[CHECK_IOSTATS_PASSTHROUGH] = { figure, zero },
	[CHECK_NOMERGES] = { figure, two },
	[CHECK_WBT] = { figure, zero },
	[CHECK_NR_REQUESTS] = { figure, need },
	[CHECK_RQ_AFFINITY] = { rq_affinity, one },
	[CHECK_READ_AHEAD] = { read_ahead, read_ahead_better },
	[CHECK_NO_POLL_QUEUES] = { no_poll_queues, poll_queues_better },
	[CHECK_WRITE_QUEUES] = { write_queues, write_queues_better },
	[CHECK_APST] = { apst, apst_better },
	[CHECK_LINK] = { link, link_better },
	[CHECK_FEW_QUEUES] = { few_queues, few_queues_better },
	[CHECK_ONE_CPU_IRQS] = { one_cpu_irqs, one_cpu_irqs_better },
	[CHECK_IRQ_REMOTE] = { irq_remote, irq_remote_better },
	[CHECK_PATH_SCHEDULER] = { scheduler, none },
	[CHECK_PATH_NR_REQUESTS] = { figure, need },
	[CHECK_SHARED_POLL_QUEUE] = { shared_poll, shared_poll_better },
	[CHECK_ASPM] = { aspm, aspm_better },
	[CHECK_BLK_CGROUP] = { blk_cgroup, blk_cgroup_better },
	[CHECK_GOVERNOR] = { governor, performance },
	[CHECK_BOOST] = { boost, boost_better },
	[CHECK_CSTATE] = { cstate, cstate_better },
	[CHECK_SMT] = { smt, smt_better },
	[CHECK_MITIGATIONS] = { mitigations, mitigations_better },
	[CHECK_KERNEL] = { kernel, kernel_better },
	[CHECK_IO_URING_DISABLED] = { io_uring_disabled, zero },
	[CHECK_MEMLOCK] = { memlock, memlock_better },
	[CHECK_NUMA_BALANCING] = { numa_balancing, zero },
	[CHECK_SELINUX] = { selinux, selinux_better },
	[CHECK_DEBUG_KERNEL] = { debug_kernel, debug_kernel_better },
};

#undef N

bool cli_check_has_words(enum check_kind k)
{
	return (unsigned)k < CHECK_NKINDS && check_words[k].now && check_words[k].better;
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
