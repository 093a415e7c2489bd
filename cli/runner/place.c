/* Worker placement for every command that runs the engine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report/out.h"
#include "cli/runner/place.h"
#include "cli/runner/pollq.h"
#include "cli/opts/roots.h"
#include "cli/words/notes_words.h"
#include "topo/topo.h"

#define PLACE_MAX_SAID 64
#define PLACE_MAX_NOTES_SAID 256

static struct topo *place_topo;
static bool place_topo_failed;

static void place_release(void)
{
	topo_free(place_topo);
	place_topo = NULL;
}

/* The live machine, loaded once per process: saturate places many steps.
 * quiet: for --cpus, whose workers are pinned without it (only its CPU
 * kinds are wanted), a failure says nothing. */
static struct topo *place_live_topo(bool quiet)
{
	int ret;

	if (place_topo || place_topo_failed)
		return place_topo;
	ret = topo_load(&place_topo, NULL, cli_roots()->sysfs);
	if (ret) {
		place_topo_failed = true;
		place_topo = NULL;
		if (!quiet)
			cli_say("cannot read the machine's topology (%s): workers are not pinned",
				strerror(-ret));
		return NULL;
	}
	atexit(place_release);
	return place_topo;
}

/* Each note once per process, however many steps place workers. */
static void place_say_once(const char *text)
{
	static char said[PLACE_MAX_SAID][TOPO_NOTE_LEN];
	static unsigned nsaid;
	unsigned i;

	for (i = 0; i < nsaid; i++)
		if (!strcmp(said[i], text))
			return;
	if (nsaid < PLACE_MAX_SAID)
		memcpy(said[nsaid++], text, TOPO_NOTE_LEN);
	cli_say("%s", text);
}

/* Whether a note was said by an earlier call (saturate places every step):
 * the same kind and facts of the same device, whatever its index; if not,
 * it is now. */
static bool place_note_said(const struct topo_note *nt)
{
	static struct topo_note said[PLACE_MAX_NOTES_SAID];
	static unsigned nsaid;
	unsigned i;

	for (i = 0; i < nsaid; i++)
		if (cli_note_same(&said[i], nt))
			return true;
	if (nsaid < PLACE_MAX_NOTES_SAID)
		said[nsaid++] = *nt;
	return false;
}

/* The notes not said before, one line per kind naming its devices. */
static void place_say_notes(const struct topo_notes *notes, bool sqpoll)
{
	struct topo_note *fresh = calloc(notes->n ? notes->n : 1, sizeof(*fresh));
	char (*lines)[CLI_NOTE_LINE_LEN] = calloc(TOPO_NOTE_NKINDS, sizeof(*lines));
	unsigned i, n = 0;
	int nl = -ENOMEM;

	for (i = 0; fresh && i < notes->n; i++)
		if (!place_note_said(&notes->note[i]))
			fresh[n++] = notes->note[i];
	if (fresh && lines)
		nl = cli_notes_lines(fresh, n, sqpoll ? 2 : 1, lines, TOPO_NOTE_NKINDS);
	for (i = 0; nl > 0 && i < (unsigned)nl; i++)
		cli_say("%s", lines[i]);
	if (nl < 0)
		for (i = 0; i < notes->n; i++) {
			char text[TOPO_NOTE_LEN];

			cli_note_text(&notes->note[i], text, sizeof(text));
			place_say_once(text);
		}
	if (notes->ndropped)
		place_say_once("more placement notes than fit: the rest are left out");
	free(lines);
	free(fresh);
}

/* The LESSER_KIND notes (topo_kind_notes) of the workers' slots, every
 * each-th of slots (the others are SQPOLL threads'): a worker on an
 * efficiency core drives fewer IOPS. 0 or -errno. */
static int place_kind_notes(struct topo *t, const char *const *paths, unsigned ndev,
			    unsigned per, unsigned each, const struct topo_slot *slots,
			    bool given, struct topo_notes *notes)
{
	struct topo_slot *w = calloc((size_t)ndev * per, sizeof(*w));
	unsigned i;
	int ret;

	if (!w)
		return -ENOMEM;
	for (i = 0; i < ndev * per; i++)
		w[i] = slots[i * each];
	ret = topo_kind_notes(t, paths, ndev, w, ndev * per, given, notes);
	free(w);
	return ret;
}

