/* iostorm compare BASE.json NEW.json [MORE.json...]: is a change real?
 * Each report against the base, row by row (cli/compare/rows.h): every
 * side's summary over its repeats, the change, its confidence interval
 * and a significance mark from Welch's t-test, never from a single run;
 * then every difference in the setups they were measured on. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/compare/cmp_out.h"
#include "cli/compare/compare.h"
#include "cli/opts/opts.h"
#include "cli/out/out.h"
#include "cli/out/report_load.h"

#define CMP_MAX_REPORTS 16
#define CMP_MAX_FAIL_PCT 1000.0

enum { O_FORCE = 0x400, O_FAIL_WORSE, O_ALPHA };

/* The commands whose reports hold rows to compare. */
static const char *const comparable[] = { "run", "nop", "latency", "sweep", "saturate", NULL };

static int set_force(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_flag("--force", arg, &o->force, err, errlen);
}

/* A number in [min, max], with an optional % where pct says so. */
static int parse_real(const char *opt, const char *arg, double min, double max, bool pct,
		      double *out, char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (pct && end != arg && *end == '%')
		end++;
	if (end == arg || *end || errno || !isfinite(v)) {
		snprintf(err, errlen, "%s: '%s' is not a number", opt, arg);
		return -EINVAL;
	}
	if (v < min || v > max || (min == 0.0 && !pct && v <= 0.0)) {
		snprintf(err, errlen, "%s: '%s' is outside %s%g..%g%s", opt, arg,
			 !pct ? "(" : "", min, max, pct ? "%" : "]");
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int set_fail_worse(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return parse_real("--fail-worse", arg, 0.0, CMP_MAX_FAIL_PCT, true, &o->fail_worse_pct,
			  err, errlen);
}

static int set_alpha(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return parse_real("--alpha", arg, 0.0, 0.5, false, &o->alpha, err, errlen);
}

static int show_alpha(const struct cli_opts *o, char *buf, size_t len)
{
	return snprintf(buf, len, "%g", o->alpha);
}

static const struct cli_optdesc own[] = {
	{ "alpha", O_ALPHA, "P", 0, 0, set_alpha, show_alpha, NULL,
	  "significance level of Welch's t-test, in (0, 0.5];\n"
	  "the intervals are at 1 - P confidence" },
	{ "fail-worse", O_FAIL_WORSE, "PCT", 0, 0, set_fail_worse, NULL, NULL,
	  "exit 4 when a metric is significantly worse than\n"
	  "the base by more than PCT percent (0..1000)" },
	{ "force", O_FORCE, NULL, 0, 0, set_force, NULL, NULL,
	  "compare reports of different commands, --bs or --qd" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL, NULL, NULL },
};

static int cmd_compare(int argc, char **argv);

const struct cli_verb cli_verb_compare = {
	.name = "compare",
	.what = "is a change real? reports against a base, with significance",
	.synopsis = "iostorm compare [options] BASE.json NEW.json [MORE.json...]\n\n"
		"Compares each report with BASE, device by device and for the total:\n"
		"IOPS and mean, p50, p99 and p99.9 latency, each side's summary over its\n"
		"repeats (--repeat), the change in %, its confidence interval and a mark\n"
		"where Welch's t-test finds it significant; a side with one repeat gets\n"
		"no mark. Then every difference between the setups the reports were\n"
		"measured on: kernel, settings, IOMMU, firmware, options, placement.",
	.operands = CLI_OPERANDS_FILES,
	.groups = CLI_OG_JSON,
	.own = own,
	.run = cmd_compare,
};

static bool is_comparable(const char *cmd)
{
	size_t i;

	for (i = 0; comparable[i]; i++)
		if (!strcmp(cmd, comparable[i]))
			return true;
	return false;
}

static long long config_num(const json_t *r, const char *key)
{
	const json_t *v = json_object_get(json_object_get(r, "config"), key);

	return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

/* Reports that measured different things are refused, unless --force. */
static int check_alike(const struct cli_opts *o, const char *const *file, json_t *const *r,
		       const char *const *cmd, unsigned i)
{
	static const char *const keys[] = { "bs", "qd" };
	size_t k;

	if (o->force)
		return 0;
	if (strcmp(cmd[i], cmd[0])) {
		cli_say("%s is a %s report, %s a %s report: they measure different things "
			"(--force compares the rows they share)", file[i], cmd[i], file[0], cmd[0]);
		return -EINVAL;
	}
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		if (config_num(r[i], keys[k]) == config_num(r[0], keys[k]))
			continue;
		cli_say("%s ran at --%s %lld, %s at --%s %lld: comparing them is meaningless "
			"(--force compares them anyway)", file[i], keys[k],
			config_num(r[i], keys[k]), file[0], keys[k], config_num(r[0], keys[k]));
		return -EINVAL;
	}
	return 0;
}

/* --json naming one of the reports would write over it: refused. */
static int check_json_path(const struct cli_opts *o)
{
	struct stat js, st;
	unsigned i;

	if (!o->json || !strcmp(o->json, "-") || stat(o->json, &js))
		return 0;
	for (i = 0; i < o->ntargets; i++) {
		if (stat(o->targets[i], &st) || st.st_dev != js.st_dev || st.st_ino != js.st_ino)
			continue;
		cli_say("--json %s is the report %s: reports are only read, never written",
			o->json, o->targets[i]);
		return -EINVAL;
	}
	return 0;
}

static int load_all(const struct cli_opts *o, json_t **r, const char **cmd)
{
	const char *const *file = (const char *const *)o->targets;
	unsigned i;
	int rc = 0;

	for (i = 0; i < o->ntargets && !rc; i++) {
		rc = cli_report_load(file[i], &r[i], &cmd[i]);
		if (!rc && !is_comparable(cmd[i])) {
			cli_say("%s: a report of '%s', which holds nothing to compare (compare takes "
				"run, nop, latency, sweep and saturate reports, iostorm-mpi's too)",
				file[i], cmd[i]);
			rc = -EINVAL;
		}
		if (!rc)
			rc = check_alike(o, file, r, cmd, i);
	}
	return rc;
}

/* Report i against the base; a report that shares no row is refused. */
static int build_side(const struct cli_opts *o, struct cmp_side *s, const struct cmp_rows *base,
		      json_t *const *r, unsigned i)
{
	int rc;

	s->file = o->targets[i];
	rc = cmp_rows_of(r[i], &s->rows);
	if (!rc)
		rc = cmp_side_build(s, base, o->alpha, o->fail_worse_pct);
	if (!rc)
		rc = cmp_setup_diff(r[0], r[i], &s->changes);
	if (rc) {
		cli_say("out of memory");
		return rc;
	}
	if (!s->nlines) {
		cli_say("%s and %s share no device to compare (%s has %s%s): reports are matched "
			"by device name", o->targets[0], s->file, s->file,
			s->rows.n ? s->rows.r[0].key : "none", s->rows.n > 1 ? ", ..." : "");
		return -EINVAL;
	}
	return 0;
}

/* Every report against the base, shown; *gate: some metric is
 * significantly worse by more than --fail-worse. 0 or -errno, said. */
static int compare(const struct cli_opts *o, json_t **r, const char **cmd, bool *gate)
{
	struct cmp_side side[CMP_MAX_REPORTS];
	struct cmp_rows base;
	unsigned i, nside = 0;
	int rc;

	memset(side, 0, sizeof(side));
	rc = cmp_rows_of(r[0], &base);
	if (rc)
		cli_say("out of memory");
	for (i = 1; i < o->ntargets && !rc; i++, nside++)
		rc = build_side(o, &side[nside], &base, r, i);
	if (!rc) {
		for (i = 0; i < nside; i++)
			*gate |= side[i].gate;
		cmp_out_text(cli_out_text(o), o, (const char *const *)cmd, side, nside);
		if (o->json)
			rc = cmp_out_json(o, (const char *const *)cmd, side, nside, *gate);
	}
	for (i = 0; i < CMP_MAX_REPORTS; i++)
		cmp_side_free(&side[i]);
	cmp_rows_free(&base);
	return rc;
}

static int cmd_compare(int argc, char **argv)
{
	json_t *r[CMP_MAX_REPORTS] = { NULL };
	const char *cmd[CMP_MAX_REPORTS];
	struct cli_opts o;
	bool gate = false;
	unsigned i;
	int rc = cli_opts_cmdline(&o, &cli_verb_compare, argc, argv);

	if (!rc && o.ntargets < 2) {
		cli_say("%s (try 'iostorm compare --help')", o.ntargets ? "NEW.json missing: "
			"compare takes BASE.json and at least one more" : "no report given");
		rc = -EINVAL;
	} else if (!rc && o.ntargets > CMP_MAX_REPORTS) {
		cli_say("%u reports: compare takes at most %u", o.ntargets, CMP_MAX_REPORTS);
		rc = -EINVAL;
	}
	if (!rc)
		rc = check_json_path(&o);
	if (!rc)
		rc = load_all(&o, r, cmd);
	if (!rc)
		rc = compare(&o, r, cmd, &gate);
	for (i = 0; i < CMP_MAX_REPORTS; i++)
		json_decref(r[i]);
	return !rc && gate ? CLI_EXIT_WORSE : cli_exit_status(rc);
}
