/* --listen for one command: the endpoint (cli/live/prom.h) bound before
 * any IO, a sink of the live table (cli/live/live.h) for the command's
 * length, then the final figures served for --linger. */
#ifndef CLI_LIVE_LISTEN_H
#define CLI_LIVE_LISTEN_H

#include <stdint.h>

/* Binds where (--listen's [ADDR:]PORT, checked) and adds the endpoint to
 * the live table, to serve the final figures for linger ns at the end
 * (nothing for NULL): 0, or -errno said in one line (a port in use). */
int cli_listen_open(const char *where, uint64_t linger);
/* The command is over: the final figures served for --linger (not after a
 * command that measured nothing: one refused), then the endpoint closed.
 * Nothing when none is open. */
void cli_listen_close(void);

#endif
