/* Host bridges, root ports and hops (topo/bridges.c), the root-complex and
 * unknown-locality findings, and plan's tree (cli/plan/plan_build.c) through
 * the ceiling model, on our fixtures: one node with two host bridges (the
 * drives behind a switch under one, free root ports under the other) and
 * a host bridge of unknown node; the free slots the tree gets (listed,
 * given with --free-slots, assumed) and the --free-slots parser. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/plan/plan.h"
#include "cli/plan/plan_slots.h"
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
	CHECKF(x && strstr(said(x), "node 0 has 2 host bridges") &&
	       strstr(said(x), "0000:00 (4: nvme0n1, nvme1n1, nvme2n1, nvme3n1)") &&
	       strstr(said(x), "0000:40 has 2 free root ports (0000:40:01.1, 0000:40:03.1)") &&
	       strstr(said(x), "NPS2 or NPS4"), "%s", x ? said(x) : "none");
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
	CHECKF(x && strstr(said(x), "host bridge 0000:00 has no NUMA node") &&
	       strstr(said(x), "(nvme0n1)"), "%s", x ? said(x) : "none");
	CHECKF(x && x->node == -1 && !strcmp(x->host_bridge, "0000:00"), "node %d bridge '%s'",
	       x ? x->node : -2, x ? x->host_bridge : "");
	for (i = 0; x && i < (int)topo_ndevs(t); i++)
		CHECKF(topo_finding_about(x, (unsigned)i) == !strcmp(topo_dev(t, (unsigned)i)->name, "nvme0n1"),
		       "%s: about %d", topo_dev(t, (unsigned)i)->name, topo_finding_about(x, (unsigned)i));
	x = find(f, n, TOPO_FIND_IMBALANCE, NULL);
	CHECKF(x && strstr(said(x), "node 0 hosts 3 of 3 drives") &&
	       strstr(said(x), "no free root port"), "%s", x ? said(x) : "none");
	for (i = 0; i < n; i++)
		CHECKF(f[i].kind == TOPO_FIND_UNKNOWN_LOCALITY || !strstr(said(&f[i]), "0000:00"),
		       "advice on 0000:00: %s", said(&f[i]));
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

/* The --free-slots list: bridges as plan names them, counts in range,
 * each bridge once; every bad entry refused with a line naming it. */
static void test_slots_parse(void)
{
	static const char *const bad[] = {
		"", ",", "0000:40", "0000:40=", "0000:40=x", "0000:40=65", "0000:40=1k",
		"0000:40:01.1=1", "000:40=1", "0000-40=1", "0000:4g=1", "=1",
		"0000:40=1,", "0000:40=1,,0000:80=1", "0000:40=1,0000:40=2", "0000:40=-1",
	};
	struct cli_plan_slots l;
	char err[256];
	size_t i;

	CHECK(cli_plan_slots_parse("0000:40=2,0001:C0=0,0000:80=64", &l, err, sizeof(err)) == 0);
	CHECK(l.n == 3 && !strcmp(l.v[0].bridge, "0000:40") && l.v[0].count == 2);
	CHECK(!strcmp(l.v[1].bridge, "0001:c0") && l.v[1].count == 0);
	CHECK(!strcmp(l.v[2].bridge, "0000:80") && l.v[2].count == 64);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CHECKF(cli_plan_slots_parse(bad[i], &l, err, sizeof(err)) == -EINVAL,
		       "'%s' taken", bad[i]);
		CHECKF(!strncmp(err, "--free-slots", 12) && !strchr(err, '\n'), "'%s': %s", bad[i],
		       err);
	}
}

/* Where the slots come from: the topology's free root ports (named, with
 * their links); none listed: one assumed per host bridge with devices and
 * a known node, nameless, adding nothing to its bridge's sum; given: the
 * listed ports of that bridge first, then nameless ones; a bridge the
 * topology lacks is refused. */
