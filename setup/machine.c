/* The machine's settings: kernel, command line, CPUs and their clocks and
 * idle states, mitigations, io_uring, memlock, the nvme modules. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>

#include "setup/setup_int.h"

#define CPU "devices/system/cpu"

/* "6.12.48-amd64" -> 6, 12 */
static void kernel_version(struct setup_machine *m)
{
	if (sscanf(m->kernel, "%d.%d", &m->kernel_major, &m->kernel_minor) != 2)
		m->kernel_major = m->kernel_minor = -1;
}

/* cpuinfo's first "model name", the x86 and most others' spelling */
static void cpu_model(const struct setup_at *at, struct setup_machine *m)
{
	char line[512], *v;
	FILE *f;

	if (topo_sys_fopen(at->proc, &f, "cpuinfo"))
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) || !(v = strchr(line, ':')))
			continue;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		v[strcspn(v, "\n")] = '\0';
		topo_copy_str(m->cpu_model, sizeof(m->cpu_model), v);
		break;
	}
	fclose(f);
}

/* A governor and how many CPUs use it, for the most used one. */
struct tally {
	char name[8][32];
	int count[8];
	int n;
};

static void tally_add(struct tally *t, const char *name)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->name[i], name))
			break;
	if (i == t->n) {
		if (t->n == 8)
			return;
		topo_copy_str(t->name[t->n++], sizeof(t->name[0]), name);
	}
	t->count[i]++;
}

/* What the online CPUs say: the packages seen, the cores as (package,
 * core) pairs, the governors. */
struct cpus {
	int npkg, ncore;
	int pkg[SETUP_MAX_CPUS], core_pkg[SETUP_MAX_CPUS], core[SETUP_MAX_CPUS];
	int topo_ok;
	int first;		/* the first online CPU, whose C-states count */
	struct tally gov;
};

static void count_topology(const struct setup_at *at, struct cpus *c, int cpu)
{
	int pkg, core, i;

	if (topo_sys_read_int(at->sys, &pkg, CPU "/cpu%d/topology/physical_package_id", cpu) ||
	    topo_sys_read_int(at->sys, &core, CPU "/cpu%d/topology/core_id", cpu)) {
		c->topo_ok = 0;
		return;
	}
	for (i = 0; i < c->npkg && c->pkg[i] != pkg; i++)
		;
	if (i == c->npkg && c->npkg < SETUP_MAX_CPUS)
		c->pkg[c->npkg++] = pkg;
	for (i = 0; i < c->ncore && (c->core_pkg[i] != pkg || c->core[i] != core); i++)
		;
	if (i == c->ncore && c->ncore < SETUP_MAX_CPUS) {
		c->core_pkg[c->ncore] = pkg;
		c->core[c->ncore++] = core;
	}
}

static void count_governor(const struct setup_at *at, struct setup_machine *m,
			   struct cpus *c, int cpu)
{
	char gov[32];

	if (topo_sys_read(at->sys, gov, sizeof(gov), CPU "/cpu%d/cpufreq/scaling_governor", cpu))
		return;
	m->ncpufreq++;
	if (strcmp(gov, "performance"))
		m->ncpufreq_slow++;
	tally_add(&c->gov, gov);
}

/* cpu/online as a set: 0 or -errno. */
static int online_set(const struct setup_at *at, struct topo_cpuset *set)
{
	char list[SETUP_CPULIST_MAX * 16];
	int ret = topo_sys_read(at->sys, list, sizeof(list), CPU "/online");

	return ret ? ret : setup_cpuset_read(list, set);
}

int setup_cpus_online(const struct setup_roots *r, struct topo_cpuset *set)
{
	struct setup_at at;
	int ret = setup_at_init(&at, r);

	return ret ? ret : online_set(&at, set);
}

