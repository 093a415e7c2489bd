/* iostorm check [options] [TARGET...]: the settings that cost IOPS on the
 * targets (every NVMe namespace without one) and on the machine, one
 * finding each with what is better, what it costs and the command that
 * changes it; --measure tries the ones that change at run time, one
 * measurement at a time, and a measurement that died has its settings put
 * back here (cli/check/restore.h), never by another command. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/check/check.h"
#include "cli/check/check_out.h"
#include "cli/check/measure.h"
#include "cli/check/restore.h"
#include "cli/commands.h"
#include "cli/opts/opts.h"
#include "cli/report/out.h"
#include "cli/report/setup_json.h"
#include "cli/opts/roots.h"
#include "cli/words/findings_words.h"

enum { O_MEASURE = 0x300, O_ROUNDS, O_RESTORE };

static int set_measure(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_flag("--measure", arg, &o->measure, err, errlen);
}

static int set_restore(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_flag("--restore", arg, &o->restore, err, errlen);
}

static int set_rounds(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	uint64_t v;
	int rc = cli_parse_count("--rounds", arg, 1, CLI_CHECK_MAX_ROUNDS, &v, err, errlen);

	if (!rc)
		o->rounds = (unsigned)v;
	return rc;
}

static int show_rounds(const struct cli_opts *o, char *buf, size_t len)
{
	return snprintf(buf, len, "%u", o->rounds ? o->rounds : CLI_CHECK_ROUNDS);
}

static const struct cli_optdesc own[] = {
	CLI_OPT_OWN("measure", O_MEASURE, NULL, 0, 0, set_measure, NULL, NULL,
	  "as root, measure each setting found that changes at run time\n"
	  "(scheduler, iostats, nomerges) on the named targets: A/B rounds\n"
	  "at --qd and at QD1, every setting put back after, also on SIGINT,\n"
	  "and by the next check after a crash; one at a time"),
	CLI_OPT_OWN("restore", O_RESTORE, NULL, 0, 0, set_restore, NULL, NULL,
	  "only put back what a 'check --measure' that died left changed (its\n"
	  "journal), on the disks that are still the ones it names, and exit"),
	CLI_OPT_OWN("rounds", O_ROUNDS, "N", 0, 0, set_rounds, show_rounds, NULL,
	  "A/B rounds per setting and depth (--measure); --time is each trial's"),
	CLI_OPT_END,
};

static int cmd_check(int argc, char **argv);
static void synopsis_kinds(FILE *f);

const struct cli_verb cli_verb_check = {
	.name = "check",
	.what = "the settings that cost IOPS, what is better, and the fix",
	.synopsis = "iostorm check [options] [TARGET...]\n\n"
		"Checks the settings that cost IOPS on each TARGET (every NVMe namespace\n"
		"without one; files and loop devices for what applies to them) and on\n"
		"the machine. --qd, --completion and --jobs-per-device say what the run\n"
		"will ask. Exits 0 when nothing costs IOPS, 3 when something does\n"
		"(docs/check.md).",
	.synopsis_more = synopsis_kinds,
	.operands = CLI_OPERANDS_TARGETS,
	.groups = CLI_OG_ENGINE | CLI_OG_TARGET | CLI_OG_JSON,
	.own = own,
	.time_ns = CLI_CHECK_TIME_NS,
	.ramp_ns = CLI_CHECK_RAMP_NS,
	.jobfile = true,
	.run = cmd_check,
};

/* ---- the settings read: model/check_table.c's kinds, said by the words
 * table ---- */

#define SYNOPSIS_WIDTH 76

/* Kind k's setting was named by a kind before it (iommu_strict and
 * iommu_lazy are one setting, the IOMMU domain). */
static bool named_before(unsigned k)
{
	char a[CLI_CHECK_ABOUT_MAX], b[CLI_CHECK_ABOUT_MAX];
	unsigned j;

	cli_check_about((enum check_kind)k, a, sizeof(a));
	for (j = 0; j < k; j++) {
		cli_check_about((enum check_kind)j, b, sizeof(b));
		if (!strcmp(a, b))
			return true;
	}
	return false;
}

/* "On each device: A, B, ...", the kinds of one scope, wrapped. */
static void synopsis_scope(FILE *f, enum check_scope scope, const char *head)
{
	char about[CLI_CHECK_ABOUT_MAX];
	size_t col = strlen(head), w;
	bool first = true;
	unsigned k;

	fprintf(f, "\n%s", head);
	for (k = 0; k < CHECK_NKINDS; k++) {
		if (check_kind_info((enum check_kind)k)->scope != scope || named_before(k))
			continue;
		cli_check_about((enum check_kind)k, about, sizeof(about));
		w = strlen(about) + 2;
		if (col + w > SYNOPSIS_WIDTH) {
			fprintf(f, "%s\n  %s", first ? "" : ",", about);
			col = 2 + w - 2;
		} else {
			fprintf(f, "%s %s", first ? "" : ",", about);
			col += w;
		}
		first = false;
	}
	fprintf(f, ".");
}

/* What check reads, kind by kind, as the one table of kinds says. */
static void synopsis_kinds(FILE *f)
{
	fprintf(f, "\n\nWhat it reads:");
	synopsis_scope(f, CHECK_SCOPE_DEVICE, "on each device:");
	synopsis_scope(f, CHECK_SCOPE_MACHINE, "on the machine:");
}

