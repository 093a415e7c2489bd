/* What the ranks say to each other: lines on stderr named by host, the
 * status after setup, a barrier that carries each rank's status, JSON text
 * gathered at rank 0, histograms summed at rank 0. Every collective of
 * the layer but main.c's setup and tfile.c's broadcast lives here. */
#include "mpi/mpi_int.h"

#include <errno.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/report/out.h"

#define MSG_LEN 512
#define POLL_NS 100000L		/* 0.1 ms between tests of a barrier */

/* ---- lines ---- */

static void put(const struct mpi_ctx *m, const char *line, bool host)
{
	if (host)
		fprintf(stderr, "iostorm-mpi %s: %s (rank %d): %s\n", m->verb, m->host,
			m->rank, line);
	else
		fprintf(stderr, "iostorm-mpi %s: %s\n", m->verb, line);
	fflush(stderr);
}

static void sink(void *ctx, const char *line)
{
	struct mpi_ctx *m = ctx;

	snprintf(m->last, sizeof(m->last), "%s", line);
	if (m->quiet_others) {
		if (!m->rank)
			put(m, line, false);
		return;
	}
	if (m->hold) {
		if (m->nheld < sizeof(m->held) / sizeof(m->held[0]))
			snprintf(m->held[m->nheld++], sizeof(m->held[0]), "%s", line);
		return;
	}
	put(m, line, true);
}

void mpi_log_init(struct mpi_ctx *m)
{
	cli_out_sink(sink, m);
}

void mpi_say(const struct mpi_ctx *m, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	put(m, line, false);
}

/* ---- agreement ---- */

/* Waits for req without spinning a core: a rank that waits for another
 * host's steps must not take CPU from anything measured. */
static int wait_req(MPI_Request *req)
{
	struct timespec ts = { 0, POLL_NS };
	int done = 0;

	for (;;) {
		if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -EIO;
		if (done)
			return 0;
		nanosleep(&ts, NULL);
	}
}

int mpi_max(int v)
{
	int out = v;
	MPI_Request req;

	if (MPI_Iallreduce(&v, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req) ||
	    wait_req(&req))
		return v ? v : 1;
	return out;
}

int mpi_sum(int v)
{
	int out = v;
	MPI_Request req;

	if (MPI_Iallreduce(&v, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req) ||
	    wait_req(&req))
		return v;
	return out;
}

int mpi_sync(const struct mpi_ctx *m, int rc, bool *intr)
{
	int in[2] = { rc, *intr }, out[2] = { rc, *intr };
	MPI_Request req;

	(void)m;
	if (MPI_Iallreduce(in, out, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req) ||
	    wait_req(&req))
		return rc ? rc : 1;
	*intr = out[1] != 0;
	return out[0];
}

int mpi_agree(struct mpi_ctx *m, int rc)
{
	char mine[MSG_LEN], *all = NULL;
	int worst, i;
	unsigned k;

	m->hold = false;
	mine[0] = '\0';
	if (rc)
		snprintf(mine, sizeof(mine), "%s (rank %d): %.400s", m->host, m->rank,
			 m->last[0] ? m->last : "failed");
	worst = mpi_max(rc);
	if (!m->rank)
		all = malloc((size_t)m->size * MSG_LEN);
	/* every rank gathers, whether or not rank 0 got its memory */
	MPI_Gather(mine, MSG_LEN, MPI_CHAR, all, MSG_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
	if (!worst) {
		for (k = 0; k < m->nheld; k++)
			put(m, m->held[k], true);
	}
	m->nheld = 0;
	if (worst && !m->rank) {
		for (i = 0; all && i < m->size; i++)
			if (all[(size_t)i * MSG_LEN])
				mpi_say(m, "%s; every rank stops", all + (size_t)i * MSG_LEN);
		if (!all)
			mpi_say(m, "some rank failed its setup (out of memory for its reason)");
	}
	free(all);
	return worst;
}

/* ---- gathering ---- */

int mpi_gather_json(const struct mpi_ctx *m, json_t *j, json_t **out)
{
	char *txt = j ? json_dumps(j, JSON_COMPACT) : NULL, *buf = NULL;
	int len = txt ? (int)strlen(txt) + 1 : 0, *lens = NULL, *offs = NULL, i, bad;
	size_t total = 0;

	json_decref(j);
	*out = NULL;
	if (!m->rank) {
		lens = calloc((size_t)m->size, sizeof(*lens));
		offs = calloc((size_t)m->size, sizeof(*offs));
	}
	MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
	for (i = 0; lens && offs && i < m->size; i++) {
		offs[i] = (int)total;
		total += (size_t)lens[i];
	}
	if (!m->rank && lens && offs)
		buf = malloc(total ? total : 1);
	/* rank 0 without memory still takes part, receiving nothing */
	bad = !m->rank && !buf;
	if (bad)
		for (i = 0; lens && i < m->size; i++)
			lens[i] = 0;
	MPI_Gatherv(txt ? txt : "", len, MPI_CHAR, buf, lens, offs ? offs : lens, MPI_CHAR, 0,
		    MPI_COMM_WORLD);
	free(txt);
	if (!m->rank && !bad) {
		*out = json_array();
		for (i = 0; *out && i < m->size; i++) {
			json_t *h = lens[i] ? json_loads(buf + offs[i], 0, NULL) : NULL;

			json_array_append_new(*out, h ? h : json_null());
		}
		bad = !*out;
	}
	free(buf);
	free(lens);
	free(offs);
	return mpi_max(bad) ? -ENOMEM : 0;
}

int mpi_reduce_hist(const struct mpi_ctx *m, const struct eng_hist *h,
		    struct eng_hist *sum)
{
	static struct eng_hist empty;
	uint64_t mn, mx;
	int rc = 0;

	(void)m;
	if (!h) {
		eng_hist_reset(&empty);
		h = &empty;
	}
	eng_hist_reset(sum);
	rc |= MPI_Reduce(&h->count, &sum->count, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	rc |= MPI_Reduce(&h->sum_ns, &sum->sum_ns, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	rc |= MPI_Reduce(&h->sumsq, &sum->sumsq, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	rc |= MPI_Reduce(&h->min_ns, &mn, 1, MPI_UINT64_T, MPI_MIN, 0, MPI_COMM_WORLD);
	rc |= MPI_Reduce(&h->max_ns, &mx, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
	rc |= MPI_Reduce(h->b, sum->b, ENG_HIST_BUCKETS, MPI_UINT64_T, MPI_SUM, 0,
			 MPI_COMM_WORLD);
	if (!m->rank) {
		sum->min_ns = mn;
		sum->max_ns = mx;
	}
	return rc ? -EIO : 0;
}
