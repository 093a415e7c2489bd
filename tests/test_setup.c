/* setup/: the machine's and a target's settings read from our recorded
 * sysfs + procfs trees (tests/fixtures/setup-*): a server tuned for power
 * (setup-strict), a drive with one IO queue whose interrupt lands on the
 * other node (setup-onequeue), a drive with poll queues (setup-poll);
 * unknown facts as "" and -1; cpulists. Then the live machine: a file on
 * tmpfs has no disk, and as root a loop device's queue settings read back
 * what was written to them, and its partition answers with its disk's. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/blkpg.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli/opts/roots.h"
#include "setup/knob.h"
#include "setup/setup.h"
#include "tests/helpers.h"

static char fx[2048];
static char sysfs[4096], procfs[4096];

/* the roots of fixture name */
static const struct setup_roots *at(const char *name)
{
	static struct setup_roots r;

	snprintf(sysfs, sizeof(sysfs), "%s/%s/sys", fx, name);
	snprintf(procfs, sizeof(procfs), "%s/%s/proc", fx, name);
	r.sysfs = sysfs;
	r.procfs = procfs;
	return &r;
}

static struct setup_machine m;	/* big: not on the stack */

static int read_machine(const char *name)
{
	int ret = setup_machine_read(at(name), &m);

	CHECKF(ret == 0, "%s: %s", name, strerror(-ret));
	return ret;
}

static int read_dev(const char *name, const char *path, struct setup_dev *d)
{
	int ret = setup_dev_read(at(name), path, d);

	CHECKF(ret == 0, "%s %s: %s", name, path, strerror(-ret));
	return ret;
}

static void test_strict_machine(void)
{
	if (read_machine("setup-strict"))
		return;
	CHECKF(!strcmp(m.hostname, "fixture-strict"), "%s", m.hostname);
	CHECKF(!strcmp(m.kernel, "6.1.0-28-amd64") && m.kernel_major == 6 && m.kernel_minor == 1,
	       "%s %d.%d", m.kernel, m.kernel_major, m.kernel_minor);
	CHECKF(!strncmp(m.cmdline, "BOOT_IMAGE=", 11) && strstr(m.cmdline, " quiet"), "%s", m.cmdline);
	CHECKF(!strcmp(m.cpu_model, "Fixture Xeon CPU @ 2.10GHz"), "'%s'", m.cpu_model);
	/* cores are (package, core_id) pairs: core_id alone repeats per package */
	CHECKF(m.sockets == 2 && m.cores == 4 && m.pus == 4, "%d %d %d", m.sockets, m.cores, m.pus);
	CHECKF(!strcmp(m.smt_control, "on") && m.smt_active == 0, "%s %d", m.smt_control,
	       m.smt_active);
	CHECKF(!strcmp(m.governor, "powersave") && m.ncpufreq == 4 && m.ncpufreq_slow == 4,
	       "%s %d %d", m.governor, m.ncpufreq, m.ncpufreq_slow);
	/* cpufreq/boost 0 wins over intel_pstate/no_turbo 0 */
	CHECKF(m.boost == 0, "%d", m.boost);
	CHECKF(!strcmp(m.idle_governor, "menu"), "%s", m.idle_governor);
	/* C10 is deeper but disabled */
	CHECKF(!strcmp(m.deepest_cstate, "C6") && m.deepest_cstate_us == 133, "%s %d",
	       m.deepest_cstate, m.deepest_cstate_us);
	CHECKF(m.vulns.vulnerable == 2 && m.vulns.mitigated == 2 && m.vulns.not_affected == 2 &&
	       m.vulns.total == 7, "%u %u %u %u", m.vulns.vulnerable, m.vulns.mitigated,
	       m.vulns.not_affected, m.vulns.total);
	CHECKF(m.io_uring_disabled == 0, "%d", m.io_uring_disabled);
	/* no io_uring_group file: unknown; spectre_v1's swapgs barriers are
	 * x86's, which mitigations=off removes */
	CHECKF(m.io_uring_group == -1 && m.vulns.mitigated_kept == 0, "%lld %u",
	       (long long)m.io_uring_group, m.vulns.mitigated_kept);
	CHECKF(!strcmp(m.arch, "x86_64") && !m.boost_no_turbo, "%s %d", m.arch, m.boost_no_turbo);
	/* a loaded module shows initstate */
	CHECKF(m.nvme_builtin == 0, "%d", m.nvme_builtin);
	/* no boot/ config, no selinuxfs, no numa_balancing file: unknown */
	CHECKF(m.kconfig.hz == -1 && m.kconfig.kasan == -1 && m.selinux_enforce == -1 &&
	       m.numa_balancing == -1 && m.nnodes == 2, "%d %d %d %d %d", m.kconfig.hz,
	       m.kconfig.kasan, m.selinux_enforce, m.numa_balancing, m.nnodes);
	/* the soft limit, not the hard one */
	CHECKF(m.memlock_bytes == 8388608, "%lld", (long long)m.memlock_bytes);
	CHECKF(m.nvme_poll_queues == 0 && m.nvme_write_queues == 0 &&
	       m.nvme_ps_max_latency_us == 100000, "%d %d %lld", m.nvme_poll_queues,
	       m.nvme_write_queues, (long long)m.nvme_ps_max_latency_us);
	CHECKF(m.ncpus == 4 && m.cpu_node[0] == 0 && m.cpu_node[1] == 0 && m.cpu_node[2] == 1 &&
	       m.cpu_node[3] == 1 && m.cpu_node[4] == -1, "%d: %d %d %d %d %d", m.ncpus,
	       m.cpu_node[0], m.cpu_node[1], m.cpu_node[2], m.cpu_node[3], m.cpu_node[4]);
	CHECK(setup_cpulist_nodes(&m, "1-2") == 3 && setup_cpulist_nodes(&m, "0") == 1 &&
	      setup_cpulist_nodes(&m, "2-3") == 2 && setup_cpulist_nodes(&m, "7") == 0);
}