/* Where --cpus put a device's workers on a less performant CPU kind than
 * the machine has, said: the user chose it, but the figures depend on it.
 * Nothing where the topology cannot be read or a target not found. */
static void cpulist_kinds(const struct eng_target *const *targets, unsigned ndev,
			  unsigned per, const struct cli_slot *slots, struct topo_notes **keep)
{
	struct topo *t = targets ? place_live_topo(true) : NULL;
	const char **paths = t ? calloc(ndev, sizeof(*paths)) : NULL;
	struct topo_slot *ts = paths ? calloc((size_t)ndev * per, sizeof(*ts)) : NULL;
	struct topo_notes *notes = ts ? calloc(1, sizeof(*notes)) : NULL;
	unsigned i;

	for (i = 0; notes && i < ndev; i++)
		paths[i] = targets[i]->path;
	for (i = 0; notes && i < ndev * per; i++)
		ts[i] = (struct topo_slot){ .cpu = slots[i].cpu, .node = -1, .dev = i / per };
	if (notes && !topo_kind_notes(t, paths, ndev, ts, ndev * per, true, notes)) {
		place_say_notes(notes, false);
		if (keep) {
			*keep = notes;	/* the caller's now */
			notes = NULL;
		}
	}
	free(notes);
	free(ts);
	free(paths);
}

/* --cpus in order. With sqpoll, a list of two CPUs per worker gives each
 * worker's submission thread the CPU after the worker's; a shorter one
 * leaves it to the engine, which may put it on another worker's CPU. */
static int place_cpulist(const struct cli_run_spec *s, const struct eng_target *const *targets,
			 unsigned ndev, unsigned per, bool sqpoll, struct cli_slot *slots,
			 struct topo_notes **keep)
{
	unsigned i, njobs = ndev * per, each = sqpoll && s->ncpus >= 2 * njobs ? 2 : 1;

	if (s->ncpus < njobs) {
		cli_say("--cpus lists %u CPUs for %u workers: give one CPU per worker",
			s->ncpus, njobs);
		return -EINVAL;
	}
	if (sqpoll && each == 1)
		place_say_once("--completion sqpoll: --cpus has no CPU of their own for the "
			       "submission threads (list two per worker: worker, then its thread)");
	for (i = 0; i < njobs; i++) {
		slots[i].cpu = s->cpus[i * each];
		if (each == 2)
			slots[i].sq_cpu = s->cpus[i * each + 1];
	}
	cpulist_kinds(targets, ndev, per, slots, keep);
	return 0;
}

/* "nvme0n1 on CPUs 0,2 (not 0,1)" for each device whose polling workers
 * got CPUs other than plain placement's, into buf; false: none did. The
 * CPUs are written worker by worker, not as a set (topo/cpu.h's
 * formatter): worker i's CPU is the i-th, and a set would hide which
 * worker moved. */
static bool pollq_moves(const struct eng_target *const *targets, unsigned ndev, unsigned per,
			const struct topo_slot *polled, const struct topo_slot *plain,
			char *buf, size_t len)
{
	size_t at = 0;
	unsigned d, w, k;
	bool any = false;

	buf[0] = '\0';
	for (d = 0; d < ndev; d++) {
		const struct topo_slot *a = polled + (size_t)d * per, *b = plain + (size_t)d * per;

		for (w = 0; w < per && a[w].cpu == b[w].cpu; w++)
			;
		if (w == per)
			continue;
		any = true;
		for (k = 0; k < 2 && at < len; k++) {
			const struct topo_slot *s = k ? b : a;

			at += (size_t)snprintf(buf + at, len - at, k ? " (not " : "%s%s on CPUs ",
					       at ? ", " : "", targets[d]->name);
			for (w = 0; w < per && at < len; w++)
				at += (size_t)snprintf(buf + at, len - at, "%s%d", w ? "," : "",
						       s[w].cpu);
			if (k && at < len)
				at += (size_t)snprintf(buf + at, len - at, ")");
		}
	}
	return any;
}

/* A polled run: each worker on a poll queue of its own where a free core
 * allows (topo_place_polled), said in one line where that differs from
 * the plain placement. Without poll queues known, the plain one. */
static int place_polled(const struct cli_run_spec *s, struct topo *t,
			const struct eng_target *const *targets, const char **paths,
			unsigned *nworkers, unsigned ndev, unsigned per,
			struct topo_slot *slots, struct topo_notes *notes)
{
	struct topo_slot *plain = calloc((size_t)ndev * per, sizeof(*plain));
	struct cli_pollq pq;
	char line[TOPO_NOTE_LEN];
	int ret = plain ? cli_pollq_read(targets, ndev, &pq) : -ENOMEM;