/* The online CPUs: count, packages, cores, governors. */
static void online_cpus(const struct setup_at *at, struct setup_machine *m, struct cpus *c)
{
	struct topo_cpuset set;
	int cpu, best = -1, i;

	if (online_set(at, &set))
		return;
	m->pus = 0;
	m->ncpufreq = m->ncpufreq_slow = 0;
	c->topo_ok = 1;
	for (cpu = topo_cpuset_next(&set, -1); cpu >= 0 && cpu < SETUP_MAX_CPUS;
	     cpu = topo_cpuset_next(&set, cpu)) {
		m->pus++;
		count_topology(at, c, cpu);
		count_governor(at, m, c, cpu);
		if (c->first < 0)
			c->first = cpu;
	}
	if (c->topo_ok && m->pus) {
		m->sockets = c->npkg;
		m->cores = c->ncore;
	}
	for (i = 0; i < c->gov.n; i++)
		if (best < 0 || c->gov.count[i] > c->gov.count[best])
			best = i;
	if (best >= 0)
		topo_copy_str(m->governor, sizeof(m->governor), c->gov.name[best]);
}

static void boost(const struct setup_at *at, struct setup_machine *m)
{
	int v;

	if (!topo_sys_read_int(at->sys, &v, CPU "/cpufreq/boost") && (v == 0 || v == 1))
		m->boost = v;
	else if (!topo_sys_read_int(at->sys, &v, CPU "/intel_pstate/no_turbo") && (v == 0 || v == 1)) {
		m->boost = !v;
		m->boost_no_turbo = true;
	}
}

/* The deepest state of cpu's cpuidle/ that is not disabled. */
static void deepest_cstate(const struct setup_at *at, struct setup_machine *m, int cpu)
{
	char name[32];
	int k, dis, lat;

	for (k = 0; !topo_sys_read(at->sys, name, sizeof(name), CPU "/cpu%d/cpuidle/state%d/name",
				cpu, k); k++) {
		/* an unreadable disable (kernels before 3.x) is an enabled state */
		if (!topo_sys_read_int(at->sys, &dis, CPU "/cpu%d/cpuidle/state%d/disable", cpu, k) &&
		    dis)
			continue;
		topo_copy_str(m->deepest_cstate, sizeof(m->deepest_cstate), name);
		m->deepest_cstate_us = -1;
		if (!topo_sys_read_int(at->sys, &lat, CPU "/cpu%d/cpuidle/state%d/latency", cpu, k))
			m->deepest_cstate_us = lat;
	}
}

static void vulnerabilities(const struct setup_at *at, struct setup_vulns *v)
{
	char (*names)[SETUP_NAME_MAX] = NULL, text[256];
	int n, i;

	n = topo_sys_list(at->sys, &names, CPU "/vulnerabilities");
	for (i = 0; i < n; i++) {
		if (topo_sys_read(at->sys, text, sizeof(text), CPU "/vulnerabilities/%s", names[i]))
			continue;
		v->total++;
		if (!strncmp(text, "Vulnerable", 10))
			v->vulnerable++;
		else if (!strncmp(text, "Mitigation", 10))
			v->mitigated++;
		/* what mitigations=off leaves as it is: spectre_v1's pointer
		 * sanitization, which arm64, s390 and loongarch always show
		 * as a mitigation (x86's, with swapgs barriers, goes), and
		 * l1tf's PTE inversion, which x86 always applies */
		if (!strcmp(text, "Mitigation: __user pointer sanitization") ||
		    !strncmp(text, "Mitigation: PTE Inversion", 25))
			v->mitigated_kept++;
		else if (!strncmp(text, "Not affected", 12))
			v->not_affected++;
	}
	free(names);
}

/* self/limits' soft column: the reader's own limit, which is what a run
 * started from here gets. Without the file, the live /proc's answer is
 * getrlimit's. */