static void test_strict_dev(void)
{
	struct setup_dev d = { 0 };	/* freeable after a failed read */
	unsigned i;

	if (read_dev("setup-strict", "/dev/nvme0n1", &d))
		return;
	CHECK(!strcmp(d.name, "nvme0n1") && !strcmp(d.disk, "nvme0n1"));
	CHECKF(d.nvme && !strcmp(d.controller, "nvme0") && !strcmp(d.pci, "0000:01:00.0"),
	       "%d %s %s", d.nvme, d.controller, d.pci);
	CHECKF(!strcmp(d.model, "FIXTURE STRICT SSD") && !strcmp(d.firmware, "2.1.0"), "%s %s",
	       d.model, d.firmware);
	CHECKF(d.capacity_bytes == 2000409264LL * 512 && d.logical_block_size == 512, "%lld %d",
	       (long long)d.capacity_bytes, d.logical_block_size);
	CHECKF(!strcmp(d.scheduler, "mq-deadline"), "%s", d.scheduler);
	CHECKF(d.iostats == 1 && d.nomerges == 0 && d.io_poll == 0 && d.rotational == 0,
	       "%d %d %d %d", d.iostats, d.nomerges, d.io_poll, d.rotational);
	CHECKF(d.wbt_lat_usec == 2000 && d.nr_requests == 64, "%lld %lld",
	       (long long)d.wbt_lat_usec, (long long)d.nr_requests);
	CHECKF(d.numa_node == 0 && !strcmp(d.iommu_type, "DMA"), "%d %s", d.numa_node, d.iommu_type);
	CHECKF(d.link_gts == 8.0 && d.link_width == 2 && d.link_max_gts == 16.0 &&
	       d.link_max_width == 4, "%g x%d of %g x%d", d.link_gts, d.link_width,
	       d.link_max_gts, d.link_max_width);
	/* its root port 0000:00:01.0, the bridge right above it, as topo's port_link */
	CHECKF(d.port_max_gts == 32.0 && d.port_max_width == 16, "port %g x%d", d.port_max_gts,
	       d.port_max_width);
	CHECKF(d.apst_latency_us == 100000 && d.apst_supported == 1, "%lld %d",
	       (long long)d.apst_latency_us, d.apst_supported);
	/* a kernel before 6.13 has no iostats_passthrough */
	CHECKF(d.iostats_passthrough == -1, "%d", d.iostats_passthrough);
	CHECKF(d.nhwq == 4 && d.nirq_queues == 4 && d.hwq, "%u %u", d.nhwq, d.nirq_queues);
	for (i = 0; d.hwq && i < d.nhwq && i < 4; i++) {
		char cpu[8];

		snprintf(cpu, sizeof(cpu), "%u", i);
		/* hardware queue N is vector nvme0q(N+1); q0 is the admin queue */
		CHECKF(!strcmp(d.hwq[i].cpus, cpu) && d.hwq[i].irq == 41 + (int)i &&
		       !strcmp(d.hwq[i].irq_cpus, cpu), "hwq %u: %s irq %d on %s", i,
		       d.hwq[i].cpus, d.hwq[i].irq, d.hwq[i].irq_cpus);
	}
	setup_dev_free(&d);
	CHECK(!d.hwq && !d.nhwq);

	/* a partition's queue is its disk's; its size is its own */
	if (read_dev("setup-strict", "/dev/nvme0n1p1", &d))
		return;
	CHECKF(!strcmp(d.name, "nvme0n1p1") && !strcmp(d.disk, "nvme0n1"), "%s %s", d.name, d.disk);
	CHECKF(!strcmp(d.scheduler, "mq-deadline") && d.iostats == 1 && d.nr_requests == 64 &&
	       d.nvme && !strcmp(d.controller, "nvme0") && d.nhwq == 4, "%s %d %lld %s %u",
	       d.scheduler, d.iostats, (long long)d.nr_requests, d.controller, d.nhwq);
	CHECKF(d.capacity_bytes == 2000400000LL * 512, "%lld", (long long)d.capacity_bytes);
	setup_dev_free(&d);
}

