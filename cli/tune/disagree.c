/* Where hosts' winners disagree (iostorm-mpi tune, docs/mpi.md): each
 * host tunes its own drives, and a knob whose winning value differs from
 * host to host is named with the hosts of each value. A host whose winner
 * was not shown better than its default (its tune.undecided) is named as
 * such: its value is a guess, not a finding. Reads the hosts' tune
 * objects (docs/json.md, tune.winner.knobs), so that rank 0 needs nothing
 * but what every host sent. */
#include "cli/tune/disagree.h"

#include <string.h>

/* The group of v in a (one {"value", "hosts", "undecided"} each), made
 * where there is none yet. */
static json_t *group_of(json_t *a, const char *v)
{
	json_t *g;
	size_t i;

	json_array_foreach(a, i, g)
		if (!strcmp(json_string_value(json_object_get(g, "value")), v))
			return g;
	g = json_pack("{s:s, s:[], s:[]}", "value", v, "hosts", "undecided");
	if (g && json_array_append_new(a, g))
		return NULL;
	return g;
}

json_t *tune_disagree(const char *const *names, const json_t *const *tunes, size_t n)
{
	json_t *out = json_array(), *knobs, *groups, *g, *val;
	const json_t *first = NULL;
	const char *knob;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < n && !first; i++)
		first = json_object_get(json_object_get(tunes[i], "winner"), "knobs");
	/* the knobs in the order each host writes them (tune_out.c) */
	json_object_foreach((json_t *)first, knob, val) {
		groups = json_array();
		if (!groups)
			goto oom;
		for (i = 0; i < n; i++) {
			knobs = json_object_get(json_object_get(tunes[i], "winner"), "knobs");
			val = json_object_get(knobs, knob);
			if (!json_is_string(val))
				continue;	/* no winner on this host */
			g = group_of(groups, json_string_value(val));
			if (!g || json_array_append_new(json_object_get(g, "hosts"), json_string(names[i])))
				goto oom_g;
			if (!json_is_null(json_object_get(tunes[i], "undecided")) &&
			    json_array_append_new(json_object_get(g, "undecided"), json_string(names[i])))
				goto oom_g;
		}
		if (json_array_size(groups) < 2) {
			json_decref(groups);
			continue;
		}
		if (json_array_append_new(out, json_pack("{s:s, s:o}", "knob", knob, "values", groups)))
			goto oom;
	}
	return out;
oom_g:
	json_decref(groups);
oom:
	json_decref(out);
	return NULL;
}

/* "a, b and c" */
static void names(FILE *f, const json_t *a)
{
	size_t i, n = json_array_size(a);

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ",
			json_string_value(json_array_get(a, i)));
}

void tune_say_disagree(FILE *f, const json_t *d, size_t nhosts)
{
	const json_t *k, *g;
	size_t i, j;

	if (nhosts < 2)
		return;
	if (!json_array_size(d)) {
		fprintf(f, "hosts agree: every host's winner has the same value of every knob\n");
		return;
	}
	fprintf(f, "hosts disagree on %zu knob%s (a job file each, as tuned):\n",
		json_array_size(d), json_array_size(d) == 1 ? "" : "s");
	json_array_foreach(d, i, k) {
		fprintf(f, "  %-16s", json_string_value(json_object_get(k, "knob")));
		json_array_foreach(json_object_get(k, "values"), j, g) {
			fprintf(f, "%s%s on ", j ? "; " : "", json_string_value(json_object_get(g, "value")));
			names(f, json_object_get(g, "hosts"));
			if (json_array_size(json_object_get(g, "undecided"))) {
				fprintf(f, " (not shown better than the default on ");
				names(f, json_object_get(g, "undecided"));
				fprintf(f, ")");
			}
		}
		fprintf(f, "\n");
	}
}
