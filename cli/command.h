/* A command's begin and end, one sequence whoever runs it: main.c for
 * every verb, each rank of iostorm-mpi, and a run whose workers never
 * came back (cli_command_abandon). The begin makes the outputs ready
 * before the first IO, so one that could never be written stops the
 * command there; the end closes them however the command ended. */
#ifndef CLI_COMMAND_H
#define CLI_COMMAND_H

#include <stdint.h>

#include "cli/opts/opts.h"

/* Where a command's outputs go. main.c takes them from the options as
 * given; iostorm-mpi names each rank's own (its stream's file, its port)
 * and lets rank 0 alone write the report. */
struct cli_command_out {
	const char *report;	/* the JSON report's path, "-" or NULL: none */
	const char *stream;	/* --stream's path, "-" or NULL: none */
	const char *stream_cmd;	/* the command its header names */
	const char *listen;	/* --listen's [ADDR:]PORT, NULL: none */
};

/* The begin, for the options o: what the command reads (its operands,
 * named `operands` in a refusal, "the target" or "the input"; the files
 * --topology and --from name) is claimed, never to be written over; the
 * report's file is reserved (cli_out_reserve), the stream's file opened
 * (emptied only once the command commits to a run) and the port bound.
 * 0, or -errno having said why (-EINVAL: a usage error). */
int cli_command_begin(const struct cli_opts *o, const char *operands,
		      const struct cli_command_out *out);
/* The end, however the command ended, with its exit status: a report's
 * temporary not replaced is removed, the stream's last line (how the
 * command ended, its report) written, the final figures served for
 * --linger, the claims forgotten. Returns the exit status, which a
 * stream that could not be ended makes a runtime error. */
int cli_command_end(int status);
/* The end of a process whose workers are still in the kernel (stalled),
 * once the report and JSON are written: every stream flushed, the end
 * above, then _exit(status) at once. exit() would run atexit handlers
 * and the sanitizers' leak check while workers still own the run's
 * memory; the kernel then holds the process until their IOs complete
 * (man page: STALLED DEVICES). */
_Noreturn void cli_command_abandon(int status);

#endif
