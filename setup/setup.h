/* The settings a measurement is taken on: the machine's (kernel, command
 * line, CPU governors, C-states, SMT, mitigations, io_uring_disabled, the
 * nvme modules' parameters) and each target's block queue (scheduler,
 * iostats, nomerges, wbt, nr_requests, hardware queues and where their
 * interrupts land, the IOMMU domain of its PCI function). Read below a
 * sysfs root and a procfs root, so a recorded tree answers like the live
 * machine. Never prints, never exits, never writes; every call returns 0,
 * a count or -errno and writes its out-parameters only on success.
 * Unknown facts are "" for strings and -1 for numbers: a fact that cannot
 * be read is never a zero. No serial numbers: they identify hardware. */
#ifndef SETUP_SETUP_H
#define SETUP_SETUP_H

#include <stdbool.h>
#include <stdint.h>

#include "topo/cpu.h"

#define SETUP_NAME_MAX 64
#define SETUP_CPULIST_MAX 256	/* a cpulist, "0-15,32-47"; cut to fit */
#define SETUP_CMDLINE_MAX 1024
#define SETUP_MAX_CPUS 4096	/* CPUs whose node is kept */

/* Where facts are read: NULL fields mean the live machine ("/sys",
 * "/proc"). The caller names a recorded tree: nothing in setup/ reads the
 * environment for it (cli/opts/roots.h does, once). */
struct setup_roots {
	const char *sysfs;
	const char *procfs;
};

struct setup_vulns {
	unsigned vulnerable;	/* "Vulnerable..." */
	unsigned mitigated;	/* "Mitigation: ..." */
	unsigned not_affected;	/* "Not affected" */
	unsigned total;		/* files in cpu/vulnerabilities; 0: unknown */
	/* of the mitigated, those mitigations=off leaves: spectre_v1's
	 * __user pointer sanitization is not switchable */
	unsigned mitigated_kept;
};

/* What the running kernel was built with (/boot/config-RELEASE): 1 set,
 * 0 not, -1 unknown (no config file to read). */
struct setup_kconfig {
	int lockdep;			/* CONFIG_PROVE_LOCKING or CONFIG_LOCKDEP */
	int kasan;			/* CONFIG_KASAN */
	int kmemleak;			/* CONFIG_DEBUG_KMEMLEAK */
	int debug_pagealloc;		/* CONFIG_DEBUG_PAGEALLOC */
	int debug_pagealloc_on;		/* ..._ENABLE_DEFAULT, or debug_pagealloc=on */
	int hz;				/* CONFIG_HZ; -1 unknown */
	int blk_cgroup, blk_throttle, blk_iolatency, blk_iocost, blk_wbt;
	/* kmemleak built in and tracking: not off at boot (kmemleak=off, or
	 * CONFIG_DEBUG_KMEMLEAK_DEFAULT_OFF without kmemleak=on) nor seen off
	 * in debugfs; 1 on, 0 off, -1 unknown */
	int kmemleak_on;
};

struct setup_machine {
	char hostname[SETUP_NAME_MAX];	/* kernel/hostname */
	char kernel[SETUP_NAME_MAX];	/* kernel/osrelease, "6.12.48-amd64" */
	char arch[16];			/* kernel/arch (uname -m), "x86_64",
					 * "aarch64"; "" unknown */
	int kernel_major, kernel_minor;	/* from kernel; -1 unknown */
	char cmdline[SETUP_CMDLINE_MAX];	/* /proc/cmdline */
	char cpu_model[128];		/* cpuinfo's "model name" of the first CPU */
	int sockets, cores, pus;	/* from cpuN/topology of online CPUs */
	char smt_control[16];		/* cpu/smt/control: on off forceoff
					 * notsupported notimplemented */
	int smt_active;			/* cpu/smt/active: 1, 0, -1 unknown */
	/* cpufreq: the governor most online CPUs use, how many use one that
	 * is not "performance", and of how many with cpufreq at all (0: no
	 * cpufreq, a VM or a fixed clock; -1 both when cpu/online is
	 * unknown) */
	char governor[32];
	int ncpufreq, ncpufreq_slow;
	int boost;			/* cpufreq/boost, or !intel_pstate/no_turbo:
					 * 1 on, 0 off, -1 unknown */
	bool boost_no_turbo;		/* boost was read from intel_pstate/no_turbo */
	char idle_governor[32];		/* cpuidle/current_governor(_ro); "" none */
	/* the deepest enabled C-state of the first online CPU */
	char deepest_cstate[32];	/* "C6"; "" none (no cpuidle) */
	int deepest_cstate_us;		/* its exit latency; -1 unknown */
	struct setup_vulns vulns;
	int io_uring_disabled;		/* kernel/io_uring_disabled: 0 1 2, -1
					 * unknown (older kernels have none) */
	int64_t io_uring_group;		/* kernel/io_uring_group: a gid, -1 none
					 * or unknown */
	int numa_balancing;		/* kernel/numa_balancing: 0 off, 1 or more
					 * on (2 and 3: memory tiering), -1
					 * unknown */
	int nnodes;			/* NUMA nodes with CPUs; -1 unknown */
	int selinux_enforce;		/* fs/selinux/enforce: 1 enforcing, 0
					 * permissive, -1 no SELinux or unknown */
	char aspm_policy[32];		/* module/pcie_aspm/parameters/policy, the
					 * one in brackets; "" unknown */
	struct setup_kconfig kconfig;
	int64_t memlock_bytes;		/* RLIMIT_MEMLOCK soft; INT64_MAX
					 * unlimited; -1 unknown */
	/* module parameters (-1: the module is not loaded or has none) */
	int nvme_poll_queues, nvme_write_queues;
	int nvme_builtin;		/* module/nvme without initstate: built
					 * into the kernel, 1; a loaded module 0;
					 * -1 unknown */
	int64_t nvme_ps_max_latency_us;	/* nvme_core default_ps_max_latency_us */
	/* node of each CPU (OS index), -1 unknown: node/nodeN/cpulist;
	 * ncpus is one past the highest CPU there or in cpu/possible, -1
	 * unknown */
	int ncpus;
	short cpu_node[SETUP_MAX_CPUS];
};