/* An arm64 datacenter server: nvme built in, a controller without APST
 * (power/ without pm_qos_latency_tolerance_us), iostats_passthrough on,
 * io_uring_disabled=1 with no group, spectre_v1's unswitchable mitigation. */
static void test_dc(void)
{
	struct setup_dev d = { 0 };

	if (read_machine("check-dc"))
		return;
	CHECKF(!strcmp(m.arch, "aarch64"), "%s", m.arch);
	CHECKF(m.io_uring_disabled == 1 && m.io_uring_group == -1, "%d %lld", m.io_uring_disabled,
	       (long long)m.io_uring_group);
	CHECKF(m.nvme_builtin == 1, "%d", m.nvme_builtin);
	CHECKF(m.vulns.mitigated == 1 && m.vulns.mitigated_kept == 1, "%u %u", m.vulns.mitigated,
	       m.vulns.mitigated_kept);
	CHECKF(m.numa_balancing == 1 && m.nnodes == 2 && m.selinux_enforce == 1 &&
	       !strcmp(m.aspm_policy, "default"), "%d %d %d %s", m.numa_balancing, m.nnodes,
	       m.selinux_enforce, m.aspm_policy);
	/* boot/config-RELEASE beside the recorded sys/ */
	CHECKF(m.kconfig.hz == 250 && m.kconfig.lockdep == 0 && m.kconfig.kasan == 0 &&
	       m.kconfig.debug_pagealloc == 1 && m.kconfig.debug_pagealloc_on == 0 &&
	       m.kconfig.blk_cgroup == 1 && m.kconfig.blk_throttle == 1, "hz %d lockdep %d kasan %d "
	       "pagealloc %d/%d blkcg %d", m.kconfig.hz, m.kconfig.lockdep, m.kconfig.kasan,
	       m.kconfig.debug_pagealloc, m.kconfig.debug_pagealloc_on, m.kconfig.blk_cgroup);
	if (read_dev("check-dc", "/dev/nvme0n1", &d))
		return;
	CHECKF(d.apst_supported == 0 && d.apst_latency_us == -1, "%d %lld", d.apst_supported,
	       (long long)d.apst_latency_us);
	CHECKF(d.iostats == 1 && d.iostats_passthrough == 1, "%d %d", d.iostats,
	       d.iostats_passthrough);
	CHECKF(d.l1_aspm == 1 && d.l0s_aspm == 0, "%d %d", d.l1_aspm, d.l0s_aspm);
	CHECKF(d.rq_affinity == 2 && d.read_ahead_kb == 128, "%d %d", d.rq_affinity,
	       d.read_ahead_kb);
	/* the ancestor's io.max for this disk; the other disk's lower one in
	 * our own cgroup is not this disk's */
	CHECKF(!strcmp(d.devt, "259:0") && !strcmp(d.cgroup, "/system.slice/iostorm.service") &&
	       d.cg_riops == 20000 && d.cg_rbps == -1 && !strcmp(d.cg_max_at, "/system.slice") &&
	       d.cg_latency_us == -1 && d.cg_iocost == 0, "%s %s %lld %lld %s %lld %d", d.devt,
	       d.cgroup, (long long)d.cg_riops, (long long)d.cg_rbps, d.cg_max_at,
	       (long long)d.cg_latency_us, d.cg_iocost);
	setup_dev_free(&d);
}

