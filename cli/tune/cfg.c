/* tune's configurations: from the options, into a run's spec, by name,
 * as JSON, and a knob at a time (cli/tune/tune.h). */
#include <stdio.h>
#include <string.h>

#include "cli/tune/tune.h"
#include "cli/report/out.h"

void tune_cfg_of(struct tune_cfg *c, const struct cli_opts *o)
{
	unsigned i;

	memset(c, 0, sizeof(*c));
	/* auto is io_uring wherever the kernel takes it; where it does not,
	 * the engine stage finds libaio better anyway */
	c->backend = o->backend == ENG_BACKEND_AUTO ? ENG_BACKEND_IO_URING : o->backend;
	c->mode = o->mode_auto ? ENG_MODE_IRQ : o->mode;
	c->jobs = o->jobs_per_device ? o->jobs_per_device : 1;
	c->qd = o->qd;
	c->batch = o->batch < o->qd ? o->batch : o->qd;
	c->reap = o->reap < o->qd ? o->reap : o->qd;
	c->reap_wait_ns = o->reap_wait_ns;
	c->no_iowait = o->no_iowait;
	c->placement = o->placement;
	for (i = 0; i < o->ncpus && i < TUNE_MAX_CPUS; i++)
		c->cpus[i] = o->cpus[i];
	c->ncpus = i;
	c->group = o->group;
}

bool tune_cfg_same(const struct tune_cfg *a, const struct tune_cfg *b)
{
	unsigned k;

	for (k = 0; k < TUNE_NKNOBS; k++)
		if (tune_knob_differs(a, b, (enum tune_knob)k))
			return false;
	return true;
}

void tune_cfg_spec(const struct tune *t, const struct tune_cfg *c, struct cli_run_spec *s)
{
	*s = cli_run_spec_of(t->o, ENG_OP_READ);
	s->backend = c->backend;
	s->mode = c->mode;
	s->mode_auto = false;
	s->jobs_per_device = c->jobs;
	s->qd = c->qd;
	s->batch = c->batch;
	s->reap = c->reap;
	s->reap_wait_ns = c->reap_wait_ns;
	s->no_iowait = c->no_iowait;
	s->placement = c->placement;
	s->placement_set = true;
	s->cpus = c->ncpus ? c->cpus : NULL;
	s->ncpus = c->ncpus;
	s->group = c->group;
	s->rate = 0;
	s->rates = NULL;
	s->repeat = 1;
	s->repeat_auto = false;
	s->quiet = true;
	s->ios = 0;
	s->interval_ns = TUNE_INTERVAL_NS;
	s->targets = c->backend == ENG_BACKEND_URING_CMD && t->tp_nvme ? t->tp_nvme : t->tp;
	s->ntargets = t->ntargets;
	s->label = "tune";
}

/* "0,1,2": a CPU list as --cpus takes it. */
static const char *cpus_text(const struct tune_cfg *c, char *buf, size_t len)
{
	size_t at = 0;
	unsigned i;
	int w;

	buf[0] = '\0';
	for (i = 0; i < c->ncpus && at < len; i++) {
		w = snprintf(buf + at, len - at, "%s%d", i ? "," : "", c->cpus[i]);
		if (w < 0)
			break;
		at += (size_t)w;
	}
	return buf;
}

const char *tune_cfg_name(const struct tune_cfg *c, char *buf, size_t len)
{
	char cpus[256], wait[48] = "";

	if (c->reap_wait_ns)
		snprintf(wait, sizeof(wait), " within %lluus",
			 (unsigned long long)(c->reap_wait_ns / 1000));
	snprintf(buf, len, "%s %s%s, %u job%s, QD%u, batch %u, reap %u%s, %s%s%s%s",
		 eng_backend_name(c->backend), eng_mode_name(c->mode),
		 c->no_iowait ? " no-iowait" : "", c->jobs,
		 c->jobs == 1 ? "" : "s", c->qd, c->batch, c->reap, wait,
		 c->ncpus ? "CPUs " : topo_policy_name(c->placement),
		 c->ncpus ? cpus_text(c, cpus, sizeof(cpus)) : "",
		 c->smt ? " (SMT siblings)" : "",
		 c->group == CLI_GROUP_ON ? ", group on" : "");
	return buf;
}

json_t *tune_cfg_json(const struct tune_cfg *c)
{
	json_t *cpus = json_null();
	unsigned i;

	if (c->ncpus && (cpus = json_array()))
		for (i = 0; i < c->ncpus; i++)
			json_array_append_new(cpus, json_integer(c->cpus[i]));
	return json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:o, s:b, s:o, s:s, s:b, s:s}",
			 "engine", eng_backend_name(c->backend),
			 "completion", eng_mode_name(c->mode),
			 "jobs_per_device", (json_int_t)c->jobs, "qd", (json_int_t)c->qd,
			 "batch", (json_int_t)c->batch, "reap", (json_int_t)c->reap,
			 "reap_wait_us", c->reap_wait_ns ?
			 json_integer((json_int_t)(c->reap_wait_ns / 1000)) : json_null(),
			 "no_iowait", c->no_iowait,
			 "cpus", cpus ? cpus : json_null(),
			 "placement", topo_policy_name(c->placement), "smt_siblings", c->smt,
			 "group", cli_group_name(c->group));
}

