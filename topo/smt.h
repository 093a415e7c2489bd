/* SMT siblings: two PUs of one core, for the short measurement that says
 * what a core's second hardware thread adds to a worker (the ceiling
 * model's CPU resource). Never prints; 0 or -errno. */
#ifndef TOPO_SMT_H
#define TOPO_SMT_H

#include "topo/topo.h"

/* The first two PUs (OS indexes) of the first core inside cpus (a
 * device's local set, topo_dev's cpuset; NULL: the whole machine) that has
 * at least two allowed PUs. -ENOENT: no such core (no SMT, or SMT off);
 * -ENOMEM. */
int topo_smt_pair(struct topo *t, const struct topo_cpuset *cpus, int *pu0, int *pu1);

#endif
