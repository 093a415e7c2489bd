/* iostorm saturate [options] [TARGET...]: the main job. Without targets it
 * takes every NVMe namespace, or demo targets where there is none. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/runner/demo.h"
#include "cli/opts/opts.h"
#include "cli/report/out.h"
#include "cli/runner/targets.h"
#include "cli/runner/runner.h"
#include "cli/saturate/saturate.h"
#include "cli/slo/slo.h"

enum { O_DEMO = 0x200, O_COMPARE, O_DEMO_SIZE };

static int set_demo(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_flag("--demo", arg, &o->demo, err, errlen);
}

static int set_demo_size(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_size("--demo-size", arg, 1u << 20, 64ull << 30, &o->demo_size,
			      err, errlen);
}

static int set_compare(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	return cli_parse_flag("--compare-placement", arg, &o->compare_placement, err, errlen);
}

static int show_demo_size(const struct cli_opts *o, char *buf, size_t len)
{
	return cli_fmt_size(o->demo_size, buf, len);
}

static const struct cli_optdesc own[] = {
	CLI_OPT_OWN("demo", O_DEMO, NULL, 0, 0, set_demo, NULL, NULL,
	  "run on temporary targets it creates and removes: 2 files under\n"
	  "/var/tmp and, as root, 2 loop devices on /dev/shm"),
	CLI_OPT_OWN("demo-size", O_DEMO_SIZE, "SIZE", 0, 0, set_demo_size, show_demo_size, NULL,
	  "bytes per demo target"),
	CLI_OPT_OWN("compare-placement", O_COMPARE, NULL, 0, 0, set_compare, NULL, NULL,
	  "repeat the all-devices QDn step with remote workers and report\n"
	  "the NUMA penalty per device"),
	CLI_SLO_OPTDESCS,
	CLI_OPT_END,
};

static int cmd_saturate(int argc, char **argv);

const struct cli_verb cli_verb_saturate = {
	.name = "saturate",
	.what = "each device alone and all at once, QD1 and QDn, and the gap",
	.synopsis = "iostorm saturate [options] [TARGET...]\n\n"
		"Measures each device alone at QD1 and QDn, then all of them at once at\n"
		"QD1 and QDn, and explains the gap between the sum of the parts and the\n"
		"whole. Without TARGET: every NVMe namespace, or demo targets where there\n"
		"is none. --time and --ramp are each step's.\n\n"
		"With --slo BOUNDS it measures the gap at a latency target instead:\n"
		"each device's capacity alone within the bounds, then the highest\n"
		"common share of those capacities that every device holds at once\n"
		"(docs/saturate.md).",
	.operands = CLI_OPERANDS_TARGETS,
	.groups = CLI_OG_ENGINE | CLI_OG_TARGET | CLI_OG_JSON | CLI_OG_REPEAT | CLI_OG_RATE,
	.own = own,
	.qd = CLI_SAT_QD,
	.ramp_ns = CLI_SAT_RAMP_NS,
	.time_ns = CLI_SAT_TIME_NS,
	.jobfile = true,
	.run = cmd_saturate,
};

/* 0 to go on, or cli_opts_cmdline's -ECANCELED or -EINVAL (said). */
static int parse(struct cli_opts *o, struct cli_sat_opts *so, int argc, char **argv)
{
	int rc = cli_opts_cmdline(o, &cli_verb_saturate, argc, argv);

	if (rc)
		return rc;
	if (o->demo && o->ntargets) {
		cli_say("--demo makes its own targets: drop the TARGET operands");
		return -EINVAL;
	}
	if (o->slo.n && o->compare_placement) {
		cli_say("--slo measures the gap at a target: drop --compare-placement");
		return -EINVAL;
	}
	if (o->slo.n) {
		struct cli_run_spec r = cli_run_spec_of(o, ENG_OP_READ);

		rc = cli_slo_check(o);
		r.rate = r.jobs_per_device;
		if (rc || (rc = cli_runner_rate_check(&r)))
			return rc;
	} else if ((rc = cli_slo_check(o))) {
		return rc;
	}
	memset(so, 0, sizeof(*so));
	so->demo = o->demo;
	so->compare_placement = o->compare_placement;
	so->demo_size = o->demo_size;
	return 0;
}

static int run_demo(struct cli_opts *o, const struct cli_sat_opts *so)
{
	struct cli_demo d;
	int rc;

	/* cli_demo_create says why and returns an exit status */
	rc = cli_demo_create(&d, so->demo_size, o->quiet) ? -EIO : 0;
	if (!rc) {
		o->targets = d.paths;
		o->ntargets = d.n;
		rc = cli_saturate_run(o, so);
	}
	cli_demo_remove(&d);
	if (!o->quiet)
		cli_say("demo: targets removed");
	return rc;
}

/* Every NVMe namespace as /dev/NAME; 0 when there is none (or no
 * topology), else the run's 0 or -errno. */
static int run_nvme(struct cli_opts *o, const struct cli_sat_opts *so, bool *none)
{
	char **paths;
	int n = cli_nvme_paths(&paths), rc;

	*none = n == 0;
	if (n <= 0)
		return n;
	o->targets = paths;
	o->ntargets = (unsigned)n;
	rc = cli_saturate_run(o, so);
	cli_nvme_paths_free(paths, (unsigned)n);
	return rc;
}

/* The targets given, --demo's, or else every NVMe namespace, or demo
 * targets where there is none: 0 or -errno, said. */
static int saturate(struct cli_opts *o, const struct cli_sat_opts *so)
{
	bool none;
	int rc;

	if (so->demo)
		return run_demo(o, so);
	if (o->ntargets)
		return cli_saturate_run(o, so);
	rc = run_nvme(o, so, &none);
	if (!none || rc)
		return rc;
	cli_say("no NVMe namespace on this machine: running on demo targets");
	return run_demo(o, so);
}

static int cmd_saturate(int argc, char **argv)
{
	struct cli_opts o;
	struct cli_sat_opts so;
	int rc = parse(&o, &so, argc, argv);

	if (!rc)
		rc = saturate(&o, &so);
	return cli_exit_status(rc);
}
