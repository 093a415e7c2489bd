/* Job files through libinih. The handler only collects key, value and line;
 * checking waits until the command is known (the file's `command`, or the
 * verb on the command line, which wins). */
#include "cli/opts/jobfile.h"

#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts/opts.h"
#include "cli/opts/qd_list.h"

struct reader {
	FILE *f;
	int line;		/* of the line inih is handling */
	size_t size;		/* bytes read so far */
	bool too_big;		/* more than CLI_JOBFILE_MAX: reading stopped */
	int bad_line;		/* the first line inih cannot hold, 0: none */
	int bad_max;		/* its buffer's, when that line is too long */
	int read_err;		/* errno of a failed read (a directory), 0: none */
};

struct parse_ctx {
	struct cli_jobfile *j;
	struct reader *r;
	int err_line;
	char *err;
	size_t errlen;
	bool failed;
	bool oom;		/* the error said is "out of memory" */
};

static void fail_at(struct parse_ctx *c, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail_at(struct parse_ctx *c, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->failed)
		return;	/* the first error is the one to fix */
	c->failed = true;
	c->err_line = line;
	n = snprintf(c->err, c->errlen, "%s:%d: ", c->j->path, line);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < c->errlen)
		vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

/* Out of memory is the machine's fault, not the file's: -ENOMEM. */
static void fail_oom(struct parse_ctx *c, int line)
{
	if (!c->failed)
		c->oom = true;
	fail_at(c, line, "out of memory");
}

/* inih reads one line per call, so counting calls gives the line number
 * that the handler's entry comes from. A whole line per call: one longer
 * than inih's buffer (fgets would hand over the rest as the next line,
 * numbered wrong, perhaps as a key of its own) or with a NUL byte (the
 * rest of the line unseen) is cut here and refused at the end. Nothing
 * is allocated: a line is read into inih's buffer a byte at a time, the
 * rest of a long one dropped, and the file stops at CLI_JOBFILE_MAX, so
 * /dev/zero ends too. A failed read is kept apart from the file's end
 * (ferror), so it is never taken for an empty file. */
static char *read_line(char *str, int num, void *stream)
{
	struct reader *r = stream;
	size_t n = 0, kept = 0;
	bool nul = false;
	int c = EOF;

	if (r->too_big || r->read_err || num < 1)
		return NULL;
	errno = 0;
	while ((c = getc(r->f)) != EOF) {
		if (++r->size > CLI_JOBFILE_MAX) {
			r->too_big = true;
			return NULL;
		}
		if (c == '\n')
			break;
		if (kept + 1 < (size_t)num)
			str[kept++] = (char)c;
		nul |= c == '\0';
		n++;
	}
	if (c == EOF && ferror(r->f)) {
		r->read_err = errno ? errno : EIO;
		return NULL;
	}
	if (c == EOF && !n)
		return NULL;
	r->line++;
	str[kept] = '\0';	/* inih needs no newline */
	if (!r->bad_line && (n > kept || nul)) {
		r->bad_line = r->line;
		r->bad_max = n > kept ? (int)kept : 0;
	}
	return str;
}

/* `target` words, split on blanks, or the first problem given to c. One
 * that starts with '-' is refused: on the command's argv it would be read
 * as an option ("-q"), not as a target. */
static void add_targets(struct parse_ctx *c, int line, const char *key, const char *value)
{
	struct cli_jobfile *j = c->j;
	char *copy = strdup(value), *tok, *save = NULL, **t;

	if (!copy) {
		fail_oom(c, line);
		return;
	}
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (tok[0] == '-') {
			fail_at(c, line, "bad value for %s: '%s' starts with '-' (write ./%s for a "
				"file of that name)", key, tok, tok);
			break;
		}
		t = realloc(j->targets, (j->ntargets + 1) * sizeof(*t));
		if (t)
			j->targets = t;
		if (!t || !(j->targets[j->ntargets] = strdup(tok))) {
			fail_oom(c, line);
			break;
		}
		j->ntargets++;
	}
	free(copy);
}

static int add_entry(struct cli_jobfile *j, const char *key, const char *value, int line)
{
	struct cli_job_entry *e;

	if (j->n == j->cap) {
		e = realloc(j->e, (j->cap ? 2 * j->cap : 16) * sizeof(*e));
		if (!e)
			return -ENOMEM;
		j->e = e;
		j->cap = j->cap ? 2 * j->cap : 16;
	}
	e = &j->e[j->n];
	e->key = strdup(key);
	e->value = strdup(value);
	e->line = line;
	if (!e->key || !e->value) {
		free(e->key);
		free(e->value);
		return -ENOMEM;
	}
	j->n++;
	return 0;
}

