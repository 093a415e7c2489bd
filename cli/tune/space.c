/* tune's candidates, stage by stage, from what is carried in (t->best):
 * every value of the stage's knobs this machine can run, and, listed once
 * with why and the fix, what it cannot (docs/tune.md, "The space"). */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli/tune/tune.h"
#include "cli/opts/roots.h"
#include "topo/smt.h"
#include "topo/topo.h"

/* Adds c to the stage unless an equal one is there: 1 added, 0 already
 * there, -ENOMEM. */
static int add(struct tune *t, enum model_tune_stage s, const struct tune_cfg *c)
{
	struct tune_cand *n;
	unsigned i;

	for (i = t->stage_first[s]; i < t->ncand; i++)
		if (tune_cfg_same(&t->cand[i].c, c))
			return 0;
	if (t->ncand - t->stage_first[s] >= MODEL_TUNE_MAX_CAND)
		return 0;	/* the stage's lists are made to fit; never past it */
	if (t->ncand == t->capcand) {
		n = realloc(t->cand, (t->capcand + 32) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		t->cand = n;
		t->capcand += 32;
	}
	memset(&t->cand[t->ncand], 0, sizeof(t->cand[0]));
	t->cand[t->ncand].c = *c;
	t->cand[t->ncand].stage = (unsigned)s;
	t->ncand++;
	return 1;
}

static void not_tried(struct tune *t, const char *option, const char *value, const char *why)
{
	struct tune_not *n;
	unsigned i;

	for (i = 0; i < t->nnot; i++)
		if (!strcmp(t->not[i].option, option) && !strcmp(t->not[i].value, value))
			return;		/* listed once */
	if (t->counting || t->nnot >= TUNE_MAX_NOT)
		return;
	n = &t->not[t->nnot++];
	snprintf(n->option, sizeof(n->option), "%s", option);
	snprintf(n->value, sizeof(n->value), "%s", value);
	snprintf(n->why, sizeof(n->why), "%s", why);
}

/* The kernel's version as major * 1000 + minor; 0 unknown. */
static unsigned kernel_version(char *release, size_t len)
{
	struct utsname u;
	unsigned major = 0, minor = 0;

	if (uname(&u))
		return 0;
	snprintf(release, len, "%s", u.release);
	if (sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return 0;
	return major * 1000 + minor;
}

/* Whether every target completes polled IO: 1, or 0 with the first that
 * does not named in why. */
static int all_poll(const struct tune *t, char *why, size_t len)
{
	unsigned i;
	int p;

	for (i = 0; i < t->ntargets; i++) {
		p = topo_io_poll(NULL, t->tp[i]->dev);
		if (p != 1) {
			snprintf(why, len, "%.60s has no poll queues (its queue's io_poll is %s; for NVMe, "
				 "nvme.poll_queues=0): `iostorm check --completion poll %.60s` gives the fix",
				 t->tp[i]->name, p == 0 ? "0" : "unreadable", t->tp[i]->path);
			return 0;
		}
	}
	return 1;
}

static int engine_stage(struct tune *t)
{
	static const struct { enum eng_backend b; enum eng_mode m; } all[] = {
		{ ENG_BACKEND_IO_URING, ENG_MODE_IRQ }, { ENG_BACKEND_IO_URING, ENG_MODE_POLL },
		{ ENG_BACKEND_IO_URING, ENG_MODE_HYBRID }, { ENG_BACKEND_IO_URING, ENG_MODE_SQPOLL },
		{ ENG_BACKEND_LIBAIO, ENG_MODE_IRQ }, { ENG_BACKEND_URING_CMD, ENG_MODE_IRQ },
		{ ENG_BACKEND_URING_CMD, ENG_MODE_POLL },
	};
	char why[320], rel[65] = "";
	unsigned i, kv = kernel_version(rel, sizeof(rel));
	int polls = all_poll(t, why, sizeof(why)), rc, n = 0;
	struct tune_cfg c;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		c = t->best;
		c.backend = all[i].b;
		c.mode = all[i].m;
		if (c.backend == ENG_BACKEND_URING_CMD && !t->tp_nvme) {
			not_tried(t, "--engine", "io_uring_cmd", t->nvme_why);
			continue;
		}
		if ((c.mode == ENG_MODE_POLL || c.mode == ENG_MODE_HYBRID) && !polls) {
			not_tried(t, "--completion", eng_mode_name(c.mode), why);
			continue;
		}
		if (c.mode == ENG_MODE_HYBRID && kv && kv < 6013) {
			char w[200];

			snprintf(w, sizeof(w), "hybrid polling needs Linux 6.13 "
				 "(IORING_SETUP_HYBRID_IOPOLL); this kernel is %s", rel);
			not_tried(t, "--completion", "hybrid", w);
			continue;
		}
		if (c.mode == ENG_MODE_SQPOLL && t->goal == MODEL_TUNE_IOPS_PER_CORE) {
			not_tried(t, "--completion", "sqpoll",
				  "--goal iops-per-core: the SQPOLL kernel thread's CPU time is not "
				  "among the workers' that iostorm measures, so per core it would win "
				  "unfairly");
			continue;
		}
		if (c.mode == ENG_MODE_SQPOLL && c.group == CLI_GROUP_ON)
			c.group = CLI_GROUP_AUTO;
		rc = add(t, MODEL_TUNE_ENGINE, &c);
		if (rc < 0)
			return rc;
		n += rc;
	}
	return n;
}

static int depth_stage(struct tune *t)
{
	static const unsigned jobs[] = { 1, 2, 4 };
	static const uint32_t qds[] = { 4, 8, 16, 32, 64, 128 };
	cpu_set_t cs;
	unsigned cpus, i, j;
	struct tune_cfg c;
	int rc, n = 0;

	if (t->goal == MODEL_TUNE_LATENCY)
		return add(t, MODEL_TUNE_DEPTH, &t->best);	/* QD1: nothing to search */
	cpus = sched_getaffinity(0, sizeof(cs), &cs) ? 1 : (unsigned)CPU_COUNT(&cs);
	rc = add(t, MODEL_TUNE_DEPTH, &t->best);
	if (rc < 0)
		return rc;
	n += rc;
	for (i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		/* more workers than this process's CPUs only share them */
		if (jobs[i] > 1 && jobs[i] * t->ntargets > cpus)
			continue;
		for (j = 0; j < sizeof(qds) / sizeof(qds[0]); j++) {
			c = t->best;
			c.jobs = jobs[i];
			c.qd = qds[j];
			c.batch = t->best.batch < c.qd ? t->best.batch : c.qd;
			c.reap = t->best.reap < c.qd ? t->best.reap : c.qd;
			/* a depth of one job past the cap would give the rest nothing */
			if (c.ncpus && c.ncpus < c.jobs * t->ntargets)
				c.ncpus = 0;
			rc = add(t, MODEL_TUNE_DEPTH, &c);
			if (rc < 0)
				return rc;
			n += rc;
		}
	}
	return n;
}

static int batch_stage(struct tune *t)
{
	uint32_t qd = t->best.qd, b[5] = { 1, qd / 8, qd / 4, qd / 2, qd }, r[3] = { 1, qd / 4, qd / 2 };
	struct tune_cfg c;
	unsigned i, j;
	int rc, n = 0;

	rc = add(t, MODEL_TUNE_BATCH, &t->best);
	if (rc < 0 || t->goal == MODEL_TUNE_LATENCY)
		return rc;
	n += rc;
	/* the newer waits, where the kernel has them, on what is carried:
	 * a bound on the reap's wait (with a reap to bound) and waits that
	 * are not iowait (docs/engine.md) */
	if (t->best.backend == ENG_BACKEND_IO_URING && t->best.mode != ENG_MODE_POLL &&
	    t->best.mode != ENG_MODE_HYBRID) {
		c = t->best;
		if (t->waits.min_wait) {
			tune_not_tried(t, "--reap-wait", "20us", "the kernel has no min-wait "
				       "timeout (IORING_FEAT_MIN_TIMEOUT, Linux 6.12)");
		} else if (qd >= 8) {
			c.reap = c.reap > 1 ? c.reap : qd / 4;
			c.reap_wait_ns = TUNE_REAP_WAIT_NS;
			n += add(t, MODEL_TUNE_BATCH, &c) > 0;
		}
		c = t->best;
		if (t->waits.no_iowait) {
			tune_not_tried(t, "--no-iowait", "", "the kernel has no IORING_ENTER_NO_IOWAIT "
				       "(Linux 6.15)");
		} else if (!c.no_iowait) {
			c.no_iowait = true;
			n += add(t, MODEL_TUNE_BATCH, &c) > 0;
		}
	}
	for (i = 0; i < 5; i++) {
		for (j = 0; j < 3; j++) {
			if (!b[i] || !r[j])
				continue;
			/* sqpoll reaps in the kernel's thread: reap is no knob there */
			if (t->best.mode == ENG_MODE_SQPOLL && r[j] != t->best.reap)
				continue;
			c = t->best;
			c.batch = b[i];
			c.reap = r[j];
			rc = add(t, MODEL_TUNE_BATCH, &c);
			if (rc < 0)
				return rc;
			n += rc;
		}
	}
	return n;
}

static int place_stage(struct tune *t)
{
	cpu_set_t cs;
	int allowed[TUNE_MAX_CPUS], pu0, pu1, rc, n = 0;
	unsigned na = 0, workers = t->best.jobs * t->ntargets, k, i;
	struct tune_cfg c;
	struct topo *tp = NULL;

	rc = add(t, MODEL_TUNE_PLACE, &t->best);
	if (rc < 0)
		return rc;
	n += rc;
	c = t->best;
	c.ncpus = 0;
	c.smt = false;
	c.placement = TOPO_PLACE_LOCAL;
	n += add(t, MODEL_TUNE_PLACE, &c) > 0;
	c.placement = TOPO_PLACE_NONE;
	n += add(t, MODEL_TUNE_PLACE, &c) > 0;
	/* every worker on CPUs named in turn: which CPUs the load itself
	 * favours (one busy with something else, one near the interrupts) */
	if (!sched_getaffinity(0, sizeof(cs), &cs))
		for (i = 0; i < CPU_SETSIZE && na < TUNE_MAX_CPUS; i++)
			if (CPU_ISSET(i, &cs))
				allowed[na++] = (int)i;
	if (workers <= na && workers <= TUNE_MAX_CPUS) {
		for (k = 0; k < na && k < 8; k++) {
			c = t->best;
			c.placement = TOPO_PLACE_LOCAL;
			c.smt = false;
			c.ncpus = workers;
			for (i = 0; i < workers; i++)
				c.cpus[i] = allowed[(k + i) % na];
			n += add(t, MODEL_TUNE_PLACE, &c) > 0;
		}
	}
	/* two workers on one core's two PUs, where the machine has SMT */
	if (workers == 2 && !topo_load(&tp, NULL, cli_roots()->sysfs) &&
	    !topo_smt_pair(tp, NULL, &pu0, &pu1)) {
		c = t->best;
		c.ncpus = 2;
		c.cpus[0] = pu0;
		c.cpus[1] = pu1;
		c.smt = true;
		n += add(t, MODEL_TUNE_PLACE, &c) > 0;
	}
	topo_free(tp);
	/* one ring for all the devices of a worker */
	if (t->ntargets >= 2 && t->best.mode != ENG_MODE_SQPOLL &&
	    t->best.backend != ENG_BACKEND_LIBAIO) {
		c = t->best;
		c.group = CLI_GROUP_ON;
		c.ncpus = 0;
		c.placement = TOPO_PLACE_LOCAL;
		n += add(t, MODEL_TUNE_PLACE, &c) > 0;
	} else if (t->ntargets >= 2) {
		not_tried(t, "--group", "on", t->best.mode == ENG_MODE_SQPOLL ?
			  "--completion sqpoll hands the ring to a kernel thread" :
			  "libaio has no ring to share");
	}
	return n;
}

int tune_space(struct tune *t, enum model_tune_stage s)
{
	t->stage_first[s] = t->ncand;
	if (t->o->tune_stages && !(t->o->tune_stages & (1u << s)))
		return add(t, s, &t->best);	/* --stages leaves it as carried in */
	switch (s) {
	case MODEL_TUNE_ENGINE: return engine_stage(t);
	case MODEL_TUNE_DEPTH: return depth_stage(t);
	case MODEL_TUNE_BATCH: return batch_stage(t);
	case MODEL_TUNE_PLACE: return place_stage(t);
	case MODEL_TUNE_NSTAGES: break;
	}
	return -EINVAL;
}

void tune_not_tried(struct tune *t, const char *option, const char *value, const char *why)
{
	not_tried(t, option, value, why);
}