static void test_slot_sources(void)
{
	struct cli_plan_figs fg = { .bs = 4096, .drive_iops = 1e6 };
	struct cli_plan_slots l;
	struct topo *t = load("topo-1node-2hb.xml"), *n = load("topo-2node-noslot.xml");
	struct cli_plan p;
	struct model_ceil m;
	char err[256];
	unsigned i;

	if (!t || !n)
		goto out;
	CHECK(cli_plan_build(t, &fg, &p) == 0 && p.slots == CLI_PLAN_SLOTS_LISTED && p.nports == 2);
	for (i = 0; i < p.nports; i++)
		CHECK(!p.ports[i].assumed && p.ports[i].link.data_bytes_s > 7e9);
	CHECK(!strcmp(p.ports[0].name, "0000:40:01.1") && !strcmp(p.ports[1].name, "0000:40:03.1"));
	cli_plan_free(&p);

	CHECK(cli_plan_build(n, &fg, &p) == 0 && p.slots == CLI_PLAN_SLOTS_ASSUMED);
	CHECKF(p.nports == 3, "%u slots", p.nports);
	for (i = 0; i < p.nports && i < 3; i++) {
		static const char *const hb[] = { "0000:00", "0000:40", "0000:80" };

		CHECK(p.ports[i].assumed && !p.ports[i].name[0] && !p.ports[i].link.data_bytes_s);
		CHECKF(!strcmp(p.res[p.ports[i].host_bridge].name, hb[i]), "slot %u under %s", i,
		       p.res[p.ports[i].host_bridge].name);
	}
	CHECK(!p.nports_unknown_node && !p.nlinks_unknown);
	CHECK(model_ceil_init(&m, &p.in) == 0);
	model_ceil_solve(&m);
	/* 0000:00's one root port: its link, the assumed slot not in it */
	for (i = 0; i < m.nin; i++)
		if (m.res[i].kind == MODEL_CEIL_HOST_BRIDGE && !strcmp(m.res[i].name, "0000:00"))
			CHECKF(m.fig[i].capacity > 1.7e6 && m.fig[i].capacity < 1.75e6, "%.0f",
			       m.fig[i].capacity);
	CHECK(model_ceil_plan(&m) == 3 && m.stop == MODEL_CEIL_STOP_MET);
	model_ceil_free(&m);
	cli_plan_free(&p);

	CHECK(cli_plan_slots_parse("0000:40=3,0000:00=1", &l, err, sizeof(err)) == 0);
	fg.slots = &l;
	CHECK(cli_plan_build(t, &fg, &p) == 0 && p.slots == CLI_PLAN_SLOTS_GIVEN);
	CHECKF(p.nports == 4, "%u slots", p.nports);
	if (p.nports == 4) {
		CHECK(!strcmp(p.ports[0].name, "0000:40:01.1") && !strcmp(p.ports[1].name, "0000:40:03.1"));
		CHECK(!p.ports[2].name[0] && !strcmp(p.res[p.ports[2].host_bridge].name, "0000:40"));
		CHECK(!p.ports[3].name[0] && !strcmp(p.res[p.ports[3].host_bridge].name, "0000:00"));
		for (i = 0; i < 4; i++)
			CHECK(!p.ports[i].assumed);
	}
	cli_plan_free(&p);
	CHECK(cli_plan_slots_parse("0000:40=0", &l, err, sizeof(err)) == 0);
	CHECK(cli_plan_build(t, &fg, &p) == 0 && p.slots == CLI_PLAN_SLOTS_GIVEN && !p.nports);
	cli_plan_free(&p);
	CHECK(cli_plan_slots_parse("0000:40=1,0000:41=1", &l, err, sizeof(err)) == 0);
	CHECK(cli_plan_build(t, &fg, &p) == -ENOENT && !strcmp(p.no_such_bridge, "0000:41"));
	cli_plan_free(&p);
out:
	topo_free(t);
	topo_free(n);
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
	test_slots_parse();
	test_slot_sources();
	return t_result();
}