/* One hardware queue (block/DISK/mq/N) and its interrupt. The CPUs are
 * read once, into sets (topo/cpu.h), which is what is to be passed on;
 * the text beside each is the set written back for people and JSON, cut
 * at a whole range to fit. */
struct setup_hwq {
	struct topo_cpuset cpuset;	/* mq/N/cpu_list; empty unknown */
	char cpus[SETUP_CPULIST_MAX];	/* it as a cpulist: blk-mq's
					 * "0, 1, 2, 3" is "0-3"; "" unknown */
	int irq;			/* the vector named CTRLq(N+1) in
					 * /proc/interrupts; -1 none (a poll
					 * queue, or not NVMe) */
	struct topo_cpuset irq_cpuset;	/* /proc/irq/IRQ/effective_affinity_list;
					 * empty none or unknown */
	char irq_cpus[SETUP_CPULIST_MAX];	/* it as a cpulist; "" none or unknown */
};

struct setup_dev {
	char name[SETUP_NAME_MAX];	/* what was looked up: "nvme0n1", "loop3";
					 * for a file, its file system's device
					 * ("vda1"), or its basename when none */
	char disk[SETUP_NAME_MAX];	/* the disk whose queue applies: a
					 * partition's or a file's; "" none
					 * (a file on tmpfs) */
	bool nvme;
	char controller[SETUP_NAME_MAX];	/* "nvme0"; "" not NVMe */
	char pci[16];			/* the controller's function; "" none */
	char model[128], firmware[32];	/* "" unknown */
	int64_t capacity_bytes;		/* name's own (a partition's); -1 unknown */
	int logical_block_size;		/* -1 unknown */
	char scheduler[32];		/* the one in brackets, "none" */
	int iostats, nomerges, io_poll, rotational;	/* -1 unknown */
	int rq_affinity;		/* queue/rq_affinity: 0 1 2, -1 unknown */
	int read_ahead_kb;		/* queue/read_ahead_kb, -1 unknown */
	int iostats_passthrough;	/* queue/iostats_passthrough (6.13+):
					 * -1 unknown or no such file */
	int64_t wbt_lat_usec;		/* -1 unknown (no wbt) */
	int64_t nr_requests;
	int numa_node;			/* the controller's, else its PCI
					 * function's; -1 unknown */
	char iommu_type[16];		/* iommu_group/type: "DMA", "DMA-FQ",
					 * "identity"; "" no IOMMU group */
	/* the function's PCIe link (topo_sys_link, the read the topology's
	 * findings judge too): current and maximum; -1 unknown */
	double link_gts, link_max_gts;
	int link_width, link_max_width;
	/* the maximum of the port right above it (a root port or a switch's
	 * downstream port): a link runs at most at the lower of both ends'
	 * maximum; -1 unknown, or no port (right under its host bridge) */
	double port_max_gts;
	int port_max_width;
	int64_t apst_latency_us;	/* CTRL/power/pm_qos_latency_tolerance_us;
					 * "any" and "auto" (no limit) INT64_MAX;
					 * unreadable -1 */
	int apst_supported;		/* the kernel shows that file only for a
					 * controller with APST: 1 there, 0 the
					 * controller is but the file is not, -1
					 * unknown */
	/* the drive's own account, by admin Get Features on /dev/CTRL (live
	 * machine, CAP_SYS_ADMIN): -1 unknown */
	int power_state;		/* Power Management: PS now, 0 the fastest */
	int apst_enabled;		/* Autonomous Power State Transition: 1 on */
	int dealloc_read;		/* Identify Namespace DLFEAT bits 2:0,
					 * what a deallocated (never written,
					 * trimmed) block reads as: 0 not
					 * reported, 1 zeros, 2 FFh */
	/* the namespace's LBA format (setup/lbaf.c): Identify Namespace, else
	 * sysfs; -1 unknown */
	int lbaf_index;			/* FLBAS's format index */
	int lbaf_data_bytes;		/* data bytes per block */
	int lbaf_ms;			/* metadata bytes per block */
	int lbaf_ext;			/* 1 metadata inline (extended LBA), 0
					 * apart (a buffer of its own) or none */
	int lbaf_pi_type;		/* 0 no PI, 1 2 3 */
	char integrity[32];		/* block/DISK/integrity/format: the
					 * kernel's profile ("T10-DIF-TYPE1-CRC",
					 * "nop", "none"); "" unknown */
	/* the PCI function's link/l1_aspm and link/l0s_aspm (5.5+): 1 the
	 * link may enter that state when idle, 0 not, -1 unknown */
	int l1_aspm, l0s_aspm;
	/* blk-cgroup controllers on this disk for the reading process's
	 * cgroup and its ancestors (cgroup v2): the lowest io.max riops and
	 * rbps (-1 none), io.latency's target in us (-1 none), io.cost on
	 * this disk (root's io.cost.qos enable=1): 1, 0, -1 unknown. On
	 * cgroup v1 (cg_v1), riops and rbps are the own cgroup's
	 * blkio.throttle.read_iops_device and read_bps_device: v1's
	 * blk-throttle is flat, so no ancestor's bind. */
	int64_t cg_riops, cg_rbps, cg_latency_us;
	int cg_iocost;
	bool cg_v1;			/* the blkio controller is on a cgroup v1
					 * hierarchy (a v1 or hybrid host) */
	char cgroup[256];		/* the cgroup they were read for; "" unknown */
	char cg_max_at[256];		/* the cgroup whose io.max holds the
					 * lowest riops or rbps; "" none */
	char cg_latency_at[256];	/* the cgroup whose io.latency holds
					 * the lowest target; "" none */
	char devt[16];			/* the disk's MAJ:MIN; "" unknown */
	unsigned nhwq;			/* hardware queues (mq/N) */
	struct setup_hwq *hwq;		/* nhwq of them, malloc'd */
	unsigned nirq_queues;		/* hardware queues with an interrupt */
	/* A native multipath head (nvmeXnY over nvmeXcYnZ): its queue is
	 * bio-based, so its scheduler, nr_requests and hardware queues are
	 * the paths' own. Each path is read as a device of its own. */
	char iopolicy[16];		/* the subsystem's: "numa", "round-robin",
					 * "queue-depth"; "" unknown or no head */
	unsigned npaths;
	struct setup_dev *paths;	/* npaths of them, malloc'd; NULL none */
};

