/* The setup record of a report: what the figures were measured on. Every
 * fact setup/ could not read is null here, never 0 or "". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/commands.h"
#include "cli/report/drive_json.h"
#include "cli/report/setup_json.h"
#include "cli/opts/roots.h"

static json_t *str(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

static json_t *num(int64_t v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

static json_t *flag(int v)
{
	return v >= 0 ? json_boolean(v) : json_null();
}

static json_t *real(double v)
{
	return v >= 0 ? json_real(v) : json_null();
}

static json_t *utc_now(void)
{
	char buf[32];
	struct tm tm;
	time_t now = time(NULL);

	if (!gmtime_r(&now, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return json_null();
	return json_string(buf);
}

/* The kernel's build options check reads (docs/check.md#debug_kernel). */
static json_t *kconfig_json(const struct setup_kconfig *k)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "hz", num(k->hz), "lockdep", flag(k->lockdep), "kasan", flag(k->kasan),
			 "kmemleak", flag(k->kmemleak), "debug_pagealloc", flag(k->debug_pagealloc_on),
			 "blk_cgroup", flag(k->blk_cgroup), "blk_throttling", flag(k->blk_throttle),
			 "blk_iolatency", flag(k->blk_iolatency), "blk_iocost", flag(k->blk_iocost),
			 "blk_wbt", flag(k->blk_wbt));
}

/* What this kernel's io_uring offers of the newer waits
 * (eng_uring_waits_probe): each true or false; null where io_uring is
 * refused, or where the facts are a recorded tree's (IOSTORM_SYSFS_ROOT),
 * whose kernel is not the one asked. reg_wait is offered, never used
 * (docs/engine.md). */
static json_t *uring_json(void)
{
	const struct setup_roots *r = cli_roots();
	struct eng_uring_waits k;
	bool live = !r->sysfs && !r->procfs;

	if (!live || eng_uring_waits_probe(&k))
		return json_pack("{s:n, s:n, s:n}", "no_iowait", "min_wait", "reg_wait");
	return json_pack("{s:b, s:b, s:b}", "no_iowait", !k.no_iowait, "min_wait", !k.min_wait,
			 "reg_wait", !k.reg_wait);
}

