/* The session lock and the recovery of a dead measurement's settings,
 * said (cli/check/restore.h). */
#include "cli/check/restore.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts/roots.h"
#include "cli/report/out.h"

int cli_check_lock(struct setup_lock *l)
{
	char path[PATH_MAX];
	pid_t holder = 0;
	int ret = setup_journal_path(path, sizeof(path));

	if (!ret)
		ret = setup_session_lock(l, path, &holder);
	if (ret == -EBUSY && holder > 0)
		cli_say("another 'check --measure' runs (pid %ld): one at a time, since each "
			"changes settings under the other's trials", (long)holder);
	else if (ret == -EBUSY)
		cli_say("another 'check --measure' runs (its pid cannot be seen from here): one at "
			"a time, since each changes settings under the other's trials");
	else if (ret)
		cli_say("cannot take the lock of the journal of changed settings (%s.lock): %s",
			path, strerror(-ret));
	return ret;
}

static const char *field(enum setup_id_diff d)
{
	switch (d) {
	case SETUP_ID_PATH: return "its /sys/devices path";
	case SETUP_ID_DEVT: return "its device number";
	case SETUP_ID_DISKSEQ: return "its diskseq";
	default: return "nothing";
	}
}

/* The differing field's value then and now, "7:3 then, 7:9 now". */
static void then_now(const struct setup_recovered *d, char *buf, size_t len)
{
	switch (d->diff) {
	case SETUP_ID_PATH:
		snprintf(buf, len, "%s then, %s now", d->was.path, d->now.path);
		break;
	case SETUP_ID_DEVT:
		snprintf(buf, len, "%u:%u then, %u:%u now", d->was.major, d->was.minor,
			 d->now.major, d->now.minor);
		break;
	default:
		snprintf(buf, len, "%lld then, %lld now", d->was.diskseq, d->now.diskseq);
		break;
	}
}

/* A line for each disk whose settings did not go back, and why. */
static void say_disks(const struct setup_recovery *r, const char *path)
{
	const struct setup_recovered *d;
	char what[2 * SETUP_DEVPATH_MAX + 32];
	unsigned i;

	for (i = 0; i < r->ndisks; i++) {
		d = &r->disk[i];
		if (!d->gone && !d->err && d->diff != SETUP_ID_SAME) {
			then_now(d, what, sizeof(what));
			cli_say("%s is not the disk the journal %s names (%s: %s): its %u "
				"setting%s not put back", d->was.disk, path, field(d->diff), what,
				d->nset, d->nset == 1 ? " was" : "s were");
		} else if (d->err == -ETIMEDOUT) {
			cli_say("%s: the kernel did not take a setting within %d s (a stalled "
				"queue?): its settings were not all put back (journal %s)",
				d->was.disk, SETUP_KNOB_WRITE_MS / 1000, path);
		} else if (d->err) {
			cli_say("cannot put back the settings an interrupted 'check --measure' "
				"left changed on %s (journal %s): %s", d->was.disk, path,
				strerror(-d->err));
		}
	}
}

/* A disk's failure was said (say_disks). */
static bool disk_failed(const struct setup_recovery *r)
{
	unsigned i;

	for (i = 0; i < r->ndisks; i++)
		if (r->disk[i].err)
			return true;
	return false;
}

static unsigned gone_of(const struct setup_recovery *r)
{
	unsigned i, n = 0;

	for (i = 0; i < r->ndisks; i++)
		n += r->disk[i].gone * r->disk[i].nset;
	return n;
}

/* What the recovery of the journal at path did, said; n its answer. */
static int say_recovery(const struct setup_recovery *r, const char *path, int n)
{
	unsigned gone = gone_of(r);

	if (r->other_boot) {
		cli_say("the journal %s is from another boot (%s): its settings went back to "
			"their defaults when that boot ended; not applied, removed", path, r->boot);
		return 0;
	}
	if (n == -EPROTONOSUPPORT) {
		cli_say("the journal %s is an older iostorm's, which named disks by name only: "
			"not applied; put back by hand what it lists, then remove it", path);
		return n;
	}
	say_disks(r, path);
	/* a journal refused whole (not a journal, not ours), or one whose
	 * removal failed: no disk said why */
	if (n < 0 && !disk_failed(r)) {
		cli_say("cannot put back the settings an interrupted 'check --measure' left "
			"changed (journal %s): %s", path, strerror(-n));
		return n;
	}
	if (n > 0 || gone)
		cli_say("put back %d setting%s an interrupted 'check --measure' left changed "
			"(journal %s)%s", n > 0 ? n : 0, n == 1 ? "" : "s", path,
			gone ? "; the others were on devices that are gone" : "");
	return n < 0 ? n : 0;
}

int cli_check_recover(const struct setup_lock *held)
{
	struct setup_recovery *r = NULL;
	struct setup_lock own = { -1 };
	char path[PATH_MAX];
	pid_t holder = 0;
	int n = setup_journal_path(path, sizeof(path));

	/* nothing to do, and no lock file made, when there is no journal */
	if (!n)
		n = setup_journal_exists(path);
	if (n <= 0) {
		if (n)
			cli_say("cannot look for the journal of changed settings %s: %s", path,
				strerror(-n));
		return n;
	}
	if (!held)
		n = setup_session_lock(&own, path, &holder);
	if (n == -EBUSY) {
		cli_say("a 'check --measure' runs (pid %ld): the settings its journal %s holds "
			"are its own to put back", (long)holder, path);
		return n;
	}
	r = n ? NULL : malloc(sizeof(*r));
	if (!n && !r)
		n = -ENOMEM;
	if (!n)
		n = say_recovery(r, path, setup_knobs_recover(path, cli_roots(), r));
	else
		cli_say("cannot put back the settings an interrupted 'check --measure' left "
			"changed (journal %s): %s", path, strerror(-n));
	free(r);
	setup_session_unlock(&own);
	/* the kernel refusing a value is no usage error */
	return n == -EINVAL ? -EIO : n;
}
