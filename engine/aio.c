/* libaio backend, for kernels or sandboxes without io_uring: io_submit in
 * batches; completions are read straight from the kernel's aio ring in user
 * space, with io_getevents only to sleep when nothing is ready. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/worker.h"

#define AIO_RING_MAGIC 0xa10a10a1u

/* The completion ring the kernel maps at the io_context_t address. */
struct aio_uring {
	unsigned id;
	unsigned nr;
	unsigned head;
	unsigned tail;
	unsigned magic;
	unsigned compat_features;
	unsigned incompat_features;
	unsigned header_length;
	struct io_event events[];
};

/* A thread's one lane: a group never runs on libaio (run.c). */
static void aio_teardown(struct eng_group *g)
{
	struct eng_worker *w = &g->lane[0];

	if (w->a.ctx_ok)
		io_destroy(w->a.ctx);
	w->a.ctx_ok = false;
	free(w->a.events);
	free(w->a.batchv);
	free(w->a.iocbs);
}

static int aio_setup(struct eng_group *g)
{
	struct eng_worker *w = &g->lane[0];
	const struct eng_job *j = w->job;
	int ret;

	/* the union may hold a failed io_uring attempt's bytes */
	memset(&w->a, 0, sizeof(w->a));
	/* the stamp check is io_uring's alone */
	if (j->mode != ENG_MODE_IRQ || j->op != ENG_OP_READ || j->stamps) {
		w->res->stage = j->mode != ENG_MODE_IRQ ? ENG_STAGE_MODE : ENG_STAGE_SETUP;
		w->res->err = -EOPNOTSUPP;
		return -EOPNOTSUPP;
	}
	w->a.iocbs = calloc(j->qd, sizeof(*w->a.iocbs));
	w->a.batchv = calloc(j->batch, sizeof(*w->a.batchv));
	w->a.events = calloc(j->qd, sizeof(*w->a.events));
	if (!w->a.iocbs || !w->a.batchv || !w->a.events) {
		ret = -ENOMEM;
		goto fail;
	}
	memset(&w->a.ctx, 0, sizeof(w->a.ctx));
	ret = io_setup((int)j->qd, &w->a.ctx);
	if (ret)
		goto fail;
	w->a.ctx_ok = true;
	return 0;
fail:
	w->res->stage = ENG_STAGE_SETUP;
	w->res->err = ret;
	aio_teardown(g);
	return ret;
}

static uint32_t aio_prep(struct eng_worker *w, uint64_t now)
{
	uint32_t n = eng_worker_budget(w), i;
	int fd = w->job->target->fd;

	for (i = 0; i < n; i++) {
		uint32_t slot = eng_worker_take_slot(w, now);
		struct iocb *cb = &w->a.iocbs[slot];

		io_prep_pread(cb, fd, w->buf + (size_t)slot * w->bs, w->bs,
			      (long long)eng_rng_offset(&w->rng));
		cb->data = (void *)(uintptr_t)slot;
		w->a.batchv[i] = cb;
	}
	return n;
}

static int aio_submit(struct eng_worker *w, uint32_t n)
{
	uint32_t done = 0;

	while (done < n) {
		int ret = io_submit(w->a.ctx, (long)(n - done), w->a.batchv + done);

		w->calls++;
		if (ret < 0 && ret != -EAGAIN && ret != -EINTR)
			return ret;
		if (ret > 0)
			done += (uint32_t)ret;
	}
	return 0;
}

static inline void aio_complete_one(struct eng_worker *w, const struct io_event *ev,
				    uint64_t now)
{
	uint32_t slot = (uint32_t)(uintptr_t)ev->data;

	/* res is unsigned long: a negative errno wraps, the cast undoes it */
	eng_worker_complete(w, slot, (int)(long)ev->res, now);
}

static uint32_t aio_complete_events(struct eng_worker *w, const struct io_event *ev,
				    uint32_t n, uint64_t now)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		aio_complete_one(w, &ev[i], now);
	if (w->hist)
		eng_worker_flush(w);	/* before the next tick reads it */
	return n;
}

/* Read what is ready from the user-visible ring: no syscall. */
static uint32_t aio_reap_ring(struct eng_worker *w, uint64_t now)
{
	struct aio_uring *ring = (struct aio_uring *)w->a.ctx;
	unsigned head, tail, n = 0;

	if (ring->magic != AIO_RING_MAGIC || ring->incompat_features)
		return 0;
	head = ring->head;
	tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	while (head != tail) {
		aio_complete_one(w, &ring->events[head], now);
		if (++head == ring->nr)
			head = 0;
		n++;
	}
	if (n)
		__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	if (w->hist)
		eng_worker_flush(w);
	return n;
}

static int aio_wait(struct eng_worker *w, uint64_t *now)
{
	int ret;

	eng_worker_publish_inflight(w);
	ret = io_getevents(w->a.ctx, (long)eng_worker_reap_min(w), (long)w->job->qd,
			   w->a.events, NULL);
	w->calls++;
	if (ret < 0)
		return ret == -EINTR ? 0 : ret;
	*now = eng_worker_now(w);
	w->a.nev = (uint32_t)ret;
	return 0;
}

/* A slot freed by a wait is refilled in the next iteration with the wait's
 * own stamp (fresh): a new clock read there would leave the slot idle for
 * as long as the thread took to get back to the top (a preemption, under
 * load), and IOPS x mean latency would fall below the depth. */
static int aio_loop(struct eng_group *g)
{
	struct eng_worker *w = &g->lane[0];
	uint64_t now = 0;
	bool fresh = false;
	int ret = 0;

	for (;;) {
		uint32_t queued, n;

		if (!fresh)
			now = eng_worker_now(w);
		fresh = false;
		/* the tick before completing: see uring_loop */
		(void)eng_worker_tick(w);
		aio_complete_events(w, w->a.events, w->a.nev, now);
		w->a.nev = 0;
		aio_reap_ring(w, now);
		/* stopping: by the tick, or by an IO limit reached just now */
		if (w->stopping && !w->inflight)
			break;
		/* every free slot goes out now, batch iocbs per io_submit: one
		 * left for a later loop would sit idle and the depth in flight
		 * would fall below the depth asked for */
		queued = 0;
		while (!ret && (n = aio_prep(w, now)) > 0) {
			ret = aio_submit(w, n);
			queued += n;
		}
		if (!ret && (!queued || !w->nfree)) {
			now = eng_worker_now(w);
			fresh = true;
			if (!aio_reap_ring(w, now))
				ret = aio_wait(w, &now);
		}
		if (eng_unlikely(ret)) {
			w->fatal = w->fatal ? w->fatal : ret;
			eng_worker_end(w);
			break;
		}
	}
	return ret;
}

const struct eng_backend_ops eng_aio_ops = {
	.name = "libaio",
	.setup = aio_setup,
	.loop = aio_loop,
	.teardown = aio_teardown,
};
