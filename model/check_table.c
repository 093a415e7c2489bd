/* The one table of the software ceiling's kinds: what each is about, its
 * name in the one-line summary, what it costs where a source gives a
 * figure, and whether it changes without a reboot. docs/check.md has a
 * section per name and the sources by their anchors. */
#include "model/check.h"

#include <stddef.h>

/* The sources, by docs/check.md's anchors (its "Sources" section quotes
 * each as it was given). */
#define SRC_IOMMU "src-linux-nvme-2025-11"
#define CITE_IOMMU "linux-nvme list, 2025-11"
#define SRC_IOSTATS "src-axboe-iostats"
#define CITE_IOSTATS "Jens Axboe's iostats measurement"
#define SRC_POLL "src-fio-poll"
#define CITE_POLL "fio/t/io_uring polled runs"

#define DEV CHECK_SCOPE_DEVICE
#define MACH CHECK_SCOPE_MACHINE

static const struct check_kind_info kinds[CHECK_NKINDS] = {
	[CHECK_IOMMU_STRICT] = { "iommu_strict", DEV, "IOMMU domain", "IOMMU strict",
		"570K IOPS strict against 5.01M passthrough on one Optane drive "
		"(1.93M lazy)", SRC_IOMMU, CITE_IOMMU, false,
		{ NULL }, { NULL } },
	[CHECK_IOMMU_LAZY] = { "iommu_lazy", DEV, "IOMMU domain", "IOMMU lazy",
		"1.93M IOPS lazy against 5.01M passthrough on one Optane drive",
		SRC_IOMMU, CITE_IOMMU, false,
		{ NULL }, { NULL } },
	[CHECK_SCHEDULER] = { "scheduler", DEV, "IO scheduler", "scheduler",
		"", "", "", true,
		{ NULL }, { "scheduler" } },
	[CHECK_IOSTATS] = { "iostats", DEV, "IO accounting (queue/iostats)", "iostats",
		"about 8% at the top end: 122M IOPS against 112-113M",
		SRC_IOSTATS, CITE_IOSTATS, true,
		{ "iostats" }, { NULL } },
	[CHECK_IOSTATS_PASSTHROUGH] = { "iostats_passthrough", DEV,
		"passthrough IO accounting (queue/iostats_passthrough)", "iostats passthrough",
		"", "", "", true,
		{ "iostats_passthrough" }, { NULL } },
	[CHECK_NOMERGES] = { "nomerges", DEV, "merge lookups (queue/nomerges)", "merges",
		"", "", "", true,
		{ "nomerges" }, { NULL } },
	[CHECK_WBT] = { "wbt", DEV, "writeback throttling (queue/wbt_lat_usec)", "wbt",
		"", "", "", true,
		{ "wbt_lat_usec" }, { NULL } },
	[CHECK_NR_REQUESTS] = { "nr_requests", DEV, "queue depth (queue/nr_requests)",
		"nr_requests", "", "", "", true,
		{ "nr_requests", "need" }, { NULL } },
	[CHECK_RQ_AFFINITY] = { "rq_affinity", DEV, "completion CPU (queue/rq_affinity)",
		"rq_affinity", "", "", "", true,
		{ "rq_affinity", "irq_queues", "cpus" }, { NULL } },
	[CHECK_READ_AHEAD] = { "read_ahead", DEV, "readahead (queue/read_ahead_kb)",
		"readahead", "", "", "", true,
		{ "read_ahead_kb" }, { NULL } },
	[CHECK_NO_POLL_QUEUES] = { "no_poll_queues", DEV, "nvme poll queues",
		"no poll queues", "polling took 4 Optane drives from 14.4M to 20.4M IOPS",
		SRC_POLL, CITE_POLL, false,
		{ "poll_queues_wanted" }, { NULL } },
	[CHECK_WRITE_QUEUES] = { "write_queues", DEV, "nvme write queues",
		"write queues", "", "", "", false,
		{ "write_queues" }, { NULL } },
	[CHECK_APST] = { "apst", DEV, "NVMe autonomous power states", "APST",
		"", "", "", true,
		{ "latency_tolerance_us", "power_state" }, { NULL } },
	[CHECK_LINK] = { "link", DEV, "PCIe link", "link", "", "", "", false,
		{ "gts", "width", "max_gts", "max_width" }, { NULL } },
	/* the queue count and the vectors' CPUs are the driver's, set at
	 * probe; a managed vector refuses smp_affinity */
	[CHECK_FEW_QUEUES] = { "few_queues", DEV, "hardware queues", "few queues",
		"", "", "", false,
		{ "queues", "workers", "poll" }, { NULL } },
	[CHECK_ONE_CPU_IRQS] = { "one_cpu_irqs", DEV, "queue interrupts' CPUs",
		"one-CPU interrupts", "", "", "", false,
		{ "cpu" }, { NULL } },
	[CHECK_IRQ_REMOTE] = { "irq_remote", DEV, "queue interrupts' NUMA node",
		"remote interrupts", "", "", "", false,
		{ "node", "irq_node" }, { "cpus" } },
	/* a path is no device of check --measure's: it writes a device's
	 * own queue */
	[CHECK_PATH_SCHEDULER] = { "path_scheduler", DEV, "a multipath path's IO scheduler",
		"path scheduler", "", "", "", false,
		{ NULL }, { "scheduler" } },
	[CHECK_PATH_NR_REQUESTS] = { "path_nr_requests", DEV,
		"a multipath path's queue depth (queue/nr_requests)", "path nr_requests",
		"", "", "", false,
		{ "nr_requests", "need" }, { NULL } },
	[CHECK_SHARED_POLL_QUEUE] = { "shared_poll_queue", DEV, "poll queues' CPUs",
		"shared poll queue", "", "", "", false,
		{ "workers", "poll_queues" }, { "cpus", "better_cpus" } },
	[CHECK_ASPM] = { "aspm", DEV, "PCIe ASPM (link/l1_aspm, l0s_aspm)", "ASPM",
		"", "", "", true,
		{ "l1", "l0s" }, { "policy" } },
	[CHECK_BLK_CGROUP] = { "blk_cgroup", DEV, "blk-cgroup IO controllers (io.max, io.cost)",
		"blk-cgroup", "", "", "", true,
		{ "riops", "rbps", "latency_target_us" }, { "cgroup", "devt" } },
	[CHECK_GOVERNOR] = { "governor", MACH, "cpufreq governor", "governor",
		"", "", "", true,
		{ "slow_cpus", "cpus" }, { "governor" } },
	[CHECK_BOOST] = { "boost", MACH, "CPU boost (turbo)", "boost", "", "", "", true,
		{ "boost" }, { NULL } },
	[CHECK_CSTATE] = { "cstate", MACH, "deepest C-state", "C-states", "", "", "", true,
		{ "exit_latency_us", "max_us" }, { "state", "idle_governor" } },
	/* runtime in the kernel's sense, but it offlines the CPUs a run's
	 * workers may be placed on, so nothing tries it under a run */
	[CHECK_SMT] = { "smt", MACH, "SMT siblings", "SMT", "", "", "", false,
		{ "workers", "cores", "cpus" }, { NULL } },
	[CHECK_MITIGATIONS] = { "mitigations", MACH, "speculation mitigations",
		"mitigations", "", "", "", false,
		{ "mitigated", "total" }, { NULL } },
	[CHECK_KERNEL] = { "kernel", MACH, "kernel version", "kernel", "", "", "", false,
		{ "need_major", "need_minor" }, { "kernel" } },
	[CHECK_IO_URING_DISABLED] = { "io_uring_disabled", MACH,
		"sysctl kernel.io_uring_disabled", "io_uring disabled", "", "", "", true,
		{ "io_uring_disabled" }, { NULL } },
	[CHECK_MEMLOCK] = { "memlock", MACH, "locked memory limit (RLIMIT_MEMLOCK)",
		"memlock", "", "", "", true,
		{ "memlock_kib", "need_kib" }, { NULL } },
	[CHECK_NUMA_BALANCING] = { "numa_balancing", MACH, "sysctl kernel.numa_balancing",
		"NUMA balancing", "", "", "", true,
		{ "numa_balancing", "nodes" }, { NULL } },
	/* SELinux off needs a reboot (selinux=0): permissive still checks */
	[CHECK_SELINUX] = { "selinux", MACH, "SELinux (passthrough commands)", "SELinux",
		"", "", "", false,
		{ "enforce" }, { NULL } },
	[CHECK_DEBUG_KERNEL] = { "debug_kernel", MACH, "kernel debug options",
		"debug kernel", "", "", "", false,
		{ "lockdep", "kasan", "kmemleak", "debug_pagealloc", "hz" }, { "kernel" } },
};

const char *check_form_name(enum check_form f)
{
	static const char *const forms[CHECK_NFORMS] = {
		[CHECK_FORM_PLAIN] = "", [CHECK_FORM_APST_ANY] = "any",
		[CHECK_FORM_APST_DRIVE] = "drive", [CHECK_FORM_KERNEL_HYBRID] = "hybrid",
		[CHECK_FORM_KERNEL_PASSTHROUGH] = "passthrough", [CHECK_FORM_CG_MAX] = "io.max",
		[CHECK_FORM_CG_LATENCY] = "io.latency", [CHECK_FORM_CG_COST] = "io.cost",
	};

	return (unsigned)f < CHECK_NFORMS ? forms[f] : "";
}

const struct check_kind_info *check_kind_info(enum check_kind k)
{
	if ((unsigned)k >= CHECK_NKINDS)
		return NULL;
	return &kinds[k];
}
