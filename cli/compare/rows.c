/* A report's rows for compare (rows.h). Each device record of a report
 * carries `repeats` (docs/json.md): its runs[] hold one value per repeat
 * and metric. A record written before --repeat existed has its own
 * figures only: one repeat. */
#include "cli/compare/rows.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const sat_step_key[][2] = {
	{ "qd1", "solo" }, { "qdn", "solo" }, { "qd1", "all" }, { "qdn", "all" },
	{ "qdn", "remote" },
};
static const char *const sat_step_name[] = {
	"QD1 alone", "QDn alone", "QD1 all", "QDn all", "QDn remote",
};
#define NSTEPS (sizeof(sat_step_name) / sizeof(sat_step_name[0]))

struct cmp_row *cmp_row_new(struct cmp_rows *rows, const char *key)
{
	struct cmp_row *p;

	if (rows->n == rows->cap) {
		unsigned cap = rows->cap ? 2 * rows->cap : 16;

		p = realloc(rows->r, cap * sizeof(*p));
		if (!p)
			return NULL;
		rows->r = p;
		rows->cap = cap;
	}
	p = &rows->r[rows->n++];
	memset(p, 0, sizeof(*p));
	for (unsigned m = 0; m < CLI_NMETRICS; m++) {
		p->below[m] = -1;
		p->pct_lo[m] = p->pct_hi[m] = NAN;
	}
	snprintf(p->key, sizeof(p->key), "%s", key);
	return p;
}

const struct cmp_row *cmp_row_find(const struct cmp_rows *rows, const char *key)
{
	unsigned i;

	for (i = 0; i < rows->n; i++)
		if (!strcmp(rows->r[i].key, key))
			return &rows->r[i];
	return NULL;
}

static struct cmp_row *row_find_mut(struct cmp_rows *rows, const char *key)
{
	return (struct cmp_row *)cmp_row_find(rows, key);
}

static bool split_metric(unsigned m)
{
	return m == CLI_M_CPU_USER || m == CLI_M_CPU_SYS;
}

/* Metric m of record rec below its resolution, where it is a part of the
 * CPU time's split: a value that is null beside a known tick, or 0 (a
 * report from before the tick was stated wrote one: no IO costs no CPU).
 * The bound: one tick per IO of an average repeat. */
static void mark_below(struct cmp_row *row, const json_t *rec, unsigned m, size_t nruns,
		       bool null_seen, bool zero_seen)
{
	const json_t *cpu = json_object_get(rec, "cpu");
	double tick = json_number_value(json_object_get(cpu, "tick_s"));
	double ios = json_number_value(json_object_get(cpu, "ios"));

	if (!split_metric(m) || (!zero_seen && !(null_seen && tick > 0 && ios > 0)))
		return;
	free(row->v[m]);
	row->v[m] = NULL;
	row->n[m] = 0;
	row->below[m] = tick > 0 && ios > 0 ? 1e9 * tick * (double)(nruns ? nruns : 1) / ios : 0;
}

/* A percentile's own interval beside it (lat_ns.p99_ci: docs/json.md,
 * Intervals), where the report has one. */
static void pct_ci_of(struct cmp_row *row, const json_t *obj, unsigned m)
{
	char key[64];
	const json_t *ci;

	if (!cli_metrics[m].obj)
		return;
	snprintf(key, sizeof(key), "%s_ci", cli_metrics[m].field);
	ci = json_object_get(obj, key);
	if (!json_is_array(ci))
		return;
	if (json_is_number(json_array_get(ci, 0)))
		row->pct_lo[m] = json_number_value(json_array_get(ci, 0));
	if (json_is_number(json_array_get(ci, 1)))
		row->pct_hi[m] = json_number_value(json_array_get(ci, 1));
}

/* Metric m of every run, or none where a run lacks it. */
static int metric_of_runs(struct cmp_row *row, const json_t *rec, const json_t *runs,
			  unsigned m)
{
	size_t i, n = json_array_size(runs);
	bool null_seen = false, zero_seen = false;
	const json_t *v;

	if (!n)
		return 0;
	row->v[m] = malloc(n * sizeof(double));
	if (!row->v[m])
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		v = json_object_get(json_array_get(runs, i), cli_metrics[m].key);
		null_seen |= json_is_null(v);
		if (!json_is_number(v)) {
			free(row->v[m]);
			row->v[m] = NULL;
			mark_below(row, rec, m, n, null_seen, false);
			return 0;
		}
		row->v[m][i] = json_number_value(v);
		zero_seen |= row->v[m][i] == 0;
	}
	row->n[m] = (unsigned)n;
	mark_below(row, rec, m, n, false, zero_seen);
	/* one repeat: the record's own percentile is that repeat's */
	if (n == 1)
		pct_ci_of(row, cli_metrics[m].obj ? json_object_get(rec, cli_metrics[m].obj) : rec, m);
	return 0;
}

