/* Host bridges, root ports and hops (topo/bridges.c), the root-complex and
 * unknown-locality findings, and plan's tree (cli/plan/plan_build.c) through
 * the ceiling model, on our fixtures: one node with two host bridges (the
 * drives behind a switch under one, free root ports under the other) and
 * a host bridge of unknown node. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/plan/plan.h"
#include "model/ceiling.h"
#include "tests/helpers.h"
#include "tests/topo_findings.h"
#include "topo/topo.h"

static char fx[2048];

static struct topo *load(const char *file)
{
	char xml[4096];
	struct topo *t = NULL;
	int ret;

	snprintf(xml, sizeof(xml), "%s/%s", fx, file);
	ret = topo_load(&t, xml, NULL);
	CHECKF(ret == 0, "%s: %s", file, strerror(-ret));
	return ret ? NULL : t;
}

static void test_bridges(void)
{
	struct topo *t = load("topo-1node-2hb.xml");
	const struct topo_host_bridge *hb;
	struct topo_hop hops[TOPO_MAX_CHAIN];
	int n;

	if (!t)
		return;
	CHECK(topo_host_bridges(t, &hb) == 2);
	CHECK(!strcmp(hb[0].name, "0000:00") && hb[0].node == 0 && hb[0].nports == 1 &&
	      hb[0].nfree == 0);
	CHECK(hb[0].ports[0].nfunctions == 4 && !strcmp(hb[0].ports[0].busid, "0000:00:01.1"));
	CHECKF(!strcmp(hb[0].ports[0].below, "0000:03:00.0, 0000:04:00.0, 0000:05:00.0, 0000:06:00.0"),
	       "%s", hb[0].ports[0].below);
	CHECK(!strcmp(hb[1].name, "0000:40") && hb[1].node == 0 && hb[1].nports == 2 &&
	      hb[1].nfree == 2);
	CHECK(!strcmp(hb[1].ports[0].busid, "0000:40:01.1") && !hb[1].ports[0].nfunctions &&
	      !strcmp(hb[1].ports[0].below, ""));
	CHECK(hb[1].ports[0].link.gbps > 15.7 && hb[1].ports[0].link.gbps < 15.8);
	CHECK(hb[1].ports[0].link.speed_gts < 0);	/* no sysfs for an export */
	CHECK(topo_host_bridge_find(t, "0000:40") == &hb[1] && !topo_host_bridge_find(t, "0000:80"));
	CHECK(topo_cpu_amd(t));
	n = topo_dev_hops(t, topo_dev(t, 0), hops, TOPO_MAX_CHAIN);
	CHECK(n == 3);
	if (n == 3) {
		CHECK(!strcmp(hops[0].busid, "0000:02:00.0") && !hops[0].switch_up);
		CHECK(!strcmp(hops[1].busid, "0000:01:00.0") && hops[1].switch_up);
		CHECK(!strcmp(hops[2].busid, "0000:00:01.1") && !hops[2].switch_up);
		CHECK(hops[1].link.gbps > 7.8 && hops[1].link.gbps < 7.9);
	}
	CHECK(topo_dev_hops(t, topo_dev(t, 0), hops, 1) == 1);
	topo_free(t);
}

