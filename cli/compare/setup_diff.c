/* Two reports' setups flattened and compared (setup_diff.h). */
#include "cli/compare/setup_diff.h"
#include "cli/compare/rows.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Facts that differ between any two runs of one setup. */
static const char *const volatile_keys[] = { "setup.machine.utc", "config.seed" };

struct fact {
	char *key;
	char *val;		/* compact JSON */
};

struct facts {
	struct fact *f;
	unsigned n, cap;
};

/* key is one of them, alone or after an MPI host's "name: ". */
static bool is_volatile(const char *key)
{
	size_t i, n, k = strlen(key);

	for (i = 0; i < sizeof(volatile_keys) / sizeof(volatile_keys[0]); i++) {
		n = strlen(volatile_keys[i]);
		if (k >= n && !strcmp(key + k - n, volatile_keys[i]) &&
		    (k == n || (k >= n + 2 && !strncmp(key + k - n - 2, ": ", 2))))
			return true;
	}
	return false;
}

static int fact_add(struct facts *fs, const char *key, const json_t *v)
{
	struct fact *p;

	if (is_volatile(key))
		return 0;
	if (fs->n == fs->cap) {
		unsigned cap = fs->cap ? 2 * fs->cap : 64;

		p = realloc(fs->f, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		fs->f = p;
		fs->cap = cap;
	}
	p = &fs->f[fs->n];
	p->key = strdup(key);
	p->val = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
	if (!p->key || !p->val) {
		free(p->key);
		free(p->val);
		return -ENOMEM;
	}
	fs->n++;
	return 0;
}

/* An array whose elements are all objects with a "name": keyed by it. */
static bool named_array(const json_t *a)
{
	const json_t *e;
	size_t i;

	if (!json_array_size(a))
		return false;
	json_array_foreach(a, i, e)
		if (!json_is_string(json_object_get(e, "name")))
			return false;
	return true;
}

static bool has_objects(const json_t *a)
{
	const json_t *e;
	size_t i;

	json_array_foreach(a, i, e)
		if (json_is_object(e) || json_is_array(e))
			return true;
	return false;
}

static int flatten(struct facts *fs, const char *key, const json_t *v)
{
	char sub[512];
	const char *k;
	json_t *e;
	size_t i;
	int rc = 0;

	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, e) {
			snprintf(sub, sizeof(sub), "%s.%s", key, k);
			if ((rc = flatten(fs, sub, e)))
				break;
		}
		return rc;
	}
	if (!json_is_array(v) || !has_objects(v))
		return fact_add(fs, key, v);
	json_array_foreach(v, i, e) {
		if (named_array(v))
			snprintf(sub, sizeof(sub), "%s[%s]", key,
				 json_string_value(json_object_get(e, "name")));
		else
			snprintf(sub, sizeof(sub), "%s[%zu]", key, i);
		if ((rc = flatten(fs, sub, e)))
			break;
	}
	return rc;
}

/* Where each device's workers ran (run, latency): its CPUs. */
static int placement(struct facts *fs, const char *prefix, const json_t *r)
{
	char key[512];
	const json_t *d;
	size_t i;
	int rc = 0;

	json_array_foreach(json_object_get(r, "devices"), i, d) {
		if (!json_object_get(d, "cpus"))
			continue;
		snprintf(key, sizeof(key), "%splacement[%s].cpus", prefix,
			 json_string_value(json_object_get(d, "name")));
		if ((rc = fact_add(fs, key, json_object_get(d, "cpus"))))
			break;
	}
	return rc;
}

/* What each device's drive said moved during the run (run, latency,
 * saturate): a side that throttled, or saw errors, is not the same setup. */
static int drive_moved(struct facts *fs, const char *prefix, const json_t *r)
{
	char key[512];
	const json_t *d, *c;
	size_t i;
	int rc = 0;

	json_array_foreach(json_object_get(r, "devices"), i, d) {
		c = json_object_get(json_object_get(d, "drive"), "smart_change");
		if (!json_is_object(c) || !json_is_string(json_object_get(d, "name")))
			continue;
		snprintf(key, sizeof(key), "%sdrive[%s].smart_change", prefix,
			 json_string_value(json_object_get(d, "name")));
		if ((rc = flatten(fs, key, c)))
			break;
	}
	return rc;
}

/* A noise figure (percent) as a level: the sides of a comparison differ
 * in what the machine was doing only where the level does, not by a
 * point or two of /proc/stat's ticks. NULL: unknown. */
static const char *noise_level(const json_t *v)
{
	double p;

	if (!json_is_number(v))
		return NULL;
	p = json_number_value(v);
	return p < CLI_NOISE_SAY_PCT ? "under 5%" : p < 25 ? "5% to 25%" : "25% or more";
}

/* What else the machine did on each device's workers' CPUs (run,
 * latency: cpu.noise): a side measured beside other processes, or
 * waiting for its CPUs, is not the same setup as a quiet one. */
