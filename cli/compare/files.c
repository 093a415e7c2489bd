/* compare's operands as report files (files.h). */
#include "cli/compare/files.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/report/out.h"
#include "cli/report/report_load.h"

/* A '--' between operands, told apart from a file by its address: it
 * separates one side's runs from the next side's. getopt takes it for a
 * file (it is not "--", which would end the options and be dropped). */
static char side_sep[] = "";

/* The commands whose reports hold rows to compare. */
static const char *const comparable[] = { "run", "nop", "latency", "sweep", "saturate", NULL };

/* --ab before the first '--', where compare's own options end: then the
 * operands are two command lines, and their '--' is theirs. */
static bool ab_given(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--ab") || !strncmp(argv[i], "--ab=", 5))
			return true;
	return false;
}

/* argv with every '--' after the verb made side_sep, in args (argc + 1);
 * with --ab, argv as it is. */
void cmp_files_mark(int argc, char **argv, char **args)
{
	bool ab = ab_given(argc, argv);
	int i;

	for (i = 0; i < argc; i++)
		args[i] = i && !ab && !strcmp(argv[i], "--") ? side_sep : argv[i];
	args[argc] = NULL;
}

bool cmp_is_comparable(const char *cmd)
{
	size_t i;

	for (i = 0; comparable[i]; i++)
		if (!strcmp(cmd, comparable[i]))
			return true;
	return false;
}

/* The config values compare reads, all integers as reports write them:
 * each report's are checked once, when it is loaded (check_config), so
 * that a wrong type is named there and config_num finds an integer or
 * nothing. */
static const char *const config_keys[] = { "bs", "qd", "ios", "rate" };

static int check_config(const char *file, const json_t *r)
{
	long long v;
	size_t k;

	for (k = 0; k < sizeof(config_keys) / sizeof(config_keys[0]); k++)
		if (cli_report_int(file, json_object_get(r, "config"), "config", config_keys[k],
				   &v) == -EINVAL)
			return -EINVAL;
	return 0;
}

/* config.key of report r (one of config_keys), -1 when r records none */
static long long config_num(const json_t *r, const char *key)
{
	long long v;

	return cli_report_int(NULL, json_object_get(r, "config"), "config", key, &v) ? -1 : v;
}

/* "ran at --qd 32", or "records no --qd" for a report without it */
static const char *ran_at(char *buf, size_t len, const json_t *r, const char *key)
{
	long long v;

	if (cli_report_int(NULL, json_object_get(r, "config"), "config", key, &v))
		snprintf(buf, len, "records no --%s", key);
	else
		snprintf(buf, len, "ran at --%s %lld", key, v);
	return buf;
}

/* How report r bounded its repeats: by IOs (--ios), and whether --rate
 * held its IOs (a sweep by load too). */
struct cmp_bound cmp_bound_of(const json_t *r)
{
	const char *by = json_string_value(json_object_get(r, "by"));

	return (struct cmp_bound){
		.by_ios = config_num(r, "ios") > 0,
		.open_loop = config_num(r, "rate") > 0 || (by && !strcmp(by, "rate")),
	};
}

/* Reports that measured different things are refused, unless --force;
 * report i against the first, f. */
static int check_alike(const struct cli_opts *o, const char *const *file, json_t *const *r,
		       const char *const *cmd, unsigned f, unsigned i)
{
	static const char *const keys[] = { "bs", "qd" };
	struct cmp_bound bf = cmp_bound_of(r[f]), bi = cmp_bound_of(r[i]);
	char a[48], b[48];
	size_t k;

	if (o->force)
		return 0;
	if (strcmp(cmd[i], cmd[f])) {
		cli_say("%s is a %s report, %s a %s report: they measure different things "
			"(--force compares the rows they share)", file[i], cmd[i], file[f], cmd[f]);
		return -EINVAL;
	}
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		if (config_num(r[i], keys[k]) == config_num(r[f], keys[k]))
			continue;
		cli_say("%s %s, %s %s: comparing them is meaningless (--force compares them "
			"anyway)", file[i], ran_at(a, sizeof(a), r[i], keys[k]),
			file[f], ran_at(b, sizeof(b), r[f], keys[k]));
		return -EINVAL;
	}
	if (bf.by_ios != bi.by_ios || bf.open_loop != bi.open_loop) {
		cli_say("%s bounded its repeats by %s, %s by %s: their figures pool differently "
			"(--force compares them with %s's estimators)", file[i], cmp_bound_name(bi),
			file[f], cmp_bound_name(bf), file[f]);
		return -EINVAL;
	}
	return 0;
}

/* Every report, checked against the first. r[i] and cmd[i] stay NULL for
 * a '--'. */
int cmp_files_load(const struct cli_opts *o, json_t **r, const char **cmd)
{
	const char *const *file = (const char *const *)o->targets;
	unsigned i, first = o->ntargets;
	int rc = 0;

	for (i = 0; i < o->ntargets && !rc; i++) {
		if (file[i] == side_sep)
			continue;
		rc = cli_report_load(file[i], &r[i], &cmd[i]);
		if (!rc)
			rc = check_config(file[i], r[i]);
		if (!rc && !cmp_is_comparable(cmd[i])) {
			cli_say("%s: a report of '%s', which holds nothing to compare (compare takes "
				"run, nop, latency, sweep and saturate reports, iostorm-mpi's too)",
				file[i], cmd[i]);
			rc = -EINVAL;
		}
		if (first == o->ntargets)
			first = i;
		if (!rc)
			rc = check_alike(o, file, r, cmd, first, i);
	}
	return rc;
}

/* The operands as sides: without '--' each report is a side of one run;
 * with it, the runs between two '--' are one side. The first side is the
 * base. 0, or -EINVAL said. */
int cmp_files_split(const struct cli_opts *o, unsigned *start, unsigned *len, unsigned *nsides)
{
	unsigned i, n = 0, files = 0;
	bool grouped = false;

	for (i = 0; i < o->ntargets; i++)
		grouped |= o->targets[i] == side_sep;
	for (i = 0; i < o->ntargets; i++) {
		if (o->targets[i] == side_sep) {
			if (!n || !len[n - 1] || i + 1 == o->ntargets) {
				cli_say("a '--' with no report on one side of it: '--' separates the "
					"base's runs from each compared side's (BASE.json... -- NEW.json...)");
				return -EINVAL;
			}
			start[n] = i + 1;
			len[n++] = 0;
			continue;
		}
		if (!n || !grouped) {
			start[n] = i;
			len[n++] = 0;
		}
		len[n - 1]++;
		files++;
	}
	if (n < 2) {
		cli_say("%s (try 'iostorm compare --help')", files ? "NEW.json missing: "
			"compare takes BASE.json and at least one more" : "no report given");
		return -EINVAL;
	}
	*nsides = n;
	return 0;
}

