/* Stop requests (SIGINT, SIGTERM) (cli/runner/stop.c). A process whose
 * workers are stuck in the kernel ends with cli_command_abandon
 * (cli/command.h). */
#ifndef CLI_RUNNER_STOP_H
#define CLI_RUNNER_STOP_H

#include <stdbool.h>

/* SIGINT or SIGTERM arrived (handlers are installed by the first run, or
 * by cli_runner_signals). */
bool cli_runner_interrupted(void);
/* A second stop request came: wait for no worker any more. */
bool cli_runner_hurried(void);
void cli_runner_signals(void);

#endif
