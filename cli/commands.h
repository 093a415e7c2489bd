/* One function per verb; each parses its own options and returns the
 * process exit status (0 ok, 1 runtime error, 2 usage error). */
#ifndef CLI_COMMANDS_H
#define CLI_COMMANDS_H

#define CLI_EXIT_OK 0
#define CLI_EXIT_RUNTIME 1
#define CLI_EXIT_USAGE 2

#ifndef IOSTORM_VERSION
#define IOSTORM_VERSION "0.1.0"
#endif

int cli_cmd_run(int argc, char **argv);
int cli_cmd_nop(int argc, char **argv);
int cli_cmd_topo(int argc, char **argv);
int cli_cmd_saturate(int argc, char **argv);
int cli_cmd_latency(int argc, char **argv);
int cli_cmd_sweep(int argc, char **argv);

#endif
