/* The targets of a run: opened read-only, checked against the options
 * (block size, range, duplicates). Every failure is one line
 * naming the target and, where we know it, the fix. */
#include "cli/runner/targets.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/runner/limits.h"
#include "cli/report/out.h"
#include "cli/opts/roots.h"
#include "engine/nvme_cmd.h"
#include "topo/topo.h"

/* A char device named like an NVMe namespace's generic device. */
static bool nvme_chr(const char *path)
{
	char *real = realpath(path, NULL);
	const char *base = real ? strrchr(real, '/') : NULL;
	struct stat st;
	bool yes = base && !strncmp(base + 1, "ng", 2) && !stat(real, &st) && S_ISCHR(st.st_mode);

	free(real);
	return yes;
}

/* An NVMe namespace's LBA format in words: "LBA format 2 (4096-byte
 * blocks, 8 bytes of metadata inline, no PI)". */
static void lbaf_words(char *buf, size_t len, const struct eng_nvme_lbaf *f)
{
	char pi[16] = "no PI";

	if (f->pi_type)
		snprintf(pi, sizeof(pi), "PI type %u", f->pi_type);
	snprintf(buf, len, "LBA format %u (%u-byte blocks, %u bytes of metadata %s, %s)", f->index,
		 f->data_bytes, f->ms, f->ext ? "inline" : "apart", pi);
}

static void open_error(const struct eng_target *t, const char *path, int err, bool buffered)
{
	char fmt[128];

	switch (err) {
	case -EMEDIUMTYPE:
		/* drivers/nvme/host/core.c, nvme_init_integrity: no PI to
		 * strip, and no block-layer buffer the metadata could go to */
		lbaf_words(fmt, sizeof(fmt), &t->lbaf);
		cli_say("%s: its %s carries each block's metadata inline, which the block layer "
			"cannot read (the kernel gives it no capacity); NVMe passthrough reads it, "
			"%u bytes a block: --engine io_uring_cmd",
			path, fmt, t->lbaf.data_bytes + t->lbaf.ms);
		break;
	case -ENOENT:
		cli_say("%s: no such file or device", path);
		break;
	case -EISDIR:
		cli_say("%s: is a directory, not a block device or regular file", path);
		break;
	case -ENOTBLK:
		if (nvme_chr(path))
			cli_say("%s: is an NVMe char device: reading it needs --engine io_uring_cmd", path);
		else
			cli_say("%s: is not a block device or regular file", path);
		break;
	case -ENOSPC:
		cli_say("%s: is smaller than one logical block", path);
		break;
	case -EACCES:
	case -EPERM:
		cli_say("%s: permission denied (reading it needs read access, devices usually root)", path);
		break;
	case -EINVAL:
		if (!buffered) {
			cli_say("%s: the file system refuses O_DIRECT: use --buffered", path);
			break;
		}
		/* fall through */
	default:
		cli_say("%s: cannot open: %s", path, strerror(-err));
	}
}

/* --engine io_uring_cmd: the namespace's char device, as the engine found
 * it (t->chr is set once the names were mapped). */
static void open_nvme_error(const struct eng_target *t, const char *path, int err)
{
	switch (err) {
	case -ENOENT:
		if (t->chr[0])
			cli_say("%s: no NVMe char device %s (the kernel makes /dev/ngXnY from Linux 5.13)",
			    path, t->chr);
		else
			cli_say("%s: no such file or device", path);
		break;
	case -EACCES:
	case -EPERM:
		cli_say("%s: permission denied on %s: NVMe passthrough is root-only by default",
		    path, t->chr[0] ? t->chr : path);
		break;
	case -ENODEV:
	case -ENOTBLK:
		cli_say("%s: not an NVMe namespace: --engine io_uring_cmd reads /dev/nvmeXnY or /dev/ngXnY",
		    path);
		break;
	case -ENOTTY:
		cli_say("%s: %s answers no NVMe namespace ID: not an NVMe char device", path, t->chr);
		break;
	default:
		open_error(t, path, err, false);
	}
}

