/* Stop requests (SIGINT, SIGTERM) and the end of a process whose workers
 * are stuck in the kernel (cli/runner/stop.c). */
#ifndef CLI_RUNNER_STOP_H
#define CLI_RUNNER_STOP_H

#include <stdbool.h>

/* SIGINT or SIGTERM arrived (handlers are installed by the first run, or
 * by cli_runner_signals). */
bool cli_runner_interrupted(void);
/* A second stop request came: wait for no worker any more. */
bool cli_runner_hurried(void);
void cli_runner_signals(void);
/* Flushes every stream and ends the process with exit status rc (a
 * CLI_EXIT_*, from cli_exit_status) at once: for a run
 * whose stalled workers are still in the kernel (out->stalled), once the
 * report and JSON are written. */
_Noreturn void cli_runner_abandon(int rc);

#endif
