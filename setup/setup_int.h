/* setup/'s own helpers: the roots resolved once per call, and reads of
 * one file or one directory below a root, never outside it. */
#ifndef SETUP_SETUP_INT_H
#define SETUP_SETUP_INT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "setup/setup.h"
#include "topo/cpu.h"
#include "topo/sysfs.h"

/* the reader lists names of TOPO_NAME_MAX into setup's arrays */
_Static_assert(SETUP_NAME_MAX == TOPO_NAME_MAX, "one name length");

/* The roots a call reads below; live_proc when procfs is the running
 * kernel's own /proc, where getrlimit answers for self/limits. */
struct setup_at {
	char sys[PATH_MAX];
	char proc[PATH_MAX];
	int live_sys, live_proc;
};

/* r's fields, else (NULL or "") /sys and /proc; -ENAMETOOLONG, or the stat of a root that is not a folder. */
int setup_at_init(struct setup_at *at, const struct setup_roots *r);

/* One admin command through fd (a controller's or a namespace's device,
 * NVME_IOCTL_ADMIN_CMD), reading len bytes into buf: 0 with cdw0 in
 * *result (NULL: not wanted), -errno, or -EOPNOTSUPP where the drive
 * answered with an error status. */
int setup_nvme_admin(int fd, uint8_t opcode, uint32_t nsid, uint32_t cdw10, void *buf,
		     uint32_t len, uint32_t *result);
/* /dev/NAME opened read-only on the live machine for an admin command: an
 * fd, or -1 where the roots are a recorded tree, name is "" or it cannot
 * be opened (the fact is then left unknown). */
int setup_nvme_open(const struct setup_at *at, const char *name);
/* The drive's power state and APST enable (setup/nvme_admin.c): set in d
 * where the live controller answers, else left unknown. */
void setup_nvme_power(const struct setup_at *at, struct setup_dev *d);
/* What d->disk's namespace reads from a deallocated block (DLFEAT, by
 * admin Identify Namespace): d->dealloc_read, where the live drive
 * answers. */
void setup_nvme_dlfeat(const struct setup_at *at, struct setup_dev *d);
/* d->disk's LBA format (setup/lbaf.c): Identify Namespace where the live
 * drive answers, else sysfs (ddir, relative to at->sys); the rest left
 * unknown. */
void setup_nvme_lbaf(const struct setup_at *at, const char *ddir, struct setup_dev *d);
/* The hardware queues of the disk whose sysfs folder is ddir (relative to
 * at->sys) and, for an NVMe controller ctrl ("" none), the interrupt
 * vector of each: d->nhwq, d->hwq, d->nirq_queues. 0 or -ENOMEM. */
int setup_hwq_read(const struct setup_at *at, const char *ddir, const char *ctrl,
		   struct setup_dev *d);
/* The target's facts beyond its queue (setup/dev_extra.c): its link's
 * ASPM and the blk-cgroup limits on its disk (ddir, relative to at->sys).
 * Left unknown where not readable. */
void setup_dev_extra(const struct setup_at *at, const char *ddir, struct setup_dev *d);
/* The running kernel's build options (setup/kconfig.c), from
 * /boot/config-RELEASE: /boot on the live machine, else the folder boot/
 * beside the sysfs root of a recorded tree. */
void setup_kconfig_read(const struct setup_at *at, const char *release, const char *cmdline,
			struct setup_kconfig *k);

/* setup_dev_read below roots already resolved: a multipath head's paths
 * are read through it, each as a device of its own. */
int setup_dev_read_at(const struct setup_at *at, const char *path, struct setup_dev *d);
/* The hidden paths of multipath head disk ("nvme0n1", sysfs folder ddir):
 * its multipath/ folder's links (6.14 on), else the block devices named
 * nvme0cYn1. Count and a malloc'd sorted array in *out (NULL when none),
 * or -ENOMEM. */
int setup_paths_list(const struct setup_at *at, const char *ddir, const char *disk,
		     char (**out)[SETUP_NAME_MAX]);
/* A multipath head's paths (setup_paths_list) and its subsystem's
 * iopolicy, into d->paths, d->npaths and d->iopolicy; nothing for another
 * disk. 0 or -ENOMEM; a path that cannot be read is left out. */
int setup_paths_read(const struct setup_at *at, const char *ddir, struct setup_dev *d);

/* The last component of path. */
const char *setup_base(const char *path);
/* A cpulist as sysfs writes it (blk-mq's "0, 1, 2" too, and a CPU-less
 * node's "") into *set, by topo/cpu.h's one parser: 0 or -EINVAL. */
int setup_cpuset_read(const char *list, struct topo_cpuset *set);

#endif