/* Most facts are missing from this tree: each reads as unknown, never 0. */
static void test_onequeue(void)
{
	struct setup_dev d = { 0 };

	if (read_machine("setup-onequeue"))
		return;
	CHECKF(!strcmp(m.kernel, "5.15.0-fixture") && m.kernel_major == 5 && m.kernel_minor == 15,
	       "%s %d.%d", m.kernel, m.kernel_major, m.kernel_minor);
	CHECK(!m.hostname[0] && !m.cmdline[0] && !m.cpu_model[0] && !m.smt_control[0]);
	CHECKF(m.smt_active == -1 && m.boost == -1 && m.io_uring_disabled == -1 &&
	       m.memlock_bytes == -1, "%d %d %d %lld", m.smt_active, m.boost,
	       m.io_uring_disabled, (long long)m.memlock_bytes);
	CHECKF(m.nvme_poll_queues == -1 && m.nvme_write_queues == -1 &&
	       m.nvme_ps_max_latency_us == -1, "%d %d %lld", m.nvme_poll_queues,
	       m.nvme_write_queues, (long long)m.nvme_ps_max_latency_us);
	CHECKF(!m.idle_governor[0] && !m.deepest_cstate[0] && m.deepest_cstate_us == -1, "%s %s %d",
	       m.idle_governor, m.deepest_cstate, m.deepest_cstate_us);
	CHECK(m.vulns.total == 0 && m.vulns.vulnerable == 0);
	/* three on performance, one on schedutil */
	CHECKF(!strcmp(m.governor, "performance") && m.ncpufreq == 4 && m.ncpufreq_slow == 1,
	       "%s %d %d", m.governor, m.ncpufreq, m.ncpufreq_slow);

	if (read_dev("setup-onequeue", "nvme1n1", &d))
		return;
	CHECKF(!strcmp(d.scheduler, "none") && d.iostats == 0 && d.nomerges == 2, "%s %d %d",
	       d.scheduler, d.iostats, d.nomerges);
	CHECKF(d.wbt_lat_usec == -1 && d.nr_requests == 1023 && d.logical_block_size == 4096,
	       "%lld %lld %d", (long long)d.wbt_lat_usec, (long long)d.nr_requests,
	       d.logical_block_size);
	CHECKF(!d.model[0] && !strcmp(d.firmware, "1.0"), "%s %s", d.model, d.firmware);
	CHECKF(!strcmp(d.iommu_type, "identity") && d.numa_node == 0, "%s %d", d.iommu_type,
	       d.numa_node);
	/* "any": no latency limit on the power states */
	CHECKF(d.apst_latency_us == INT64_MAX, "%lld", (long long)d.apst_latency_us);
	/* nvme11q1 and nvme2q1 (vectors 52, 53) are other controllers' */
	CHECKF(d.nhwq == 1 && d.nirq_queues == 1 && d.hwq && !strcmp(d.hwq[0].cpus, "0-3") &&
	       d.hwq[0].irq == 51 && !strcmp(d.hwq[0].irq_cpus, "2"), "%u %u %s %d %s", d.nhwq,
	       d.nirq_queues, d.hwq ? d.hwq[0].cpus : "", d.hwq ? d.hwq[0].irq : 0,
	       d.hwq ? d.hwq[0].irq_cpus : "");
	/* what a finding needs: the queue serves node 0's CPUs from node 1 */
	if (d.hwq)
		CHECK(setup_cpulist_nodes(&m, d.hwq[0].irq_cpus) == 2 &&
		      setup_cpulist_nodes(&m, d.hwq[0].cpus) == 3);
	setup_dev_free(&d);
}