/* Reads the machine's settings. A fact the tree lacks is unknown, not an
 * error: -ENOENT or -ENOTDIR only for a root that is not a folder. */
int setup_machine_read(const struct setup_roots *r, struct setup_machine *m);
/* The machine's online CPUs (devices/system/cpu/online) below r's sysfs
 * root, as a set (topo/cpu.h): 0, the -errno of the root or the read, or
 * -EINVAL for a list that is not one. */
int setup_cpus_online(const struct setup_roots *r, struct topo_cpuset *set);

/*
 * Reads the settings that apply to target path: a block device (its own
 * queue, a partition's disk), a regular file (the disk under its file
 * system, when it has one), a generic NVMe char device /dev/ngXnY (its
 * namespace's block device). The path is resolved on the live machine by
 * stat; below another sysfs root, a path's basename names the block
 * device ("nvme0n1"). -ENOENT etc.: the stat, or no such block device;
 * -ENOTBLK: another char device; -EISDIR: a folder; -EINVAL: neither a
 * device nor a file.
 * Free with setup_dev_free; a failed call leaves d as it was.
 */
int setup_dev_read(const struct setup_roots *r, const char *path, struct setup_dev *d);
void setup_dev_free(struct setup_dev *d);

/* The NVMe namespaces below the sysfs root (block/nvme*n*, no hidden
 * multipath paths), sorted: count and a malloc'd array of names in *out
 * (each SETUP_NAME_MAX), freed by the caller. 0 and NULL when none. */
int setup_nvme_list(const struct setup_roots *r, char (**out)[SETUP_NAME_MAX]);

/* Whether CPU cpu is in cpulist ("0-3,8"); false on a bad list. */
bool setup_cpulist_has(const char *cpulist, int cpu);
/* The nodes of a cpulist's CPUs by m->cpu_node: bit n set for node n < 64. */
uint64_t setup_cpulist_nodes(const struct setup_machine *m, const char *cpulist);

#endif
