/* io_uring backend: fixed buffers, registered file and ring fd, batched
 * submission and reaping, one io_uring_enter per loop. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/nvme_cmd.h"
#include "engine/uring_int.h"
#include "engine/worker.h"

/* Newer than liburing 2.3's header. */
#ifndef IORING_SETUP_HYBRID_IOPOLL
#define IORING_SETUP_HYBRID_IOPOLL (1U << 17)
#endif

/* Registered buffers are limited to 1 GiB each: split the slots into
 * power-of-two regions so an IO's buffer index is a shift, not a divide. */
#define URING_REGION_SHIFT 30

static unsigned uring_mode_flags(const struct eng_job *j)
{
	switch (j->mode) {
	case ENG_MODE_POLL:
		return IORING_SETUP_IOPOLL;
	case ENG_MODE_HYBRID:
		return IORING_SETUP_IOPOLL | IORING_SETUP_HYBRID_IOPOLL;
	case ENG_MODE_SQPOLL:
		return IORING_SETUP_SQPOLL;
	case ENG_MODE_IRQ:
		break;
	}
	return 0;
}

/* Unless told, the SQ thread goes to the next CPU after the worker's that
 * this process may use (not merely the next number: it may be offline or
 * outside the cpuset, and then setup fails with EINVAL). */
static int uring_sq_cpu(const struct eng_job *j)
{
	cpu_set_t set;
	int i, c;

	if (j->sq_cpu >= 0)
		return j->sq_cpu;
	if (j->cpu < 0 || sched_getaffinity(getpid(), sizeof(set), &set))
		return -1;
	for (i = 1; i < CPU_SETSIZE; i++) {
		c = (j->cpu + i) % CPU_SETSIZE;
		if (CPU_ISSET(c, &set))
			return c == j->cpu ? -1 : c;
	}
	return -1;
}

/* Newer than liburing 2.3's header: Linux 6.6, SQ entries indexed by the
 * ring's tail itself, with no SQ array between. */
#ifndef IORING_SETUP_NO_SQARRAY
#define IORING_SETUP_NO_SQARRAY (1U << 16)
#endif

/*
 * io_uring_queue_init_params, but for NO_SQARRAY: liburing before 2.5
 * writes the SQ array's identity map at setup from sq_off.array, which
 * that flag leaves 0, and would write it over the ring's head and tail.
 * Without the flag the map is written here as liburing does.
 */
static int uring_queue_init(unsigned entries, struct io_uring *ring, struct io_uring_params *p)
{
	long fd = syscall(__NR_io_uring_setup, entries, p);
	unsigned i;
	int ret;

	if (fd < 0)
		return -errno;
	ret = io_uring_queue_mmap((int)fd, p, ring);
	if (ret) {
		close((int)fd);
		return ret;
	}
	if (!(p->flags & IORING_SETUP_NO_SQARRAY))
		for (i = 0; i < ring->sq.ring_entries; i++)
			ring->sq.array[i] = i;
	ring->features = p->features;
	return 0;
}

/*
 * Try the cheapest flags first and drop what the kernel refuses:
 * NO_SQARRAY (6.6) is dropped on its own the first time it is refused;
 * then the task-running flags rung by rung: DEFER_TASKRUN (6.1) needs
 * SINGLE_ISSUER (6.0); COOP_TASKRUN is 5.19. SQPOLL takes none of the
 * task-running flags (the kernel thread runs completions), only
 * SINGLE_ISSUER. The completion mode's own flags are never dropped: if
 * even the bare mode fails with EINVAL, the kernel refuses the mode.
 */
