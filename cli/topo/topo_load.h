/* A topology for topo and plan: this machine's, or an lstopo export's,
 * with the one line a failure gets. */
#ifndef CLI_TOPO_LOAD_H
#define CLI_TOPO_LOAD_H

#include "topo/topo.h"

/* Loads xml (NULL: this machine) into *t. 0 or -errno, said: -EINVAL
 * when hwloc refuses the file xml (its contents, a usage error); any other
 * -errno when xml cannot be opened or read, or this machine's topology
 * cannot be loaded (a runtime error). */
int cli_topo_load(const char *xml, struct topo **t);

#endif