/* --engine io_uring_cmd on this kernel: 0, or -EOPNOTSUPP said. */
static int check_passthru(const struct cli_opts *o)
{
	int ret;

	if (o->backend != ENG_BACKEND_URING_CMD)
		return 0;
	ret = eng_uring_cmd_probe();
	if (ret == -ENOSYS || ret == -EPERM) {
		cli_say("--engine io_uring_cmd: io_uring is refused here (%s)", strerror(-ret));
	} else if (ret) {
		cli_say("--engine io_uring_cmd: this kernel has no NVMe passthrough through io_uring "
			"(IORING_OP_URING_CMD with 128-byte SQEs, Linux 5.19)");
	}
	return ret ? -EOPNOTSUPP : 0;
}

/*
 * How a passthrough read carries the namespace's metadata
 * (engine/nvme_cmd.h): a buffer apart or inline after each block's data
 * (the engine allocates either), none with --pi-act where the PI is all
 * of it. Inline, a command moves more than --bs: that must fit the
 * drive's largest command too. --pi-act needs PI and the passthrough
 * engine (the block layer sets PRACT itself where it has no integrity
 * buffer: drivers/nvme/host/core.c, nvme_setup_rw). 0 or -EINVAL, said.
 */
static int check_format(const struct eng_target *t, const struct cli_opts *o)
{
	const struct eng_nvme_lbaf *f = &t->lbaf;
	char fmt[128];

	if (o->pi_act && !t->passthru) {
		cli_say("--pi-act is for --engine io_uring_cmd (the block layer sets PRACT itself)");
		return -EINVAL;
	}
	if (!t->passthru)
		return 0;
	lbaf_words(fmt, sizeof(fmt), f);
	if (o->pi_act && (!f->known || !f->pi_type)) {
		if (f->known)
			cli_say("--pi-act: %s has no protection information (its %s)", t->path, fmt);
		else
			cli_say("--pi-act: %s did not answer Identify Namespace: its PI is not known",
				t->path);
		return -EINVAL;
	}
	if (f->ext && t->max_io && t->lbs &&
	    (uint64_t)o->bs / t->lbs * (t->lbs + eng_nvme_md_moved(f, o->pi_act)) > t->max_io) {
		cli_say("--bs %u with its metadata inline (%s) is more than %s takes in one command "
			"(%u KiB, its max_hw_sectors_kb)", o->bs, fmt, t->path, t->max_io / 1024);
		return -EINVAL;
	}
	return 0;
}

/* --bs and --range against one target's size and logical block size:
 * 0 or -EINVAL, said. */
static int check_fit(const struct eng_target *t, const struct cli_opts *o)
{
	uint64_t len;

	if (check_format(t, o))
		return -EINVAL;
	if (o->bs % t->lbs) {
		cli_say("--bs %u is not a multiple of %s's logical block size (%u)", o->bs, t->path, t->lbs);
		return -EINVAL;
	}
	if (t->max_io && o->bs > t->max_io) {
		cli_say("--bs %u is more than %s takes in one command (%u KiB, its max_hw_sectors_kb)",
		    o->bs, t->path, t->max_io / 1024);
		return -EINVAL;
	}
	if (o->range_off % t->lbs) {
		cli_say("--range offset %llu is not a multiple of %s's logical block size (%u)",
		    (unsigned long long)o->range_off, t->path, t->lbs);
		return -EINVAL;
	}
	if (o->range_off >= t->size || o->range_len > t->size - o->range_off) {
		cli_say("--range %llu:%llu goes beyond the end of %s (%llu bytes)",
		    (unsigned long long)o->range_off, (unsigned long long)o->range_len,
		    t->path, (unsigned long long)t->size);
		return -EINVAL;
	}
	len = o->range_len ? o->range_len : t->size - o->range_off;
	if (len < o->bs) {
		cli_say("%s: %llu bytes to read is less than one block of --bs %u", t->path,
		    (unsigned long long)len, o->bs);
		return -EINVAL;
	}
	return 0;
}

