/* A command's begin and end (cli/command.h). */
#include "cli/command.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/live/listen.h"
#include "cli/live/stream.h"
#include "cli/report/out.h"
#include "cli/report/outpath.h"
#include "cli/runner/stop.h"

int cli_command_begin(const struct cli_opts *o, const char *operands,
		      const struct cli_command_out *out)
{
	int rc = 0;

	if (out->stream && out->report && !strcmp(out->stream, "-") &&
	    !strcmp(out->report, "-")) {
		cli_say("--stream - and --json - both want standard output: give one a file");
		return -EINVAL;
	}
	/* the strings are argv's, which outlives the command */
	rc = cli_outpath_claim_all(o->targets, o->ntargets, operands);
	if (!rc && (cli_outpath_claim(o->topology, "the input") ||
		    cli_outpath_claim(o->from, "the input"))) {
		cli_say("out of memory");
		rc = -ENOMEM;
	}
	/* cli_out_reserve and cli_stream_open say why a path cannot be written */
	if (!rc)
		rc = cli_out_reserve(out->report);
	if (!rc && out->stream)
		rc = cli_stream_open(out->stream, out->stream_cmd);
	/* a port in use is said before any IO, like a file not writable */
	if (!rc && out->listen)
		rc = cli_listen_open(out->listen, o->linger_ns);
	return rc;
}

int cli_command_end(int status)
{
	cli_out_release();	/* a report not written leaves no temporary */
	/* --stream's last line: how the command ended, its report; then
	 * --listen's final figures, served for --linger */
	status = cli_stream_end(status, cli_runner_interrupted());
	cli_listen_close();
	/* what it read and wrote was the command's to protect */
	cli_outpath_forget();
	return status;
}

_Noreturn void cli_command_abandon(int status)
{
	fflush(NULL);
	_exit(cli_command_end(status));
}
