/* The one table of the software ceiling's kinds: each one's id, scope,
 * whether it changes without a reboot, the names of its values, and what
 * it costs where a source gives a figure, as figures and the source's
 * anchor. Values only: cli/words/findings_words.c says what each kind is
 * about and what its cost is. docs/check.md has a section per id and the
 * sources by their anchors. */
#include "model/check.h"

#include <stdbool.h>
#include <stddef.h>

/* The sources, by docs/check.md's anchors (its "Sources" section quotes
 * each as it was given). */
#define SRC_IOMMU "src-linux-nvme-2025-11"
#define SRC_IOSTATS "src-axboe-iostats"
#define SRC_POLL "src-fio-poll"
#define NO_COST { NULL, 0, 0, 0, 0, 0, 0, false }

#define DEV CHECK_SCOPE_DEVICE
#define MACH CHECK_SCOPE_MACHINE

static const struct check_kind_info kinds[CHECK_NKINDS] = {
	[CHECK_IOMMU_STRICT] = { "iommu_strict", DEV, { NULL },
		/* strict 570K, passthrough 5.01M, lazy 1.93M on one drive */
		{ SRC_IOMMU, 570e3, 570e3, 5.01e6, 1.93e6, 0, 1, true }, false,
		{ NULL }, { NULL } },
	[CHECK_IOMMU_LAZY] = { "iommu_lazy", DEV, { NULL },
		{ SRC_IOMMU, 1.93e6, 1.93e6, 5.01e6, 0, 0, 1, true }, false,
		{ NULL }, { NULL } },
	[CHECK_SCHEDULER] = { "scheduler", DEV, { NULL }, NO_COST, true,
		{ NULL }, { "scheduler" } },
	[CHECK_IOSTATS] = { "iostats", DEV, { "queue/iostats" },
		/* about 8% at the top end: 112-113M on, 122M off */
		{ SRC_IOSTATS, 112e6, 113e6, 122e6, 0, 8, 0, true }, true,
		{ "iostats" }, { NULL } },
	[CHECK_IOSTATS_PASSTHROUGH] = { "iostats_passthrough", DEV, { "queue/iostats_passthrough" },
		NO_COST, true,
		{ "iostats_passthrough" }, { NULL } },
	[CHECK_NOMERGES] = { "nomerges", DEV, { "queue/nomerges" }, NO_COST, true,
		{ "nomerges" }, { NULL } },
	[CHECK_WBT] = { "wbt", DEV, { "queue/wbt_lat_usec" }, NO_COST, true,
		{ "wbt_lat_usec" }, { NULL } },
	[CHECK_NR_REQUESTS] = { "nr_requests", DEV, { "queue/nr_requests" }, NO_COST, true,
		{ "nr_requests", "need" }, { NULL } },
	[CHECK_RQ_AFFINITY] = { "rq_affinity", DEV, { "queue/rq_affinity" }, NO_COST, true,
		{ "rq_affinity", "irq_queues", "cpus" }, { NULL } },
	[CHECK_READ_AHEAD] = { "read_ahead", DEV, { "queue/read_ahead_kb" }, NO_COST, true,
		{ "read_ahead_kb" }, { NULL } },
	[CHECK_NO_POLL_QUEUES] = { "no_poll_queues", DEV, { NULL },
		/* 4 drives, 14.4M by interrupts, 20.4M polled */
		{ SRC_POLL, 14.4e6, 14.4e6, 20.4e6, 0, 0, 4, true }, false,
		{ "poll_queues_wanted" }, { NULL } },
	[CHECK_WRITE_QUEUES] = { "write_queues", DEV, { NULL }, NO_COST, false,
		{ "write_queues" }, { NULL } },
	[CHECK_APST] = { "apst", DEV, { NULL }, NO_COST, true,
		{ "latency_tolerance_us", "power_state" }, { NULL } },
	[CHECK_LINK] = { "link", DEV, { NULL }, NO_COST, false,
		{ "gts", "width", "max_gts", "max_width" }, { NULL } },
	/* the queue count and the vectors' CPUs are the driver's, set at
	 * probe; a managed vector refuses smp_affinity */
	[CHECK_FEW_QUEUES] = { "few_queues", DEV, { NULL }, NO_COST, false,
		{ "queues", "workers", "poll" }, { NULL } },
	[CHECK_ONE_CPU_IRQS] = { "one_cpu_irqs", DEV, { NULL }, NO_COST, false,
		{ "cpu" }, { NULL } },
	[CHECK_IRQ_REMOTE] = { "irq_remote", DEV, { NULL }, NO_COST, false,
		{ "node", "irq_node" }, { "cpus" } },
	/* a path is no device of check --measure's: it writes a device's
	 * own queue */
	[CHECK_PATH_SCHEDULER] = { "path_scheduler", DEV, { NULL }, NO_COST, false,
		{ NULL }, { "scheduler" } },
	[CHECK_PATH_NR_REQUESTS] = { "path_nr_requests", DEV, { "queue/nr_requests" },
		NO_COST, false,
		{ "nr_requests", "need" }, { NULL } },
	[CHECK_SHARED_POLL_QUEUE] = { "shared_poll_queue", DEV, { NULL }, NO_COST, false,
		{ "workers", "poll_queues" }, { "cpus", "better_cpus" } },
	[CHECK_ASPM] = { "aspm", DEV, { "link/l1_aspm", "link/l0s_aspm" }, NO_COST, true,
		{ "l1", "l0s" }, { "policy" } },
	[CHECK_BLK_CGROUP] = { "blk_cgroup", DEV, { "io.max", "io.cost" }, NO_COST, true,
		{ "riops", "rbps", "latency_target_us" }, { "cgroup", "devt" } },
	[CHECK_GOVERNOR] = { "governor", MACH, { NULL }, NO_COST, true,
		{ "slow_cpus", "cpus" }, { "governor" } },
	[CHECK_BOOST] = { "boost", MACH, { NULL }, NO_COST, true,
		{ "boost" }, { NULL } },
	[CHECK_CSTATE] = { "cstate", MACH, { NULL }, NO_COST, true,
		{ "exit_latency_us", "max_us" }, { "state", "idle_governor" } },
	/* runtime in the kernel's sense, but it offlines the CPUs a run's
	 * workers may be placed on, so nothing tries it under a run */
	[CHECK_SMT] = { "smt", MACH, { NULL }, NO_COST, false,
		{ "workers", "cores", "cpus" }, { NULL } },
	[CHECK_MITIGATIONS] = { "mitigations", MACH, { NULL }, NO_COST, false,
		{ "mitigated", "total" }, { NULL } },
	[CHECK_KERNEL] = { "kernel", MACH, { NULL }, NO_COST, false,
		{ "need_major", "need_minor" }, { "kernel" } },
	[CHECK_IO_URING_DISABLED] = { "io_uring_disabled", MACH, { "kernel.io_uring_disabled" },
		NO_COST, true,
		{ "io_uring_disabled" }, { NULL } },
	[CHECK_MEMLOCK] = { "memlock", MACH, { "RLIMIT_MEMLOCK" }, NO_COST, true,
		{ "memlock_kib", "need_kib" }, { NULL } },
	[CHECK_NUMA_BALANCING] = { "numa_balancing", MACH, { "kernel.numa_balancing" },
		NO_COST, true,
		{ "numa_balancing", "nodes" }, { NULL } },
	/* SELinux off needs a reboot (selinux=0): permissive still checks */
	[CHECK_SELINUX] = { "selinux", MACH, { NULL }, NO_COST, false,
		{ "enforce" }, { NULL } },
	[CHECK_DEBUG_KERNEL] = { "debug_kernel", MACH, { NULL }, NO_COST, false,
		{ "lockdep", "kasan", "kmemleak", "debug_pagealloc", "hz" }, { "kernel" } },
};

const char *check_form_name(enum check_form f)
{
	static const char *const forms[CHECK_NFORMS] = {
		[CHECK_FORM_PLAIN] = "", [CHECK_FORM_APST_ANY] = "any",
		[CHECK_FORM_APST_DRIVE] = "drive", [CHECK_FORM_KERNEL_HYBRID] = "hybrid",
		[CHECK_FORM_KERNEL_PASSTHROUGH] = "passthrough", [CHECK_FORM_CG_MAX] = "io.max",
		[CHECK_FORM_CG_LATENCY] = "io.latency", [CHECK_FORM_CG_COST] = "io.cost",
		[CHECK_FORM_CG_V1] = "blkio.throttle",
	};

	return (unsigned)f < CHECK_NFORMS ? forms[f] : "";
}

const struct check_kind_info *check_kind_info(enum check_kind k)
{
	if ((unsigned)k >= CHECK_NKINDS)
		return NULL;
	return &kinds[k];
}
