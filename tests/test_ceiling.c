/* The ceiling model's water-filling on small trees with figures worked out
 * by hand: a switch shared by 4 drives, a degraded Gen3 x4 link, a
 * memory-bound node, a CPU-bound node with and without SMT, several
 * limits binding at once, capacities from facts, and bad input. */
#include <errno.h>
#include <math.h>

#include "tests/ceil_build.h"
#include "tests/helpers.h"

/* 4 Gen4 x4 drives asking 1.5M each behind a switch whose upstream link
 * is Gen4 x8: it carries 3479206 IOPS, a quarter to each. */
static void test_switch_shared(void)
{
	struct tree t = { .n = 0 };
	struct model_ceil m;
	int mem, hb, sw, d[4], i;

	mem = add_node(&t, MODEL_CEIL_MEMORY, "node 0", -1, 0);
	hb = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:40", mem, 0);
	sw = add_link(&t, MODEL_CEIL_SWITCH, "0000:41:00.0", hb, 16.0, 8);
	for (i = 0; i < 4; i++) {
		char name[16];

		snprintf(name, sizeof(name), "nvme%dn1", i);
		d[i] = add_slot_drive(&t, name, sw, 16.0, 4, 1.5e6, -1);
	}
	CHECK(!tree_init(&m, &t));
	model_ceil_solve(&m);
	CHECKF(near_rel(m.predicted, GEN4X8), "%.1f", m.predicted);
	CHECK(near_rel(m.demand, 6e6));
	for (i = 0; i < 4; i++) {
		CHECK(near_rel(m.fig[d[i]].allocated, GEN4X8 / 4));
		CHECK(m.fig[d[i]].limit == sw);
		CHECK(!m.fig[d[i]].saturated);
	}
	CHECK(m.binding == sw);
	CHECK(near_rel(m.fig[sw].capacity, GEN4X8));
	CHECK(near_rel(m.fig[sw].demand, 6e6));
	CHECK(near_rel(m.fig[sw].utilization, 1));
	CHECK(near_rel(m.fig[sw].held_back, 6e6 - GEN4X8));
	CHECK(near_rel(m.fig[sw].gain, 1));
	CHECK(m.fig[sw].saturated && m.fig[sw].ndrives == 4 && m.fig[sw].ncapped == 4);
	/* the bridge: the sum of its one port, full with it, never the limit */
	CHECK(m.fig[hb].implied && near_rel(m.fig[hb].capacity, GEN4X8));
	CHECK(m.fig[hb].held_back == 0 && m.fig[hb].gain == 0);
	/* memory not measured: unknown, limits nothing */
	CHECK(isinf(m.fig[mem].capacity) && m.fig[mem].utilization == 0);
	CHECK(!m.fig[mem].saturated && m.fig[mem].ndrives == 4);
	model_ceil_free(&m);
}

/* Two drives asking 1.2M: one on Gen4 x4, one degraded to Gen3 x4. */
static void test_degraded_link(void)
{
	struct tree t = { .n = 0 };
	struct model_ceil m;
	int hb, a, b;

	hb = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:00", -1, 0);
	a = add_slot_drive(&t, "nvme0n1", hb, 16.0, 4, 1.2e6, -1);
	b = add_slot_drive(&t, "nvme1n1", hb, 8.0, 4, 1.2e6, -1);
	CHECK(!tree_init(&m, &t));
	model_ceil_solve(&m);
	CHECK(near_rel(m.fig[a].allocated, 1.2e6) && m.fig[a].limit == a);
	CHECK(m.fig[a].saturated);
	CHECK(near_rel(m.fig[b].allocated, GEN3X4));
	CHECK(m.fig[b].limit == t.r[b].parent);
	CHECK(m.binding == t.r[b].parent);
	CHECK(near_rel(m.predicted, 1.2e6 + GEN3X4));
	CHECK(near_rel(m.fig[t.r[b].parent].held_back, 1.2e6 - GEN3X4));
	CHECK(near_rel(m.fig[t.r[a].parent].utilization, 1.2e6 / GEN4X4));
	model_ceil_free(&m);
}

