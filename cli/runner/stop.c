/* Stop requests: SIGINT and SIGTERM end a run cleanly, and a second
 * request ends the wait for stuck workers (cli/runner/runner.h). */
#include "cli/runner/stop.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#include "engine/clock.h"

static _Atomic int stop_signal;

/* The first signal only sets the flag: the reporting loop notices it
 * within a tick and stops cleanly. A second request (a device that hangs
 * and never lets the workers drain) ends the wait for the workers at once:
 * the report is written with the stuck devices marked stalled, and the
 * command ends with cli_command_abandon (cli/command.h). A third
 * takes the default action, in case the main thread is stuck itself. One request
 * can arrive twice, though: GNU timeout signals its child and then its own
 * process group, from the same pid within microseconds. The same signal
 * from the same sending process within a second is that duplicate, not a
 * second request; a terminal's ^C (sent by the kernel) always counts. */
static volatile sig_atomic_t stop_sig, stop_pid;
static _Atomic uint64_t stop_ns;

static bool same_request(int sig, const siginfo_t *si, uint64_t now)
{
	return si && si->si_code == SI_USER && si->si_pid != 0 && sig == stop_sig &&
	       si->si_pid == stop_pid &&
	       now - atomic_load_explicit(&stop_ns, memory_order_relaxed) < 1000000000ull;
}

static void on_signal(int sig, siginfo_t *si, void *uctx)
{
	uint64_t now = eng_mono_ns();	/* clock_gettime: async-signal-safe */

	(void)uctx;
	if (!atomic_exchange_explicit(&stop_signal, 1, memory_order_relaxed)) {
		stop_sig = sig;
		stop_pid = si && si->si_code == SI_USER ? si->si_pid : 0;
		atomic_store_explicit(&stop_ns, now, memory_order_relaxed);
		return;
	}
	if (same_request(sig, si, now))
		return;
	if (atomic_exchange_explicit(&stop_signal, 2, memory_order_relaxed) == 1)
		return;
	signal(sig, SIG_DFL);
	raise(sig);
}

void cli_runner_signals(void)
{
	static bool installed;
	struct sigaction sa;

	if (installed)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	installed = true;
}

bool cli_runner_interrupted(void)
{
	return atomic_load_explicit(&stop_signal, memory_order_relaxed);
}

/* A second stop request: wait for no worker any more. */
bool cli_runner_hurried(void)
{
	return atomic_load_explicit(&stop_signal, memory_order_relaxed) > 1;
}