static void test_root_complex(void)
{
	struct topo *t = load("topo-1node-2hb.xml");
	struct topo_finding *f = NULL;
	const struct topo_finding *x;
	unsigned i;
	int n;

	if (!t)
		return;
	n = all_findings(t, &f);
	x = find(f, n, TOPO_FIND_ROOT_COMPLEX, NULL);
	CHECKF(x && strstr(x->text, "node 0 has 2 host bridges") &&
	       strstr(x->text, "0000:00 (4: nvme0n1, nvme1n1, nvme2n1, nvme3n1)") &&
	       strstr(x->text, "0000:40 has 2 free root ports (0000:40:01.1, 0000:40:03.1)") &&
	       strstr(x->text, "NPS2 or NPS4"), "%s", x ? x->text : "none");
	/* the fields a drawing reads: the node and the busiest bridge */
	CHECKF(x && x->node == 0 && !strcmp(x->host_bridge, "0000:00"), "node %d bridge '%s'",
	       x ? x->node : -2, x ? x->host_bridge : "");
	/* and the drives it is about, by index: the four under 0000:00 */
	for (i = 0; x && i < topo_ndevs(t); i++)
		CHECKF(topo_finding_about(x, i) == !strcmp(topo_dev(t, i)->host_bridge, "0000:00"),
		       "%s: about %d", topo_dev(t, i)->name, topo_finding_about(x, i));
	CHECK(!strcmp(topo_finding_kind_name(TOPO_FIND_ROOT_COMPLEX), "root_complex"));
	CHECK(!find(f, n, TOPO_FIND_IMBALANCE, NULL) && !find(f, n, TOPO_FIND_UNKNOWN_LOCALITY, NULL));
	free(f);
	topo_free(t);
}

static void test_unknown(void)
{
	struct topo *t = load("topo-unknown-hb.xml");
	struct topo_finding *f = NULL;
	const struct topo_host_bridge *hb;
	const struct topo_finding *x;
	int n, i;

	if (!t)
		return;
	CHECK(topo_host_bridges(t, &hb) == 3);
	CHECK(!strcmp(hb[0].name, "0000:00") && hb[0].node == -1 && hb[0].nfree == 2);
	CHECK(hb[1].node == 0 && hb[2].node == 1);
	/* a bridge of unknown node is no node's */
	CHECKF(!strcmp(topo_node(t, 0)->host_bridges, "0000:40"), "%s", topo_node(t, 0)->host_bridges);
	CHECKF(!strcmp(topo_node(t, 1)->host_bridges, "0000:80"), "%s", topo_node(t, 1)->host_bridges);
	n = all_findings(t, &f);
	x = find(f, n, TOPO_FIND_UNKNOWN_LOCALITY, NULL);
	CHECKF(x && strstr(x->text, "host bridge 0000:00 has no NUMA node") &&
	       strstr(x->text, "(nvme0n1)"), "%s", x ? x->text : "none");
	CHECKF(x && x->node == -1 && !strcmp(x->host_bridge, "0000:00"), "node %d bridge '%s'",
	       x ? x->node : -2, x ? x->host_bridge : "");
	for (i = 0; x && i < (int)topo_ndevs(t); i++)
		CHECKF(topo_finding_about(x, (unsigned)i) == !strcmp(topo_dev(t, (unsigned)i)->name, "nvme0n1"),
		       "%s: about %d", topo_dev(t, (unsigned)i)->name, topo_finding_about(x, (unsigned)i));
	x = find(f, n, TOPO_FIND_IMBALANCE, NULL);
	CHECKF(x && strstr(x->text, "node 0 hosts 3 of 3 drives") &&
	       strstr(x->text, "no free root port"), "%s", x ? x->text : "none");
	for (i = 0; i < n; i++)
		CHECKF(f[i].kind == TOPO_FIND_UNKNOWN_LOCALITY || !strstr(f[i].text, "0000:00"),
		       "advice on 0000:00: %s", f[i].text);
	CHECK(!find(f, n, TOPO_FIND_MULTI_NODE, "nvme0n1"));
	CHECK(!topo_cpu_amd(t));
	free(f);
	topo_free(t);
}

static int kind_count(const struct cli_plan *p, enum model_ceil_kind k)
{
	unsigned i;
	int n = 0;

	for (i = 0; i < p->nres; i++)
		n += p->res[i].kind == k;
	return n;
}

