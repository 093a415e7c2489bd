/* The software ceiling: which of the settings setup/ read cost IOPS, what
 * is better, the command that changes it, and what it costs where a source
 * gives a figure (docs/check.md cites each). Pure analysis on given facts:
 * no IO, no printing. One table (model/check_table.c) holds every kind's
 * name, what is better, the cost and its source; check output, the JSON
 * and the docs read it there. */
#ifndef MODEL_CHECK_H
#define MODEL_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "setup/setup.h"

enum check_kind {
	/* per device */
	CHECK_IOMMU_STRICT,	/* iommu_group/type DMA */
	CHECK_IOMMU_LAZY,	/* DMA-FQ: cheaper than strict, dearer than identity */
	CHECK_SCHEDULER,	/* an IO scheduler other than none */
	CHECK_IOSTATS,		/* queue/iostats 1 */
	CHECK_NOMERGES,		/* queue/nomerges below 2: merge lookups per IO */
	CHECK_WBT,		/* queue/wbt_lat_usec above 0 */
	CHECK_NR_REQUESTS,	/* queue/nr_requests below the asked depth */
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
	/* per machine */
	CHECK_GOVERNOR,		/* cpufreq governor not performance */
	CHECK_BOOST,		/* turbo/boost off */
	CHECK_CSTATE,		/* a deep C-state's exit latency in reach */
	CHECK_IDLE_GOVERNOR,	/* cpuidle governor other than menu/teo at none */
	CHECK_SMT,		/* SMT siblings share a core's issue slots */
	CHECK_MITIGATIONS,	/* speculation mitigations on every syscall */
	CHECK_KERNEL,		/* the kernel is older than the asked mode needs */
	CHECK_IO_URING_DISABLED,	/* kernel.io_uring_disabled above 0 */
	CHECK_MEMLOCK,		/* RLIMIT_MEMLOCK below the fixed buffers */
	CHECK_NKINDS
};

enum check_scope { CHECK_SCOPE_DEVICE, CHECK_SCOPE_MACHINE };

/* One row of the table: the facts a user reads about a kind. */
struct check_kind_info {
	const char *name;	/* "iommu_strict": JSON's kind, docs' anchor */
	enum check_scope scope;
	const char *setting;	/* "IOMMU domain", what it is about */
	const char *short_name;	/* for the one-line summary: "IOMMU strict" */
	const char *cost;	/* what it costs, "" no figure is published */
	const char *cost_source;	/* docs/check.md's anchor for the source;
					 * "" none */
	const char *cost_cite;	/* the source as a reader cites it:
				 * "linux-nvme list, 2025-11"; "" none */
	bool runtime;		/* changeable without a reboot or a module
				 * reload: what check --measure may try */
};

const struct check_kind_info *check_kind_info(enum check_kind k);

/* What a run asks of the machine: what makes a setting cost IOPS. */
struct check_ask {
	unsigned qd;			/* per worker */
	unsigned workers_per_dev;
	bool poll;			/* --completion poll or hybrid */
	bool hybrid;			/* hybrid polling: kernel 6.13+ */
	bool passthrough;		/* polled NVMe passthrough: 6.1+ */
	int64_t fixed_buffer_bytes;	/* what the run registers; 0 none */
	/* the CPUs the workers of each device run on (a cpulist), NULL or
	 * "" when not known: then every CPU local to it is assumed */
	const char *const *worker_cpus;	/* ndevs entries or NULL */
	/* --cpus in order, as the runner pins: device i's workers on
	 * cpus[i * workers_per_dev ...]; ncpus 0: not given */
	const int *cpus;
	unsigned ncpus;
};

/* The deepest C-state exit latency that costs nothing worth naming, and
 * what the cstate fix keeps (cpupower idle-set -D takes microseconds). */
#define CHECK_CSTATE_MAX_US 10
/* The most nr_requests the fix asks for: the kernel's MAX_SCHED_RQ (16 x
 * BLKDEV_MAX_RQ); without a scheduler the hardware queue's tags cap it
 * lower, so a deeper need than this is not echo's to meet. */
#define CHECK_NR_REQUESTS_CAP 2048

#define CHECK_TEXT_MAX 160
#define CHECK_FIX_MAX 320

struct check_finding {
	enum check_kind kind;
	int dev;			/* index into the devices given; -1: machine */
	char now[CHECK_TEXT_MAX];	/* the setting now: "DMA (strict)" */
	char better[CHECK_TEXT_MAX];	/* "identity (iommu=pt)" */
	char fix[CHECK_FIX_MAX];	/* the exact command that changes it */
};

/* Findings about the machine and devs, machine ones after the devices',
 * each device's in table order. Count and a malloc'd array in *out (NULL
 * when 0), or -ENOMEM. */
int check_findings(const struct setup_machine *m, const struct setup_dev *devs,
		   unsigned ndevs, const struct check_ask *ask,
		   struct check_finding **out);

#endif
