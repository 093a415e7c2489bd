/* Where a run's workers go: --cpus in order, else near their devices by the
 * topology layer (--placement local|remote|none). */
#ifndef CLI_PLACE_H
#define CLI_PLACE_H

#include "cli/opts.h"
#include "engine/target.h"

/* Fills cpu[] and node[] for ndev * per workers (device d owns workers
 * d*per .. d*per+per-1); targets NULL means workers without a device (nop).
 * Notes worth knowing before the run (shared cores, a CPU-less node) go to
 * stderr once each. Returns a CLI_EXIT_* status, having said why. */
int cli_place(const struct cli_opts *o, const struct eng_target *const *targets,
	      unsigned ndev, unsigned per, int *cpu, int *node);

#endif
