/* A saturate report (cli/saturate/sat_json.c writes it, docs/json.md) read back for
 * plan: each device's measured solo QDn IOPS, and per node the IOs per
 * CPU-second of its devices' workers in those steps (a polled worker is
 * busy all the time, and its figure says so). */
#include "cli/plan/plan_from.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

struct node_sum {
	unsigned node;
	double ios, cpu_s;
};

static int fail(char *err, size_t errlen, int ret, const char *msg)
{
	snprintf(err, errlen, "%s", msg);
	return ret;
}

static double num(const json_t *j)
{
	return json_is_number(j) ? json_number_value(j) : -1;
}

/* The device's CPU-seconds in its solo QDn step into sums, by its node
 * (only a device local to one node counts). */
static int add_cpu(const json_t *dev, const json_t *solo, double jobs, struct node_sum **sums,
		   unsigned *n)
{
	const json_t *nodes = json_object_get(dev, "numa_nodes");
	double ios = num(json_object_get(solo, "ios")), pct = num(json_object_get(solo, "cpu_pct"));
	double el = num(json_object_get(solo, "elapsed_s")), cpu_s = pct / 100 * el * jobs;
	unsigned node, k;
	struct node_sum *a;

	if (!json_is_array(nodes) || json_array_size(nodes) != 1 ||
	    !json_is_integer(json_array_get(nodes, 0)) || !(ios > 0) || !(cpu_s > 0))
		return 0;
	node = (unsigned)json_integer_value(json_array_get(nodes, 0));
	for (k = 0; k < *n && (*sums)[k].node != node; k++)
		;
	if (k == *n) {
		a = realloc(*sums, (*n + 1) * sizeof(*a));
		if (!a)
			return -ENOMEM;
		*sums = a;
		memset(&a[(*n)++], 0, sizeof(*a));
		a[k].node = node;
	}
	(*sums)[k].ios += ios;
	(*sums)[k].cpu_s += cpu_s;
	return 0;
}

static int read_devices(const json_t *devs, double jobs, struct cli_plan_from *f,
			struct node_sum **sums, unsigned *nsums)
{
	size_t i;
	int ret;

	f->rates = calloc(json_array_size(devs) + 1, sizeof(*f->rates));
	if (!f->rates)
		return -ENOMEM;
	for (i = 0; i < json_array_size(devs); i++) {
		const json_t *d = json_array_get(devs, i);
		const json_t *solo = json_object_get(json_object_get(d, "qdn"), "solo");
		const char *name = json_string_value(json_object_get(d, "name"));
		double iops = num(json_object_get(solo, "iops"));

		/* a step that did not run, or a device that failed: no rate */
		if (!name || !(iops > 0) || json_is_string(json_object_get(d, "failed")))
			continue;
		snprintf(f->rates[f->nrates].name, sizeof(f->rates[f->nrates].name), "%s", name);
		f->rates[f->nrates++].iops = iops;
		ret = add_cpu(d, solo, jobs, sums, nsums);
		if (ret)
			return ret;
	}
	return 0;
}

/* ceiling.memory: [{node, bytes_s}], each node saturate measured; none
 * in an older report or one without a ceiling. 0 or -ENOMEM. */
static int read_memory(const json_t *mem, struct cli_plan_from *f)
{
	const json_t *e;
	size_t i;

	if (!json_is_array(mem) || !json_array_size(mem))
		return 0;
	f->mems = calloc(json_array_size(mem), sizeof(*f->mems));
	if (!f->mems)
		return -ENOMEM;
	json_array_foreach(mem, i, e) {
		double node = num(json_object_get(e, "node")), bw = num(json_object_get(e, "bytes_s"));

		if (!(node >= 0) || !(bw > 0))
			continue;
		f->mems[f->nmems].node = (unsigned)node;
		f->mems[f->nmems++].bytes_s = bw;
	}
	return 0;
}

int cli_plan_from_read(const char *path, struct cli_plan_from *f, char *err, size_t errlen)
{
	struct node_sum *sums = NULL;
	unsigned nsums = 0, k;
	const json_t *devs, *cfg;
	json_error_t je;
	json_t *j = NULL;
	double jobs, smt;
	FILE *fp;
	int ret;

	memset(f, 0, sizeof(*f));
	fp = fopen(path, "re");
	if (!fp)
		return fail(err, errlen, -errno, strerror(errno));
	j = json_loadf(fp, 0, &je);
	ret = ferror(fp) ? -EIO : 0;
	fclose(fp);
	if (ret || !j) {
		snprintf(err, errlen, "not JSON (line %d: %s)", je.line, je.text);
		json_decref(j);
		return ret ? ret : -EINVAL;
	}
	ret = -EINVAL;
	devs = json_object_get(j, "devices");
	cfg = json_object_get(j, "config");
	if (!json_is_string(json_object_get(j, "command")) ||
	    strcmp(json_string_value(json_object_get(j, "command")), "saturate") ||
	    !json_is_array(devs)) {
		fail(err, errlen, 0, "not a saturate report (iostorm saturate --json FILE "
		     "writes one)");
		goto out;
	}
	if (json_is_integer(json_object_get(cfg, "bs")) &&
	    json_integer_value(json_object_get(cfg, "bs")) > 0)
		f->bs = (unsigned)json_integer_value(json_object_get(cfg, "bs"));
	jobs = num(json_object_get(cfg, "jobs_per_device"));
	ret = read_devices(devs, jobs > 0 ? jobs : 1, f, &sums, &nsums);
	if (ret) {
		fail(err, errlen, 0, "out of memory");
		goto out;
	}
	if (!f->nrates) {
		ret = fail(err, errlen, -EINVAL, "no device has a solo QDn IOPS figure "
			   "(every step alone failed or did not run)");
		goto out;
	}
	f->cpus = calloc(nsums + 1, sizeof(*f->cpus));
	if (!f->cpus) {
		ret = fail(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	smt = num(json_object_get(json_object_get(j, "smt"), "ratio"));
	for (k = 0; k < nsums; k++) {
		f->cpus[k].node = sums[k].node;
		f->cpus[k].ios_per_cpu_s = sums[k].ios / sums[k].cpu_s;
		f->cpus[k].smt = smt > 1 ? smt : 1;	/* unmeasured: adds nothing */
	}
	f->ncpus = nsums;
	ret = read_memory(json_object_get(json_object_get(j, "ceiling"), "memory"), f) ?
		fail(err, errlen, -ENOMEM, "out of memory") : 0;
out:
	free(sums);
	json_decref(j);
	return ret;
}

void cli_plan_from_free(struct cli_plan_from *f)
{
	free(f->rates);
	free(f->cpus);
	free(f->mems);
	memset(f, 0, sizeof(*f));
}