static void test_build(void)
{
	struct topo *t = load("topo-1node-2hb.xml");
	struct cli_plan_figs fg = { .bs = 4096, .drive_iops = 1e6 };
	struct cli_plan p;
	struct model_ceil m;
	double before;
	unsigned i;

	if (!t)
		return;
	CHECK(cli_plan_build(t, &fg, &p) == 0);
	CHECK(p.ndrives == 4 && p.nports == 2 && !p.nleft_out && !p.nlinks_unknown);
	CHECK(kind_count(&p, MODEL_CEIL_DRIVE) == 4 && kind_count(&p, MODEL_CEIL_LINK) == 4 &&
	      kind_count(&p, MODEL_CEIL_SWITCH) == 1 && kind_count(&p, MODEL_CEIL_MEMORY) == 1 &&
	      kind_count(&p, MODEL_CEIL_CPU) == 1 && kind_count(&p, MODEL_CEIL_HOST_BRIDGE) == 2);
	for (i = 0; i < p.nres; i++) {
		const struct model_ceil_res *r = &p.res[i];

		if (r->kind == MODEL_CEIL_DRIVE)
			CHECK(p.dev[i] && !strcmp(p.dev[i]->name, r->name) && r->cpu >= 0 &&
			      p.res[r->cpu].kind == MODEL_CEIL_CPU && r->link.data_bytes_s > 7e9);
		if (r->kind == MODEL_CEIL_MEMORY)
			CHECK(r->bytes_s == 0 && r->node == 0);	/* unknown: no limit */
		if (r->kind == MODEL_CEIL_CPU)
			CHECK(r->ios_per_cpu_s == 0 && r->cores == 4);
	}
	CHECK(model_ceil_init(&m, &p.in) == 0);
	model_ceil_solve(&m);
	before = m.predicted;
	CHECK(m.binding >= 0 && m.res[m.binding].kind == MODEL_CEIL_SWITCH &&
	      !strcmp(m.res[m.binding].name, "0000:01:00.0"));
	CHECK(model_ceil_plan(&m) == 2);
	for (i = 0; i < m.nmoves; i++) {
		CHECK(!strcmp(m.res[m.move[i].to_bridge].name, "0000:40"));
		CHECK(m.move[i].ceiling_after > before * 1.01);
		before = m.move[i].ceiling_after;
	}
	model_ceil_free(&m);
	cli_plan_free(&p);

	/* rates measured for two drives: the others are left out */
	{
		struct cli_plan_rate r[2] = { { "nvme0n1", 3e5 }, { "nvme3n1", 5e5 } };

		fg.drive_iops = 0;
		fg.rates = r;
		fg.nrates = 2;
		CHECK(cli_plan_build(t, &fg, &p) == 0);
		CHECK(p.ndrives == 2 && p.nleft_out == 2 && !strcmp(p.left_out, "nvme1n1, nvme2n1"));
		cli_plan_free(&p);
		fg.nrates = 0;
		CHECK(cli_plan_build(t, &fg, &p) == -ENODATA);
		cli_plan_free(&p);
	}
	topo_free(t);
}

static void test_build_unknown(void)
{
	struct topo *t = load("topo-unknown-hb.xml");
	struct cli_plan_figs fg = { .bs = 4096, .drive_iops = 1e6 };
	struct cli_plan p;
	struct model_ceil m;
	unsigned i;

	if (!t)
		return;
	CHECK(cli_plan_build(t, &fg, &p) == 0);
	CHECK(p.nports == 2 && p.nports_unknown_node == 2);
	for (i = 0; i < p.nres; i++)
		if (p.res[i].kind == MODEL_CEIL_DRIVE && !strcmp(p.res[i].name, "nvme0n1"))
			CHECK(p.res[i].cpu == -1 && p.res[i].node == -1);
	CHECK(model_ceil_init(&m, &p.in) == 0);
	CHECK(model_ceil_plan(&m) == 0);	/* never onto 0000:00 */
	model_ceil_free(&m);
	cli_plan_free(&p);
	topo_free(t);
}

int main(void)
{
	const char *src = getenv("IOSTORM_SRC");

	snprintf(fx, sizeof(fx), "%s/tests/fixtures", src ? src : ".");
	test_bridges();
	test_root_complex();
	test_unknown();
	test_build();
	test_build_unknown();
	return t_result();
}
