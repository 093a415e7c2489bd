/* The thread of a group of jobs (eng_job.group): pinned once, each job's
 * memory allocated there as its own worker's would be, one ring for all
 * (engine/uring_group.c). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "engine/run_int.h"
#include "engine/uring_int.h"

static int group_prepare(struct eng_group *g, struct eng_thread *th)
{
	struct eng_thread *all = th->run->th;
	unsigned k, i;
	int ret = 0;

	for (k = 0, i = th->idx; k < g->n; k++, i = all[i].next)
		eng_worker_init(&g->lane[k], &all[i]);
	/* the first lane pins the thread; the others' memory is touched on
	 * its CPU after that */
	for (k = 0; k < g->n && !ret; k++) {
		ret = eng_worker_prepare(&g->lane[k], k == 0);
		if (k)
			g->lane[k].res->cpu = g->lane[0].res->cpu;
	}
	return ret ? ret : eng_uring_group_setup(g);
}

void *eng_group_main(void *arg)
{
	struct eng_thread *th = arg;
	struct eng_thread *all = th->run->th;
	struct eng_group g = { .n = th->nlanes };
	unsigned k;
	int ret = 0;

	g.lane = calloc(g.n, sizeof(*g.lane));
	if (!g.lane) {
		for (k = th->idx; k != UINT_MAX; k = all[k].next) {
			all[k].res->stage = ENG_STAGE_MEMORY;
			all[k].res->err = -ENOMEM;
		}
		ret = -ENOMEM;
	} else {
		ret = group_prepare(&g, th);
	}
	if (eng_run_ready(th->run, ret) == 0)
		(void)eng_uring_group_loop(&g);
	if (!ret)
		eng_uring_group_teardown(&g);
	for (k = 0; g.lane && k < g.n; k++)
		eng_worker_release(&g.lane[k]);
	free(g.lane);
	/* the first job last: the run joins the thread once it sees that */
	for (k = th->next; k != UINT_MAX; k = all[k].next)
		atomic_store_explicit(&all[k].live->done, 1, memory_order_release);
	atomic_store_explicit(&th->live->done, 1, memory_order_release);
	eng_run_wake(th->run);
	return NULL;
}
