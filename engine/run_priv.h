/* Internal to engine/: what a worker thread gets from its run. */
#ifndef ENG_RUN_PRIV_H
#define ENG_RUN_PRIV_H

#include <pthread.h>
#include <stdatomic.h>

#include "engine/engine.h"

struct eng_run;

struct eng_thread {
	struct eng_run *run;
	const struct eng_job *job;
	struct eng_result *res;
	struct eng_live *live;
	unsigned idx;
	pthread_t tid;
	bool started;
};

struct eng_run {
	/* What workers must do, read once per loop: the phase (enum
	 * eng_state) in the low bits, the snapshot request number above. */
	_Atomic uint32_t ctl;
	pthread_mutex_t lock;		/* setup handshake only */
	pthread_cond_t cond;
	unsigned nready;
	int first_err;
	unsigned njobs;
	struct eng_job *jobs;
	struct eng_result *res;
	struct eng_live *live;		/* one cache line each */
	struct eng_thread *th;
	struct eng_snapshot *snap;	/* one per worker, on first request */
	bool joined;
};

/* Called by each worker after setup with 0 or -errno; blocks until the run
 * starts or is aborted. Returns 0 when the worker should run its loop. */
int eng_run_ready(struct eng_run *r, int err);
void *eng_worker_main(void *arg);

#endif