/* The targets as given, or every NVMe namespace setup/ finds (below
 * $IOSTORM_SYSFS_ROOT when set, so a recorded machine can be checked):
 * *paths, with *owned the "/dev/NAME" strings made here (freed by the
 * caller), and the count. */
static int check_targets(const struct cli_opts *o, char (**owned)[SETUP_NAME_MAX + 8],
			 const char ***paths)
{
	char (*names)[SETUP_NAME_MAX] = NULL;
	int i, n;

	*owned = NULL;
	*paths = NULL;
	if (o->ntargets) {
		*paths = (const char **)o->targets;
		return (int)o->ntargets;
	}
	n = setup_nvme_list(cli_roots(), &names);
	if (n < 0) {
		cli_say("cannot list the NVMe namespaces: %s", strerror(-n));
		return n;
	}
	if (n > (int)CLI_MAX_TARGETS) {
		cli_say("%d NVMe namespaces: checking the first %u", n, CLI_MAX_TARGETS);
		n = (int)CLI_MAX_TARGETS;
	}
	if (n) {
		*owned = calloc((size_t)n, sizeof(**owned));
		*paths = calloc((size_t)n, sizeof(**paths));
		if (!*owned || !*paths) {
			free(names);
			cli_say("out of memory for %d targets", n);
			return -ENOMEM;
		}
	}
	for (i = 0; i < n; i++) {
		snprintf((*owned)[i], sizeof((*owned)[i]), "/dev/%s", names[i]);
		(*paths)[i] = (*owned)[i];
	}
	free(names);
	return n;
}

/* A target must be there before anything is read: one line naming it. */
static int check_stat(const char *const *paths, unsigned n)
{
	struct stat st;
	unsigned i;

	for (i = 0; i < n; i++) {
		if (stat(paths[i], &st)) {
			int e = errno;

			cli_say("%s: %s", paths[i], strerror(e));
			return -e;
		}
		if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode)) {
			cli_say("%s: not a block device, a file or an NVMe generic device", paths[i]);
			return -ENODEV;
		}
	}
	return 0;
}

/* --measure and --restore write to this machine's queues: refused, before
 * anything is read or written, where that cannot be right. 0, -EINVAL (a
 * usage error) or -EPERM, said. */
static int writes_allowed(const struct cli_opts *o)
{
	if (o->measure && o->restore) {
		cli_say("--measure and --restore: one or the other");
		return -EINVAL;
	}
	if (o->restore && o->ntargets) {
		cli_say("--restore takes no target: it puts back what the journal names");
		return -EINVAL;
	}
	/* with no operand check takes every NVMe namespace, the boot disk's too */
	if (o->measure && !o->ntargets) {
		cli_say("--measure changes the settings of the targets it is given: name them");
		return -EINVAL;
	}
	if ((o->measure || o->restore) && setup_sysfs_redirected(cli_roots())) {
		cli_say("--%s writes to this machine's /sys, and IOSTORM_SYSFS_ROOT points at "
			"another tree", o->measure ? "measure" : "restore");
		return -EINVAL;
	}
	if (o->measure && geteuid()) {
		cli_say("--measure changes the targets' queue settings: run it as root");
		return -EPERM;
	}
	return 0;
}

static int cmd_check(int argc, char **argv)
{
	struct cli_opts o;
	struct cli_check c;
	char (*owned)[SETUP_NAME_MAX + 8] = NULL;
	const char **paths = NULL;
	json_t *root = NULL;
	struct setup_lock lock = { -1 };
	int n = 0, rc = cli_opts_cmdline(&o, &cli_verb_check, argc, argv);

	if (rc)
		return cli_exit_status(rc);
	memset(&c, 0, sizeof(c));
	rc = writes_allowed(&o);
	if (!rc && o.measure)
		rc = cli_check_lock(&lock);
	/* with the lock held, a journal left there is a dead session's;
	 * without, a live one's is left alone (--restore then fails) */
	if (!rc && !setup_sysfs_redirected(cli_roots())) {
		n = cli_check_recover(o.measure ? &lock : NULL);
		rc = o.restore ? n : 0;
	}
	if (rc || o.restore)
		goto out;
	n = check_targets(&o, &owned, &paths);
	rc = n < 0 ? n : 0;
	/* the namespaces found were listed by sysfs: only given ones are
	 * looked at first */
	if (!rc && o.ntargets)
		rc = check_stat(paths, (unsigned)n);
	if (!rc)
		rc = cli_check_gather(&o, paths, (unsigned)n, &c);
	if (rc)
		goto out;
	cli_check_print(&c, &o, cli_out_text(&o));
	if (o.json) {
		root = cli_check_json(&c);
		if (!root) {
			cli_say("out of memory for the JSON report");
			rc = -ENOMEM;
		}
	}
	if (!rc && o.measure)
		rc = cli_check_measure(&o, c.devs, c.ndevs, c.f, c.nf, root);
	if (o.json && root && cli_out_json(o.json, json_incref(root), CLI_JSON_REPORT))
		rc = rc ? rc : -EIO;
out:
	setup_session_unlock(&lock);
	json_decref(root);
	if (!o.ntargets)
		free(paths);
	free(owned);
	if (!rc && c.nf) {
		cli_check_free(&c);
		return CLI_EXIT_FINDINGS;
	}
	cli_check_free(&c);
	return cli_exit_status(rc);
}