/* The verbs a job file's `command` may name, for the message. */
static void job_verbs(char *buf, size_t len)
{
	size_t i, n = 0, k = 0;

	for (i = 0; i < cli_nverbs; i++)
		n += cli_verbs[i]->jobfile;
	buf[0] = '\0';
	for (i = 0; i < cli_nverbs; i++) {
		if (!cli_verbs[i]->jobfile)
			continue;
		k++;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 k == 1 ? "" : k == n ? " or " : ", ", cli_verbs[i]->name);
	}
}

static void set_command(struct parse_ctx *c, int line, const char *value)
{
	const struct cli_verb *v = cli_verb_find(value);
	char names[128];

	if (v && v->jobfile) {
		snprintf(c->j->command, sizeof(c->j->command), "%s", value);
		return;
	}
	job_verbs(names, sizeof(names));
	fail_at(c, line, "bad value for command: '%s' (%s)", value, names);
}

static int on_entry(void *user, const char *section, const char *name, const char *value)
{
	struct parse_ctx *c = user;
	struct cli_jobfile *j = c->j;
	int line = c->r->line;

	if (!*section) {
		fail_at(c, line, "key '%s' outside a section (put it under [job])", name);
	} else if (strcmp(section, "job")) {
		fail_at(c, line, "unknown section '[%s]' (use [job])", section);
	} else if (!strcmp(name, "command")) {
		set_command(c, line, value);
	} else if (!strcmp(name, "target") || !strcmp(name, "targets")) {
		if (!*value)
			fail_at(c, line, "bad value for %s: empty", name);
		else
			add_targets(c, line, name, value);
	} else if (add_entry(j, name, value, line)) {
		fail_oom(c, line);
	}
	return 1;	/* keep going: inih reports syntax errors by line */
}

int cli_jobfile_read(struct cli_jobfile *j, const char *path, char *err, size_t errlen)
{
	struct reader r = { NULL, 0, 0, false, 0, 0, 0 };
	struct parse_ctx c = { j, &r, 0, err, errlen, false, false };
	int rc;

	memset(j, 0, sizeof(*j));
	j->path = path;
	r.f = fopen(path, "r");
	if (!r.f) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot read the job file: %s", path, strerror(errno));
		return rc;
	}
	rc = ini_parse_stream(read_line, &r, on_entry, &c);
	fclose(r.f);
	/* a file that cannot be read is no file's contents to complain of;
	 * inih's -2: its line buffer could not be allocated */
	if (r.read_err || rc == -2) {
		r.read_err = r.read_err ? r.read_err : ENOMEM;
		snprintf(err, errlen, "%s: cannot read the job file: %s", path,
			 strerror(r.read_err));
		return -r.read_err;
	}
	if (r.too_big) {
		snprintf(err, errlen, "%s: longer than %u MiB: not a job file", path,
			 CLI_JOBFILE_MAX >> 20);
		return -EINVAL;
	}
	if (rc > 0 && (!c.failed || rc < c.err_line)) {
		c.failed = c.oom = false;
		fail_at(&c, rc, "not a 'key = value' line or a [section]");
	}
	/* before any complaint about what was left of that line */
	if (r.bad_line && (!c.failed || r.bad_line <= c.err_line)) {
		c.failed = c.oom = false;
		if (r.bad_max)
			fail_at(&c, r.bad_line, "longer than %d characters", r.bad_max);
		else
			fail_at(&c, r.bad_line, "a NUL byte in the line");
	}
	if (rc < 0)
		fail_oom(&c, 0);
	return !c.failed ? 0 : c.oom ? -ENOMEM : -EINVAL;
}

/* Options for cmd, as its command line starts. */
static void opts_for(struct cli_opts *o, const char *cmd)
{
	const struct cli_verb *v = cli_verb_find(cmd);

	cli_opts_init(o, cmd, v ? v->groups : 0);
}

/* A key that is a flag of o's verb (key = true|false in a job file). */
static bool is_flag(const struct cli_opts *o, const char *key)
{
	const struct cli_optdesc *d = cli_opt_find(o, key);

	return d && !d->arg;
}

/* One key against the command, by the setter its option has on the
 * command line; 0, -ENOENT (unknown) or -EINVAL (bad value, msg filled). */