/* The one value of a record without repeats: its own figure. */
static int metric_of_record(struct cmp_row *row, const json_t *rec, unsigned m)
{
	const json_t *v = cli_metric_of_record(rec, (enum cli_metric)m);
	const json_t *obj = cli_metrics[m].obj ? json_object_get(rec, cli_metrics[m].obj) : rec;

	if (!v) {
		mark_below(row, rec, m, 1,
			   json_is_null(json_object_get(obj, cli_metrics[m].field)), false);
		return 0;
	}
	row->v[m] = malloc(sizeof(double));
	if (!row->v[m])
		return -ENOMEM;
	row->v[m][0] = json_number_value(v);
	row->n[m] = 1;
	mark_below(row, rec, m, 1, false, row->v[m][0] == 0);
	pct_ci_of(row, obj, m);
	return 0;
}

/* A row for record rec (a device's or a total's figures) under key; two
 * devices of one name (files of one base name in two folders) are
 * "name" and "name (2)", in the report's order. */
static int add_record(struct cmp_rows *rows, const char *key, const json_t *rec)
{
	const json_t *runs = json_object_get(json_object_get(rec, "repeats"), "runs");
	char uniq[CMP_KEY_LEN + 16];
	struct cmp_row *row;
	unsigned m, k;
	int rc = 0;

	if (!json_is_object(rec))
		return 0;
	snprintf(uniq, sizeof(uniq), "%s", key);
	for (k = 2; row_find_mut(rows, uniq); k++)
		snprintf(uniq, sizeof(uniq), "%.*s (%u)", CMP_KEY_LEN - 16, key, k);
	row = cmp_row_new(rows, uniq);
	if (!row)
		return -ENOMEM;
	for (m = 0; m < CLI_NMETRICS && !rc; m++)
		rc = json_is_array(runs) ? metric_of_runs(row, rec, runs, m) :
			metric_of_record(row, rec, m);
	return rc;
}

/* Repeat by repeat IOPS of rec added into the row key (devices measured
 * at once add up to the total of that step); a row whose parts disagree
 * on the repeats has none. */
static int add_sum(struct cmp_rows *rows, const char *key, const json_t *rec)
{
	struct cmp_row part, *row;
	unsigned i;
	int rc;

	if (!json_is_object(rec))
		return 0;
	memset(&part, 0, sizeof(part));
	rc = add_record(&(struct cmp_rows){ &part, 0, 1 }, key, rec);
	row = row_find_mut(rows, key);
	if (!rc && !row && (row = cmp_row_new(rows, key))) {
		row->v[CLI_M_IOPS] = part.v[CLI_M_IOPS];
		row->n[CLI_M_IOPS] = part.n[CLI_M_IOPS];
		part.v[CLI_M_IOPS] = NULL;
	} else if (!rc && row && row->n[CLI_M_IOPS] == part.n[CLI_M_IOPS]) {
		for (i = 0; i < part.n[CLI_M_IOPS]; i++)
			row->v[CLI_M_IOPS][i] += part.v[CLI_M_IOPS][i];
	} else if (!rc && row) {
		row->n[CLI_M_IOPS] = 0;
	} else if (!rc) {
		rc = -ENOMEM;
	}
	for (i = 0; i < CLI_NMETRICS; i++)
		free(part.v[i]);
	return rc;
}

/* A record's device name; a report that lacks one (hand-made, or cut)
 * still gets a row, under a name no device has, not printf's "(null)"
 * (NULL to %s is undefined). */
static const char *dev_name(const json_t *d)
{
	const char *name = json_string_value(json_object_get(d, "name"));

	return name ? name : "(no name)";
}

static void keyf(char *buf, size_t len, const char *prefix, const char *a, const char *b)
{
	snprintf(buf, len, "%s%s%s%s", prefix, a, b ? " " : "", b ? b : "");
}

/* run, nop, latency: a row per device and the total. */
static int rows_run(const json_t *j, const char *prefix, struct cmp_rows *rows,
		    const char *sum_key)
{
	char key[CMP_KEY_LEN];
	const json_t *d;
	size_t i;
	int rc = 0;

	json_array_foreach(json_object_get(j, "devices"), i, d) {
		keyf(key, sizeof(key), prefix, dev_name(d), NULL);
		rc = add_record(rows, key, d);
		if (rc)
			return rc;
	}
	/* one device's total is that device */
	keyf(key, sizeof(key), prefix, "total", NULL);
	if (json_array_size(json_object_get(j, "devices")) > 1)
		rc = add_record(rows, key, json_object_get(j, "total"));
	if (!rc && sum_key)
		rc = add_sum(rows, sum_key, json_object_get(j, "total"));
	return rc;
}