static void test_poll(void)
{
	struct setup_dev d = { 0 };
	char (*names)[SETUP_NAME_MAX] = NULL;
	unsigned i;
	int n;

	if (read_machine("setup-poll"))
		return;
	/* no cpufreq at all (a VM): none of them, not unknown */
	CHECKF(m.ncpufreq == 0 && m.ncpufreq_slow == 0 && !m.governor[0], "%d %d %s", m.ncpufreq,
	       m.ncpufreq_slow, m.governor);
	CHECKF(m.boost == 0, "no_turbo 1: %d", m.boost);
	CHECKF(m.nvme_poll_queues == 2 && m.nvme_write_queues == -1, "%d %d", m.nvme_poll_queues,
	       m.nvme_write_queues);
	CHECKF(m.ncpus == 10 && m.cpu_node[9] == 1 && m.pus == 10, "%d %d", m.ncpus, m.cpu_node[9]);

	/* the generic char device names its block namespace */
	if (read_dev("setup-poll", "/dev/ng2n1", &d))
		return;
	CHECKF(!strcmp(d.name, "nvme2n1") && d.io_poll == 1 && !strcmp(d.scheduler, "none"),
	       "%s %d %s", d.name, d.io_poll, d.scheduler);
	/* no iommu_group, no link files, no numa_node of the controller (the
	 * function's is used), no pm_qos file */
	CHECKF(!d.iommu_type[0] && d.link_gts == -1 && d.link_width == -1 && d.link_max_gts == -1 &&
	       d.link_max_width == -1 && d.numa_node == 1 && d.apst_latency_us == -1, "%s %g %d %d",
	       d.iommu_type, d.link_gts, d.numa_node, (int)d.apst_latency_us);
	CHECKF(d.port_max_gts == -1 && d.port_max_width == -1, "port %g x%d", d.port_max_gts,
	       d.port_max_width);
	CHECKF(d.wbt_lat_usec == -1 && d.nr_requests == -1 && d.rotational == -1, "%lld %lld %d",
	       (long long)d.wbt_lat_usec, (long long)d.nr_requests, d.rotational);
	CHECKF(d.nhwq == 12 && d.nirq_queues == 10 && d.hwq, "%u %u", d.nhwq, d.nirq_queues);
	for (i = 0; d.hwq && i < d.nhwq && i < 10; i++)
		/* mq/ sorted as numbers: mq/10 is not the third; nvme2q10 is not q1 */
		CHECKF(d.hwq[i].irq == 61 + (int)i && d.hwq[i].cpus[0] == (char)('0' + i) &&
		       !d.hwq[i].cpus[1], "hwq %u: %s irq %d", i, d.hwq[i].cpus, d.hwq[i].irq);
	/* the set the text is written from: the one CPU */
	for (i = 0; d.hwq && i < d.nhwq && i < 10; i++)
		CHECKF(topo_cpuset_count(&d.hwq[i].cpuset) == 1 &&
		       topo_cpuset_has(&d.hwq[i].cpuset, (int)i), "hwq %u: %u CPUs", i,
		       topo_cpuset_count(&d.hwq[i].cpuset));
	if (d.hwq && d.nhwq == 12)
		CHECKF(d.hwq[10].irq == -1 && d.hwq[11].irq == -1 && !d.hwq[10].irq_cpus[0] &&
		       !strcmp(d.hwq[10].cpus, "0-4") && !strcmp(d.hwq[11].cpus, "5-9"),
		       "poll queues: %d %s, %d %s", d.hwq[10].irq, d.hwq[10].cpus, d.hwq[11].irq,
		       d.hwq[11].cpus);
	setup_dev_free(&d);

	/* a multipath head: its device is the subsystem, its controller its
	 * path's; bio-based, so no hardware queues of its own */
	if (read_dev("setup-poll", "nvme10n1", &d))
		return;
	CHECKF(d.nvme && !strcmp(d.controller, "nvme2") && !strcmp(d.pci, "0000:03:00.0") &&
	       d.numa_node == 1 && !strcmp(d.model, "FIXTURE POLL SSD") && d.nhwq == 0 &&
	       !strcmp(d.scheduler, "none"), "%d %s %s %d %s %u", d.nvme, d.controller, d.pci,
	       d.numa_node, d.model, d.nhwq);
	setup_dev_free(&d);

	/* a disk that is not NVMe: no controller, no vectors, no queue files */
	if (read_dev("setup-poll", "loop0", &d))
		return;
	CHECKF(!d.nvme && !d.controller[0] && !d.pci[0] && d.nhwq == 0 && !d.hwq &&
	       d.iostats == -1 && d.capacity_bytes == -1 && !d.scheduler[0], "%s %s %u",
	       d.controller, d.pci, d.nhwq);
	setup_dev_free(&d);

	/* hidden multipath paths left out; nvme2n1 before nvme10n1 */
	n = setup_nvme_list(at("setup-poll"), &names);
	CHECKF(n == 2 && names && !strcmp(names[0], "nvme2n1") && !strcmp(names[1], "nvme10n1"),
	       "%d %s %s", n, n > 0 ? names[0] : "", n > 1 ? names[1] : "");
	free(names);
	names = NULL;
	n = setup_nvme_list(at("setup-strict"), &names);
	CHECKF(n == 1 && names && !strcmp(names[0], "nvme0n1"), "%d", n);
	free(names);
}