static void memlock(const struct setup_at *at, struct setup_machine *m)
{
	char line[256], soft[64];
	struct rlimit rl;
	int64_t v;
	FILE *f;

	if (!topo_sys_fopen(at->proc, &f, "self/limits")) {
		while (fgets(line, sizeof(line), f)) {
			if (strncmp(line, "Max locked memory", 17) ||
			    sscanf(line + 17, "%63s", soft) != 1)
				continue;
			if (!strcmp(soft, "unlimited"))
				m->memlock_bytes = INT64_MAX;
			else if (!topo_parse_i64(soft, &v) && v >= 0)
				m->memlock_bytes = v;
			break;
		}
		fclose(f);
		return;
	}
	if (at->live_proc && !getrlimit(RLIMIT_MEMLOCK, &rl))
		m->memlock_bytes = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > INT64_MAX ?
				   INT64_MAX : (int64_t)rl.rlim_cur;
}

/* node/nodeN/cpulist into cpu_node; ncpus is one past the highest CPU any
 * node names, or that cpu/possible names. */
static void cpu_nodes(const struct setup_at *at, struct setup_machine *m)
{
	char (*names)[SETUP_NAME_MAX] = NULL, list[SETUP_CPULIST_MAX * 16];
	struct topo_cpuset set;
	int n, i, node, cpu, top = -1;

	for (i = 0; i < SETUP_MAX_CPUS; i++)
		m->cpu_node[i] = -1;
	if (!topo_sys_read(at->sys, list, sizeof(list), CPU "/possible") &&
	    !setup_cpuset_read(list, &set))
		for (cpu = topo_cpuset_next(&set, -1); cpu >= 0; cpu = topo_cpuset_next(&set, cpu))
			top = cpu;
	n = topo_sys_list(at->sys, &names, "devices/system/node");
	for (i = 0; i < n; i++) {
		if (sscanf(names[i], "node%d", &node) != 1 || node < 0 || node > SHRT_MAX ||
		    topo_sys_read(at->sys, list, sizeof(list), "devices/system/node/%s/cpulist", names[i]))
			continue;
		/* a node with CPUs: a CPU-less node's cpulist is empty */
		if (list[0])
			m->nnodes = m->nnodes < 0 ? 1 : m->nnodes + 1;
		if (setup_cpuset_read(list, &set))
			continue;
		for (cpu = topo_cpuset_next(&set, -1); cpu >= 0 && cpu < SETUP_MAX_CPUS;
		     cpu = topo_cpuset_next(&set, cpu)) {
			m->cpu_node[cpu] = (short)node;
			top = cpu > top ? cpu : top;
		}
	}
	free(names);
	m->ncpus = top < 0 ? -1 : top + 1 > SETUP_MAX_CPUS ? SETUP_MAX_CPUS : top + 1;
}

/* kernel/arch (uname -m) where procfs has it, else the live uname. */
static void arch(const struct setup_at *at, struct setup_machine *m)
{
	struct utsname u;

	if (!topo_sys_read(at->proc, m->arch, sizeof(m->arch), "sys/kernel/arch"))
		return;
	if (at->live_proc && !uname(&u))
		topo_copy_str(m->arch, sizeof(m->arch), u.machine);
}

/* "[default] performance powersave powersupersave" -> default */
static void aspm_policy(const struct setup_at *at, struct setup_machine *m)
{
	char buf[128], *open, *close;

	if (topo_sys_read(at->sys, buf, sizeof(buf), "module/pcie_aspm/parameters/policy"))
		return;
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		topo_copy_str(m->aspm_policy, sizeof(m->aspm_policy), open + 1);
	}
}

/* A module built into the kernel has a module/NAME folder (for its
 * parameters) but no initstate, which only a loaded module shows. */
static int builtin(const struct setup_at *at, const char *mod)
{
	char buf[32], real[PATH_MAX];

	if (topo_sys_relpath(at->sys, real, "module/%s", mod))
		return -1;
	return topo_sys_read(at->sys, buf, sizeof(buf), "module/%s/initstate", mod) == -ENOENT;
}