/* 8 drives asking 1M on a node whose memory takes 20 GB/s of writes:
 * 20e9 / 4096 = 4882812.5 IOPS, 610351.5625 each. */
static void test_memory_bound(void)
{
	struct tree t = { .n = 0 };
	struct model_ceil m;
	int mem, hb, d = -1, i;

	mem = add_node(&t, MODEL_CEIL_MEMORY, "node 0", -1, 0);
	t.r[mem].bytes_s = 20e9;
	hb = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:00", mem, 0);
	for (i = 0; i < 8; i++) {
		char name[16];

		snprintf(name, sizeof(name), "nvme%dn1", i);
		d = add_slot_drive(&t, name, hb, 16.0, 4, 1e6, -1);
	}
	CHECK(!tree_init(&m, &t));
	model_ceil_solve(&m);
	CHECK(near_rel(m.fig[mem].capacity, 4882812.5));
	CHECK(near_rel(m.predicted, 4882812.5));
	CHECK(near_rel(m.fig[d].allocated, 610351.5625));
	CHECK(m.fig[d].limit == mem);
	CHECK(m.binding == mem && m.fig[mem].ncapped == 8);
	CHECK(near_rel(m.fig[mem].utilization, 1) && m.fig[mem].saturated);
	CHECK(near_rel(m.fig[mem].demand, 8e6));
	model_ceil_free(&m);
}

/* 4 drives asking 1M on a node of 8 cores doing 400k IOs per CPU-second:
 * 3.2M without SMT; both PUs of a core doing 1.25 times one PU: 4.0M. */
static void cpu_node(struct model_ceil *m, double smt, int *cpu, int *d)
{
	struct tree t = { .n = 0 };
	int mem, hb, i;

	mem = add_node(&t, MODEL_CEIL_MEMORY, "node 0", -1, 0);
	hb = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:00", mem, 0);
	*cpu = add_node(&t, MODEL_CEIL_CPU, "node 0 cpu", -1, 0);
	t.r[*cpu].ios_per_cpu_s = 400e3;
	t.r[*cpu].cores = 8;
	t.r[*cpu].smt = smt;
	for (i = 0; i < 4; i++) {
		char name[16];

		snprintf(name, sizeof(name), "nvme%dn1", i);
		*d = add_slot_drive(&t, name, hb, 16.0, 4, 1e6, *cpu);
	}
	CHECK(!tree_init(m, &t));
	model_ceil_solve(m);
}

static void test_cpu_bound(void)
{
	struct model_ceil m;
	int cpu, d;

	cpu_node(&m, 1.0, &cpu, &d);
	CHECK(near_rel(m.fig[cpu].capacity, 3.2e6));
	CHECK(near_rel(m.predicted, 3.2e6));
	CHECK(near_rel(m.fig[d].allocated, 800e3) && m.fig[d].limit == cpu);
	CHECK(m.binding == cpu && m.fig[cpu].saturated);
	model_ceil_free(&m);
	/* SMT not measured, or measured to hurt: the cores alone */
	cpu_node(&m, 0, &cpu, &d);
	CHECK(near_rel(m.fig[cpu].capacity, 3.2e6) && m.binding == cpu);
	model_ceil_free(&m);
	cpu_node(&m, 0.8, &cpu, &d);
	CHECK(near_rel(m.fig[cpu].capacity, 3.2e6) && m.binding == cpu);
	model_ceil_free(&m);
	/* with SMT the CPU just covers the demand: full, nothing held back */
	cpu_node(&m, 1.25, &cpu, &d);
	CHECK(near_rel(m.fig[cpu].capacity, 4.0e6));
	CHECK(near_rel(m.predicted, 4.0e6) && m.fig[d].limit == d);
	CHECK(m.binding == -1 && m.fig[cpu].held_back == 0);
	CHECK(near_rel(m.fig[cpu].utilization, 1));
	model_ceil_free(&m);
	cpu_node(&m, 1.5, &cpu, &d);
	CHECK(near_rel(m.fig[cpu].capacity, 4.8e6));
	CHECK(near_rel(m.fig[cpu].utilization, 4.0 / 4.8) && !m.fig[cpu].saturated);
	CHECK(m.binding == -1);
	model_ceil_free(&m);
}

