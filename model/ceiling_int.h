/* Inside the ceiling model: what its three files (ceiling.c: the tree and
 * its capacities; ceil_fill.c: water-filling; ceil_moves.c: the moves)
 * share. Not for callers: they use model/ceiling.h. */
#ifndef MODEL_CEILING_INT_H
#define MODEL_CEILING_INT_H

#include "model/ceiling.h"

/* A path: the drive, its chain up to the top, then its CPU. */
#define CEIL_PATH_MAX (MODEL_CEIL_MAX_DEPTH + 1)

/* Resource i's capacity in IOPS from what the input gives; INFINITY when
 * unknown. A host bridge without a given one: the sum of its children and
 * of the free ports under it. */
double ceil_capacity(const struct model_ceil *m, unsigned i);
/* Link l's capacity in IOPS at m's bs; INFINITY when unknown. */
double ceil_link_capacity(const struct model_ceil *m,
			  const struct model_pcie_link *l);
/* Water-filling alone: every figure but gain, and no binding (what the
 * moves need for each try). */
void ceil_fill(struct model_ceil *m);
/* Drive d's path into path (CEIL_PATH_MAX entries); returns its length. */
unsigned ceil_path(const struct model_ceil *m, unsigned d, int *path);

#endif