static int check_one(const char *cmd, const struct cli_job_entry *e, char *msg, size_t len)
{
	struct cli_opts o;
	bool b;
	int rc;

	opts_for(&o, cmd);
	if (is_flag(&o, e->key))
		return cli_parse_flag(e->key, e->value, &b, msg, len);
	rc = cli_opts_set(&o, e->key, e->value, msg, len);
	return rc == -ENOENT ? -ENOENT : rc ? -EINVAL : 0;
}

static int push_arg(struct cli_jobfile *j, const char *cmd, const struct cli_job_entry *e)
{
	struct cli_opts o;
	bool flag, on = false;
	char **a, *s;

	opts_for(&o, cmd);
	flag = is_flag(&o, e->key);
	if (flag && (cli_parse_flag(e->key, e->value, &on, NULL, 0) || !on))
		return 0;	/* false: the default, nothing to say */
	if (flag ? asprintf(&s, "--%s", e->key) < 0
		 : asprintf(&s, "--%s=%s", e->key, e->value) < 0)
		return -ENOMEM;
	a = realloc(j->args, (j->nargs + 1) * sizeof(*a));
	if (!a) {
		free(s);
		return -ENOMEM;
	}
	j->args = a;
	j->args[j->nargs++] = s;
	return 0;
}

int cli_jobfile_check(struct cli_jobfile *j, const char *cmd, char *err, size_t errlen)
{
	char msg[400];
	unsigned i;
	int rc;

	for (i = 0; i < j->n; i++) {
		const struct cli_job_entry *e = &j->e[i];

		rc = check_one(cmd, e, msg, sizeof(msg));
		if (rc == -ENOENT) {
			snprintf(err, errlen, "%s:%d: unknown key '%s' for %s", j->path, e->line,
				 e->key, cmd);
			return -EINVAL;
		}
		if (rc) {
			snprintf(err, errlen, "%s:%d: bad value for %s: %s", j->path, e->line,
				 e->key, msg);
			return -EINVAL;
		}
		if (push_arg(j, cmd, e)) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
	}
	return 0;
}

/* Whether option word a takes the next word as its value, as getopt_long
 * reads it: "--name" (or an abbreviation) without "=value", or a cluster
 * of short letters ("-qd") whose last letter needs a value. */
static bool value_follows(const struct cli_opts *o, const char *a)
{
	const struct cli_optdesc *d;

	if (a[1] == '-') {
		d = strchr(a, '=') ? NULL : cli_opt_find_abbrev(o, a + 2);
		return d && d->arg;
	}
	for (a++; *a; a++) {
		d = cli_opt_find_short(o, (unsigned char)*a);
		if (!d)
			return false;	/* getopt refuses the word */
		if (d->arg)
			return !a[1];	/* the rest of the word is its value */
	}
	return false;
}

/* Whether the command line (after the verb) goes without the file's
 * targets: it names a target (anything that is neither an option nor an
 * option's value), or it ends with an option that lacks its value, which
 * the file's first target must not become (a forgotten --json FILE wrote
 * the report over the target). Which options take a value is asked of
 * the verb's options. */
static bool has_operands(const char *cmd, int argc, char **argv)
{
	struct cli_opts o;
	int i;

	opts_for(&o, cmd);
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			return i + 1 < argc;
		if (a[0] == '-' && a[1]) {
			if (value_follows(&o, a) && ++i == argc)
				return true;	/* the command says it lacks a value */
			continue;
		}
		return true;
	}
	return false;
}

int cli_jobfile_argv(const struct cli_jobfile *j, const char *cmd, int argc,
		     char **argv, char ***out)
{
	bool own = has_operands(cmd, argc, argv);
	size_t n = 1 + j->nargs + (size_t)argc + (own ? 0 : j->ntargets);
	char **a = calloc(n + 1, sizeof(*a));
	size_t k = 0;
	unsigned i;

	if (!a)
		return -ENOMEM;
	a[k++] = (char *)cmd;
	for (i = 0; i < j->nargs; i++)
		a[k++] = j->args[i];
	for (i = 0; i < (unsigned)argc; i++)
		a[k++] = argv[i];
	for (i = 0; !own && i < j->ntargets; i++)
		a[k++] = j->targets[i];
	a[k] = NULL;
	*out = a;
	return (int)k;
}

void cli_jobfile_free(struct cli_jobfile *j)
{
	unsigned i;

	for (i = 0; i < j->n; i++) {
		free(j->e[i].key);
		free(j->e[i].value);
	}
	for (i = 0; i < j->ntargets; i++)
		free(j->targets[i]);
	for (i = 0; i < j->nargs; i++)
		free(j->args[i]);
	free(j->e);
	free(j->targets);
	free(j->args);
	memset(j, 0, sizeof(*j));
}
