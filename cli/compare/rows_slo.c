/* The rows a --slo search offers compare (docs/compare.md): each
 * device's capacity within the bounds, one value per search (--repeat
 * runs the search again, so its capacities are the repeats the test
 * reads), under the IOPS metric since more is better as with IOPS; and
 * saturate's capacity all at once. The key names the bounds, so reports
 * searched against other bounds do not match. */
#include "cli/compare/rows.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "capacity within p99 <= 500000 ns, p99.9 <= 2000000 ns" */
static void bounds_key(const json_t *slo, char *buf, size_t len)
{
	const json_t *b;
	size_t i, at;

	at = (size_t)snprintf(buf, len, "capacity within");
	json_array_foreach(json_object_get(slo, "bounds"), i, b) {
		if (at >= len)
			break;
		at += (size_t)snprintf(buf + at, len - at, "%s %s <= %lld ns", i ? "," : "",
				       json_string_value(json_object_get(b, "percentile")) ?
				       json_string_value(json_object_get(b, "percentile")) : "?",
				       (long long)json_integer_value(json_object_get(b, "ns")));
	}
}

/* A row of the numbers of vals that are numbers (a search that found no
 * capacity has none to compare); none: no row. */
static int add_values(struct cmp_rows *rows, const char *key, const json_t *vals)
{
	size_t i, n = 0;
	struct cmp_row *row;
	const json_t *v;
	double *x;

	x = malloc((json_array_size(vals) ? json_array_size(vals) : 1) * sizeof(*x));
	if (!x)
		return -ENOMEM;
	json_array_foreach(vals, i, v)
		if (json_is_number(v))
			x[n++] = json_number_value(v);
	if (!n || !(row = cmp_row_new(rows, key))) {
		free(x);
		return n ? -ENOMEM : 0;
	}
	row->v[CLI_M_IOPS] = x;
	row->n[CLI_M_IOPS] = (unsigned)n;
	return 0;
}

int cmp_rows_slo(const json_t *slo, const char *prefix, struct cmp_rows *rows)
{
	char bk[CMP_KEY_LEN / 2], key[CMP_KEY_LEN];
	const json_t *d, *tog = json_object_get(slo, "together");
	json_t *one;
	const char *name;
	size_t i;
	int rc = 0;

	if (!json_is_object(slo))
		return 0;
	bounds_key(slo, bk, sizeof(bk));
	json_array_foreach(json_object_get(slo, "devices"), i, d) {
		name = json_string_value(json_object_get(d, "name"));
		snprintf(key, sizeof(key), "%s%s %s", prefix, name ? name : "(no name)", bk);
		rc = add_values(rows, key, json_object_get(d, "capacities"));
		if (rc)
			return rc;
	}
	if (!json_is_object(tog))
		return 0;
	snprintf(key, sizeof(key), "%sall at once %s", prefix, bk);
	one = json_pack("[o]", json_incref(json_object_get(tog, "capacity_iops")));
	if (!one)
		return -ENOMEM;
	rc = add_values(rows, key, one);
	json_decref(one);
	return rc;
}
