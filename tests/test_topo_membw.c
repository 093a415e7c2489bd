/* topo_membw_measure on this machine: every node's memory write bandwidth
 * is positive, written by one thread per core of the node into buffers of
 * whole engine chunks, over a window that ends once the budget is spent
 * (one chunk later at most: a bound the measurement keeps by construction,
 * not a timing of the machine). What the writers count is checked against
 * what they wrote in test_engine_membw; here, what topo/ chooses and binds.
 * Three runs of each node are printed with their spread, which the issue
 * asks to stay within 20%; a shared machine's noise is no test failure,
 * so the spread is shown, not asserted. An XML export and a node that does
 * not exist are refused. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/membw.h"
#include "tests/helpers.h"
#include "topo/membw.h"

#define BUDGET_NS 300000000ull
#define RUNS 3

/* What each thread's buffer must be: TOPO_MEMBW_BUF where the writes
 * bypass the caches; elsewhere the buffers hold at least TOPO_MEMBW_TOTAL
 * together (or 4x the L3 caches, more), TOPO_MEMBW_MIN_BUF each. Either
 * way whole chunks, and no more than a quarter of the node's memory. */
static bool buffer_ok(const struct topo_node *nd, const struct topo_membw *m)
{
	uint64_t quarter = nd->memory_bytes ? nd->memory_bytes / 4 / m->threads : UINT64_MAX;

	if (!m->buf_bytes || m->buf_bytes % ENG_MEMBW_CHUNK)
		return false;
	if (quarter < (ENG_MEMBW_BYPASS ? TOPO_MEMBW_BUF : TOPO_MEMBW_MIN_BUF))
		return m->buf_bytes <= (quarter > ENG_MEMBW_CHUNK ? quarter : ENG_MEMBW_CHUNK);
	if (ENG_MEMBW_BYPASS)
		return m->buf_bytes == TOPO_MEMBW_BUF;
	return m->buf_bytes >= TOPO_MEMBW_MIN_BUF &&
	       m->buf_bytes * m->threads + m->threads * ENG_MEMBW_CHUNK >=
		       (quarter * m->threads < TOPO_MEMBW_TOTAL ? quarter * m->threads :
								  TOPO_MEMBW_TOTAL);
}

static void measure_node(struct topo *t, const struct topo_node *nd)
{
	struct topo_membw m[RUNS];
	double lo = 0, hi = 0;
	int i, ret;

	for (i = 0; i < RUNS; i++) {
		ret = topo_membw_measure(t, nd->os_index, BUDGET_NS, &m[i]);
		CHECKF(ret == 0, "node %u: %d", nd->os_index, ret);
		if (ret)
			return;
		CHECKF(m[i].bytes_s > 0 && m[i].bytes > 0, "node %u: %.0f B/s", nd->os_index,
		       m[i].bytes_s);
		CHECKF(m[i].threads == (nd->cpuless ? m[i].threads : nd->cores) && m[i].threads > 0,
		       "node %u: %u threads for %u cores", nd->os_index, m[i].threads, nd->cores);
		CHECKF(m[i].ns >= BUDGET_NS, "node %u: %" PRIu64 " ns timed", nd->os_index, m[i].ns);
		CHECKF(buffer_ok(nd, &m[i]), "node %u: %" PRIu64 " bytes a thread", nd->os_index,
		       m[i].buf_bytes);
		lo = !i || m[i].bytes_s < lo ? m[i].bytes_s : lo;
		hi = !i || m[i].bytes_s > hi ? m[i].bytes_s : hi;
	}
	printf("node %u: %.2f %.2f %.2f GB/s (%u threads, %" PRIu64 " MiB each), spread %.0f%%\n",
	       nd->os_index, m[0].bytes_s / 1e9, m[1].bytes_s / 1e9, m[2].bytes_s / 1e9,
	       m[0].threads, m[0].buf_bytes >> 20, 100.0 * (hi - lo) / lo);
}

int main(void)
{
	const char *src = getenv("IOSTORM_SRC");
	struct topo_membw m;
	struct topo *t;
	char xml[4200];
	unsigned i;
	int ret;

	ret = topo_load(&t, NULL, NULL);
	if (ret)
		SKIP("no live topology");
	for (i = 0; i < topo_nnodes(t); i++)
		measure_node(t, topo_node(t, i));
	ret = topo_membw_measure(t, 9999, BUDGET_NS, &m);
	CHECKF(ret == -ENOENT, "no such node: %d", ret);
	ret = topo_membw_measure(t, topo_node(t, 0)->os_index, 0, &m);
	CHECKF(ret == -EINVAL, "no budget: %d", ret);
	topo_free(t);

	snprintf(xml, sizeof(xml), "%s/tests/fixtures/topo-2node-imbalance.xml", src && src[0] ? src : ".");
	ret = topo_load(&t, xml, NULL);
	CHECKF(ret == 0, "%s: %d", xml, ret);
	if (!ret) {
		ret = topo_membw_measure(t, 0, BUDGET_NS, &m);
		CHECKF(ret == -EINVAL, "an XML export: %d", ret);
		topo_free(t);
	}
	return t_result();
}