/* Out-parameters stay as they were on failure; bad roots are errors. */
static void test_errors(void)
{
	struct setup_dev d, before;
	char (*names)[SETUP_NAME_MAX] = (void *)&d;
	struct setup_roots bad = { "/nonexistent/sys", "/nonexistent/proc" };
	char empty[] = "/tmp/iostorm-setup.XXXXXX";
	struct setup_roots none = { empty, empty };

	memset(&d, 0x5a, sizeof(d));
	memcpy(&before, &d, sizeof(d));
	CHECK(setup_dev_read(at("setup-strict"), "nvme9n1", &d) == -ENOENT);
	CHECK(setup_dev_read(at("setup-strict"), "/dev/ng9n1", &d) == -ENOENT);
	CHECK(setup_dev_read(&bad, "nvme0n1", &d) == -ENOENT);
	CHECK(!memcmp(&d, &before, sizeof(d)));
	m.ncpus = 12345;
	CHECK(setup_machine_read(&bad, &m) == -ENOENT && m.ncpus == 12345);
	CHECK(setup_nvme_list(&bad, &names) == -ENOENT && names == (void *)&d);
	if (!mkdtemp(empty)) {
		CHECK(0 && "mkdtemp");
		return;
	}
	CHECK(setup_nvme_list(&none, &names) == -ENOENT);
	{
		/* a root that is a file is no tree */
		struct setup_roots file = { "/dev/null", NULL };

		CHECK(setup_machine_read(&file, &m) == -ENOTDIR && m.ncpus == 12345);
	}
	if (mkdir(strcat(strcpy(sysfs, empty), "/block"), 0700) == 0) {
		CHECK(setup_nvme_list(&none, &names) == 0 && !names);
		rmdir(sysfs);
	}
	/* an empty tree: every fact unknown, and still a success */
	CHECK(setup_machine_read(&none, &m) == 0 && m.ncpus == -1 && m.pus == -1 &&
	      m.ncpufreq == -1 && m.kernel_major == -1 && m.memlock_bytes == -1);
	rmdir(empty);
}

/* The roots come from the caller, never from the environment below cli/:
 * cli_roots reads $IOSTORM_SYSFS_ROOT and $IOSTORM_PROCFS_ROOT once and
 * hands them down; setup/ given NULL reads the live machine even with
 * them set. */
static void test_env(void)
{
	char s[4096], p[4096];
	const struct setup_roots *r;
	struct setup_dev d = { 0 };

	snprintf(s, sizeof(s), "%s/setup-onequeue/sys", fx);
	snprintf(p, sizeof(p), "%s/setup-onequeue/proc", fx);
	setenv("IOSTORM_SYSFS_ROOT", s, 1);
	setenv("IOSTORM_PROCFS_ROOT", p, 1);
	r = cli_roots();
	CHECK(r->sysfs && !strcmp(r->sysfs, s) && r->procfs && !strcmp(r->procfs, p));
	CHECK(setup_machine_read(r, &m) == 0 && !strcmp(m.kernel, "5.15.0-fixture"));
	CHECK(setup_dev_read(r, "nvme1n1", &d) == 0 && d.nomerges == 2);
	setup_dev_free(&d);
	CHECK(setup_sysfs_redirected(r) && !setup_sysfs_redirected(NULL));
	/* the library itself does not look */
	CHECK(setup_machine_read(NULL, &m) == 0 && strcmp(m.kernel, "5.15.0-fixture"));
	unsetenv("IOSTORM_SYSFS_ROOT");
	unsetenv("IOSTORM_PROCFS_ROOT");
}

static void test_cpulist(void)
{
	CHECK(setup_cpulist_has("0-3,8", 0) && setup_cpulist_has("0-3,8", 3) &&
	      setup_cpulist_has("0-3,8", 8));
	CHECK(!setup_cpulist_has("0-3,8", 4) && !setup_cpulist_has("0-3,8", 9) &&
	      !setup_cpulist_has("0-3,8", -1));
	CHECK(setup_cpulist_has("0, 1, 2", 2) && setup_cpulist_has("5\n", 5));
	CHECK(!setup_cpulist_has("", 0) && !setup_cpulist_has(NULL, 0));
	CHECK(!setup_cpulist_has("3-1", 2) && !setup_cpulist_has("a", 0) &&
	      !setup_cpulist_has("0,", 0) && !setup_cpulist_has("0-", 0) &&
	      !setup_cpulist_has("0,,1", 0) && !setup_cpulist_has("1-2x", 1));
}

/* ---- the live machine ---- */

