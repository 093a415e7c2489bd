/* The software ceiling: which of the settings setup/ read cost IOPS, what
 * is better, the value that changes it (the file, sysctl or kernel
 * parameter and the value to set), and what it costs where a source gives
 * a figure (docs/check.md cites each). Pure analysis on given facts: no
 * IO, no printing, no shell: cli/check/fix_cmd.c turns a fix's values
 * into a command. One table (model/check_table.c) holds every kind's
 * id, scope, knobs, cost figures and their source; cli/words says them. */
#ifndef MODEL_CHECK_H
#define MODEL_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "setup/setup.h"
#include "topo/cpu.h"

enum check_kind {
	/* per device */
	CHECK_IOMMU_STRICT,	/* iommu_group/type DMA */
	CHECK_IOMMU_LAZY,	/* DMA-FQ: cheaper than strict, dearer than identity */
	CHECK_SCHEDULER,	/* an IO scheduler other than none */
	CHECK_IOSTATS,		/* queue/iostats 1 (block IO) */
	CHECK_IOSTATS_PASSTHROUGH,	/* queue/iostats_passthrough 1 (passthrough) */
	CHECK_NOMERGES,		/* queue/nomerges below 2: merge lookups per IO */
	CHECK_WBT,		/* queue/wbt_lat_usec above 0 */
	CHECK_NR_REQUESTS,	/* queue/nr_requests below the asked depth */
	CHECK_RQ_AFFINITY,	/* rq_affinity 2: an IPI per completion */
	CHECK_READ_AHEAD,	/* read_ahead_kb above the IO size, --buffered */
	CHECK_NO_POLL_QUEUES,	/* polled completion asked, the drive has none */
	CHECK_WRITE_QUEUES,	/* nvme write_queues takes queues from reads */
	CHECK_APST,		/* autonomous power states on (QD1 wake-ups) */
	CHECK_LINK,		/* link below its maximum speed or width */
	CHECK_FEW_QUEUES,	/* fewer IO queues with interrupts than workers */
	CHECK_ONE_CPU_IRQS,	/* every queue's interrupt lands on one CPU */
	CHECK_IRQ_REMOTE,	/* a worker's completions interrupt another node */
	CHECK_PATH_SCHEDULER,	/* a multipath head's path runs a scheduler */
	CHECK_PATH_NR_REQUESTS,	/* a path's nr_requests below the asked depth */
	CHECK_SHARED_POLL_QUEUE,	/* polling workers share a poll queue */
	CHECK_ASPM,		/* PCIe ASPM may put the idle link in L0s or L1 */
	CHECK_BLK_CGROUP,	/* io.max or io.cost on the disk for our cgroup */
	/* per machine */
	CHECK_GOVERNOR,		/* cpufreq governor not performance */
	CHECK_BOOST,		/* turbo/boost off */
	CHECK_CSTATE,		/* a deep C-state's exit latency in reach */
	CHECK_SMT,		/* SMT siblings share a core's issue slots */
	CHECK_MITIGATIONS,	/* speculation mitigations on every syscall */
	CHECK_KERNEL,		/* the kernel is older than the asked mode needs */
	CHECK_IO_URING_DISABLED,	/* kernel.io_uring_disabled above 0 */
	CHECK_MEMLOCK,		/* RLIMIT_MEMLOCK below the fixed buffers */
	CHECK_NUMA_BALANCING,	/* kernel.numa_balancing on a NUMA machine */
	CHECK_SELINUX,		/* SELinux checks every passthrough command */
	CHECK_DEBUG_KERNEL,	/* lockdep, KASAN, kmemleak or DEBUG_PAGEALLOC */
	CHECK_NKINDS
};

enum check_scope { CHECK_SCOPE_DEVICE, CHECK_SCOPE_MACHINE };

/* A finding's figures and stated values (a scheduler, a cpulist, a
 * cgroup): how many, and room for one value. */
