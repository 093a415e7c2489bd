/* No allocation in the measured window: the workers allocate everything at
 * setup, and the loop that submits and reaps never calls malloc, calloc,
 * realloc, aligned_alloc, posix_memalign or free (STYLE.md: no allocation
 * per IO). The binary is linked with -Wl,--wrap for each of them (the
 * Makefile's rule for this test), so every direct call from our objects,
 * the engine's included, comes through the counters below; that works under
 * the sanitizers too, whose allocators the __real_ calls reach. Only calls
 * on threads other than this one count: the engine's workers (this thread's
 * own calls, in the engine's controller functions or in this test, are not
 * the hot path's). The counter is read here, around the window, so the
 * loop carries no hook: at the start of the ramp, when measuring begins and
 * just before the stop. Each backend, with and without latency, and two
 * workers at once, must leave it where it was; a snapshot is taken inside
 * the window, as the CLI's timeline does once a second. */
#include "tests/test_engine_util.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);
int __real_posix_memalign(void **p, size_t align, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t n);
int __wrap_posix_memalign(void **p, size_t align, size_t n);
void __wrap_free(void *p);

static _Atomic uint64_t n_alloc, n_free;	/* on other threads */
static _Thread_local bool t_main;		/* set on main's thread only */

static void note(_Atomic uint64_t *n)
{
	if (!t_main)
		atomic_fetch_add_explicit(n, 1, memory_order_relaxed);
}

void *__wrap_malloc(size_t n)
{
	note(&n_alloc);
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	note(&n_alloc);
	return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	note(&n_alloc);
	return __real_realloc(p, n);
}

void *__wrap_aligned_alloc(size_t align, size_t n)
{
	note(&n_alloc);
	return __real_aligned_alloc(align, n);
}

int __wrap_posix_memalign(void **p, size_t align, size_t n)
{
	note(&n_alloc);
	return __real_posix_memalign(p, align, n);
}

void __wrap_free(void *p)
{
	note(&n_free);
	__real_free(p);
}

struct counts {
	uint64_t alloc, free;
};

static struct counts counts_now(void)
{
	struct counts c = {
		atomic_load_explicit(&n_alloc, memory_order_acquire),
		atomic_load_explicit(&n_free, memory_order_acquire),
	};

	return c;
}

/* Every worker has completed an IO since measuring began (bounded: a
 * worker the scheduler has not run yet gets up to 10 s). */
static bool all_moved(struct eng_run *r, const uint64_t *base, unsigned n)
{
	struct eng_progress p;
	unsigned i, waited;

	for (waited = 0; waited < 10000; waited += 5) {
		for (i = 0; i < n; i++)
			if (eng_run_progress(r, i, 1, &p) || p.ndone || p.ios <= base[i])
				break;
		if (i == n)
			return true;
		tu_sleep_ms(5);
	}
	return false;
}

/* Creates, ramps, measures, stops: the allocation counters must move at
 * setup (the wrapping works) and not at all from the ramp to the stop. */
static void window(const char *what, const struct eng_job *jobs, unsigned n)
{
	struct counts setup0, start, measure, end;
	struct eng_progress p;
	struct eng_run *r = NULL;
	uint64_t base[2] = { 0, 0 };
	unsigned i;
	int ret, seq;

	setup0 = counts_now();
	ret = eng_run_create(&r, jobs, n);
	CHECKF(ret == 0, "%s: create %d", what, ret);
	if (ret) {
		eng_run_destroy(r);
		return;
	}
	start = counts_now();
	/* a wrap that is not there would pass everything below */
	CHECKF(start.alloc > setup0.alloc, "%s: no allocation seen at setup: "
	       "built without the --wrap link flags?", what);
	eng_run_start(r);
	tu_sleep_ms(20);
	eng_run_measure(r);
	measure = counts_now();
	for (i = 0; i < n; i++)
		base[i] = eng_run_progress(r, i, 1, &p) ? 0 : p.ios;
	CHECKF(all_moved(r, base, n), "%s: a worker completed nothing after measuring began", what);
	tu_sleep_ms(100);
	seq = eng_run_snapshot(r);
	CHECKF(seq > 0, "%s: snapshot %d", what, seq);
	if (seq > 0)
		CHECKF(eng_run_snapshot_wait(r, seq, 10ull * 1000000000ull) == (int)n,
		       "%s: not every worker answered the snapshot", what);
	tu_sleep_ms(100);
	end = counts_now();
	eng_run_stop(r);
	eng_run_join(r);
	CHECKF(measure.alloc == start.alloc && measure.free == start.free,
	       "%s: the ramp allocated %" PRIu64 " and freed %" PRIu64 " times", what,
	       measure.alloc - start.alloc, measure.free - start.free);
	CHECKF(end.alloc == measure.alloc && end.free == measure.free,
	       "%s: the measured window allocated %" PRIu64 " and freed %" PRIu64 " times",
	       what, end.alloc - measure.alloc, end.free - measure.free);
	for (i = 0; i < n; i++)
		tu_check_result(what, eng_run_result(r, i), &jobs[i]);
	eng_run_destroy(r);
}

/* An allowed CPU other than 0 (where tu_job pins), else 0. */
static int second_cpu(void)
{
	cpu_set_t set;
	int i;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		for (i = 1; i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, &set))
				return i;
	return 0;
}

int main(void)
{
	static const enum eng_backend backends[] = { ENG_BACKEND_IO_URING, ENG_BACKEND_LIBAIO };
	struct eng_target t;
	struct eng_job j[2];
	char what[96];
	const char *path;
	unsigned b, lat;
	int ret;

	t_main = true;
	tu_clock();
	path = tu_data_file(8 << 20);
	ret = eng_target_open(&t, path, false);
	CHECKF(ret == 0, "open %s: %d", path, ret);
	if (ret)
		return t_result();
	for (b = 0; b < 2; b++) {
		for (lat = 0; lat < 2; lat++) {
			j[0] = tu_job(&t, backends[b], ENG_MODE_IRQ);
			j[0].latency = lat;
			snprintf(what, sizeof(what), "%s, latency %s",
				 eng_backend_name(backends[b]), lat ? "on" : "off");
			window(what, j, 1);
		}
		/* two workers on two CPUs where there are two */
		j[1] = j[0];
		j[1].seed = 2;
		j[1].cpu = second_cpu();
		snprintf(what, sizeof(what), "%s, two workers", eng_backend_name(backends[b]));
		window(what, j, 2);
	}
	/* the open loop (--rate): its own loop, both waits (a timed sleep at
	 * 2000/s, spinning at 200k/s), Poisson gaps */
	for (lat = 0; lat < 2; lat++) {
		j[0] = tu_job(&t, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
		j[0].rate = lat ? 200000 : 2000;
		j[0].arrival = lat ? ENG_ARRIVAL_POISSON : ENG_ARRIVAL_UNIFORM;
		snprintf(what, sizeof(what), "io_uring open loop at %.0f/s", j[0].rate);
		window(what, j, 1);
	}
	j[0] = tu_job(NULL, ENG_BACKEND_IO_URING, ENG_MODE_IRQ);
	window("io_uring nop", j, 1);
	eng_target_close(&t);
	return t_result();
}