static void test_live_machine(void)
{
	struct utsname u;
	struct rlimit rl;

	CHECK(setup_machine_read(NULL, &m) == 0);
	CHECK(uname(&u) == 0 && !strncmp(m.kernel, u.release, sizeof(m.kernel) - 1));
	CHECKF(m.pus >= 1 && m.ncpus >= m.pus, "%d %d", m.pus, m.ncpus);
	CHECK(getrlimit(RLIMIT_MEMLOCK, &rl) == 0);
	CHECKF(rl.rlim_cur == RLIM_INFINITY ? m.memlock_bytes == INT64_MAX :
	       m.memlock_bytes == (int64_t)rl.rlim_cur, "%lld", (long long)m.memlock_bytes);
}

static char shm[] = "/dev/shm/iostorm-setup.XXXXXX";
static int shm_made;
static char loopdev[64];
/* queue files written by the test and what they said before */
static struct saved {
	char path[PATH_MAX];
	char was[64];
} saved[3];

static int put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static void cleanup(void)
{
	char cmd[128];
	unsigned i;

	for (i = 0; i < 3; i++)
		if (saved[i].path[0] && put(saved[i].path, saved[i].was))
			fprintf(stderr, "could not restore %s\n", saved[i].path);
	if (loopdev[0]) {
		snprintf(cmd, sizeof(cmd), "losetup -d %s 2>/dev/null", loopdev);
		if (system(cmd) != 0)
			fprintf(stderr, "could not detach %s\n", loopdev);
	}
	if (shm_made)
		unlink(shm);
}

/* A file on tmpfs sits on no disk; a character device is not a target. */
static void test_live_files(void)
{
	struct setup_dev d = { 0 };
	int fd;

	fd = mkstemp(shm);
	if (fd < 0) {
		CHECK(fd >= 0 && "mkstemp in /dev/shm");
		return;
	}
	shm_made = 1;
	close(fd);
	CHECK(setup_dev_read(NULL, shm, &d) == 0 && !d.disk[0] && !d.nhwq && !d.hwq &&
	      d.iostats == -1 && !strcmp(d.name, strrchr(shm, '/') + 1));
	setup_dev_free(&d);
	CHECK(setup_dev_read(NULL, "/dev/null", &d) == -ENOTBLK);
	CHECK(setup_dev_read(NULL, "/dev/shm", &d) == -EISDIR);
	CHECK(setup_dev_read(NULL, "/nonexistent", &d) == -ENOENT);
}

/* An MBR with one partition from sector 2048 to the end. */
static int write_disk(const char *path, unsigned sectors)
{
	unsigned char mbr[512] = { 0 }, *e = mbr + 446;
	unsigned start = 2048, len = sectors - start;
	int fd, ret = 0;

	e[4] = 0x83;
	memcpy(e + 8, &start, 4);	/* little-endian, as x86 and arm64 are */
	memcpy(e + 12, &len, 4);
	mbr[510] = 0x55;
	mbr[511] = 0xaa;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)sectors * 512) || pwrite(fd, mbr, 512, 0) != 512)
		ret = -errno;
	close(fd);
	return ret;
}

/* Kernels built without partition table parsers (no MSDOS_PARTITION)
 * find no partition in the MBR: add it the way partx does. EBUSY where the
 * scan found it already. */
