/* Temporary demo targets for machines without NVMe: data files under
 * /var/tmp (written with real bytes, read with O_DIRECT) and, as root, loop
 * devices on /dev/shm files. Everything created is named
 * iostorm-demo-<pid>-<n>, so a test can check that nothing is left. */
#ifndef CLI_DEMO_H
#define CLI_DEMO_H

#include <stdint.h>

#define CLI_DEMO_FILES 2
#define CLI_DEMO_LOOPS 2
#define CLI_DEMO_MAX (CLI_DEMO_FILES + CLI_DEMO_LOOPS)
#define CLI_DEMO_FILE_DIR "/var/tmp"
#define CLI_DEMO_SHM_DIR "/dev/shm"

struct cli_demo {
	unsigned n;			/* targets ready */
	char path[CLI_DEMO_MAX][64];	/* what to read: a file or /dev/loopN */
	char *paths[CLI_DEMO_MAX];	/* path[i], as an operand list */
	char file[CLI_DEMO_MAX][64];	/* what to unlink at the end, "" none */
	int loop_fd[CLI_DEMO_MAX];	/* open loop device, -1 none */
};

/* Creates the targets of size bytes each, saying what it does on stderr
 * (unless quiet). Stops early when SIGINT/SIGTERM arrive (the runner's
 * flag). Returns 0 or -errno, having said why; call cli_demo_remove in every case. */
int cli_demo_create(struct cli_demo *d, uint64_t size, int quiet);
/* Detaches the loop devices and removes every file. Safe to call twice. */
void cli_demo_remove(struct cli_demo *d);

#endif