static void unknown(struct setup_machine *m)
{
	memset(m, 0, sizeof(*m));
	m->kernel_major = m->kernel_minor = -1;
	m->sockets = m->cores = m->pus = -1;
	m->smt_active = -1;
	m->ncpufreq = m->ncpufreq_slow = -1;
	m->boost = -1;
	m->deepest_cstate_us = -1;
	m->io_uring_disabled = -1;
	m->io_uring_group = -1;
	m->numa_balancing = -1;
	m->nnodes = -1;
	m->selinux_enforce = -1;
	m->kconfig = (struct setup_kconfig){ -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
	m->memlock_bytes = -1;
	m->nvme_builtin = -1;
	m->nvme_poll_queues = m->nvme_write_queues = -1;
	m->nvme_ps_max_latency_us = -1;
	m->ncpus = -1;
}

int setup_machine_read(const struct setup_roots *r, struct setup_machine *out)
{
	struct setup_machine *m;
	struct setup_at at;
	struct cpus *c;
	int ret;

	if (!out)
		return -EINVAL;
	ret = setup_at_init(&at, r);
	if (ret)
		return ret;
	m = malloc(sizeof(*m));
	c = calloc(1, sizeof(*c));
	if (!m || !c) {
		free(c);
		free(m);
		return -ENOMEM;
	}
	unknown(m);
	c->first = -1;
	/* a failed read leaves a string "" */
	topo_sys_read(at.proc, m->hostname, sizeof(m->hostname), "sys/kernel/hostname");
	if (!topo_sys_read(at.proc, m->kernel, sizeof(m->kernel), "sys/kernel/osrelease"))
		kernel_version(m);
	arch(&at, m);
	topo_sys_read(at.proc, m->cmdline, sizeof(m->cmdline), "cmdline");
	cpu_model(&at, m);
	online_cpus(&at, m, c);
	topo_sys_read(at.sys, m->smt_control, sizeof(m->smt_control), CPU "/smt/control");
	topo_sys_read_int(at.sys, &m->smt_active, CPU "/smt/active");
	if (m->smt_active != 0 && m->smt_active != 1)
		m->smt_active = -1;
	boost(&at, m);
	if (topo_sys_read(at.sys, m->idle_governor, sizeof(m->idle_governor),
		       CPU "/cpuidle/current_governor_ro"))
		topo_sys_read(at.sys, m->idle_governor, sizeof(m->idle_governor),
			   CPU "/cpuidle/current_governor");
	if (c->first >= 0)
		deepest_cstate(&at, m, c->first);
	vulnerabilities(&at, &m->vulns);
	topo_sys_read_int(at.proc, &m->io_uring_disabled, "sys/kernel/io_uring_disabled");
	topo_sys_read_i64(at.proc, &m->io_uring_group, "sys/kernel/io_uring_group");
	topo_sys_read_int(at.proc, &m->numa_balancing, "sys/kernel/numa_balancing");
	if (topo_sys_read_int(at.sys, &m->selinux_enforce, "fs/selinux/enforce") ||
	    (m->selinux_enforce != 0 && m->selinux_enforce != 1))
		m->selinux_enforce = -1;
	aspm_policy(&at, m);
	setup_kconfig_read(&at, m->kernel, m->cmdline, &m->kconfig);
	memlock(&at, m);
	/* each read leaves its -1 when the module or parameter is missing */
	topo_sys_read_int(at.sys, &m->nvme_poll_queues, "module/nvme/parameters/poll_queues");
	topo_sys_read_int(at.sys, &m->nvme_write_queues, "module/nvme/parameters/write_queues");
	m->nvme_builtin = builtin(&at, "nvme");
	topo_sys_read_i64(at.sys, &m->nvme_ps_max_latency_us,
		       "module/nvme_core/parameters/default_ps_max_latency_us");
	cpu_nodes(&at, m);
	memcpy(out, m, sizeof(*m));
	free(c);
	free(m);
	return 0;
}