	if (ret) {
		free(plain);
		return ret;
	}
	ret = topo_place_polled(t, s->placement, paths, nworkers, ndev, pq.q, slots, notes);
	if (!ret && !topo_place(t, s->placement, paths, nworkers, ndev, plain, NULL) &&
	    pollq_moves(targets, ndev, per, slots, plain, line, sizeof(line))) {
		char said[TOPO_NOTE_LEN + 64];

		snprintf(said, sizeof(said), "a poll queue of its own for each polling worker: %s",
			 line);
		place_say_once(said);
	}
	cli_pollq_free(&pq);
	free(plain);
	return ret;
}

/* With sqpoll every worker asks for two places near its device: the first
 * for itself, the second for its submission thread. */
static int place_topology(const struct cli_run_spec *s, struct topo *t,
			  const struct eng_target *const *targets, unsigned ndev,
			  unsigned per, bool sqpoll, bool polled, struct cli_slot *out,
			  struct topo_notes **keep)
{
	unsigned each = sqpoll ? 2 : 1, i;
	const char **paths = calloc(ndev, sizeof(*paths));
	unsigned *nworkers = calloc(ndev, sizeof(*nworkers));
	struct topo_slot *slots = calloc((size_t)ndev * per * each, sizeof(*slots));
	struct topo_notes *notes = calloc(1, sizeof(*notes));
	int ret = -ENOMEM;

	if (paths && nworkers && slots && notes) {
		for (i = 0; i < ndev; i++) {
			paths[i] = targets[i]->path;
			nworkers[i] = per * each;
		}
		if (polled && !sqpoll)
			ret = place_polled(s, t, targets, paths, nworkers, ndev, per, slots, notes);
		else
			ret = topo_place(t, s->placement, paths, nworkers, ndev, slots, notes);
		/* a note that cannot be made (out of memory) leaves the
		 * workers where they are */
		if (!ret)
			(void)place_kind_notes(t, paths, ndev, per, each, slots, false, notes);
		if (!s->quiet_advice)
			place_say_notes(notes, sqpoll);
		if (keep && !ret) {
			*keep = notes;	/* the caller's now */
			notes = NULL;
		}
	}
	for (i = 0; !ret && i < ndev * per; i++) {
		out[i].cpu = slots[i * each].cpu;
		out[i].node = slots[i * each].node;
		if (sqpoll)
			out[i].sq_cpu = slots[i * each + 1].cpu;
	}
	if (ret)
		cli_say("cannot place workers (%s)", strerror(-ret));
	free(notes);
	free(slots);
	free(nworkers);
	free(paths);
	/* -EINVAL is cli_place's answer for a usage error: a failure down in
	 * the topology layer is a runtime one whatever its errno */
	return ret == -EINVAL ? -EIO : ret;
}

int cli_place(const struct cli_run_spec *s, const struct eng_target *const *targets,
	      unsigned ndev, unsigned per, enum eng_mode mode, struct cli_slot *slots,
	      struct topo_notes **keep)
{
	bool sqpoll = mode == ENG_MODE_SQPOLL;
	unsigned i, njobs = ndev * per;
	struct topo *t;

	for (i = 0; i < njobs; i++)
		slots[i] = (struct cli_slot){ -1, -1, -1 };
	if (s->ncpus)
		return place_cpulist(s, targets, ndev, per, sqpoll, slots, keep);
	if (!targets || s->placement == TOPO_PLACE_NONE)
		return 0;
	t = place_live_topo(false);
	if (!t)
		return 0;
	return place_topology(s, t, targets, ndev, per, sqpoll,
			      mode == ENG_MODE_POLL || mode == ENG_MODE_HYBRID, slots, keep);
}

int cli_place_notes(const struct cli_run_spec *s, const struct eng_target *const *targets,
		    unsigned ndev, unsigned per, enum eng_mode mode)
{
	struct cli_slot *slots;
	int ret;

	if (s->ncpus || !ndev)
		return 0;	/* --cpus places no worker by the topology */
	slots = calloc((size_t)ndev * per, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	ret = cli_place(s, targets, ndev, per, mode, slots, NULL);
	free(slots);
	return ret;
}
