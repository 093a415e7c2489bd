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
	/* "" where the CPUs' governors differ */
	check_name(f, 0, m->governor);
	f->num[0] = m->ncpufreq_slow;
	f->num[1] = m->ncpufreq;
	check_act(&f->fix, CHECK_ACT_GOVERNOR, "performance", "%s", "");
}

static void rule_boost(struct check_list *l, const struct setup_machine *m)
{
	struct check_finding *f;

	if (m->boost != 0 || !(f = check_add(l, CHECK_BOOST, -1)))
		return;
	f->num[0] = m->boost;
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
	check_name(f, 0, m->deepest_cstate);
	check_name(f, 1, m->idle_governor);
	f->num[0] = m->deepest_cstate_us;
	f->num[1] = CHECK_CSTATE_MAX_US;
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
	f->num[0] = workers;
	f->num[1] = m->cores;
	f->num[2] = m->pus;
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
	f->num[0] = n;
	f->num[1] = m->vulns.total;
	check_cmdline_fix(&f->fix, "mitigations", "off", NULL);
}

static bool kernel_before(const struct setup_machine *m, int major, int minor)
{
	if (m->kernel_major < 0 || m->kernel_minor < 0)
		return false;
	return m->kernel_major < major || (m->kernel_major == major && m->kernel_minor < minor);
}

/* The kernel running ("" not known) and the release the asked mode needs. */
static void kernel_values(struct check_finding *f, const struct setup_machine *m,
			  enum check_form form, int major, int minor)
{
	f->form = form;
	check_name(f, 0, m->kernel);
	f->num[0] = major;
	f->num[1] = minor;
}

static void rule_kernel(struct check_list *l, const struct setup_machine *m,
			const struct check_ask *ask)
{
	struct check_finding *f;

	if (ask->hybrid && kernel_before(m, 6, 13)) {
		if (!(f = check_add(l, CHECK_KERNEL, -1)))
			return;
		kernel_values(f, m, CHECK_FORM_KERNEL_HYBRID, 6, 13);
		check_option_fix(&f->fix, "--completion", "poll");
		check_act(&f->also, CHECK_ACT_KERNEL, "6.13", "%s", "");
	} else if (ask->passthrough && ask->poll && kernel_before(m, 6, 1)) {
		if (!(f = check_add(l, CHECK_KERNEL, -1)))
			return;
		kernel_values(f, m, CHECK_FORM_KERNEL_PASSTHROUGH, 6, 1);
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
	f->num[0] = m->io_uring_disabled;
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
	f->num[0] = (double)kib_up(m->memlock_bytes);
	f->num[1] = (double)kib_up(ask->fixed_buffer_bytes);
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
	f->num[0] = m->numa_balancing;
	f->num[1] = m->nnodes;
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
	f->num[0] = m->selinux_enforce;
	check_cmdline_fix(&f->fix, "selinux", "0", NULL);
}

/* The debug options that cost every IO: lockdep's checks on each lock,
 * KASAN's on each memory access, kmemleak's tracking of each allocation
 * (only when it is on: built in but disabled, kmemleak_alloc returns at
 * once), DEBUG_PAGEALLOC's unmapping of each freed page (only when on). */
static void rule_debug_kernel(struct check_list *l, const struct setup_machine *m)
{
	const struct setup_kconfig *k = &m->kconfig;
	struct check_finding *f;

	if (k->lockdep != 1 && k->kasan != 1 && k->kmemleak_on != 1 && k->debug_pagealloc_on != 1)
		return;
	if (!(f = check_add(l, CHECK_DEBUG_KERNEL, -1)))
		return;
	f->num[0] = k->lockdep == 1;
	f->num[1] = k->kasan == 1;
	f->num[2] = k->kmemleak_on == 1;
	f->num[3] = k->debug_pagealloc_on == 1;
	f->num[4] = k->hz;
	check_name(f, 0, m->kernel);
	/* DEBUG_PAGEALLOC alone, on by the command line: off by it */
	if (k->lockdep != 1 && k->kasan != 1 && k->kmemleak_on != 1)
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
