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
		"(1.93M lazy)", SRC_IOMMU, CITE_IOMMU, false },
	[CHECK_IOMMU_LAZY] = { "iommu_lazy", DEV, "IOMMU domain", "IOMMU lazy",
		"1.93M IOPS lazy against 5.01M passthrough on one Optane drive",
		SRC_IOMMU, CITE_IOMMU, false },
	[CHECK_SCHEDULER] = { "scheduler", DEV, "IO scheduler", "scheduler",
		"", "", "", true },
	[CHECK_IOSTATS] = { "iostats", DEV, "IO accounting (queue/iostats)", "iostats",
		"about 8% at the top end: 122M IOPS against 112-113M",
		SRC_IOSTATS, CITE_IOSTATS, true },
	[CHECK_IOSTATS_PASSTHROUGH] = { "iostats_passthrough", DEV,
		"passthrough IO accounting (queue/iostats_passthrough)", "iostats passthrough",
		"", "", "", true },
	[CHECK_NOMERGES] = { "nomerges", DEV, "merge lookups (queue/nomerges)", "merges",
		"", "", "", true },
	[CHECK_WBT] = { "wbt", DEV, "writeback throttling (queue/wbt_lat_usec)", "wbt",
		"", "", "", true },
	[CHECK_NR_REQUESTS] = { "nr_requests", DEV, "queue depth (queue/nr_requests)",
		"nr_requests", "", "", "", true },
	[CHECK_RQ_AFFINITY] = { "rq_affinity", DEV, "completion CPU (queue/rq_affinity)",
		"rq_affinity", "", "", "", true },
	[CHECK_READ_AHEAD] = { "read_ahead", DEV, "readahead (queue/read_ahead_kb)",
		"readahead", "", "", "", true },
	[CHECK_NO_POLL_QUEUES] = { "no_poll_queues", DEV, "nvme poll queues",
		"no poll queues", "polling took 4 Optane drives from 14.4M to 20.4M IOPS",
		SRC_POLL, CITE_POLL, false },
	[CHECK_WRITE_QUEUES] = { "write_queues", DEV, "nvme write queues",
		"write queues", "", "", "", false },
	[CHECK_APST] = { "apst", DEV, "NVMe autonomous power states", "APST",
		"", "", "", true },
	[CHECK_LINK] = { "link", DEV, "PCIe link", "link", "", "", "", false },
	/* the queue count and the vectors' CPUs are the driver's, set at
	 * probe; a managed vector refuses smp_affinity */
	[CHECK_FEW_QUEUES] = { "few_queues", DEV, "hardware queues", "few queues",
		"", "", "", false },
	[CHECK_ONE_CPU_IRQS] = { "one_cpu_irqs", DEV, "queue interrupts' CPUs",
		"one-CPU interrupts", "", "", "", false },
	[CHECK_IRQ_REMOTE] = { "irq_remote", DEV, "queue interrupts' NUMA node",
		"remote interrupts", "", "", "", false },
	/* a path is no device of check --measure's: it writes a device's
	 * own queue */
	[CHECK_PATH_SCHEDULER] = { "path_scheduler", DEV, "a multipath path's IO scheduler",
		"path scheduler", "", "", "", false },
	[CHECK_PATH_NR_REQUESTS] = { "path_nr_requests", DEV,
		"a multipath path's queue depth (queue/nr_requests)", "path nr_requests",
		"", "", "", false },
	[CHECK_SHARED_POLL_QUEUE] = { "shared_poll_queue", DEV, "poll queues' CPUs",
		"shared poll queue", "", "", "", false },
	[CHECK_ASPM] = { "aspm", DEV, "PCIe ASPM (link/l1_aspm, l0s_aspm)", "ASPM",
		"", "", "", true },
	[CHECK_BLK_CGROUP] = { "blk_cgroup", DEV, "blk-cgroup IO controllers (io.max, io.cost)",
		"blk-cgroup", "", "", "", true },
	[CHECK_GOVERNOR] = { "governor", MACH, "cpufreq governor", "governor",
		"", "", "", true },
	[CHECK_BOOST] = { "boost", MACH, "CPU boost (turbo)", "boost", "", "", "", true },
	[CHECK_CSTATE] = { "cstate", MACH, "deepest C-state", "C-states", "", "", "", true },
	/* runtime in the kernel's sense, but it offlines the CPUs a run's
	 * workers may be placed on, so nothing tries it under a run */
	[CHECK_SMT] = { "smt", MACH, "SMT siblings", "SMT", "", "", "", false },
	[CHECK_MITIGATIONS] = { "mitigations", MACH, "speculation mitigations",
		"mitigations", "", "", "", false },
	[CHECK_KERNEL] = { "kernel", MACH, "kernel version", "kernel", "", "", "", false },
	[CHECK_IO_URING_DISABLED] = { "io_uring_disabled", MACH,
		"sysctl kernel.io_uring_disabled", "io_uring disabled", "", "", "", true },
	[CHECK_MEMLOCK] = { "memlock", MACH, "locked memory limit (RLIMIT_MEMLOCK)",
		"memlock", "", "", "", true },
	[CHECK_NUMA_BALANCING] = { "numa_balancing", MACH, "sysctl kernel.numa_balancing",
		"NUMA balancing", "", "", "", true },
	/* SELinux off needs a reboot (selinux=0): permissive still checks */
	[CHECK_SELINUX] = { "selinux", MACH, "SELinux (passthrough commands)", "SELinux",
		"", "", "", false },
	[CHECK_DEBUG_KERNEL] = { "debug_kernel", MACH, "kernel debug options",
		"debug kernel", "", "", "", false },
};

const struct check_kind_info *check_kind_info(enum check_kind k)
{
	if ((unsigned)k >= CHECK_NKINDS)
		return NULL;
	return &kinds[k];
}
