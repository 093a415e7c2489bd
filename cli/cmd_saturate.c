/* iostorm saturate [options] [TARGET...]: the main job. Without targets it
 * takes every NVMe namespace, or demo targets where there is none. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/demo.h"
#include "cli/opts.h"
#include "cli/saturate.h"
#include "topo/topo.h"

enum { O_DEMO = 0x200, O_COMPARE, O_DEMO_SIZE };

static const struct cli_opt_extra extras[] = {
	{ "demo", no_argument, O_DEMO, NULL,
	  "run on temporary targets it creates and removes: 2 files under\n"
	  "/var/tmp and, as root, 2 loop devices on /dev/shm" },
	{ "demo-size", required_argument, O_DEMO_SIZE, "SIZE",
	  "bytes per demo target (default 256m)" },
	{ "compare-placement", no_argument, O_COMPARE, NULL,
	  "repeat the all-devices QDn step with remote workers and report\n"
	  "the NUMA penalty per device" },
	{ NULL, 0, 0, NULL, NULL },
};

static const char synopsis[] = "iostorm saturate [options] [TARGET...]\n\n"
	"Measures each device alone at QD1 and QDn, then all of them at once at\n"
	"QD1 and QDn, and explains the gap between the sum of the parts and the\n"
	"whole. Without TARGET: every NVMe namespace, or demo targets where there\n"
	"is none. Defaults here: --qd 128, --ramp 1s and --time 3s per step.";

static int on_extra(void *ctx, int val, const char *arg, char *err, size_t errlen)
{
	struct cli_sat_opts *so = ctx;

	switch (val) {
	case O_DEMO:
		so->demo = true;
		return 0;
	case O_COMPARE:
		so->compare_placement = true;
		return 0;
	case O_DEMO_SIZE:
		return cli_parse_size("--demo-size", arg, 1u << 20, 64ull << 30,
				      &so->demo_size, err, errlen);
	}
	return -EINVAL;
}

static int parse(struct cli_opts *o, struct cli_sat_opts *so, int argc, char **argv)
{
	int rc;

	memset(so, 0, sizeof(*so));
	so->demo_size = CLI_DEMO_SIZE;
	rc = cli_sat_cmdline(o, "saturate", argc, argv, synopsis, extras, on_extra, so,
			     CLI_SAT_QD, CLI_SAT_RAMP_NS, CLI_SAT_TIME_NS);
	if (rc != CLI_OPTS_GO)
		return rc;
	if (so->demo && o->ntargets) {
		fprintf(stderr, "iostorm saturate: --demo makes its own targets: drop the TARGET operands\n");
		return CLI_EXIT_USAGE;
	}
	return CLI_OPTS_GO;
}

static int run_demo(struct cli_opts *o, const struct cli_sat_opts *so)
{
	struct cli_demo d;
	int rc;

	rc = cli_demo_create(&d, so->demo_size, o->quiet);
	if (!rc) {
		o->targets = d.paths;
		o->ntargets = d.n;
		rc = cli_saturate_run(o, so);
	}
	cli_demo_remove(&d);
	if (!o->quiet)
		fprintf(stderr, "iostorm: demo: targets removed\n");
	return rc;
}

/* Every NVMe namespace as /dev/NAME; 0 when there is none (or no
 * topology), else the exit status of the run. */
static int run_nvme(struct cli_opts *o, const struct cli_sat_opts *so, bool *none)
{
	struct topo *t;
	char **paths = NULL;
	unsigned i, n = 0;
	int rc = CLI_EXIT_OK;

	*none = true;
	if (topo_load(&t, NULL, NULL))
		return CLI_EXIT_OK;
	n = topo_ndevs(t);
	if (n > CLI_MAX_TARGETS)
		n = CLI_MAX_TARGETS;
	if (n)
		paths = calloc(n, sizeof(*paths));
	for (i = 0; paths && i < n; i++) {
		if (asprintf(&paths[i], "/dev/%s", topo_dev(t, i)->name) < 0)
			paths[i] = NULL;
		if (!paths[i])
			rc = CLI_EXIT_RUNTIME;
	}
	topo_free(t);
	if (n && (!paths || rc)) {
		fprintf(stderr, "iostorm saturate: out of memory\n");
		rc = CLI_EXIT_RUNTIME;
	} else if (n) {
		*none = false;
		o->targets = paths;
		o->ntargets = n;
		rc = cli_saturate_run(o, so);
	}
	for (i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
	return rc;
}

int cli_cmd_saturate(int argc, char **argv)
{
	struct cli_opts o;
	struct cli_sat_opts so;
	bool none;
	int rc;

	rc = parse(&o, &so, argc, argv);
	if (rc != CLI_OPTS_GO)
		return rc;
	if (so.demo)
		return run_demo(&o, &so);
	if (o.ntargets)
		return cli_saturate_run(&o, &so);
	rc = run_nvme(&o, &so, &none);
	if (!none || rc)
		return rc;
	fprintf(stderr, "iostorm saturate: no NVMe namespace on this machine: running on demo targets\n");
	return run_demo(&o, &so);
}
