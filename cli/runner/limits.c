/* Resource limits, checked up front. Exit status 1, not 2: the same
 * command fits on a machine with more memory or a higher limit. */
#include "cli/runner/limits.h"

#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli/report/out.h"
#include "engine/hist.h"
#include "topo/topo.h"

/* Descriptors beside targets and rings: stdin/out/err, the JSON file, the
 * demo's loop devices, hwloc reading sysfs. */
#define FD_RESERVE 16u

static const char *fmt_bytes(char *buf, size_t len, unsigned long long b)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)b;
	unsigned i = 0;

	if (b < 1024) {
		snprintf(buf, len, "%llu bytes", b);
		return buf;
	}
	for (v /= 1024; v >= 1024 && i + 1 < sizeof(unit) / sizeof(unit[0]); i++)
		v /= 1024;
	snprintf(buf, len, "%.1f %s", v, unit[i]);
	return buf;
}

static const char *fmt_limit(char *buf, size_t len, rlim_t v)
{
	if (v == RLIM_INFINITY)
		return "unlimited";
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

/* Targets plus one io_uring ring per worker (libaio takes none). */
static int check_files(const struct cli_run_spec *s, unsigned ntargets, unsigned njobs)
{
	unsigned long long need = FD_RESERVE + ntargets;
	char soft[32], hard[32];
	struct rlimit rl;

	if (s->backend != ENG_BACKEND_LIBAIO)
		need += njobs;
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    need <= rl.rlim_cur)
		return 0;
	if (rl.rlim_max == RLIM_INFINITY || need <= rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (!setrlimit(RLIMIT_NOFILE, &rl))
			return 0;
	}
	cli_say("%u target%s and %u worker%s need about %llu file descriptors, more than RLIMIT_NOFILE allows (%s, hard %s): raise it with ulimit -n",
		ntargets, ntargets == 1 ? "" : "s", njobs, njobs == 1 ? "" : "s", need,
		fmt_limit(soft, sizeof(soft), rl.rlim_cur), fmt_limit(hard, sizeof(hard), rl.rlim_max));
	return -EMFILE;
}

/* One worker's memory: its buffers (page-rounded, as the engine maps
 * them), its slot arrays and, when timing, its histogram and snapshot. */
static unsigned long long worker_bytes(const struct cli_opts *o, const struct cli_run_spec *s,
					     bool reads)
{
	unsigned long long page = (unsigned long long)sysconf(_SC_PAGESIZE);
	unsigned long long buf = reads ? (unsigned long long)s->qd * o->bs : 0;

	buf = (buf + page - 1) / page * page;
	return buf + (unsigned long long)s->qd * (sizeof(uint32_t) + sizeof(uint64_t)) +
	       (o->latency ? 2 * sizeof(struct eng_hist) : 0);
}

static int check_memory(const struct cli_opts *o, const struct cli_run_spec *s, unsigned njobs,
			bool reads)
{
	unsigned long long need = worker_bytes(o, s, reads) * njobs;
	char a[32], b[32];
	uint64_t avail;

	if (topo_mem_available(NULL, &avail) || need <= avail)
		return 0;	/* unknown (an old kernel, no /proc): let it try */
	if (reads)
		cli_say("%u worker%s x --qd %u x --bs %u need %s of buffers, more than MemAvailable (%s)",
			njobs, njobs == 1 ? "" : "s", s->qd, o->bs, fmt_bytes(a, sizeof(a), need),
			fmt_bytes(b, sizeof(b), avail));
	else
		cli_say("%u worker%s at --qd %u need %s, more than MemAvailable (%s)", njobs,
			njobs == 1 ? "" : "s", s->qd, fmt_bytes(a, sizeof(a), need),
			fmt_bytes(b, sizeof(b), avail));
	return -ENOMEM;
}

int cli_limits_run(const struct cli_opts *o, const struct cli_run_spec *s, unsigned ntargets,
		   unsigned njobs, bool reads)
{
	int err = check_files(s, ntargets, njobs);

	return err ? err : check_memory(o, s, njobs, reads);
}

int cli_limits_check(const struct cli_opts *o, const struct cli_run_spec *s)
{
	return cli_limits_run(o, s, o->ntargets, o->ntargets * s->jobs_per_device, true);
}

void cli_limits_say_unfixed(const struct cli_opts *o, const struct cli_run_spec *s, int err)
{
	static bool said;
	char a[32], b[32];
	struct rlimit rl;

	if (said)
		return;
	said = true;
	if (s->backend == ENG_BACKEND_URING_CMD && err == -EOPNOTSUPP) {
		cli_say("--engine io_uring_cmd: registered buffers for NVMe commands need Linux 6.1 (IORING_URING_CMD_FIXED): reading into unregistered buffers, a page pin per IO");
		return;
	}
	if (getrlimit(RLIMIT_MEMLOCK, &rl))
		rl.rlim_cur = RLIM_INFINITY;
	cli_say("cannot register %s of buffers per worker with io_uring (%s; RLIMIT_MEMLOCK is %s): reading into unregistered buffers, which costs a page pin per IO (raise it with ulimit -l)",
		fmt_bytes(a, sizeof(a), (unsigned long long)s->qd * o->bs), strerror(-err),
		rl.rlim_cur == RLIM_INFINITY ? "unlimited" : fmt_bytes(b, sizeof(b), rl.rlim_cur));
}
