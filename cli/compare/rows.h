/* The rows a report offers 'iostorm compare': one per device (and total)
 * of each measurement it holds, keyed by what it measured ("loop0",
 * "total", "QD8 loop0", "loop0 QDn all", "host1: loop0 QDn all"), each
 * with every repeat's value of every metric (cli/report/spread.h). Reports
 * are matched row by row on these keys. */
#ifndef CLI_COMPARE_ROWS_H
#define CLI_COMPARE_ROWS_H

#include <jansson.h>

#include "cli/report/spread.h"

#define CMP_KEY_LEN 160

struct cmp_row {
	char key[CMP_KEY_LEN];
	unsigned n[CLI_NMETRICS];	/* repeats with the metric; 0: none */
	double *v[CLI_NMETRICS];	/* n values each; owned */
	/* a part of the CPU time's split below its tick in some repeat
	 * (docs/cpu.md): no values (n 0), and the most it can be per IO,
	 * ns (0: not known, a report that wrote 0 for it); < 0: not below */
	double below[CLI_NMETRICS];
	/* a percentile of a record without repeats: its own 95% interval
	 * from the report (lat_ns.p99_ci), within its one run; NAN: none or
	 * unbounded */
	double pct_lo[CLI_NMETRICS], pct_hi[CLI_NMETRICS];
};

struct cmp_rows {
	struct cmp_row *r;
	unsigned n, cap;
};

/* The rows of report j (run, nop, latency, sweep, saturate, and
 * iostorm-mpi's run and saturate). 0 or -ENOMEM; a report without rows
 * (plan, topo, check) has none. */
int cmp_rows_of(const json_t *j, struct cmp_rows *rows);
/* An iostorm-mpi report's host h as rows and facts name it: its "name"
 * (unique, saturate), else "host#rank" (run). */
void cmp_host_label(const json_t *h, char *buf, size_t len);
/* The row keyed key, or NULL. */
const struct cmp_row *cmp_row_find(const struct cmp_rows *rows, const char *key);
void cmp_rows_free(struct cmp_rows *rows);
/* A new empty row keyed key at the end of rows; NULL: out of memory. */
struct cmp_row *cmp_row_new(struct cmp_rows *rows, const char *key);
/* rows_slo.c: a --slo report's "slo" object's rows (each device's
 * capacity within the bounds, and saturate's all at once), keys after
 * prefix. 0 or -ENOMEM; nothing where slo is not an object. */
int cmp_rows_slo(const json_t *slo, const char *prefix, struct cmp_rows *rows);

#endif
