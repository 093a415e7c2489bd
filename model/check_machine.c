/* The machine's rules of the software ceiling: CPU clocks and idle
 * states, SMT, mitigations, the kernel and its build options, sysctls,
 * locked memory, SELinux. Each says nothing unless its facts are known
 * and cost IOPS; docs/check.md explains each. */
#include "model/check.h"
#include "model/check_int.h"

#include <stdio.h>
#include <string.h>

static void rule_governor(struct check_list *l, const struct setup_machine *m)
{
	struct check_finding *f;

	if (m->ncpufreq <= 0 || m->ncpufreq_slow <= 0 || !(f = check_add(l, CHECK_GOVERNOR, -1)))
		return;
	NOW(f, "%s (%d of %d CPUs not performance)", check_has(m->governor) ? m->governor : "mixed",
	    m->ncpufreq_slow, m->ncpufreq);
	BETTER(f, "performance");
	check_act(&f->fix, CHECK_ACT_GOVERNOR, "performance", "%s", "");
}

static void rule_boost(struct check_list *l, const struct setup_machine *m)
{
	struct check_finding *f;

	if (m->boost != 0 || !(f = check_add(l, CHECK_BOOST, -1)))
		return;
	NOW(f, "0 (off)");
	BETTER(f, "1 (on)");
	if (m->boost_no_turbo)
		check_act(&f->fix, CHECK_ACT_SYSFS, "0", "devices/system/cpu/intel_pstate/no_turbo");
	else
		check_act(&f->fix, CHECK_ACT_SYSFS, "1", "devices/system/cpu/cpufreq/boost");
}

static void rule_cstate(struct check_list *l, const struct setup_machine *m)
{
	struct check_finding *f;

	if (!check_has(m->deepest_cstate) || m->deepest_cstate_us <= CHECK_CSTATE_MAX_US)
		return;
	if (!(f = check_add(l, CHECK_CSTATE, -1)))
		return;
	if (check_has(m->idle_governor))
		NOW(f, "%s, exit latency %d us (idle governor %s)", m->deepest_cstate,
		    m->deepest_cstate_us, m->idle_governor);
	else
		NOW(f, "%s, exit latency %d us", m->deepest_cstate, m->deepest_cstate_us);
	BETTER(f, "no state deeper than %d us", CHECK_CSTATE_MAX_US);
	/* cpupower idle-set -D N disables the states of latency N and above */
	check_act(&f->fix, CHECK_ACT_IDLE_BELOW, "", "%s", "");
	snprintf(f->fix.value, sizeof(f->fix.value), "%d", CHECK_CSTATE_MAX_US + 1);
}

/* SMT costs a run only when two of its workers share a core: placement
 * fills one worker per core first, so only a run with more workers than
 * cores (workers: the run's, 0 when it has no target) gets a finding. */
static void rule_smt(struct check_list *l, const struct setup_machine *m, unsigned workers)
{
	struct check_finding *f;

	if (m->smt_active != 1 || m->cores <= 0 || workers <= (unsigned)m->cores ||
	    !(f = check_add(l, CHECK_SMT, -1)))
		return;
	NOW(f, "on, %u workers on %d cores (%d CPUs)", workers, m->cores, m->pus);
	BETTER(f, "one worker per core");
	check_act(&f->fix, CHECK_ACT_SYSFS, "off", "devices/system/cpu/smt/control");
	check_option_fix(&f->also, "--placement", "local");
}

/* Only the mitigations that mitigations=off removes count: spectre_v1's
 * pointer sanitization and l1tf's PTE inversion stay "Mitigation" under
 * it (setup/ counts them apart), so counting them would make a finding
 * its own fix cannot clear. The last mitigations= on the command line is
 * the one in force; an unread command line says nothing. */
static void rule_mitigations(struct check_list *l, const struct setup_machine *m)
{
	struct check_finding *f;
	char v[32];
	unsigned n = m->vulns.mitigated > m->vulns.mitigated_kept ?
		     m->vulns.mitigated - m->vulns.mitigated_kept : 0;

	if (!m->vulns.total || !n || !check_has(m->cmdline) ||
	    (check_cmdline_last(m->cmdline, "mitigations", v, sizeof(v)) && !strcmp(v, "off")))
		return;
	if (!(f = check_add(l, CHECK_MITIGATIONS, -1)))
		return;
	NOW(f, "%u of %u mitigated", n, m->vulns.total);
	BETTER(f, "mitigations=off (only on a machine that runs nothing untrusted)");
	check_cmdline_fix(&f->fix, "mitigations", "off", NULL);
}

static bool kernel_before(const struct setup_machine *m, int major, int minor)
{
	if (m->kernel_major < 0 || m->kernel_minor < 0)
		return false;
	return m->kernel_major < major || (m->kernel_major == major && m->kernel_minor < minor);
}

static void rule_kernel(struct check_list *l, const struct setup_machine *m,
			const struct check_ask *ask)
{
	struct check_finding *f;
	const char *kernel = check_has(m->kernel) ? m->kernel : "?";

	if (ask->hybrid && kernel_before(m, 6, 13)) {
		if (!(f = check_add(l, CHECK_KERNEL, -1)))
			return;
		NOW(f, "%s", kernel);
		BETTER(f, "6.13 or newer (hybrid polling)");
		check_option_fix(&f->fix, "--completion", "poll");
		check_act(&f->also, CHECK_ACT_KERNEL, "6.13", "%s", "");
	} else if (ask->passthrough && ask->poll && kernel_before(m, 6, 1)) {
		if (!(f = check_add(l, CHECK_KERNEL, -1)))
			return;
		NOW(f, "%s", kernel);
		BETTER(f, "6.1 or newer (polled passthrough)");
		check_act(&f->fix, CHECK_ACT_KERNEL, "6.1", "%s", "");
	}
}