/* Three limits at once under a memory of 5M IOPS: drive A on Gen3 x4,
 * B and C behind a Gen4 x4 switch, D and E on Gen4 x4 links, each asking
 * 1.5M. A, B and C stop at 869801.58 (the link, the switch's half); D and
 * E share what memory has left: (5M - 3 x 869801.58) / 2. The switch held
 * back most, yet raising it would only take IOPS from D and E under the
 * full memory: memory binds. */
static void test_several_limits(void)
{
	struct tree t = { .n = 0 };
	struct model_ceil m;
	int mem, hb, sw, a, b, c, d, e;
	double rest = (5e6 - 3 * GEN3X4) / 2;

	mem = add_node(&t, MODEL_CEIL_MEMORY, "node 0", -1, 0);
	t.r[mem].bytes_s = 5e6 * BS;
	hb = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:00", mem, 0);
	a = add_slot_drive(&t, "a", hb, 8.0, 4, 1.5e6, -1);
	sw = add_link(&t, MODEL_CEIL_SWITCH, "switch", hb, 16.0, 4);
	b = add_slot_drive(&t, "b", sw, 16.0, 4, 1.5e6, -1);
	c = add_slot_drive(&t, "c", sw, 16.0, 4, 1.5e6, -1);
	d = add_slot_drive(&t, "d", hb, 16.0, 4, 1.5e6, -1);
	e = add_slot_drive(&t, "e", hb, 16.0, 4, 1.5e6, -1);
	CHECK(!tree_init(&m, &t));
	model_ceil_solve(&m);
	CHECK(near_rel(m.fig[a].allocated, GEN3X4) && m.fig[a].limit == t.r[a].parent);
	CHECK(near_rel(m.fig[b].allocated, GEN4X4 / 2) && m.fig[b].limit == sw);
	CHECK(near_rel(m.fig[c].allocated, GEN4X4 / 2) && m.fig[c].limit == sw);
	CHECK(near_rel(m.fig[d].allocated, rest) && m.fig[d].limit == mem);
	CHECK(near_rel(m.fig[e].allocated, rest) && m.fig[e].limit == mem);
	CHECK(near_rel(m.predicted, 5e6));
	CHECK(near_rel(m.fig[sw].held_back, 2 * (1.5e6 - GEN4X4 / 2)));
	CHECK(near_rel(m.fig[mem].held_back, 2 * (1.5e6 - rest)));
	CHECK(m.fig[sw].held_back > m.fig[mem].held_back);
	CHECKF(fabs(m.fig[sw].gain) < 1e-3, "%g", m.fig[sw].gain);
	CHECKF(fabs(m.fig[t.r[a].parent].gain) < 1e-3, "%g", m.fig[t.r[a].parent].gain);
	CHECKF(near_rel(m.fig[mem].gain, 1), "%g", m.fig[mem].gain);
	CHECK(m.binding == mem);
	CHECK(m.fig[sw].saturated && m.fig[mem].saturated);
	model_ceil_free(&m);
}

/* Two nodes, each with its own limit, both worth one IOPS per IOPS: the
 * CPU of node 0 (2M for four drives asking 1M) holds back 2M, the Gen3 x4
 * link on node 1 130k; the CPU binds. */
