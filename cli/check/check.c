/* Gathers the facts of some targets and what costs IOPS on them; the one
 * line a run prints about them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/check/check.h"
#include "cli/report/out.h"
#include "cli/opts/roots.h"
#include "cli/words/findings_words.h"
#include "topo/cpu.h"

_Static_assert(CLI_MAX_CPUS <= TOPO_CPUSET_MAX, "--cpus fits a CPU set");

/* --cpus as a set: the model asks which CPUs, not in what order (the
 * ask's cpus keep the order). Every CPU fits, as the assert above says. */
static void cpus_set(const struct cli_opts *o, struct topo_cpuset *set)
{
	unsigned i;

	topo_cpuset_zero(set);
	for (i = 0; i < o->ncpus; i++)
		topo_cpuset_add(set, o->cpus[i]);
}

/* Whether this process may create a ring under io_uring_disabled=1:
 * CAP_SYS_ADMIN (root stands for it here) or a member of gid. */
static bool uring_privileged(int64_t gid)
{
	gid_t groups[256];
	int n, i;

	if (!geteuid())
		return true;
	if (gid < 0)
		return false;
	if (getegid() == (gid_t)gid)
		return true;
	n = getgroups((int)(sizeof(groups) / sizeof(groups[0])), groups);
	for (i = 0; i < n; i++)
		if (groups[i] == (gid_t)gid)
			return true;
	return false;
}

/* What the run asks: its depth, workers, completion, engine and locked
 * memory. Registered buffers count against RLIMIT_MEMLOCK unless the
 * process has CAP_IPC_LOCK, which root has. A run is steady (a closed
 * loop that never leaves a drive idle) unless it has a --rate (or sweeps
 * by load); check itself asks for every setting, steady or not. */
static void check_ask(const struct cli_opts *o, const struct setup_machine *m, unsigned n,
		      struct check_ask *a)
{
	memset(a, 0, sizeof(*a));
	a->qd = o->qd;
	a->workers_per_dev = o->jobs_per_device;
	a->poll = o->mode == ENG_MODE_POLL || o->mode == ENG_MODE_HYBRID;
	a->hybrid = o->mode == ENG_MODE_HYBRID;
	a->cpus = o->ncpus ? o->cpus : NULL;
	a->ncpus = o->ncpus;
	a->passthrough = o->backend == ENG_BACKEND_URING_CMD;
	a->buffered = o->buffered;
	a->bs = o->bs;
	a->steady = !o->rate && !o->rate_list && o->cmd && strcmp(o->cmd, "check") &&
		    strcmp(o->cmd, "latency");
	a->uring_privileged = uring_privileged(m->io_uring_group);
	if (geteuid() && o->backend != ENG_BACKEND_LIBAIO)
		a->fixed_buffer_bytes = (int64_t)n * o->jobs_per_device * o->qd * o->bs;
}

int cli_check_gather(const struct cli_opts *o, const char *const *paths, unsigned n,
		     struct cli_check *c)
{
	unsigned i;
	int rc;

	memset(c, 0, sizeof(*c));
	c->paths = paths;
	c->m = calloc(1, sizeof(*c->m));
	c->devs = n ? calloc(n, sizeof(*c->devs)) : NULL;
	c->worker_cpus = o->ncpus && n ? calloc(n, sizeof(*c->worker_cpus)) : NULL;
	if (!c->m || (n && !c->devs) || (o->ncpus && n && !c->worker_cpus)) {
		cli_say("out of memory for the settings of %u targets", n);
		return -ENOMEM;
	}
	rc = setup_machine_read(cli_roots(), c->m);
	if (rc) {
		cli_say("cannot read this machine's settings: %s", strerror(-rc));
		return rc;
	}
	for (i = 0; i < n; i++) {
		rc = setup_dev_read(cli_roots(), paths[i], &c->devs[i]);
		if (rc) {
			cli_say("%s: cannot read its settings: %s", paths[i], strerror(-rc));
			return rc;
		}
		c->ndevs = i + 1;
		/* every device's workers come from the one --cpus */
		if (c->worker_cpus)
			cpus_set(o, &c->worker_cpus[i]);
	}
	check_ask(o, c->m, n, &c->ask);
	cli_boot_find(&c->boot);
	c->ask.worker_cpus = c->worker_cpus;
	rc = check_findings(c->m, c->devs, c->ndevs, &c->ask, &c->f);
	if (rc < 0) {
		cli_say("out of memory for the findings");
		return rc;
	}
	c->nf = (unsigned)rc;
	return 0;
}

void cli_check_free(struct cli_check *c)
{
	unsigned i;

	for (i = 0; i < c->ndevs; i++)
		setup_dev_free(&c->devs[i]);
	free(c->devs);
	free(c->m);
	free(c->f);
	free(c->worker_cpus);
	memset(c, 0, sizeof(*c));
}

int cli_check_names(const struct cli_check *c, char *buf, size_t len, unsigned *dev_kinds)
{
	bool seen[CHECK_NKINDS] = { false };
	size_t at = 0;
	unsigned i, kinds = 0, dk = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < c->nf; i++) {
		enum check_kind k = c->f[i].kind;
		int w;

		if (seen[k])
			continue;
		seen[k] = true;
		kinds++;
		dk += check_kind_info(k)->scope == CHECK_SCOPE_DEVICE;
		if (at >= len)
			continue;
		w = snprintf(buf + at, len - at, "%s%s", kinds > 1 ? ", " : "",
			     cli_check_summary_name(k));
		at = w < 0 ? len : at + (size_t)w;
	}
	if (dev_kinds)
		*dev_kinds = dk;
	return (int)kinds;
}

void cli_check_say(const struct cli_opts *o, const struct cli_check *c)
{
	char names[512];
	unsigned dev_kinds, n = c->ndevs;
	int kinds = cli_check_names(c, names, sizeof(names), &dev_kinds);
	const char *where;

	if (o->quiet || o->quiet_advice || !kinds)
		return;
	where = !dev_kinds ? "this machine" : dev_kinds == (unsigned)kinds ?
		(n == 1 ? "this target" : "these targets") :
		(n == 1 ? "this target and machine" : "these targets and this machine");
	cli_say("%d setting%s cost%s IOPS on %s: %s: iostorm check", kinds,
		kinds == 1 ? "" : "s", kinds == 1 ? "s" : "", where, names);
}

void cli_check_summary(const struct cli_opts *o, const char *const *paths, unsigned n)
{
	struct cli_check c;

	if (o->quiet || o->quiet_advice)
		return;
	/* facts a run cannot read are no reason to stop it: cli_check_gather
	 * has named what it could not read */
	if (!cli_check_gather(o, paths, n, &c))
		cli_check_say(o, &c);
	cli_check_free(&c);
}
