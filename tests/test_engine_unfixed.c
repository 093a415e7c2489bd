/* io_uring buffers over RLIMIT_MEMLOCK: the kernel refuses to register
 * them (ENOMEM) for a process without CAP_IPC_LOCK, and the worker reads
 * into them unregistered instead of failing, with fixed_bufs false and
 * the reason in unfixed_err. Buffers under the limit are registered. This
 * test drops CAP_IPC_LOCK from its own threads only. */
#include "tests/test_engine_util.h"

#include <sys/resource.h>

/* One io_uring worker at depth qd, checked. */
static void run_at(const struct eng_target *t, uint32_t qd, const char *what,
		  bool want_fixed)
{
	struct eng_job j = tu_job(t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	const struct eng_result *res;
	struct eng_run *r = NULL;
	int ret;

	j.qd = qd;
	j.batch = j.batch < qd ? j.batch : qd;
	ret = tu_run(&r, &j, 1, 10, 100);
	CHECKF(ret == 0, "%s: create %d", what, ret);
	if (!ret) {
		res = eng_run_result(r, 0);
		tu_check_result(what, res, &j);
		CHECKF(res->fixed_bufs == want_fixed, "%s: fixed_bufs %d", what, res->fixed_bufs);
		CHECKF(res->unfixed_err == (want_fixed ? 0 : -ENOMEM), "%s: unfixed_err %d", what,
		       res->unfixed_err);
	}
	eng_run_destroy(r);
}

int main(void)
{
	struct rlimit rl = { 64 << 10, 64 << 10 };
	struct eng_target t;
	const char *path;
	int ret;

	tu_clock();
	path = tu_data_file(4 << 20);
	ret = eng_target_open(&t, path, false);
	CHECKF(ret == 0, "open %s: %d", path, ret);
	if (ret)
		return t_result();
	if (tu_drop_cap(CAP_IPC_LOCK) != 0 || setrlimit(RLIMIT_MEMLOCK, &rl) != 0) {
		eng_target_close(&t);
		SKIP("skip: cannot drop CAP_IPC_LOCK or lower RLIMIT_MEMLOCK");
	}
	/* 64 x 4 KiB = 256 KiB: over the 64 KiB limit */
	run_at(&t, 64, "qd 64 over RLIMIT_MEMLOCK", false);
	/* 4 x 4 KiB = 16 KiB: registered */
	run_at(&t, 4, "qd 4 under RLIMIT_MEMLOCK", true);
	eng_target_close(&t);
	return t_result();
}