static int noise_moved(struct facts *fs, const char *prefix, const json_t *r)
{
	static const char *const figs[][2] = {
		{ "other_cpu_pct", "other_cpu" }, { "steal_pct", "steal" },
		{ "run_delay_pct", "run_delay" },
	};
	char key[512];
	const json_t *d, *n;
	const char *lv;
	json_t *s;
	size_t i, k;
	int rc = 0;

	json_array_foreach(json_object_get(r, "devices"), i, d) {
		n = json_object_get(json_object_get(d, "cpu"), "noise");
		if (!json_is_object(n) || !json_is_string(json_object_get(d, "name")))
			continue;
		for (k = 0; !rc && k < sizeof(figs) / sizeof(figs[0]); k++) {
			if (!(lv = noise_level(json_object_get(n, figs[k][0]))))
				continue;
			snprintf(key, sizeof(key), "%snoise[%s].%s", prefix,
				 json_string_value(json_object_get(d, "name")), figs[k][1]);
			s = json_string(lv);
			rc = s ? fact_add(fs, key, s) : -ENOMEM;
			json_decref(s);
		}
		if (rc)
			break;
	}
	return rc;
}

static int facts_of_one(struct facts *fs, const char *prefix, const json_t *r)
{
	char key[128];
	int rc;

	snprintf(key, sizeof(key), "%sconfig", prefix);
	rc = json_object_get(r, "config") ? flatten(fs, key, json_object_get(r, "config")) : 0;
	snprintf(key, sizeof(key), "%ssetup", prefix);
	if (!rc && json_object_get(r, "setup"))
		rc = flatten(fs, key, json_object_get(r, "setup"));
	if (!rc)
		rc = drive_moved(fs, prefix, r);
	if (!rc)
		rc = noise_moved(fs, prefix, r);
	return rc ? rc : placement(fs, prefix, r);
}

static int cmp_fact(const void *a, const void *b)
{
	return strcmp(((const struct fact *)a)->key, ((const struct fact *)b)->key);
}

/* A report's facts, sorted; an iostorm-mpi report's per host. */
static int facts_of(struct facts *fs, const json_t *r)
{
	const char *cmd = json_string_value(json_object_get(r, "command"));
	char prefix[96], label[80];
	const json_t *h;
	size_t i;
	int rc = 0;

	memset(fs, 0, sizeof(*fs));
	if (!json_object_get(r, "mpi")) {
		rc = facts_of_one(fs, "", r);
	} else {
		rc = flatten(fs, "config", json_object_get(r, "config"));
		json_array_foreach(json_object_get(r, "hosts"), i, h) {
			if (rc)
				break;
			cmp_host_label(h, label, sizeof(label));
			snprintf(prefix, sizeof(prefix), "%s: ", label);
			rc = facts_of_one(fs, prefix, json_object_get(h, cmd ? cmd : ""));
		}
	}
	if (!rc && fs->n)
		qsort(fs->f, fs->n, sizeof(*fs->f), cmp_fact);
	return rc;
}

static void facts_free(struct facts *fs)
{
	unsigned i;

	for (i = 0; i < fs->n; i++) {
		free(fs->f[i].key);
		free(fs->f[i].val);
	}
	free(fs->f);
}

static int change_add(struct cmp_changes *out, unsigned *cap, const char *key,
		      const char *base, const char *next)
{
	struct cmp_change *p;

	if (out->n == *cap) {
		unsigned c = *cap ? 2 * *cap : 16;

		p = realloc(out->c, c * sizeof(*p));
		if (!p)
			return -ENOMEM;
		out->c = p;
		*cap = c;
	}
	p = &out->c[out->n];
	p->key = strdup(key);
	p->base = base ? strdup(base) : NULL;
	p->next = next ? strdup(next) : NULL;
	if (!p->key || (base && !p->base) || (next && !p->next)) {
		free(p->key);
		free(p->base);
		free(p->next);
		return -ENOMEM;
	}
	out->n++;
	return 0;
}

int cmp_setup_diff(const json_t *base, const json_t *next, struct cmp_changes *out)
{
	struct facts a, b;
	unsigned i = 0, k = 0, cap = 0;
	int rc, c;

	memset(out, 0, sizeof(*out));
	rc = facts_of(&a, base);
	if (!rc)
		rc = facts_of(&b, next);
	else
		memset(&b, 0, sizeof(b));
	while (!rc && (i < a.n || k < b.n)) {
		c = i == a.n ? 1 : k == b.n ? -1 : strcmp(a.f[i].key, b.f[k].key);
		if (c < 0) {
			rc = change_add(out, &cap, a.f[i].key, a.f[i].val, NULL);
			i++;
		} else if (c > 0) {
			rc = change_add(out, &cap, b.f[k].key, NULL, b.f[k].val);
			k++;
		} else {
			if (strcmp(a.f[i].val, b.f[k].val))
				rc = change_add(out, &cap, a.f[i].key, a.f[i].val, b.f[k].val);
			i++;
			k++;
		}
	}
	facts_free(&a);
	facts_free(&b);
	if (rc)
		cmp_changes_free(out);
	return rc;
}

void cmp_changes_free(struct cmp_changes *c)
{
	unsigned i;

	for (i = 0; i < c->n; i++) {
		free(c->c[i].key);
		free(c->c[i].base);
		free(c->c[i].next);
	}
	free(c->c);
	memset(c, 0, sizeof(*c));
}