#define CHECK_NUMS 5
#define CHECK_NAMES 2
#define CHECK_NAME_MAX 256

/* What a source measured a kind to cost, as figures (docs/check.md
 * quotes each source): the IOPS with the setting as found (a range where
 * the source gives one: lo < hi), with what is better, and with a third
 * setting the source also measured. cli/words says them. */
struct check_cost {
	const char *source;	/* docs/check.md's anchor for the source;
				 * NULL: no figure is published */
	double iops_lo, iops_hi;	/* IOPS as found */
	double better_iops;	/* IOPS with what is better */
	double other_iops;	/* IOPS with a third setting (lazy against
				 * strict); 0 none */
	double loss_pct;	/* the loss as the source states it; 0 none */
	unsigned drives;	/* the drives it was measured on; 0 not stated */
	bool nvme;		/* measured on NVMe drives: a figure for an
				 * NVMe target alone, never quoted for a loop
				 * device, a file or another disk */
};

/* One row of the table: a kind's values. What it is about, its name in
 * the summary and its cost in words are cli/words/findings_words.c's. */
#define CHECK_KNOBS 2
struct check_kind_info {
	const char *name;	/* "iommu_strict": JSON's kind, docs' anchor */
	enum check_scope scope;
	/* the files, sysctls or limits it reads, as the kernel names them:
	 * "queue/iostats" (NULL: none named) */
	const char *knobs[CHECK_KNOBS];
	struct check_cost cost;
	bool runtime;		/* changeable without a reboot or a module
				 * reload: what check --measure may try */
	/* the names of a finding's figures and stated values, as the JSON
	 * gives them: num[i] is nums[i], name[i] is names[i] (NULL: unused) */
	const char *nums[CHECK_NUMS];
	const char *names[CHECK_NAMES];
};

const struct check_kind_info *check_kind_info(enum check_kind k);

/* What a run asks of the machine: what makes a setting cost IOPS. */
struct check_ask {
	unsigned qd;			/* per worker */
	unsigned workers_per_dev;
	bool poll;			/* --completion poll or hybrid */
	bool hybrid;			/* hybrid polling: kernel 6.13+ */
	bool buffered;			/* --buffered: through the page cache */
	/* the run writes: what throttles only writes (wbt) costs it; every
	 * measuring command of iostorm reads, so check asks with false */
	bool writes;
	unsigned bs;			/* the IO size in bytes; 0 unknown */
	bool passthrough;		/* NVMe passthrough (--engine io_uring_cmd);
					 * polled: 6.1+ */
	/* the run keeps every drive busy from start to end (a closed
	 * loop): what costs only the first IO after an idle gap (APST)
	 * costs it nothing */
	bool steady;
	/* the process may create an io_uring under io_uring_disabled=1:
	 * CAP_SYS_ADMIN, or a member of kernel.io_uring_group */
	bool uring_privileged;
	int64_t fixed_buffer_bytes;	/* what the run registers; 0 none */
	/* the CPUs the workers of each device run on: ndevs sets, or NULL;
	 * NULL or an empty set when not known: then every CPU local to the
	 * device is assumed */
	const struct topo_cpuset *worker_cpus;
	/* --cpus in order, as the runner pins: device i's workers on
	 * cpus[i * workers_per_dev ...]; ncpus 0: not given */
	const int *cpus;
	unsigned ncpus;
};

/* The deepest C-state exit latency that costs nothing worth naming: the
 * cstate fix disables the states above it (cpupower idle-set -D N
 * disables N and above, so the fix's value is one more). */
#define CHECK_CSTATE_MAX_US 10
/* The most nr_requests the fix asks for: the kernel's MAX_SCHED_RQ (16 x
 * BLKDEV_MAX_RQ); without a scheduler the hardware queue's tags cap it
 * lower, so a deeper need than this is not echo's to meet. */
#define CHECK_NR_REQUESTS_CAP 2048

#define CHECK_KEY_MAX 160
#define CHECK_VALUE_MAX 64