/* 0 or -EINVAL, said. */
static int check_distinct(const struct cli_targets *ts)
{
	unsigned i, j;

	for (i = 0; i < ts->n; i++) {
		for (j = i + 1; j < ts->n; j++) {
			if (eng_target_same(&ts->t[i], &ts->t[j])) {
				cli_say("%s and %s are the same device", ts->t[i].path, ts->t[j].path);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* Opens o->targets in order: 0 or the first failure's -errno, said. */
static int open_all(struct cli_targets *ts, const struct cli_opts *o)
{
	unsigned i;
	int err = 0;

	err = check_passthru(o);
	for (i = 0; i < o->ntargets && !err; i++) {
		if (o->backend == ENG_BACKEND_URING_CMD) {
			err = eng_target_open_nvme(&ts->t[i], o->targets[i], cli_roots()->sysfs);
			if (err)
				open_nvme_error(&ts->t[i], o->targets[i], err);
			else
				ts->t[i].pi_act = o->pi_act;
		} else {
			err = eng_target_open(&ts->t[i], o->targets[i], o->buffered);
			if (err)
				open_error(&ts->t[i], o->targets[i], err, o->buffered);
		}
		if (!err)
			ts->n++;
	}
	return err;
}

/* --bs and --range fit every target and no device comes twice (that no
 * output is a target, main.c has made sure: cli/report/outpath.h): 0 or
 * -EINVAL, said. */
static int check_targets(const struct cli_targets *ts, const struct cli_opts *o)
{
	unsigned i;
	int err = 0;

	for (i = 0; i < ts->n && !err; i++)
		err = check_fit(&ts->t[i], o);
	if (!err)
		err = check_distinct(ts);
	return err;
}

/* A target that cannot be opened fails at run time, even where open says
 * EINVAL (a file system refusing O_DIRECT); one the options do not fit is
 * a usage error. */
int cli_targets_open(struct cli_targets *ts, const struct cli_opts *o)
{
	struct cli_run_spec spec;	/* the command's, for its limits */
	int err;

	ts->n = 0;
	ts->t = NULL;
	/* the one place the count is checked, for every command */
	if (!o->ntargets || o->ntargets > CLI_MAX_TARGETS) {
		if (o->ntargets)
			cli_say("%u targets: at most %u (try 'iostorm %s --help')", o->ntargets,
				CLI_MAX_TARGETS, o->cmd);
		else
			cli_say("no TARGET given (try 'iostorm %s --help')", o->cmd);
		return -EINVAL;
	}
	ts->t = calloc(o->ntargets ? o->ntargets : 1, sizeof(*ts->t));
	if (!ts->t) {
		cli_say("out of memory");
		return -ENOMEM;
	}
	spec = cli_run_spec_of(o, ENG_OP_READ);
	err = cli_limits_check(o, &spec);
	if (!err && (err = open_all(ts, o)) == -EINVAL)
		err = -EOPNOTSUPP;
	if (!err)
		err = check_targets(ts, o);
	if (err)
		cli_targets_close(ts);
	return err;
}

void cli_targets_close(struct cli_targets *ts)
{
	unsigned i;

	for (i = 0; ts->t && i < ts->n; i++)
		eng_target_close(&ts->t[i]);
	free(ts->t);
	ts->t = NULL;
	ts->n = 0;
}

int cli_nvme_paths(char ***paths)
{
	struct topo *t;
	unsigned i, n;
	char **p;

	*paths = NULL;
	if (topo_load(&t, NULL, cli_roots()->sysfs))
		return 0;
	n = topo_ndevs(t);
	if (n > CLI_MAX_TARGETS) {
		cli_say("%u NVMe namespaces: measuring the first %u (at most %u targets a run)", n,
			CLI_MAX_TARGETS, CLI_MAX_TARGETS);
		n = CLI_MAX_TARGETS;
	}
	p = n ? calloc(n, sizeof(*p)) : NULL;
	for (i = 0; p && i < n; i++)
		if (asprintf(&p[i], "/dev/%s", topo_dev(t, i)->name) < 0)
			break;
	topo_free(t);
	if (n && (!p || i < n)) {
		if (p)
			p[i] = NULL;	/* asprintf leaves it undefined */
		cli_nvme_paths_free(p, i);
		cli_say("out of memory");
		return -ENOMEM;
	}
	*paths = p;
	return (int)n;
}

void cli_nvme_paths_free(char **paths, unsigned n)
{
	unsigned i;

	for (i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}