static json_t *machine_json(const struct setup_machine *m)
{
	const struct setup_vulns *v = &m->vulns;
	json_t *o;

	o = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
			 " s:{s:o, s:o},"
			 " s:{s:o, s:o, s:o}, s:o, s:o,"
			 " s:{s:o, s:o},"
			 " s:{s:o, s:o, s:o, s:o},"
			 " s:o, s:o,"
			 " s:{s:o, s:o, s:o}}",
			 "iostorm_version", IOSTORM_VERSION, "utc", utc_now(),
			 "hostname", str(m->hostname), "kernel", str(m->kernel),
			 "cmdline", str(m->cmdline), "cpu_model", str(m->cpu_model),
			 "sockets", num(m->sockets), "cores", num(m->cores), "pus", num(m->pus),
			 "smt", "control", str(m->smt_control), "active", flag(m->smt_active),
			 "cpufreq", "governor", str(m->governor),
			 "cpus", m->ncpufreq >= 0 ? json_integer(m->ncpufreq) : json_null(),
			 "not_performance", num(m->ncpufreq_slow),
			 "boost", flag(m->boost), "idle_governor", str(m->idle_governor),
			 "deepest_cstate", "name", str(m->deepest_cstate),
			 "exit_latency_us", num(m->deepest_cstate_us),
			 "mitigations", "vulnerable", json_integer(v->vulnerable),
			 "mitigated", json_integer(v->mitigated),
			 "not_affected", json_integer(v->not_affected),
			 "total", v->total ? json_integer(v->total) : json_null(),
			 "io_uring_disabled", num(m->io_uring_disabled),
			 "memlock_bytes", m->memlock_bytes == INT64_MAX ? json_string("unlimited") :
					  num(m->memlock_bytes),
			 "nvme", "poll_queues", num(m->nvme_poll_queues),
			 "write_queues", num(m->nvme_write_queues),
			 "ps_max_latency_us", num(m->nvme_ps_max_latency_us));
	if (o && (json_object_set_new(o, "kernel_config", kconfig_json(&m->kconfig)) ||
		  json_object_set_new(o, "io_uring", uring_json()))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *queues_json(const struct setup_dev *d)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < d->nhwq; i++) {
		const struct setup_hwq *q = &d->hwq[i];

		if (json_array_append_new(a, json_pack("{s:o, s:o, s:o}", "cpus", str(q->cpus),
						       "irq", num(q->irq),
						       "irq_cpus", str(q->irq_cpus)))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* DLFEAT's read behaviour (setup_dev.dealloc_read): what a block the drive
 * holds no data for reads as; values 3-7 are reserved */
static json_t *dealloc_read(int v)
{
	static const char *const name[] = { "not_reported", "zeros", "ones" };

	return v >= 0 && v < 3 ? json_string(name[v]) : json_null();
}

/* The namespace's LBA format (setup/lbaf.c); null for what is not NVMe.
 * metadata: where a block's metadata goes, "inline" (extended LBA),
 * "separate" (a buffer of its own, the metadata pointer) or "none". */
static json_t *lbaf_json(const struct setup_dev *d)
{
	const char *where = d->lbaf_ms == 0 ? "none" : d->lbaf_ext == 1 ? "inline" :
			    d->lbaf_ext == 0 ? "separate" : NULL;

	if (!d->nvme)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "index", num(d->lbaf_index),
			 "data_bytes", num(d->lbaf_data_bytes), "metadata_bytes", num(d->lbaf_ms),
			 "metadata", str(where), "pi_type", num(d->lbaf_pi_type),
			 "integrity", str(d->integrity));
}

/* dr: the target's drive account (cli/runner/drive.h), NULL none */
static json_t *dev_json(const struct setup_dev *d, const struct cli_drive *dr)
{
	json_t *j = json_pack("{s:s, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o,"
			 " s:{s:o, s:o, s:o, s:o, s:o, s:o, s:o},"
			 " s:o, s:o, s:o, s:o, s:o, s:{s:o, s:o, s:o, s:o}, s:o, s:o}",
			 "name", d->name, "disk", str(d->disk), "nvme", d->nvme,
			 "pci", str(d->pci), "model", str(d->model), "firmware", str(d->firmware),
			 "capacity_bytes", num(d->capacity_bytes),
			 "logical_block_size", num(d->logical_block_size),
			 "numa_node", num(d->numa_node),
			 "queue", "scheduler", str(d->scheduler), "iostats", flag(d->iostats),
			 "nomerges", num(d->nomerges), "wbt_lat_usec", num(d->wbt_lat_usec),
			 "nr_requests", num(d->nr_requests), "io_poll", flag(d->io_poll),
			 "rotational", flag(d->rotational),
			 "iommu_type", str(d->iommu_type),
			 "apst_latency_us", num(d->apst_latency_us),
			 "power_state", num(d->power_state), "apst_enabled", flag(d->apst_enabled),
			 "dealloc_read", dealloc_read(d->dealloc_read),
			 "link", "speed_gts", real(d->link_gts), "width", num(d->link_width),
			 "max_speed_gts", real(d->link_max_gts), "max_width", num(d->link_max_width),
			 "hw_queues", d->nhwq ? queues_json(d) : json_array(),
			 "irq_queues", d->nhwq ? json_integer(d->nirq_queues) : json_null());

	if (j && (json_object_set_new(j, "lba_format", lbaf_json(d)) ||
		  json_object_set_new(j, "zero_read_pct", cli_json_zero_pct(dr)) ||
		  json_object_set_new(j, "critical_warnings", cli_json_warnings_before(dr)))) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/* The facts of setup_dev and the drive account of each target (drs NULL:
 * none). */
static json_t *setup_json(const struct setup_machine *m, const struct setup_dev *devs,
			  const struct cli_drive *const *drs, unsigned ndevs)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < ndevs; i++) {
		if (json_array_append_new(a, dev_json(&devs[i], drs ? drs[i] : NULL))) {
			json_decref(a);
			return NULL;
		}
	}
	if (!a)
		return NULL;
	return json_pack("{s:o, s:o}", "machine", machine_json(m), "devices", a);
}

json_t *cli_json_setup_of(const struct setup_machine *m, const struct setup_dev *devs,
			  unsigned ndevs)
{
	return setup_json(m, devs, NULL, ndevs);
}

/* A target whose settings could not be read: its name, nothing known. */
static void dev_unknown(struct setup_dev *d, const char *path)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", path);
	d->capacity_bytes = d->wbt_lat_usec = d->nr_requests = d->apst_latency_us = -1;
	d->logical_block_size = d->iostats = d->nomerges = d->io_poll = d->rotational = -1;
	d->numa_node = d->link_width = d->link_max_width = -1;
	d->link_gts = d->link_max_gts = -1;
	d->power_state = d->apst_enabled = d->dealloc_read = -1;
	d->lbaf_index = d->lbaf_data_bytes = d->lbaf_ms = d->lbaf_ext = d->lbaf_pi_type = -1;
}

json_t *cli_json_setup(const char *const *paths, unsigned n)
{
	struct setup_machine *m = calloc(1, sizeof(*m));
	struct setup_dev *d = n ? calloc(n, sizeof(*d)) : NULL;
	const struct cli_drive **dr = n ? calloc(n, sizeof(*dr)) : NULL;
	json_t *j = NULL;
	unsigned i;

	if (!m || (n && (!d || !dr)))
		goto out;
	/* only running out of memory stops setup_machine_read: then the
	 * record is missing too */
	if (setup_machine_read(cli_roots(), m))
		goto out;
	for (i = 0; i < n; i++) {
		if (setup_dev_read(cli_roots(), paths[i], &d[i]))
			dev_unknown(&d[i], paths[i]);
		dr[i] = cli_drive_find(paths[i]);
	}
	j = setup_json(m, d, dr, n);
	for (i = 0; i < n; i++)
		setup_dev_free(&d[i]);
out:
	free(dr);
	free(d);
	free(m);
	return j;
}
