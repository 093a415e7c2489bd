/* ENG_BACKEND_AUTO falls back to libaio when io_uring_setup is refused with
 * EPERM. kernel.io_uring_disabled=1 (Linux 6.6+) refuses it to processes
 * without CAP_SYS_ADMIN outside io_uring_group; this test drops that
 * capability from its own threads, so other root processes on the machine
 * (tests running beside it) keep io_uring, which =2 would take from them.
 * The old value is restored at exit, also when a check fails. An explicit
 * io_uring backend must fail instead (stage SETUP, -EPERM). */
#include "tests/test_engine_util.h"

#include <signal.h>

#define SYSCTL "/proc/sys/kernel/io_uring_disabled"

static int saved = -1;

static int sysctl_read(void)
{
	FILE *f = fopen(SYSCTL, "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int sysctl_write(int v)
{
	FILE *f = fopen(SYSCTL, "w");
	int ret = 0;

	if (!f)
		return -errno;
	if (fprintf(f, "%d\n", v) < 0)
		ret = -EIO;
	if (fclose(f) != 0 && !ret)
		ret = -errno;
	return ret;
}

static void restore(void)
{
	if (saved >= 0 && sysctl_write(saved) != 0)
		fprintf(stderr, "could not restore %s to %d\n", SYSCTL, saved);
	saved = -1;
}

static void on_signal(int sig)
{
	restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

int main(void)
{
	struct eng_target t;
	struct eng_job j;
	struct eng_run *r = NULL;
	const struct eng_result *res;
	const char *path;
	int ret;

	tu_clock();
	saved = sysctl_read();
	if (saved < 0)
		SKIP("skip: no " SYSCTL " (Linux before 6.6)");
	if (geteuid() != 0)
		SKIP("skip: setting kernel.io_uring_disabled needs root");
	atexit(restore);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	path = tu_data_file(4 << 20);
	ret = eng_target_open(&t, path, false);
	CHECKF(ret == 0, "open %s: %d", path, ret);
	if (ret)
		return t_result();
	if (tu_drop_cap(CAP_SYS_ADMIN) != 0) {
		eng_target_close(&t);
		SKIP("skip: cannot drop CAP_SYS_ADMIN");
	}
	if (saved == 0 && sysctl_write(1) != 0) {
		eng_target_close(&t);
		SKIP("skip: cannot write " SYSCTL " (read-only /proc?)");
	}

	j = tu_job(&t, ENG_BACKEND_AUTO, ENG_MODE_IRQ);
	ret = tu_run(&r, &j, 1, 10, 100);
	CHECKF(ret == 0, "auto with io_uring disabled: create %d", ret);
	if (!ret) {
		res = eng_run_result(r, 0);
		CHECKF(res->fell_back && res->fallback_err == -EPERM,
		       "fell_back %d err %d", res->fell_back, res->fallback_err);
		CHECKF(res->backend == ENG_BACKEND_LIBAIO, "backend %s",
		       eng_backend_name(res->backend));
		tu_check_result("auto fallback", res, &j);
	}
	eng_run_destroy(r);
	r = NULL;

	j = tu_job(&t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	ret = eng_run_create(&r, &j, 1);
	CHECKF(ret == -EPERM, "explicit io_uring with io_uring disabled: %d", ret);
	if (r) {
		res = eng_run_result(r, 0);
		CHECKF(res->stage == ENG_STAGE_SETUP && res->err == -EPERM &&
		       !res->fell_back, "stage %d err %d fell_back %d",
		       (int)res->stage, res->err, res->fell_back);
	}
	eng_run_destroy(r);
	r = NULL;

	/* NOP has nowhere to fall back to */
	j = tu_job(NULL, ENG_BACKEND_AUTO, ENG_MODE_IRQ);
	ret = eng_run_create(&r, &j, 1);
	CHECKF(ret != 0, "auto nop with io_uring disabled succeeded");
	eng_run_destroy(r);

	ret = saved;
	restore();
	CHECKF(sysctl_read() == ret, "sysctl not restored to %d", ret);
	eng_target_close(&t);
	return t_result();
}
