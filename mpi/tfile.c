/* --targets-file: one line per host, its name or rank number first, then
 * its targets separated by white space; `switch=NAME` and `nqn=NQN` name a
 * resource the host shares with others; `#` starts a comment. Rank 0 reads
 * the file and sends its text to every rank, so a file that only the
 * launching node has still works, and every rank judges the same text. */
#include "mpi/mpi_int.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/report/out.h"

#define TFILE_MAX (1u << 20)
#define SEP " \t\r"

void mpi_tline_free(struct mpi_tline *t)
{
	unsigned i;

	for (i = 0; t->targets && i < t->ntargets; i++)
		free(t->targets[i]);
	free(t->targets);
	memset(t, 0, sizeof(*t));
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* A key=value token: 1 taken into t (t NULL: only checked), 0 when tok is
 * a target (a path: no '=' before any '/'), -EINVAL for an unknown key. */
static int resource(const char *tok, struct mpi_tline *t, const char *name,
		    unsigned line, char *err, size_t errlen)
{
	const char *eq = strchr(tok, '='), *slash = strchr(tok, '/');
	const char *kind;

	if (!eq || (slash && slash < eq))
		return 0;
	if (!strncmp(tok, "switch=", 7))
		kind = "switch";
	else if (!strncmp(tok, "nqn=", 4))
		kind = "nqn";
	else {
		snprintf(err, errlen, "%s:%u: unknown key '%.*s' (switch=NAME or nqn=NQN; a target is a path)",
			 name, line, (int)(eq - tok), tok);
		return -EINVAL;
	}
	if (!eq[1] || strlen(eq + 1) >= IMPI_RES_LEN - 8) {
		snprintf(err, errlen, "%s:%u: %s= needs a value of at most %d bytes", name, line,
			 kind, IMPI_RES_LEN - 9);
		return -EINVAL;
	}
	if (!t)
		return 1;
	if (t->nres >= IMPI_MAX_RES) {
		snprintf(err, errlen, "%s:%u: more than %d switch= and nqn= on one line", name,
			 line, IMPI_MAX_RES);
		return -EINVAL;
	}
	snprintf(t->res[t->nres++], IMPI_RES_LEN, "%s %s", kind, eq + 1);
	if (!strcmp(kind, "switch"))
		snprintf(t->sw, sizeof(t->sw), "%s", eq + 1);
	return 1;
}

/* One line's tokens after its key into t (t NULL: only checked). */
static int take_line(char *rest, struct mpi_tline *t, const char *name, unsigned line,
		     char *err, size_t errlen)
{
	char *tok, *save = NULL, **grown;
	unsigned n = 0;
	int rc;

	for (tok = strtok_r(rest, SEP, &save); tok; tok = strtok_r(NULL, SEP, &save)) {
		rc = resource(tok, t, name, line, err, errlen);
		if (rc < 0)
			return rc;
		if (rc)
			continue;
		if (++n > CLI_MAX_TARGETS) {
			snprintf(err, errlen, "%s:%u: more than %u targets", name, line, CLI_MAX_TARGETS);
			return -EINVAL;
		}
		if (!t)
			continue;
		grown = realloc(t->targets, n * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		t->targets = grown;
		t->targets[n - 1] = strdup(tok);
		if (!t->targets[n - 1])
			return -ENOMEM;
		t->ntargets = n;
	}
	return 0;
}

/* The key of a line: its first token; NULL for a blank or comment line. */
static char *line_key(char *s, char **rest)
{
	char *key;

	s[strcspn(s, "#")] = '\0';
	key = s + strspn(s, SEP);
	if (!*key)
		return NULL;
	*rest = key + strcspn(key, SEP);
	if (**rest)
		*(*rest)++ = '\0';
	return key;
}

/* Whether key has a line before line upto; that line in *at. */
static bool seen_before(const char *text, const char *key, unsigned upto, unsigned *at)
{
	char *copy = strdup(text), *s, *nl, *rest, *k;
	unsigned line;
	bool seen = false;

	for (s = copy, line = 1; s && line < upto && !seen; line++) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		k = line_key(s, &rest);
		if (k && !strcmp(k, key)) {
			seen = true;
			*at = line;
		}
		s = nl ? nl + 1 : NULL;
	}
	free(copy);
	return seen;
}

int mpi_tfile_find(const char *text, const char *name, int rank, const char *host,
		   struct mpi_tline *t, char *err, size_t errlen)
{
	char *copy = strdup(text), *s, *nl, *key, *rest, rk[16];
	unsigned line, at, rank_line = 0;
	int rc = 0;

	memset(t, 0, sizeof(*t));
	if (!copy)
		return -ENOMEM;
	snprintf(rk, sizeof(rk), "%d", rank);
	/* every line checked; the rank's own line wins over its host's */
	for (s = copy, line = 1; s && !rc; line++) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		key = line_key(s, &rest);
		if (key && seen_before(text, key, line, &at)) {
			snprintf(err, errlen, "%s:%u: '%s' has a line already (line %u)", name, line,
				 key, at);
			rc = -EINVAL;
		} else if (key) {
			bool mine = !strcmp(key, rk) || (!all_digits(key) && !strcmp(key, host));
			char *dup = mine ? strdup(rest) : NULL;

			rc = take_line(rest, NULL, name, line, err, errlen);
			if (!rc && mine && !dup)
				rc = -ENOMEM;
			if (!rc && mine && (all_digits(key) || !rank_line)) {
				mpi_tline_free(t);
				rc = take_line(dup, t, name, line, err, errlen);
				t->line = line;
				if (all_digits(key))
					rank_line = line;
			}
			free(dup);
		}
		s = nl ? nl + 1 : NULL;
	}
	free(copy);
	if (rc)
		mpi_tline_free(t);
	return rc;
}

int mpi_tfile_load(const struct mpi_ctx *m, char **text)
{
	long len = 0;
	char *buf = NULL;
	FILE *f;
	int rc = CLI_EXIT_OK;

	*text = NULL;
	if (!m->rank) {
		f = fopen(m->targets_file, "re");
		buf = malloc(TFILE_MAX + 1);
		if (!f || !buf) {
			mpi_say(m, "--targets-file %s: %s", m->targets_file,
				f ? "out of memory" : strerror(errno));
			rc = f ? CLI_EXIT_RUNTIME : CLI_EXIT_USAGE;
		} else {
			len = (long)fread(buf, 1, TFILE_MAX + 1, f);
			if (ferror(f) || len > (long)TFILE_MAX) {
				mpi_say(m, "--targets-file %s: %s", m->targets_file,
					ferror(f) ? "cannot read it" : "larger than 1 MiB");
				rc = CLI_EXIT_USAGE;
			} else if (memchr(buf, '\0', (size_t)len)) {
				mpi_say(m, "--targets-file %s: not a text file (a NUL byte)",
					m->targets_file);
				rc = CLI_EXIT_USAGE;
			}
		}
		if (f)
			fclose(f);
		len = rc ? -rc : len;
	}
	MPI_Bcast(&len, 1, MPI_LONG, 0, MPI_COMM_WORLD);
	if (len < 0) {
		free(buf);
		return (int)-len;
	}
	if (m->rank)
		buf = malloc((size_t)len + 1);
	if (!buf) {
		/* it cannot take part in the broadcast: end the job, said */
		cli_say("out of memory");
		MPI_Abort(MPI_COMM_WORLD, CLI_EXIT_RUNTIME);
	}
	MPI_Bcast(buf, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
	buf[len] = '\0';
	*text = buf;
	return CLI_EXIT_OK;
}