/* sweep: a row per depth (all targets) and per target at each depth. */
static int rows_sweep(const json_t *j, const char *prefix, struct cmp_rows *rows)
{
	char key[CMP_KEY_LEN], qd[32];
	const json_t *p, *d;
	size_t i, k;
	int rc = 0;

	json_array_foreach(json_object_get(j, "points"), i, p) {
		snprintf(qd, sizeof(qd), "QD%lld",
			 (long long)json_integer_value(json_object_get(p, "qd")));
		keyf(key, sizeof(key), prefix, qd, "total");
		rc = add_record(rows, key, p);
		json_array_foreach(json_object_get(p, "by_device"), k, d) {
			if (rc)
				return rc;
			keyf(key, sizeof(key), prefix, qd, dev_name(d));
			rc = add_record(rows, key, d);
		}
		if (rc)
			return rc;
	}
	return rc;
}

/* saturate: a row per device and step; the steps with every device at
 * once add up to a total row (and, across hosts, to a cluster row), after
 * the devices'. */
static int rows_saturate(const json_t *j, const char *prefix, struct cmp_rows *rows,
			 const char *cluster)
{
	char key[CMP_KEY_LEN];
	const json_t *d, *rec;
	size_t i, s;
	int rc = 0;

	for (s = 0; s < NSTEPS; s++)
		json_array_foreach(json_object_get(j, "devices"), i, d) {
			if (rc)
				return rc;
			rec = json_object_get(json_object_get(d, sat_step_key[s][0]),
					      sat_step_key[s][1]);
			keyf(key, sizeof(key), prefix, dev_name(d),
			     sat_step_name[s]);
			rc = add_record(rows, key, rec);
		}
	for (s = 0; s < NSTEPS && !rc; s++) {
		if (strcmp(sat_step_key[s][1], "all"))
			continue;
		json_array_foreach(json_object_get(j, "devices"), i, d) {
			rec = json_object_get(json_object_get(d, sat_step_key[s][0]),
					      sat_step_key[s][1]);
			keyf(key, sizeof(key), prefix, "total", sat_step_name[s]);
			rc = add_sum(rows, key, rec);
			if (!rc && cluster) {
				keyf(key, sizeof(key), "", cluster, sat_step_name[s]);
				rc = add_sum(rows, key, rec);
			}
			if (rc)
				return rc;
		}
	}
	return rc;
}

static int rows_one(const json_t *j, const char *prefix, struct cmp_rows *rows,
		    const char *cluster)
{
	const char *cmd = json_string_value(json_object_get(j, "command"));
	int rc;

	if (!cmd)
		return 0;
	if (!strcmp(cmd, "run") || !strcmp(cmd, "nop") || !strcmp(cmd, "latency"))
		return rows_run(j, prefix, rows, cluster ? "cluster total" : NULL);
	if (!strcmp(cmd, "sweep"))
		rc = rows_sweep(j, prefix, rows);
	else if (!strcmp(cmd, "saturate"))
		rc = rows_saturate(j, prefix, rows, cluster);
	else
		return 0;
	/* --slo: the capacities at the target */
	return rc ? rc : cmp_rows_slo(json_object_get(j, "slo"), prefix, rows);
	return 0;
}

void cmp_host_label(const json_t *h, char *buf, size_t len)
{
	const char *name = json_string_value(json_object_get(h, "name"));
	const char *host = json_string_value(json_object_get(h, "host"));

	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s#%lld", host ? host : "?",
			 (long long)json_integer_value(json_object_get(h, "rank")));
}

/* iostorm-mpi: each host's own report under "host: ", and the cluster's
 * sums of the steps every host ran at once. */
static int rows_mpi(const json_t *j, struct cmp_rows *rows)
{
	const char *cmd = json_string_value(json_object_get(j, "command"));
	char prefix[96], label[80];
	const json_t *h;
	size_t i;
	int rc = 0;

	json_array_foreach(json_object_get(j, "hosts"), i, h) {
		cmp_host_label(h, label, sizeof(label));
		snprintf(prefix, sizeof(prefix), "%s: ", label);
		rc = rows_one(json_object_get(h, cmd ? cmd : ""), prefix, rows, "cluster");
		if (rc)
			return rc;
	}
	return rc;
}

int cmp_rows_of(const json_t *j, struct cmp_rows *rows)
{
	memset(rows, 0, sizeof(*rows));
	if (json_object_get(j, "mpi"))
		return rows_mpi(j, rows);
	return rows_one(j, "", rows, NULL);
}

void cmp_rows_free(struct cmp_rows *rows)
{
	unsigned i, m;

	for (i = 0; i < rows->n; i++)
		for (m = 0; m < CLI_NMETRICS; m++)
			free(rows->r[i].v[m]);
	free(rows->r);
	memset(rows, 0, sizeof(*rows));
}
