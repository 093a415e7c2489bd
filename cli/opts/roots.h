/* Where sysfs and procfs facts are read: $IOSTORM_SYSFS_ROOT and
 * $IOSTORM_PROCFS_ROOT, a recorded tree in place of the live /sys and
 * /proc. Read here once and handed down as a parameter: nothing below
 * cli/ reads the environment for them (topo/sysfs.h). */
#ifndef CLI_OPTS_ROOTS_H
#define CLI_OPTS_ROOTS_H

#include "setup/setup.h"

/* The roots (a field NULL: the live machine's). Lives for the process;
 * the environment is read on the first call, from any thread. */
const struct setup_roots *cli_roots(void);

#endif