static void test_two_nodes_bind(void)
{
	struct tree t = { .n = 0 };
	struct model_ceil m;
	int hb0, hb1, cpu0, slow, i;

	hb0 = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:00", -1, 0);
	hb1 = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:80", -1, 1);
	cpu0 = add_node(&t, MODEL_CEIL_CPU, "node 0 cpu", -1, 0);
	t.r[cpu0].iops = 2e6;
	for (i = 0; i < 4; i++)
		add_slot_drive(&t, "n0", hb0, 16.0, 4, 1e6, cpu0);
	add_slot_drive(&t, "n1a", hb1, 16.0, 4, 1e6, -1);
	slow = add_slot_drive(&t, "n1b", hb1, 8.0, 4, 1e6, -1);
	CHECK(!tree_init(&m, &t));
	model_ceil_solve(&m);
	CHECK(near_rel(m.predicted, 3e6 + GEN3X4));
	CHECK(near_rel(m.fig[cpu0].gain, 1));
	CHECK(near_rel(m.fig[t.r[slow].parent].gain, 1));
	CHECK(m.binding == cpu0);
	model_ceil_free(&m);
}

/* A host bridge's capacity: given, or the sum of its root ports (free
 * ones by their slot), unknown with one unknown part. A given one binds. */
static void test_host_bridge(void)
{
	struct tree t = { .n = 0 };
	struct model_ceil m;
	int hb, hb2, d;

	hb = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:00", -1, 0);
	add_slot_drive(&t, "a", hb, 16.0, 4, 1e6, -1);
	add_slot_drive(&t, "b", hb, 8.0, 4, 1e6, -1);
	add_port(&t, "0000:00:03.1", hb, 16.0, 8);
	hb2 = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:80", -1, 1);
	add_slot_drive(&t, "c", hb2, 16.0, 4, 1e6, -1);
	add_slot_drive(&t, "d", hb2, 0, 0, 1e6, -1);	/* link unknown */
	CHECK(!tree_init(&m, &t));
	CHECK(near_rel(m.fig[hb].capacity, GEN4X4 + GEN3X4 + GEN4X8));
	CHECK(isinf(m.fig[hb2].capacity));
	model_ceil_free(&m);

	t = (struct tree){ .n = 0 };
	hb = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:00", -1, 0);
	t.r[hb].iops = 2e6;
	for (d = 0; d < 4; d++)
		add_slot_drive(&t, "x", hb, 16.0, 4, 1e6, -1);
	CHECK(!tree_init(&m, &t));
	model_ceil_solve(&m);
	CHECK(!m.fig[hb].implied && near_rel(m.fig[hb].capacity, 2e6));
	CHECK(m.binding == hb && near_rel(m.predicted, 2e6));
	model_ceil_free(&m);
}

/* Nothing known above the drives: each gets its demand; a drive asking
 * nothing gets nothing and caps nothing. */
static void test_unknown(void)
{
	struct tree t = { .n = 0 };
	struct model_ceil m;
	int mem, a, z;

	mem = add_node(&t, MODEL_CEIL_MEMORY, "node 0", -1, 0);
	a = add_drive(&t, "a", mem, 7e5, -1);
	z = add_drive(&t, "z", mem, 0, -1);
	CHECK(!tree_init(&m, &t));
	model_ceil_solve(&m);
	CHECK(near_rel(m.predicted, 7e5) && m.binding == -1);
	CHECK(m.fig[a].limit == a && m.fig[z].limit == z);
	CHECK(m.fig[z].allocated == 0 && m.fig[mem].ndrives == 2);
	model_ceil_free(&m);

	/* no resources at all */
	t = (struct tree){ .n = 0 };
	CHECK(!tree_init(&m, &t));
	model_ceil_solve(&m);
	CHECK(m.predicted == 0 && m.binding == -1);
	CHECK(model_ceil_plan(&m) == 0);
	model_ceil_free(&m);
}

static int init_fails(const struct tree *t)
{
	struct model_ceil m = { .nres = 12345 };
	int ret = tree_init(&m, t);

	CHECK(ret >= 0 || m.nres == 12345);	/* untouched on failure */
	if (!ret)
		model_ceil_free(&m);
	return ret;
}

