/* Where a run's workers go: --cpus in order, else near their devices by the
 * topology layer (--placement local|remote|none). */
#ifndef CLI_PLACE_H
#define CLI_PLACE_H

#include <stdbool.h>

#include "cli/runner/spec.h"
#include "engine/engine.h"
#include "engine/target.h"

/* Where one worker goes: its CPU, its memory node and, for SQPOLL, the
 * CPU of its kernel submission thread (-1: unpinned / first touch / the
 * engine's choice). */
struct cli_slot {
	int cpu;
	int node;
	int sq_cpu;
};

/* Fills slots for ndev * per workers (device d owns workers d*per ..
 * d*per+per-1); targets NULL means workers without a device (nop). mode
 * is the run's: with sqpoll each worker's submission thread gets a local
 * CPU of its own too; a polled run's workers get a poll queue each where a
 * free core allows, said in one line where that moved one.
 * Notes worth knowing before the run (shared cores, a CPU-less node) go to
 * stderr once each, one line per kind naming every device it concerns
 * ("loop0-loop5 are each a loop device ..."), and every note, said or
 * not, into *keep (a new struct, the caller's to free; left as it was
 * where nothing placed the workers: --placement none, no topology; keep
 * NULL: not kept) for the report. Returns 0, -EINVAL when --cpus lists fewer CPUs than
 * workers (a usage error), or another -errno when placement failed (a
 * runtime error); either way it has said why. */
int cli_place(const struct cli_run_spec *s, const struct eng_target *const *targets,
	      unsigned ndev, unsigned per, enum eng_mode mode, struct cli_slot *slots,
	      struct topo_notes **keep);

/* The notes cli_place would give for these workers, said now (and so not
 * again by later calls), the slots dropped: a command that places many
 * runs (saturate's steps, each device alone first) names every device in
 * one line per kind before the first. Nothing with --cpus. 0 or -errno,
 * having said why. */
int cli_place_notes(const struct cli_run_spec *s, const struct eng_target *const *targets,
		    unsigned ndev, unsigned per, enum eng_mode mode);

#endif
