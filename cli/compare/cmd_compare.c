/* iostorm compare BASE.json NEW.json [MORE.json...], or
 * iostorm compare BASE1.json BASE2.json -- NEW1.json NEW2.json [-- ...]:
 * is a change real? Each side (a report, or the runs between two '--')
 * against the base, row by row (cli/compare/rows.h): every side's figure,
 * the change, its confidence interval and its test across runs, with the
 * run-to-run noise beside it; marks by Benjamini-Hochberg and the
 * --fail-worse gate by Holm over every test; then every difference in the
 * setups they were measured on. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/compare/ab.h"
#include "cli/compare/cmp_out.h"
#include "cli/compare/compare.h"
#include "cli/compare/files.h"
#include "cli/opts/opts.h"
#include "cli/report/out.h"

#define CMP_MAX_FAIL_PCT 1000.0

enum { O_FORCE = 0x400, O_FAIL_WORSE, O_ALPHA, O_TRUST_REPEATS, O_AB };



static int set_force(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_flag("--force", arg, &o->force, err, errlen);
}

static int set_trust_repeats(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_flag("--trust-repeats", arg, &o->trust_repeats, err, errlen);
}

static int set_ab(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	uint64_t v;
	int rc = cli_parse_count("--ab", arg, 2, CMP_AB_MAX_ROUNDS, &v, err, errlen);

	if (!rc)
		o->ab_rounds = (unsigned)v;
	return rc;
}

static int set_fail_worse(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_real("--fail-worse", arg, 0.0, CMP_MAX_FAIL_PCT, true, &o->fail_worse_pct,
			  err, errlen);
}

static int set_alpha(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_real("--alpha", arg, 0.0, 0.5, false, &o->alpha, err, errlen);
}

static int show_alpha(const struct cli_opts *o, char *buf, size_t len)
{
	return snprintf(buf, len, "%g", o->alpha);
}

static const struct cli_optdesc own[] = {
	CLI_OPT_OWN("ab", O_AB, "N", 0, 0, set_ab, NULL, NULL,
	  "run the two command lines after '--' alternately,\n"
	  "ABBA over N rounds (2..32), and test the rounds'\n"
	  "paired differences: -- A_COMMAND... -- B_COMMAND..."),
	CLI_OPT_OWN("alpha", O_ALPHA, "P", 0, 0, set_alpha, show_alpha, NULL,
	  "significance level, in (0, 0.5]: the false-discovery\n"
	  "rate of the marks (Benjamini-Hochberg) and the\n"
	  "family-wise rate of --fail-worse (Holm); the\n"
	  "intervals are at 1 - P confidence"),
	CLI_OPT_OWN("fail-worse", O_FAIL_WORSE, "PCT", 0, 0, set_fail_worse, NULL, NULL,
	  "exit 4 when a metric is worse than the base by more\n"
	  "than PCT percent (0..1000) with Holm's p < --alpha\n"
	  "across runs"),
	CLI_OPT_OWN("force", O_FORCE, NULL, 0, 0, set_force, NULL, NULL,
	  "compare reports of different commands, --bs, --qd\n"
	  "or bounds (--time against --ios)"),
	CLI_OPT_OWN("trust-repeats", O_TRUST_REPEATS, NULL, 0, 0, set_trust_repeats, NULL, NULL,
	  "let --fail-worse fail on a test of one run's repeats\n"
	  "against another's (one run a side), though drift\n"
	  "between runs is then not measured"),
	CLI_OPT_END,
};

static int cmd_compare(int argc, char **argv);

const struct cli_verb cli_verb_compare = {
	.name = "compare",
	.what = "is a change real? reports against a base, with significance",
	.synopsis = "iostorm compare [options] BASE.json NEW.json [MORE.json...]\n"
		"       iostorm compare [options] BASE.json... -- NEW.json... [-- MORE.json...]\n"
		"       iostorm compare --ab N [options] -- A_COMMAND... -- B_COMMAND...\n\n"
		"Compares each side with the base, device by device and for the total:\n"
		"IOPS and mean, p50, p99 and p99.9 latency. A side is one report, or\n"
		"several runs of one setup between '--'. A run is one sample: the test\n"
		"and the change's confidence interval use the spread between runs, shown\n"
		"as the noise beside every change. With one run a side, the repeats\n"
		"(--repeat) inside each are tested, drift between runs is not measured,\n"
		"and --fail-worse ignores them unless --trust-repeats. Marks (*) hold the\n"
		"false-discovery rate over every test to --alpha (Benjamini-Hochberg),\n"
		"--fail-worse the family-wise rate (Holm). Then every difference between\n"
		"the setups the reports were measured on: kernel, settings, IOMMU,\n"
		"firmware, options, placement. With --ab, compare runs both command lines\n"
		"itself (an iostorm command, or a binary's path then its command), round\n"
		"by round, and tests the rounds' differences, in which drift cancels.",
	.operands = CLI_OPERANDS_FILES,
	.groups = CLI_OG_JSON,
	.own = own,
	.run = cmd_compare,
};

/* Side g's rows, from its reports r[start..start+n), named name[]. 0 or
 * -ENOMEM, said. */
static int group_of(struct cmp_group *g, const char *const *name, json_t *const *r,
		    const char *const *cmd, unsigned start, unsigned n)
{
	unsigned i;
	int rc = 0;

	g->file = name + start;
	g->cmd = cmd[start];
	g->rows = calloc(n, sizeof(*g->rows));
	if (!g->rows)
		rc = -ENOMEM;
	for (i = 0; i < n && !rc; i++, g->n++)
		rc = cmp_rows_of(r[start + i], &g->rows[i]);
	if (rc)
		cli_say("out of memory");
	return rc;
}