/* io_uring_allowed (io_uring/io_uring.c): 0 lets everyone create a ring,
 * 2 nobody, and 1 only CAP_SYS_ADMIN and members of kernel.io_uring_group.
 * So 1 costs only a run that is neither. */
static void rule_io_uring_disabled(struct check_list *l, const struct setup_machine *m,
				   const struct check_ask *ask)
{
	struct check_finding *f;

	if (m->io_uring_disabled <= 0 || (m->io_uring_disabled == 1 && ask->uring_privileged))
		return;
	if (!(f = check_add(l, CHECK_IO_URING_DISABLED, -1)))
		return;
	NOW(f, "%d (%s)", m->io_uring_disabled,
	    m->io_uring_disabled == 1 ? "only CAP_SYS_ADMIN and kernel.io_uring_group" :
	    "off for all");
	BETTER(f, "0");
	check_act(&f->fix, CHECK_ACT_SYSCTL, "0", "kernel.io_uring_disabled");
}

static int64_t kib_up(int64_t bytes)
{
	return bytes / 1024 + (bytes % 1024 != 0);
}

static void rule_memlock(struct check_list *l, const struct setup_machine *m,
			 const struct check_ask *ask)
{
	struct check_finding *f;

	/* unlimited is INT64_MAX, above any size */
	if (ask->fixed_buffer_bytes <= 0 || m->memlock_bytes < 0 ||
	    ask->fixed_buffer_bytes <= m->memlock_bytes)
		return;
	if (!(f = check_add(l, CHECK_MEMLOCK, -1)))
		return;
	NOW(f, "%lld KiB", (long long)kib_up(m->memlock_bytes));
	BETTER(f, "unlimited, or at least %lld KiB", (long long)kib_up(ask->fixed_buffer_bytes));
	check_act(&f->fix, CHECK_ACT_MEMLOCK, "unlimited", "%s", "");
}

/* Automatic NUMA balancing unmaps a task's pages now and then to take NUMA
 * hinting faults on them (task_numa_work), and migrates what it finds
 * remote: faults and migrations under a run's buffers, on a machine with
 * more than one node. */
static void rule_numa_balancing(struct check_list *l, const struct setup_machine *m)
{
	struct check_finding *f;

	if (m->numa_balancing < 1 || m->nnodes < 2 || !(f = check_add(l, CHECK_NUMA_BALANCING, -1)))
		return;
	NOW(f, "%d (on, %d nodes)", m->numa_balancing, m->nnodes);
	BETTER(f, "0");
	check_act(&f->fix, CHECK_ACT_SYSCTL, "0", "kernel.numa_balancing");
}

/* Every passthrough command goes through security_uring_cmd, which SELinux
 * answers with an access check (selinux_uring_cmd: avc_has_perm); it does
 * so when permissive too, so only SELinux off at boot removes it. */
static void rule_selinux(struct check_list *l, const struct setup_machine *m,
			 const struct check_ask *ask)
{
	struct check_finding *f;

	if (!ask->passthrough || m->selinux_enforce < 0 || !(f = check_add(l, CHECK_SELINUX, -1)))
		return;
	NOW(f, "on (%s)", m->selinux_enforce ? "enforcing" : "permissive");
	BETTER(f, "off (only on a machine that runs nothing untrusted)");
	check_cmdline_fix(&f->fix, "selinux", "0", NULL);
}

/* The debug options that cost every IO: lockdep's checks on each lock,
 * KASAN's on each memory access, kmemleak's tracking of each allocation,
 * DEBUG_PAGEALLOC's unmapping of each freed page (only when it is on). */
static void rule_debug_kernel(struct check_list *l, const struct setup_machine *m)
{
	const struct setup_kconfig *k = &m->kconfig;
	struct check_finding *f;
	char hz[24] = "";
	size_t n;

	if (k->lockdep != 1 && k->kasan != 1 && k->kmemleak != 1 && k->debug_pagealloc_on != 1)
		return;
	if (!(f = check_add(l, CHECK_DEBUG_KERNEL, -1)))
		return;
	NOW(f, "%s%s%s%s", k->lockdep == 1 ? ", lockdep" : "", k->kasan == 1 ? ", KASAN" : "",
	    k->kmemleak == 1 ? ", kmemleak" : "",
	    k->debug_pagealloc_on == 1 ? ", DEBUG_PAGEALLOC on" : "");
	memmove(f->now, f->now + 2, strlen(f->now + 2) + 1);
	n = strlen(f->now);
	if (k->hz > 0)
		snprintf(hz, sizeof(hz), ", HZ=%d", k->hz);
	snprintf(f->now + n, sizeof(f->now) - n, " (%s%s)", check_has(m->kernel) ? m->kernel : "?", hz);
	BETTER(f, "a kernel built without them");
	/* DEBUG_PAGEALLOC alone, on by the command line: off by it */
	if (k->lockdep != 1 && k->kasan != 1 && k->kmemleak != 1)
		check_cmdline_fix(&f->fix, "debug_pagealloc", "off", NULL);
	else
		check_act(&f->fix, CHECK_ACT_KERNEL, "", "%s", "");
}

void check_machine_rules(struct check_list *l, const struct setup_machine *m,
			  const struct check_ask *ask, unsigned workers)
{
	rule_governor(l, m);
	rule_boost(l, m);
	rule_cstate(l, m);
	rule_smt(l, m, workers);
	rule_mitigations(l, m);
	rule_kernel(l, m, ask);
	rule_io_uring_disabled(l, m, ask);
	rule_memlock(l, m, ask);
	rule_numa_balancing(l, m);
	rule_selinux(l, m, ask);
	rule_debug_kernel(l, m);
}