void tune_cfg_knob_from(struct tune_cfg *c, const struct tune_cfg *d, enum tune_knob k)
{
	switch (k) {
	case TUNE_K_ENGINE:
		c->backend = d->backend;
		c->mode = d->mode;
		break;
	case TUNE_K_JOBS:
		c->jobs = d->jobs;
		break;
	case TUNE_K_QD:
		c->qd = d->qd;
		break;
	case TUNE_K_BATCH:
		c->batch = d->batch;
		break;
	case TUNE_K_REAP:
		c->reap = d->reap;
		break;
	case TUNE_K_REAP_WAIT:
		c->reap_wait_ns = d->reap_wait_ns;
		break;
	case TUNE_K_IOWAIT:
		c->no_iowait = d->no_iowait;
		break;
	case TUNE_K_PLACE:
		c->placement = d->placement;
		memcpy(c->cpus, d->cpus, sizeof(c->cpus));
		c->ncpus = d->ncpus;
		c->smt = d->smt;
		break;
	case TUNE_K_GROUP:
		c->group = d->group;
		break;
	case TUNE_NKNOBS:
		break;
	}
	/* a depth taken back holds batch and reap to it, as the engine would */
	if (c->batch > c->qd)
		c->batch = c->qd;
	if (c->reap > c->qd)
		c->reap = c->qd;
}

bool tune_knob_differs(const struct tune_cfg *a, const struct tune_cfg *b, enum tune_knob k)
{
	switch (k) {
	case TUNE_K_ENGINE:
		return a->backend != b->backend || a->mode != b->mode;
	case TUNE_K_JOBS:
		return a->jobs != b->jobs;
	case TUNE_K_QD:
		return a->qd != b->qd;
	case TUNE_K_BATCH:
		return a->batch != b->batch;
	case TUNE_K_REAP:
		return a->reap != b->reap;
	case TUNE_K_REAP_WAIT:
		return a->reap_wait_ns != b->reap_wait_ns;
	case TUNE_K_IOWAIT:
		return a->no_iowait != b->no_iowait;
	case TUNE_K_PLACE:
		return a->placement != b->placement || a->ncpus != b->ncpus ||
		       memcmp(a->cpus, b->cpus, a->ncpus * sizeof(a->cpus[0])) != 0;
	case TUNE_K_GROUP:
		return a->group != b->group;
	case TUNE_NKNOBS:
		break;
	}
	return false;
}

const char *tune_knob_name(enum tune_knob k)
{
	static const char *const names[TUNE_NKNOBS] = {
		[TUNE_K_ENGINE] = "completion", [TUNE_K_JOBS] = "jobs-per-device",
		[TUNE_K_QD] = "qd", [TUNE_K_BATCH] = "batch", [TUNE_K_REAP] = "reap",
		[TUNE_K_REAP_WAIT] = "reap-wait", [TUNE_K_IOWAIT] = "no-iowait",
		[TUNE_K_PLACE] = "placement", [TUNE_K_GROUP] = "group",
	};

	return (unsigned)k < TUNE_NKNOBS ? names[k] : "?";
}

const char *tune_knob_value(const struct tune_cfg *c, enum tune_knob k, char *buf, size_t len)
{
	char cpus[200];

	switch (k) {
	case TUNE_K_ENGINE:
		snprintf(buf, len, "%s %s", eng_backend_name(c->backend), eng_mode_name(c->mode));
		break;
	case TUNE_K_JOBS:
		snprintf(buf, len, "%u", c->jobs);
		break;
	case TUNE_K_QD:
		snprintf(buf, len, "%u", c->qd);
		break;
	case TUNE_K_BATCH:
		snprintf(buf, len, "%u", c->batch);
		break;
	case TUNE_K_REAP:
		snprintf(buf, len, "%u", c->reap);
		break;
	case TUNE_K_REAP_WAIT:
		snprintf(buf, len, "%lluus", (unsigned long long)(c->reap_wait_ns / 1000));
		break;
	case TUNE_K_IOWAIT:
		snprintf(buf, len, "%s", c->no_iowait ? "on" : "off");
		break;
	case TUNE_K_PLACE:
		if (c->ncpus)
			snprintf(buf, len, "cpus %s%s", cpus_text(c, cpus, sizeof(cpus)),
				 c->smt ? " (SMT siblings)" : "");
		else
			snprintf(buf, len, "%s", topo_policy_name(c->placement));
		break;
	case TUNE_K_GROUP:
		snprintf(buf, len, "%s", cli_group_name(c->group));
		break;
	default:
		snprintf(buf, len, "?");
	}
	return buf;
}