/* The reports, the sides they form, and how they were made. */
struct cmp_input {
	const char *const *name;	/* the reports' files, or --ab's runs */
	json_t *const *r;
	const char *const *cmd;
	const unsigned *start, *len;	/* each side's reports */
	unsigned nsides;
	const struct cmp_ab *ab;	/* --ab's sides; NULL: files */
};

/* Side s (side k of in) against the base; a side that shares no row is
 * refused. */
static int build_side(const struct cli_opts *o, const struct cmp_input *in, unsigned k,
		      struct cmp_side *s, const struct cmp_group *base, struct cmp_bound bound)
{
	const struct cmp_rows *rows;
	int rc = group_of(&s->g, in->name, in->r, in->cmd, in->start[k], in->len[k]);

	if (!rc)
		rc = cmp_side_build(s, base, bound, o->alpha, in->ab != NULL);
	if (!rc)
		rc = cmp_setup_diff(in->r[in->start[0]], in->r[in->start[k]], &s->changes);
	if (rc) {
		cli_say("out of memory");
		return rc;
	}
	if (!s->nlines) {
		rows = &s->g.rows[0];
		cli_say("%s and %s share no device to compare (%s has %s%s): reports are matched "
			"by device name", base->file[0], s->g.file[0], s->g.file[0],
			rows->n ? rows->r[0].key : "none", rows->n > 1 ? ", ..." : "");
		return -EINVAL;
	}
	return 0;
}

/* The sides, each against the base, adjusted as one family and shown;
 * *gate: some metric met --fail-worse. 0 or -errno, said. */
static int compare(const struct cli_opts *o, const struct cmp_input *in, bool *gate)
{
	struct cmp_side side[CMP_MAX_REPORTS];
	struct cmp_bound bound = cmp_bound_of(in->r[in->start[0]]);
	struct cmp_family family;
	struct cmp_group base;
	unsigned i, nside = 0;
	int rc;

	memset(side, 0, sizeof(side));
	memset(&base, 0, sizeof(base));
	rc = group_of(&base, in->name, in->r, in->cmd, in->start[0], in->len[0]);
	for (i = 1; i < in->nsides && !rc; i++, nside++)
		rc = build_side(o, in, i, &side[nside], &base, bound);
	if (!rc) {
		rc = cmp_family_adjust(side, nside, o->alpha, o->fail_worse_pct, o->trust_repeats,
				       &family);
		if (rc)
			cli_say("out of memory");
	}
	if (!rc) {
		for (i = 0; i < nside; i++)
			*gate |= side[i].gate;
		cmp_out_text(cli_out_text(o), o, &base, side, nside, &family, bound, in->ab);
		if (o->json)
			rc = cmp_out_json(o, &base, side, nside, &family, bound, in->ab, *gate);
	}
	for (i = 0; i < CMP_MAX_REPORTS; i++)
		cmp_side_free(&side[i]);
	cmp_group_free(&base);
	return rc;
}

/* --ab: both command lines run here, round by round, then compared
 * paired. */
static int compare_ab(const struct cli_opts *o, bool *gate)
{
	unsigned n = o->ab_rounds, i, start[2] = { 0, n }, len[2] = { n, n };
	json_t *r[2 * CMP_AB_MAX_ROUNDS] = { NULL };
	const char *cmd[2 * CMP_AB_MAX_ROUNDS] = { NULL }, *name[2 * CMP_AB_MAX_ROUNDS];
	char names[2 * CMP_AB_MAX_ROUNDS][24];
	struct cmp_input in = { name, r, cmd, start, len, 2, NULL };
	struct cmp_ab ab;
	int rc = cmp_ab_parse(&ab, o->targets, o->ntargets, n, o->force);

	for (i = 0; i < 2 * n; i++)
		name[i] = names[i];
	in.ab = &ab;
	if (!rc)
		rc = cmp_ab_run(&ab, r, cmd, names);
	if (!rc)
		rc = compare(o, &in, gate);
	cmp_ab_clean(&ab);
	for (i = 0; i < 2 * n; i++)
		json_decref(r[i]);
	return rc;
}

/* The reports named on the command line, as sides. */
static int compare_files(const struct cli_opts *o, bool *gate)
{
	unsigned start[CMP_MAX_REPORTS], len[CMP_MAX_REPORTS], i;
	json_t *r[CMP_MAX_REPORTS] = { NULL };
	const char *cmd[CMP_MAX_REPORTS] = { NULL };
	struct cmp_input in = { (const char *const *)o->targets, r, cmd, start, len, 0, NULL };
	int rc = 0;

	if (o->ntargets > CMP_MAX_REPORTS) {
		cli_say("%u operands: compare takes at most %u reports and '--'", o->ntargets,
			CMP_MAX_REPORTS);
		rc = -EINVAL;
	}
	if (!rc)
		rc = cmp_files_split(o, start, len, &in.nsides);
	if (!rc)
		rc = cmp_files_load(o, r, cmd);
	if (!rc)
		rc = compare(o, &in, gate);
	for (i = 0; i < CMP_MAX_REPORTS; i++)
		json_decref(r[i]);
	return rc;
}

static int cmd_compare(int argc, char **argv)
{
	char **args = calloc((size_t)argc + 1, sizeof(*args));
	struct cli_opts o;
	bool gate = false;
	int rc;

	if (!args) {
		cli_say("out of memory");
		return cli_exit_status(-ENOMEM);
	}
	cmp_files_mark(argc, argv, args);
	rc = cli_opts_cmdline(&o, &cli_verb_compare, argc, args);
	if (!rc)
		rc = o.ab_rounds ? compare_ab(&o, &gate) : compare_files(&o, &gate);
	free(args);
	return !rc && gate ? CLI_EXIT_WORSE : cli_exit_status(rc);
}