static void add_partition(void)
{
	struct blkpg_partition part = { .start = 2048LL * 512, .length = (16384LL - 2048) * 512,
					.pno = 1 };
	struct blkpg_ioctl_arg arg = { .op = BLKPG_ADD_PARTITION, .datalen = sizeof(part),
				       .data = &part };
	int fd = open(loopdev, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (ioctl(fd, BLKPG, &arg) && errno != EBUSY)
		fprintf(stderr, "note: BLKPG_ADD_PARTITION on %s: %s\n", loopdev, strerror(errno));
	close(fd);
}

static const char *attach(void)
{
	char cmd[PATH_MAX + 64];
	FILE *p;

	if (geteuid() != 0)
		return "skip: loop devices need root";
	if (system("command -v losetup >/dev/null 2>&1") != 0)
		return "skip: losetup is not installed";
	if (write_disk(shm, 16384))
		return "skip: cannot write a file in /dev/shm";
	snprintf(cmd, sizeof(cmd), "losetup -f --show -P %s 2>/dev/null", shm);
	p = popen(cmd, "r");
	if (!p)
		return "skip: cannot run losetup";
	if (!fgets(loopdev, sizeof(loopdev), p))
		loopdev[0] = '\0';
	pclose(p);
	loopdev[strcspn(loopdev, "\n")] = '\0';
	if (strncmp(loopdev, "/dev/loop", 9)) {
		loopdev[0] = '\0';
		return "skip: losetup is not allowed here (no loop device)";
	}
	return NULL;
}

/* Writes text to the loop device's queue/file, keeping what was there. */
static int set_queue(unsigned slot, const char *file, const char *text)
{
	struct saved *s = &saved[slot];
	char path[PATH_MAX], was[64];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", loopdev + 5, file);
	f = fopen(path, "r");
	if (!f || !fgets(was, sizeof(was), f)) {
		if (f)
			fclose(f);
		return -ENOENT;
	}
	fclose(f);
	was[strcspn(was, "\n")] = '\0';
	if (!strcmp(file, "scheduler")) {
		/* "[none] mq-deadline": the one in brackets is written back */
		char *o = strchr(was, '['), *c = o ? strchr(o, ']') : NULL;

		if (!o || !c)
			return -EINVAL;
		*c = '\0';
		memmove(was, o + 1, strlen(o + 1) + 1);
	}
	snprintf(s->was, sizeof(s->was), "%s", was);
	snprintf(s->path, sizeof(s->path), "%s", path);
	return put(path, text);
}

static void test_live_loop(void)
{
	const char *why = attach(), *sched;
	char part[80];
	struct setup_dev d = { 0 };
	struct stat st;
	int i;

	if (why)
		SKIP(why);
	if (setup_dev_read(NULL, loopdev, &d)) {
		CHECK(0 && "setup_dev_read of the loop device");
		return;
	}
	CHECKF(!strcmp(d.name, loopdev + 5) && !strcmp(d.disk, loopdev + 5) && !d.nvme &&
	       !d.controller[0] && d.capacity_bytes == 16384LL * 512 && d.logical_block_size == 512,
	       "%s %s %lld %d", d.name, d.disk, (long long)d.capacity_bytes, d.logical_block_size);
	CHECKF(d.nhwq >= 1 && d.nirq_queues == 0 && d.hwq && d.hwq[0].irq == -1 &&
	       d.hwq[0].cpus[0], "%u %u", d.nhwq, d.nirq_queues);
	CHECK(d.iostats >= 0 && d.nomerges >= 0 && d.scheduler[0]);
	sched = !strcmp(d.scheduler, "none") ? "mq-deadline" : "none";
	setup_dev_free(&d);

	CHECK(set_queue(0, "iostats", "0") == 0);
	CHECK(set_queue(1, "nomerges", "2") == 0);
	if (set_queue(2, "scheduler", sched))
		sched = NULL;	/* a kernel without mq-deadline */
	CHECK(setup_dev_read(NULL, loopdev, &d) == 0);
	CHECKF(d.iostats == 0 && d.nomerges == 2 && (!sched || !strcmp(d.scheduler, sched)),
	       "%d %d %s", d.iostats, d.nomerges, d.scheduler);
	setup_dev_free(&d);
	CHECK(put(saved[0].path, "1") == 0 && put(saved[1].path, "0") == 0);
	CHECK(setup_dev_read(NULL, loopdev, &d) == 0 && d.iostats == 1 && d.nomerges == 0);
	setup_dev_free(&d);

	/* the partition, by its device number: its disk's queue */
	snprintf(part, sizeof(part), "%sp1", loopdev);
	add_partition();
	for (i = 0; i < 50 && stat(part, &st); i++)
		usleep(20000);	/* devtmpfs makes the node after the scan */
	if (stat(part, &st)) {
		fprintf(stderr, "note: %s did not appear; the partition check is skipped\n", part);
		return;
	}
	CHECK(setup_dev_read(NULL, part, &d) == 0);
	CHECKF(!strcmp(d.name, part + 5) && !strcmp(d.disk, loopdev + 5) && d.iostats == 1 &&
	       d.nhwq >= 1 && d.capacity_bytes == (16384LL - 2048) * 512, "%s %s %d %u %lld",
	       d.name, d.disk, d.iostats, d.nhwq, (long long)d.capacity_bytes);
	setup_dev_free(&d);
}

int main(void)
{
	const char *src = getenv("IOSTORM_SRC");

	snprintf(fx, sizeof(fx), "%s/tests/fixtures", src && src[0] ? src : ".");
	unsetenv("IOSTORM_SYSFS_ROOT");
	unsetenv("IOSTORM_PROCFS_ROOT");
	atexit(cleanup);
	test_cpulist();
	test_strict_machine();
	test_strict_dev();
	test_dc();
	test_onequeue();
	test_poll();
	test_errors();
	test_env();
	test_live_machine();
	test_live_files();
	test_live_loop();
	return t_result();
}