int eng_uring_ring_init(struct io_uring *ring, const struct eng_job *j, bool wide,
			unsigned sq_entries, unsigned cq_entries)
{
	static const unsigned ladder[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
			IORING_SETUP_COOP_TASKRUN,
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	unsigned mode = uring_mode_flags(j), i, tried = ~0u;
	unsigned nosq = IORING_SETUP_NO_SQARRAY;
	int ret = -EINVAL, sq_cpu = uring_sq_cpu(j);

	for (i = 0; i < sizeof(ladder) / sizeof(ladder[0]); i++) {
		unsigned rung = ladder[i];
		struct io_uring_params p;

		if (mode & IORING_SETUP_SQPOLL)
			rung &= IORING_SETUP_SINGLE_ISSUER;
		if ((rung | nosq) == tried)
			continue;
		tried = rung | nosq;
		memset(&p, 0, sizeof(p));
		p.flags = rung | nosq | mode | IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP |
			  (wide ? IORING_SETUP_SQE128 | IORING_SETUP_CQE32 : 0);
		p.cq_entries = cq_entries;
		if ((mode & IORING_SETUP_SQPOLL) && sq_cpu >= 0) {
			p.flags |= IORING_SETUP_SQ_AFF;
			p.sq_thread_cpu = (unsigned)sq_cpu;
			p.sq_thread_idle = 1000;
		}
		ret = uring_queue_init(sq_entries, ring, &p);
		if (ret != -EINVAL)
			break;
		if (nosq) {
			nosq = 0;	/* older than 6.6: the same rung again */
			i--;
		}
	}
	return ret;
}

int eng_uring_init(struct eng_worker *w, unsigned sq_entries, unsigned cq_entries)
{
	unsigned mode = uring_mode_flags(w->job);
	int ret = eng_uring_ring_init(&w->u.ring, w->job, w->u.cmd, sq_entries, cq_entries);

	if (!ret) {
		w->res->setup_flags = w->u.ring.flags;
		w->u.ring_ok = true;
		w->u.sqpoll = mode & IORING_SETUP_SQPOLL;
		return 0;
	}
	w->res->stage = (ret == -EINVAL && mode) ? ENG_STAGE_MODE : ENG_STAGE_SETUP;
	w->res->err = ret;
	return ret;
}

/* What lane w reads into: its buffer, --bs a slot; or passthrough's own
 * with metadata inline (uring_md_alloc). */
static void uring_lane_bufs(const struct eng_worker *w, char **base, size_t *len, uint32_t *stride)
{
	bool own = w->u.cmd && w->u.dbuf != (uint64_t)(uintptr_t)w->buf;

	*base = own ? (char *)(uintptr_t)w->u.dbuf : w->buf;
	*len = own ? w->u.dbuf_len : w->buf_len;
	*stride = own ? w->u.dstride : w->bs;
}

unsigned eng_uring_iov_count(const struct eng_worker *lanes, unsigned n)
{
	size_t region = (size_t)1 << URING_REGION_SHIFT, len;
	unsigned k, nv = 0;
	uint32_t stride;
	char *base;

	for (k = 0; k < n; k++) {
		uring_lane_bufs(&lanes[k], &base, &len, &stride);
		nv += (unsigned)((len + region - 1) / region);
	}
	return nv;
}

/* The kernel counts registered buffers against RLIMIT_MEMLOCK (unless the
 * process has CAP_IPC_LOCK): over it, registering fails with ENOMEM (older
 * kernels: EFAULT or EPERM). Plain reads into the same buffers still work,
 * at the cost of pinning pages per IO: fall back and record why. The
 * iovecs are as many as the lanes' buffers take (a lane of more than
 * 1 GiB takes several), allocated here at setup. */
int eng_uring_register_bufs(struct eng_worker *ring_w, struct eng_worker *lanes, unsigned n)
{
	size_t region = (size_t)1 << URING_REGION_SHIFT, off;
	unsigned nv = 0, k, count = eng_uring_iov_count(lanes, n);
	struct iovec *iov = calloc(count ? count : 1, sizeof(*iov));
	int ret;

	if (!iov)
		return -ENOMEM;
	for (k = 0; k < n; k++) {
		struct eng_worker *w = &lanes[k];
		uint32_t stride;
		size_t len;
		char *base;

		uring_lane_bufs(w, &base, &len, &stride);
		w->u.buf_base = nv;
		w->u.region_shift = URING_REGION_SHIFT - (uint32_t)__builtin_ctz(stride);
		for (off = 0; off < len; off += region, nv++) {
			iov[nv].iov_base = base + off;
			iov[nv].iov_len = len - off < region ? len - off : region;
		}
	}
	ret = io_uring_register_buffers(&ring_w->u.ring, iov, nv);
	free(iov);
	for (k = 0; k < n; k++) {
		struct eng_worker *w = &lanes[k];

		if (ret == -ENOMEM || ret == -EFAULT || ret == -EPERM) {
			w->res->unfixed_err = ret;
			continue;
		}
		w->u.fixed = !ret;
		w->res->fixed_bufs = !ret;
	}
	return ret == -ENOMEM || ret == -EFAULT || ret == -EPERM ? 0 : ret;
}

/*
 * Registered buffers for passthrough (IORING_URING_CMD_FIXED) came with
 * Linux 6.1, and distribution kernels carry them back, so the kernel is
 * asked rather than its version: a command no driver knows (cmd_op 0)
 * with the flag set. A kernel without the flag refuses it before any
 * driver sees the command (EINVAL: the field had to be zero); one with it
 * passes the command on, and the driver refuses the unknown op (ENOTTY;
 * EOPNOTSUPP from a file without commands). No IO is done either way.
 */
bool eng_uring_cmd_fixed_probe(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	int ret;

	if (!sqe)
		return false;
	memset(sqe, 0, (ring->flags & IORING_SETUP_SQE128 ? 2 : 1) * sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->flags = IOSQE_FIXED_FILE;
	sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
	ret = io_uring_submit_and_wait(ring, 1);
	if (ret < 0 || io_uring_peek_cqe(ring, &cqe))
		return false;
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret != -EINVAL;
}

/* Lane k's target is registered file k, its buffers from u.buf_base on;
 * passthrough keeps them only where the kernel takes them for commands
 * (the result says why not). */
static int uring_register(struct eng_group *g)
{
	struct eng_worker *w0 = &g->lane[0];
	int fds[ENG_GROUP_MAX], ret;
	unsigned k;

	if (w0->job->op == ENG_OP_NOP)
		return 0;
	if (g->n > sizeof(fds) / sizeof(fds[0]))
		return -E2BIG;
	ret = eng_uring_register_bufs(w0, g->lane, g->n);
	for (k = 0; k < g->n && !ret; k++)
		fds[k] = g->lane[k].job->target->fd;
	if (!ret)
		ret = io_uring_register_files(&w0->u.ring, fds, g->n);
	if (ret || !w0->u.cmd || !w0->u.fixed || eng_uring_cmd_fixed_probe(&w0->u.ring))
		return ret;
	ret = io_uring_unregister_buffers(&w0->u.ring);
	for (k = 0; k < g->n; k++) {
		g->lane[k].u.fixed = false;
		g->lane[k].res->fixed_bufs = false;
		g->lane[k].res->unfixed_err = -EOPNOTSUPP;
	}
	return ret;
}

#ifdef ENG_STAMP_CHECK
#define URING_CHK 1
/*
 * The stamp check (engine.h, struct eng_stampcheck), compiled only into
 * the copy of this file that tests/test_engine_stamps links
 * (mk/stampcheck.mk); the library's copy, the shipped loop, has none of
 * it. Irq mode only, where every SQE is submitted by a call of this thread
 * that it can stamp. Its state is the worker thread's own, so that struct
 * eng_worker is the same in both copies and the rest of the library, built
 * once, agrees with either.
 */
struct uring_chk_state {
	struct eng_stampcheck *c;	/* the job's; NULL: no check */
	uint64_t *sub;		/* per-IO submission stamp of each slot */
	uint32_t *pend;		/* slots prepared since the last submitting call */
	uint32_t npend;
	uint64_t start_ns;	/* the window c covers (eng_worker.t_start_ns) */
};

static _Thread_local struct uring_chk_state uring_chk;

static void uring_chk_teardown(void)
{
	free(uring_chk.sub);
	free(uring_chk.pend);
	memset(&uring_chk, 0, sizeof(uring_chk));
}

static int uring_chk_setup(struct eng_worker *w)
{
	const struct eng_job *j = w->job;

	if (!j->stamps)
		return 0;
	if (j->mode != ENG_MODE_IRQ || !j->latency) {
		w->res->stage = ENG_STAGE_SETUP;
		w->res->err = -EOPNOTSUPP;
		return w->res->err;
	}
	uring_chk.c = j->stamps;
	uring_chk.sub = calloc(j->qd, sizeof(*uring_chk.sub));
	uring_chk.pend = calloc(j->qd, sizeof(*uring_chk.pend));
	if (uring_chk.sub && uring_chk.pend)
		return 0;
	w->res->stage = ENG_STAGE_MEMORY;
	w->res->err = -ENOMEM;
	return w->res->err;
}

/* After the tick: the figures start again with the measured window, so
 * they cover the same IOs as the result's histogram. loop_max stays: the
 * window's first IOs were submitted by the ramp's last loop. */
static void uring_chk_tick(const struct eng_worker *w)
{
	struct eng_stampcheck *c = uring_chk.c;
	uint64_t loop_max;

	if (!c || w->t_start_ns == uring_chk.start_ns)
		return;
	uring_chk.start_ns = w->t_start_ns;
	loop_max = c->loop_max;
	memset(c, 0, sizeof(*c));
	eng_hist_reset(&c->ref);
	c->loop_max = loop_max;
}

/* The stamp check's clock: the loop's own, read here per call or per IO. */
static uint64_t uring_chk_now(void)
{
	return eng_ticks_to_ns(eng_ticks());
}

static void uring_chk_prep(uint32_t slot)
{
	if (uring_chk.c)
		uring_chk.pend[uring_chk.npend++] = slot;
}

/* Right before a call that submits: the per-IO submission stamp of every
 * SQE it carries, and the loop's user-space time so far. */
static void uring_chk_submit(const struct eng_worker *w, uint64_t now)
{
	struct eng_stampcheck *c = uring_chk.c;
	uint64_t t;
	uint32_t i;

	if (!c)
		return;
	t = uring_chk_now();
	for (i = 0; i < uring_chk.npend; i++)
		uring_chk.sub[uring_chk.pend[i]] = t;
	uring_chk.npend = 0;
	if (w->latency && t - now > c->loop_max)
		c->loop_max = t - now;
}

/* As a CQE is read, before the loop completes it: the IO's per-IO latency
 * and how far each of its loop stamps is from the per-IO one. Only the IOs
 * the loop times (eng_done_io's test). */
static void uring_chk_reap(const struct eng_worker *w, uint32_t slot, int res,
			   uint64_t now)
{
	struct eng_stampcheck *c = uring_chk.c;
	uint64_t t, sub, sub_early, cmp_early;

	if (!c || !w->latency || (uint32_t)res != w->expect)
		return;
	t = uring_chk_now();
	sub = uring_chk.sub[slot];
	sub_early = sub - w->slot_ns[slot];
	cmp_early = t - now;
	eng_hist_add(&c->ref, t - sub);
	c->sub_early_sum += sub_early;
	c->cmp_early_sum += cmp_early;
	c->sub_early_max = sub_early > c->sub_early_max ? sub_early : c->sub_early_max;
	c->cmp_early_max = cmp_early > c->cmp_early_max ? cmp_early : c->cmp_early_max;
}
#else
/* The shipped loop: no check, and no trace of one in the binary (the
 * loop's own hooks are no-ops, engine/uring_loop_int.h). */
#define uring_chk_teardown() ((void)0)
#define uring_chk_setup(w) 0
#endif

/* The loop itself, one source for every copy; only closed ones here. */
#define URING_CLOSED_ONLY
#include "engine/uring_loop_int.h"

void eng_uring_teardown(struct eng_group *g)
{
	struct eng_worker *w0 = &g->lane[0];
	unsigned k;

	if (w0->u.ring_ok)
		io_uring_queue_exit(&w0->u.ring);
	w0->u.ring_ok = false;
	for (k = 0; k < g->n; k++) {
		struct eng_worker *w = &g->lane[k];

		free((void *)(uintptr_t)w->u.md);
		if (w->u.dbuf != (uint64_t)(uintptr_t)w->buf)
			free((void *)(uintptr_t)w->u.dbuf);
		w->u.md = 0;
		w->u.dbuf = (uint64_t)(uintptr_t)w->buf;
	}
}

/* A page-aligned zeroed buffer of qd slots of len bytes, as an address
 * (its size in *all): 0 or -ENOMEM (the lane's stage MEMORY). */
static int uring_slots_alloc(struct eng_worker *w, uint32_t len, uint64_t *out, size_t *all_out)
{
	size_t all = ((size_t)w->job->qd * len + 4095) / 4096 * 4096;
	void *p;

	if (posix_memalign(&p, 4096, all)) {
		w->res->stage = ENG_STAGE_MEMORY;
		w->res->err = -ENOMEM;
		return -ENOMEM;
	}
	memset(p, 0, all);
	*out = (uint64_t)(uintptr_t)p;
	if (all_out)
		*all_out = all;
	return 0;
}

/*
 * Passthrough on a namespace with metadata (engine/nvme_cmd.h says why a
 * read must carry it somewhere), allocated here once, never per IO. Apart:
 * a metadata buffer per slot, which the kernel maps per command
 * (nvme_map_user_request), so it cannot be a registered buffer;
 * page-aligned, so that a slot's bytes stay in one page where its size
 * divides the page's, the one segment nvme-pci gives metadata without
 * SGLs. Inline (extended LBA): each slot's transfer holds every block's
 * data and metadata, nlb * (lbs + ms) bytes, in a buffer of its own
 * instead of the worker's (whose slots are --bs apart), its slots a power
 * of two apart so that it is registered as the worker's would be (a
 * region holds whole slots, and a slot's index is a shift). 0 or -ENOMEM
 * (the lane's stage MEMORY).
 */
static int uring_md_alloc(struct eng_worker *w)
{
	const struct eng_target *t = w->job->target;
	uint32_t nlb = w->bs >> t->lba_shift, moved = eng_nvme_md_moved(&t->lbaf, t->pi_act);

	w->u.prinfo = eng_nvme_prinfo(&t->lbaf, t->pi_act);
	if (t->lbaf.ext && moved) {
		w->u.dlen = w->bs + nlb * moved;
		w->u.dstride = 1u << (32 - __builtin_clz(w->u.dlen - 1));
		return uring_slots_alloc(w, w->u.dstride, &w->u.dbuf, &w->u.dbuf_len);
	}
	w->u.md_len = t->lbaf.ext ? 0 : nlb * moved;
	return w->u.md_len ? uring_slots_alloc(w, w->u.md_len, &w->u.md, NULL) : 0;
}

/*
 * An SQE written whole with what never changes between lane w's IOs
 * (opcode, flags, its file, length; for passthrough the 80-byte NVMe Read
 * in the second half of a 128-byte SQE, into a registered buffer where
 * there are some), zeros elsewhere: the kernel only reads SQEs, so
 * uring_prep_as then writes just the fields that differ per IO instead of
 * all of them through liburing's prep helpers.
 */
static void uring_sqe_template(struct io_uring_sqe *sqe, const struct eng_worker *w)
{
	const struct eng_target *t = w->job->target;

	memset(sqe, 0, (w->u.cmd ? 2 : 1) * sizeof(*sqe));
	if (!w->expect && !w->u.cmd) {
		io_uring_prep_nop(sqe);
		return;
	}
	if (w->u.cmd) {
		sqe->opcode = IORING_OP_URING_CMD;
		sqe->cmd_op = NVME_URING_CMD_IO;
		if (w->u.fixed)
			sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
		eng_nvme_read_template((struct nvme_uring_cmd *)(void *)sqe->cmd, t->nsid, w->bs,
				       t->lba_shift, w->u.prinfo, w->u.dlen, w->u.md_len);
	} else if (w->u.fixed) {
		io_uring_prep_read_fixed(sqe, 0, NULL, w->bs, 0, 0);
	} else {
		io_uring_prep_read(sqe, 0, NULL, w->bs, 0);
	}
	sqe->fd = 0;	/* registered file 0 (a group's IO writes its lane's) */
	sqe->flags |= IOSQE_FIXED_FILE;
}

/* Whether a group's block reads differ by lane only in their file: the
 * template's length is every lane's, and each lane's depth fits one
 * registered buffer (struct eng_worker's u.alike). */
static void uring_lanes_alike(struct eng_group *g)
{
	const struct eng_worker *w0 = &g->lane[0];
	bool alike = !w0->u.cmd && w0->expect;
	unsigned k;

	for (k = 0; k < g->n; k++) {
		const struct eng_worker *w = &g->lane[k];

		alike &= w->bs == w0->bs && !((w->job->qd - 1) >> w->u.region_shift);
	}
	for (k = 0; k < g->n; k++)
		g->lane[k].u.alike = alike;
}

/* Every SQE of the ring is written once, with lane 0's template: a
 * group's lanes differ only in what their IOs write (uring_loop_int.h). */
static void uring_templates(struct eng_group *g)
{
	struct io_uring_sq *sq = &g->lane[0].u.ring.sq;
	unsigned i;

	for (i = 0; i < sq->ring_entries; i++)
		uring_sqe_template(uring_sqe_at(sq->sqes, i, g->lane[0].u.cmd), &g->lane[0]);
}

/*
 * The loop's waits (uring_loop_int.h's uring_wait): not iowait where the
 * job asks and the kernel has the flag (an older one refuses an enter
 * flag it does not know with EINVAL: io_uring_enter's check); the
 * minimum wait only where the ring's wait sleeps in io_cqring_wait (a
 * polled ring's polls and reads no timeout: io_iopoll_check), and where
 * the kernel lacks it the job is refused rather than run without its
 * bound (the CLI refuses it before: eng_uring_waits_probe).
 */
static int uring_waits(struct eng_group *g)
{
	struct eng_worker *w0 = &g->lane[0];
	const struct eng_job *j = w0->job;
	unsigned feat = w0->u.ring.features, k;
	bool no_iowait = j->no_iowait && (feat & IORING_FEAT_NO_IOWAIT);

	if (no_iowait)
		w0->u.enter_flags |= IORING_ENTER_NO_IOWAIT;
	for (k = 0; k < g->n; k++)
		g->lane[k].res->no_iowait = no_iowait;
	w0->u.min_wait_us = 0;
	if (!j->reap_wait_us || j->mode == ENG_MODE_POLL || j->mode == ENG_MODE_HYBRID)
		return 0;
	if (!(feat & IORING_FEAT_MIN_TIMEOUT)) {
		w0->res->stage = ENG_STAGE_SETUP;
		w0->res->err = -EOPNOTSUPP;
		return -EOPNOTSUPP;
	}
	w0->u.min_wait_us = j->reap_wait_us;
	return 0;
}

int eng_uring_setup(struct eng_group *g, bool group)
{
	struct eng_worker *w0 = &g->lane[0];
	unsigned k, sq = 0, cq = 0;
	int ret;

	for (k = 0; k < g->n; k++) {
		struct eng_worker *w = &g->lane[k];

		w->u.cmd = w->passthru;
		w->u.lba_shift = w->u.cmd ? w->job->target->lba_shift : 0;
		w->u.file_idx = k;
		w->u.md = 0;
		w->u.md_len = w->u.prinfo = 0;
		w->u.dbuf = (uint64_t)(uintptr_t)w->buf;
		w->u.dlen = w->u.dstride = w->bs;
		sq += w->batch;
		cq += w->job->qd;
	}
	for (k = 0; k < g->n; k++) {
		if (g->lane[k].u.cmd && (ret = uring_md_alloc(&g->lane[k]))) {
			eng_uring_teardown(g);
			return ret;
		}
	}
	/* SQPOLL consumes a single job's SQ ring asynchronously: room for all */
	if (!group && w0->job->mode == ENG_MODE_SQPOLL)
		sq = w0->job->qd;
	ret = eng_uring_init(w0, sq, cq);
	if (ret) {
		eng_uring_teardown(g);
		return ret;
	}
	ret = uring_register(g);
	if (ret) {
		w0->res->stage = ENG_STAGE_REGISTER;
		w0->res->err = ret;
		eng_uring_teardown(g);
		return ret;
	}
	/* saves an fget/fput per enter; older kernels just lack it */
	w0->u.enter_flags = io_uring_register_ring_fd(&w0->u.ring) == 1 ?
			    IORING_ENTER_REGISTERED_RING : 0;
	ret = uring_waits(g);
	if (ret) {
		eng_uring_teardown(g);
		return ret;
	}
	uring_templates(g);
	uring_lanes_alike(g);
	return 0;
}

static void uring_teardown(struct eng_group *g)
{
	eng_uring_teardown(g);
	uring_chk_teardown();
}

/* A group's ring (uring_group.c), or a job alone's: its open loop's and
 * its stamp check's needs besides. */
static int uring_setup(struct eng_group *g)
{
	struct eng_worker *w = &g->lane[0];
	int ret;

	if (g->n > 1)
		return eng_uring_group_setup(g);
	ret = eng_uring_setup(g, false);
	if (ret)
		return ret;
	ret = w->job->rate > 0 ? eng_uring_rate_check(w) : 0;
	if (!ret)
		ret = uring_chk_setup(w);
	if (ret)
		uring_teardown(g);
	return ret;
}

int eng_uring_cmd_probe(void)
{
	struct io_uring ring;
	struct io_uring_probe *p;
	int ret = io_uring_queue_init(2, &ring, IORING_SETUP_SQE128 | IORING_SETUP_CQE32);

	if (ret)
		return ret == -EINVAL ? -EOPNOTSUPP : ret;
	p = io_uring_get_probe_ring(&ring);
	ret = p && io_uring_opcode_supported(p, IORING_OP_URING_CMD) ? 0 : -EOPNOTSUPP;
	io_uring_free_probe(p);
	io_uring_queue_exit(&ring);
	return ret;
}

/* Newer than liburing 2.3's header: registered wait regions, 6.13. */
#ifndef IORING_SETUP_R_DISABLED
#define IORING_SETUP_R_DISABLED (1U << 6)
#endif
#define URING_REGISTER_MEM_REGION 34
#define URING_MEM_REGION_TYPE_USER 1
#define URING_MEM_REGION_REG_WAIT_ARG 1

struct uring_region_desc {
	uint64_t user_addr, size;
	uint32_t flags, id;
	uint64_t mmap_offset;
	uint64_t resv[4];
};

struct uring_mem_region_reg {
	uint64_t region_uptr;
	uint64_t flags;
	uint64_t resv[2];
};

/* Whether a ring takes a page of ours as its registered wait arguments:
 * only a ring created disabled may (io_register_mem_region refuses a
 * live one, EINVAL: no waiter may race the region's setup); a kernel
 * before 6.13 knows no such opcode (EINVAL). 0 or -EOPNOTSUPP. */
static int uring_reg_wait_probe(void)
{
	struct io_uring_params p = { .flags = IORING_SETUP_R_DISABLED };
	long page = sysconf(_SC_PAGESIZE), fd;
	struct uring_region_desc rd = { 0 };
	struct uring_mem_region_reg reg = { 0 };
	void *mem = NULL;
	int ret = -EOPNOTSUPP;

	fd = syscall(__NR_io_uring_setup, 2, &p);
	if (fd < 0)
		return -errno;
	if (page > 0 && !posix_memalign(&mem, (size_t)page, (size_t)page)) {
		memset(mem, 0, (size_t)page);
		rd.user_addr = (uint64_t)(uintptr_t)mem;
		rd.size = (uint64_t)page;
		rd.flags = URING_MEM_REGION_TYPE_USER;
		reg.region_uptr = (uint64_t)(uintptr_t)&rd;
		reg.flags = URING_MEM_REGION_REG_WAIT_ARG;
		if (!syscall(__NR_io_uring_register, (int)fd, URING_REGISTER_MEM_REGION, &reg, 1))
			ret = 0;
	}
	close((int)fd);
	free(mem);
	return ret;
}

int eng_uring_waits_probe(struct eng_uring_waits *out)
{
	struct io_uring_params p = { 0 };
	long fd = syscall(__NR_io_uring_setup, 2, &p);

	if (fd < 0) {
		out->no_iowait = out->min_wait = out->reg_wait = -errno;
		return out->no_iowait;
	}
	close((int)fd);
	out->no_iowait = p.features & IORING_FEAT_NO_IOWAIT ? 0 : -EOPNOTSUPP;
	out->min_wait = p.features & IORING_FEAT_MIN_TIMEOUT ? 0 : -EOPNOTSUPP;
	out->reg_wait = uring_reg_wait_probe();
	return 0;
}

/* The closed loop of one job, a copy per kind: the block path's has no
 * trace of the wider entries; passthrough's shifts its ring indexes. */
URING_LOOP_JOB(uring_loop_nop, .kind = URING_NOP)
URING_LOOP_JOB(uring_loop_read, .kind = URING_READ)
URING_LOOP_JOB(uring_loop_cmd, .kind = URING_CMD)

/* A copy chosen once per thread: a group's (uring_group.c), an open
 * loop's (uring_rate.c), or a closed one's here. */
static int uring_loop(struct eng_group *g)
{
	struct eng_worker *w = &g->lane[0];

	if (g->n > 1)
		return eng_uring_group_loop(g);
	if (w->job->rate > 0)
		return eng_uring_rate_loop(w);
	if (w->u.cmd)
		return uring_loop_cmd(w);
	return w->expect ? uring_loop_read(w) : uring_loop_nop(w);
}

const struct eng_backend_ops eng_uring_ops = {
	.name = "io_uring",
	.setup = uring_setup,
	.loop = uring_loop,
	.teardown = uring_teardown,
};