/* How a fix changes the setting: the values, never a command. */
enum check_act {
	CHECK_ACT_NONE,		/* no command changes it (link): key names
				 * the PCI function, value its full width */
	CHECK_ACT_SYSFS,	/* write value to /sys/<key> */
	CHECK_ACT_SYSCTL,	/* sysctl key=value */
	CHECK_ACT_CMDLINE,	/* key=value on the kernel command line,
				 * replacing every key= and drop= there */
	CHECK_ACT_MODULE,	/* module parameter key of module: on the
				 * kernel command line as module.key=value
				 * when the module is built in */
	CHECK_ACT_OPTION,	/* iostorm's option key with value ("" none) */
	CHECK_ACT_GOVERNOR,	/* cpufreq governor value on every CPU */
	CHECK_ACT_IDLE_BELOW,	/* disable every idle state of an exit latency
				 * of value us or more */
	CHECK_ACT_MEMLOCK,	/* RLIMIT_MEMLOCK to value ("unlimited") */
	CHECK_ACT_KERNEL,	/* boot a kernel of release value or newer */
};

struct check_fix {
	enum check_act act;
	char key[CHECK_KEY_MAX];	/* "block/nvme0n1/queue/iostats",
					 * "kernel.io_uring_disabled", "iommu" */
	char value[CHECK_VALUE_MAX];	/* what to write: "0", "none", "pt" */
	char module[32];		/* CHECK_ACT_MODULE: "nvme" */
	char drop[48];			/* CHECK_ACT_CMDLINE: another parameter
					 * that sets the same thing ("" none) */
	bool builtin;			/* CHECK_ACT_MODULE: the module is built
					 * into the kernel */
};

/* Which of its shapes a finding of a kind with several takes: cli/'s
 * words say each differently. */
enum check_form {
	CHECK_FORM_PLAIN,		/* the kind's only shape */
	CHECK_FORM_APST_ANY,		/* apst: the kernel's limit is "any" */
	CHECK_FORM_APST_DRIVE,		/* apst: only the drive says it is on */
	CHECK_FORM_KERNEL_HYBRID,	/* kernel: hybrid polling needs it */
	CHECK_FORM_KERNEL_PASSTHROUGH,	/* kernel: polled passthrough needs it */
	CHECK_FORM_CG_MAX,		/* blk_cgroup: io.max */
	CHECK_FORM_CG_LATENCY,		/* blk_cgroup: io.latency */
	CHECK_FORM_CG_COST,		/* blk_cgroup: io.cost */
	CHECK_FORM_CG_V1,		/* blk_cgroup: cgroup v1's blkio.throttle */
	CHECK_NFORMS
};

/* The form's name in the JSON ("" for CHECK_FORM_PLAIN). */
const char *check_form_name(enum check_form f);

/* A finding states values, never words: its kind, its form, its figures
 * (num, named by check_kind_info's nums; -1 where the fact is not known)
 * and the values it names (name). cli/ says them (the words table). */
struct check_finding {
	enum check_kind kind;
	int dev;			/* index into the devices given; -1: machine */
	enum check_form form;
	double num[CHECK_NUMS];
	char name[CHECK_NAMES][CHECK_NAME_MAX];
	/* the multipath path the finding is about, and the head's iopolicy
	 * ("" where not known); path "" for the device's own */
	char path[SETUP_NAME_MAX];
	char iopolicy[16];
	struct check_fix fix;		/* what changes it */
	struct check_fix also;		/* a second way, or the lasting form of a
					 * runtime fix; act NONE with no key: none */
	bool also_lasting;		/* also is the lasting form */
};

/* Findings about the machine and devs, machine ones after the devices',
 * each device's in table order. Count and a malloc'd array in *out (NULL
 * when 0), or -ENOMEM. */
int check_findings(const struct setup_machine *m, const struct setup_dev *devs,
		   unsigned ndevs, const struct check_ask *ask,
		   struct check_finding **out);

#endif
