/* eng_membw_measure on buffers of the test's own: every writer's prepare
 * runs once, on a thread of its own; the bytes it reports are the bytes
 * the buffers show were written (each pass writes its number into every
 * chunk, so the chunks' last values count the chunks written); the rate
 * is those bytes over the timed window, which lasts at least the budget.
 * A prepare that fails calls the run off before anyone writes: its error
 * comes back, nothing is reported, and no buffer gets a pass. Refused: no
 * writers, no budget, a buffer not aligned, a length that is not whole
 * chunks. No assertion on how fast this machine writes. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/membw.h"
#include "tests/helpers.h"

#define NW 2
#define LEN (16 * ENG_MEMBW_CHUNK)
#define BUDGET_NS 50000000ull
#define FILL 0xaa

struct prep {
	_Atomic int calls;
	_Atomic pid_t tid;
	int ret;
};

static int prepare(void *arg)
{
	struct prep *p = arg;

	atomic_fetch_add(&p->calls, 1);
	atomic_store(&p->tid, gettid());
	return p->ret;
}

/* A chunk's pass number: FILL (as made) where the pages were placed
 * without a write, which is pass 0 as a memset's 0 is. */
static unsigned pass_of(unsigned char v)
{
	return v == FILL ? 0 : v;
}

/* Chunks written into buf while timed, from each chunk's last value: the
 * first m chunks hold the last pass's number P, the rest P - 1. -1: the
 * contents fit no such run (a chunk written in part, a pass count that
 * wrapped). */
static long chunks_written(const unsigned char *buf, uint64_t len)
{
	uint64_t n = len / ENG_MEMBW_CHUNK, i, k, m = 0;
	unsigned last = pass_of(buf[0]);

	for (i = 0; i < n; i++) {
		const unsigned char *c = buf + i * ENG_MEMBW_CHUNK;

		for (k = 0; k < ENG_MEMBW_CHUNK; k++)
			if (c[k] != c[0])
				return -1;
		if (pass_of(c[0]) == last && m == i)
			m++;
		else if (pass_of(c[0]) + 1u != last)
			return -1;
	}
	if (!last)
		return 0;
	return (long)((last - 1) * n + m);
}

static int make_writers(struct eng_membw_writer *w, struct prep *p)
{
	unsigned i;

	memset(w, 0, NW * sizeof(*w));
	for (i = 0; i < NW; i++) {
		w[i].buf = aligned_alloc(4096, LEN);
		if (!w[i].buf)
			return -ENOMEM;
		memset(w[i].buf, FILL, LEN);
		w[i].len = LEN;
		w[i].prepare = prepare;
		w[i].arg = &p[i];
	}
	return 0;
}

static void free_writers(struct eng_membw_writer *w)
{
	unsigned i;

	for (i = 0; i < NW; i++)
		free(w[i].buf);
}

static void measured(void)
{
	struct eng_membw_writer w[NW];
	struct prep p[NW] = { 0 };
	struct eng_membw m;
	uint64_t chunks = 0;
	unsigned i;
	long c;
	int ret;

	CHECK(make_writers(w, p) == 0);
	ret = eng_membw_measure(w, NW, BUDGET_NS, &m);
	CHECKF(ret == 0, "%d", ret);
	for (i = 0; i < NW; i++) {
		CHECKF(p[i].calls == 1, "writer %u: prepared %d times", i, p[i].calls);
		CHECKF(p[i].tid != gettid(), "writer %u: prepared on the caller's thread", i);
		c = chunks_written(w[i].buf, LEN);
		CHECKF(c > 0, "writer %u: buffer shows %ld chunks written", i, c);
		chunks += c > 0 ? (uint64_t)c : 0;
	}
	CHECKF(p[0].tid != p[1].tid, "both writers prepared on thread %d", (int)p[0].tid);
	if (!ret) {
		CHECKF(m.bytes == chunks * ENG_MEMBW_CHUNK, "%" PRIu64 " bytes reported, %" PRIu64
		       " written", m.bytes, (uint64_t)(chunks * ENG_MEMBW_CHUNK));
		CHECKF(m.ns >= BUDGET_NS, "%" PRIu64 " ns timed", m.ns);
		CHECKF(m.ns && fabs(m.bytes_s - (double)m.bytes * 1e9 / (double)m.ns) <=
		       1e-9 * m.bytes_s, "%.0f B/s for %" PRIu64 " bytes in %" PRIu64 " ns",
		       m.bytes_s, m.bytes, m.ns);
		printf("%u writers: %.2f GB/s (%" PRIu64 " MiB in %.3f s)\n", NW, m.bytes_s / 1e9,
		       m.bytes >> 20, (double)m.ns / 1e9);
	}
	free_writers(w);
}

static void prepare_fails(void)
{
	struct eng_membw_writer w[NW];
	struct prep p[NW] = { 0 };
	struct eng_membw m = { .bytes = 12345 };
	unsigned i;
	uint64_t k;
	int ret;

	CHECK(make_writers(w, p) == 0);
	p[1].ret = -EPERM;
	ret = eng_membw_measure(w, NW, BUDGET_NS, &m);
	CHECKF(ret == -EPERM, "a failed prepare: %d", ret);
	CHECKF(m.bytes == 12345, "a failed run wrote its result: %" PRIu64, m.bytes);
	for (i = 0; i < NW; i++) {
		CHECKF(p[i].calls == 1, "writer %u: prepared %d times", i, p[i].calls);
		/* as made, or 0 where a memset placed it */
		for (k = 0; k < LEN && (w[i].buf[k] == 0 || w[i].buf[k] == FILL); k++)
			;
		CHECKF(k == LEN, "writer %u wrote pass %u after a prepare failed", i,
		       k < LEN ? w[i].buf[k] : 0);
	}
	for (k = 0; k < LEN && w[1].buf[k] == FILL; k++)
		;
	CHECKF(k == LEN, "the writer that failed to prepare touched its buffer");
	free_writers(w);
}

static void refused(void)
{
	static unsigned char buf[ENG_MEMBW_CHUNK + ENG_MEMBW_ALIGN] __attribute__((aligned(4096)));
	struct eng_membw_writer w = { .buf = buf, .len = ENG_MEMBW_CHUNK };
	struct eng_membw m;
	int ret;

	ret = eng_membw_measure(&w, 0, BUDGET_NS, &m);
	CHECKF(ret == -EINVAL, "no writers: %d", ret);
	ret = eng_membw_measure(&w, 1, 0, &m);
	CHECKF(ret == -EINVAL, "no budget: %d", ret);
	w.len = ENG_MEMBW_CHUNK + 1;
	ret = eng_membw_measure(&w, 1, BUDGET_NS, &m);
	CHECKF(ret == -EINVAL, "part of a chunk: %d", ret);
	w.len = 0;
	ret = eng_membw_measure(&w, 1, BUDGET_NS, &m);
	CHECKF(ret == -EINVAL, "no length: %d", ret);
	w.len = ENG_MEMBW_CHUNK;
	w.buf = buf + 8;
	ret = eng_membw_measure(&w, 1, BUDGET_NS, &m);
	CHECKF(ret == -EINVAL, "a buffer not aligned: %d", ret);
	w.buf = NULL;
	ret = eng_membw_measure(&w, 1, BUDGET_NS, &m);
	CHECKF(ret == -EINVAL, "no buffer: %d", ret);
}

int main(void)
{
	measured();
	prepare_fails();
	refused();
	return t_result();
}