static void test_bad_input(void)
{
	struct model_ceil_in in = { NULL, 0, NULL, 0, 0 };
	struct model_ceil m;
	struct tree t;
	int hb, a, b, cpu;

	CHECK(model_ceil_init(&m, &in) == -EINVAL);	/* bs 0 */
	in.bs = BS;
	in.nres = 1;
	CHECK(model_ceil_init(&m, &in) == -EINVAL);	/* NULL res */

	t = (struct tree){ .n = 0 };
	hb = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "hb", -1, 0);
	a = add_drive(&t, "a", hb, 1e6, -1);
	CHECK(init_fails(&t) == 0);
	t.r[a].parent = 7;				/* out of range */
	CHECK(init_fails(&t) == -EINVAL);
	t.r[a].parent = a;				/* itself */
	CHECK(init_fails(&t) == -EINVAL);
	t.r[a].parent = hb;
	b = add_drive(&t, "b", a, 1e6, -1);		/* under a drive */
	CHECK(init_fails(&t) == -EINVAL);
	t.r[b].parent = hb;
	t.r[b].iops = -1;				/* no demand */
	CHECK(init_fails(&t) == -EINVAL);
	t.r[b].iops = NAN;
	CHECK(init_fails(&t) == -EINVAL);
	t.r[b].iops = INFINITY;
	CHECK(init_fails(&t) == -EINVAL);
	t.r[b].iops = 1e6;
	t.r[b].cpu = hb;				/* not a CPU */
	CHECK(init_fails(&t) == -EINVAL);
	cpu = add_node(&t, MODEL_CEIL_CPU, "cpu", -1, 0);
	t.r[b].cpu = cpu;
	CHECK(init_fails(&t) == 0);
	t.r[b].kind = (enum model_ceil_kind)42;
	CHECK(init_fails(&t) == -EINVAL);
	t.r[b].kind = MODEL_CEIL_DRIVE;
	t.r[hb].parent = cpu;
	t.r[cpu].parent = hb;				/* a loop */
	CHECK(init_fails(&t) == -EINVAL);
	t.r[cpu].parent = -1;
	add_port(&t, "p", a, 16.0, 4);			/* not a bridge */
	CHECK(init_fails(&t) == -EINVAL);
	t.p[0].host_bridge = -1;
	CHECK(init_fails(&t) == -EINVAL);
	t.p[0].host_bridge = hb;
	CHECK(init_fails(&t) == 0);
}

/* A chain as deep as allowed loads; one deeper does not. */
static void test_depth(void)
{
	struct tree t = { .n = 0 };
	int p = -1, i;

	for (i = 0; i < MODEL_CEIL_MAX_DEPTH - 1; i++)
		p = add_link(&t, MODEL_CEIL_LINK, "l", p, 16.0, 4);
	add_drive(&t, "a", p, 1e6, -1);
	CHECK(init_fails(&t) == 0);
	t.n = 0;
	p = -1;
	for (i = 0; i < MODEL_CEIL_MAX_DEPTH; i++)
		p = add_link(&t, MODEL_CEIL_LINK, "l", p, 16.0, 4);
	add_drive(&t, "a", p, 1e6, -1);
	CHECK(init_fails(&t) == -EINVAL);
}

static void test_names(void)
{
	CHECK(!strcmp(model_ceil_kind_name(MODEL_CEIL_DRIVE), "drive"));
	CHECK(!strcmp(model_ceil_kind_name(MODEL_CEIL_LINK), "link"));
	CHECK(!strcmp(model_ceil_kind_name(MODEL_CEIL_SWITCH), "switch"));
	CHECK(!strcmp(model_ceil_kind_name(MODEL_CEIL_HOST_BRIDGE), "host_bridge"));
	CHECK(!strcmp(model_ceil_kind_name(MODEL_CEIL_MEMORY), "memory"));
	CHECK(!strcmp(model_ceil_kind_name(MODEL_CEIL_CPU), "cpu"));
}

int main(void)
{
	test_switch_shared();
	test_degraded_link();
	test_memory_bound();
	test_cpu_bound();
	test_several_limits();
	test_two_nodes_bind();
	test_host_bridge();
	test_unknown();
	test_bad_input();
	test_depth();
	test_names();
	return t_result();
}
