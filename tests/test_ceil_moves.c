/* The ceiling model's moves: every drive on one host bridge with free
 * root ports on another node's (the ceiling rises with each move and the
 * moves stop when none helps), drives out of a shared switch into free
 * ports of the same bridge, the slot's link against the drive's, the
 * bridges no move may target: unknown locality, a node without CPU; and,
 * with no free port, the what-if moves onto the other host bridges. */
#include <errno.h>
#include <math.h>

#include "tests/ceil_build.h"
#include "tests/helpers.h"

struct two_nodes {
	struct tree t;
	int mem0, mem1, hb0, hb1, hbx, cpu0, cpu1, d[8];
};

/* 8 Gen4 x4 drives asking 1M each, all on node 0's bridge 0000:00, whose
 * memory takes 20 GB/s (4882812.5 IOPS); node 1's bridge 0000:80 has
 * nports free Gen4 x4 ports. Bridge 0000:c0 has free Gen5 x16 ports but
 * no known node: firmware did not say. */
static void two_nodes(struct two_nodes *s, unsigned nports)
{
	struct tree *t = &s->t;
	char name[32];
	unsigned i;

	t->n = t->np = 0;
	s->mem0 = add_node(t, MODEL_CEIL_MEMORY, "node 0", -1, 0);
	t->r[s->mem0].bytes_s = 20e9;
	s->mem1 = add_node(t, MODEL_CEIL_MEMORY, "node 1", -1, 1);
	t->r[s->mem1].bytes_s = 20e9;
	s->hb0 = add_node(t, MODEL_CEIL_HOST_BRIDGE, "0000:00", s->mem0, 0);
	s->hb1 = add_node(t, MODEL_CEIL_HOST_BRIDGE, "0000:80", s->mem1, 1);
	s->hbx = add_node(t, MODEL_CEIL_HOST_BRIDGE, "0000:c0", -1, -1);
	s->cpu0 = add_node(t, MODEL_CEIL_CPU, "node 0 cpu", -1, 0);
	s->cpu1 = add_node(t, MODEL_CEIL_CPU, "node 1 cpu", -1, 1);
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "nvme%un1", i);
		s->d[i] = add_slot_drive(t, name, s->hb0, 16.0, 4, 1e6, s->cpu0);
	}
	/* the unknown bridge's ports first: skipped, not merely outranked */
	add_port(t, "0000:c0:01.1", s->hbx, 32.0, 16);
	add_port(t, "0000:c0:03.1", s->hbx, 32.0, 16);
	for (i = 0; i < nports; i++) {
		snprintf(name, sizeof(name), "0000:80:0%u.1", i + 1);
		add_port(t, name, s->hb1, 16.0, 4);
	}
}

/* Before: 4882812.5. Each move takes 1M off node 0 and gives it to
 * node 1 until node 0's four left ask 4M, under its memory: 5882812.5,
 * 6882812.5, 7882812.5, 8M; then every drive gets its demand and the
 * two ports left stay free. */
static void test_one_bridge(void)
{
	static const double after[] = { 5882812.5, 6882812.5, 7882812.5, 8e6 };
	struct two_nodes s;
	struct model_ceil m;
	const struct model_ceil_move *mv;
	double before;
	unsigned i;

	two_nodes(&s, 6);
	CHECK(!tree_init(&m, &s.t));
	model_ceil_solve(&m);
	before = m.predicted;
	CHECK(near_rel(before, 4882812.5) && m.binding == s.mem0);
	CHECKF(model_ceil_plan(&m) == 4, "%u moves", m.nmoves);
	for (i = 0; i < m.nmoves && i < 4; i++) {
		mv = &m.move[i];
		CHECKF(near_rel(mv->ceiling_after, after[i]), "move %u: %.1f",
		       i, mv->ceiling_after);
		CHECK(mv->ceiling_after > (i ? m.move[i - 1].ceiling_after : before));
		/* the first drives, into the first ports of node 1 */
		CHECK(mv->drive == (unsigned)s.d[i]);
		CHECK(mv->from_bridge == s.hb0);
		CHECK(mv->from_port == s.t.r[s.d[i]].parent);
		CHECK(mv->to_bridge == s.hb1);
		CHECK(mv->to_port == 2 + i);
		CHECK(m.res[mv->link].parent == s.hb1);
		CHECK(m.res[mv->drive].parent == mv->link);
		/* served by node 1's cores now */
		CHECK(m.res[mv->drive].cpu == s.cpu1);
		CHECK(near_rel(m.fig[mv->link].capacity, GEN4X4));
	}
	/* m is left solved after the last move */
	CHECK(near_rel(m.predicted, 8e6) && m.binding == -1);
	CHECK(m.fig[s.hbx].ndrives == 0);
	CHECK(m.fig[s.mem1].ndrives == 4 && m.fig[s.mem0].ndrives == 4);
	/* a second plan finds nothing more */
	CHECK(model_ceil_plan(&m) == 0);
	model_ceil_free(&m);
}

/* Node 1's free ports with no link recorded (the usual case for an empty
 * slot): a drive moved there keeps its own Gen4 x4 link, not no limit at
 * all, so the ceilings are those of test_one_bridge. */
static void test_unknown_slot_link(void)
{
	struct two_nodes s;
	struct model_ceil m;
	unsigned i;

	two_nodes(&s, 0);
	for (i = 0; i < 6; i++)
		add_port(&s.t, i & 1 ? "0000:80:03.1" : "0000:80:01.1", s.hb1, 0, 0);
	CHECK(!tree_init(&m, &s.t));
	CHECKF(model_ceil_plan(&m) == 4, "%u moves", m.nmoves);
	for (i = 0; i < m.nmoves; i++)
		CHECKF(near_rel(m.fig[m.move[i].link].capacity, GEN4X4),
		       "move %u: link %.0f", i, m.fig[m.move[i].link].capacity);
	CHECK(near_rel(m.predicted, 8e6));
	model_ceil_free(&m);
}

/* The same with node 1's CPU resource missing: a drive served by node
 * 0's CPU cannot be modelled on node 1, so nothing moves. */
static void test_no_cpu_there(void)
{
	struct two_nodes s;
	struct model_ceil m;

	two_nodes(&s, 6);
	s.t.r[s.cpu1].kind = MODEL_CEIL_MEMORY;	/* node 1 has no CPU now */
	s.t.r[s.cpu1].node = 5;
	CHECK(!tree_init(&m, &s.t));
	CHECK(model_ceil_plan(&m) == 0);
	CHECK(near_rel(m.predicted, 4882812.5) && m.binding == s.mem0);
	model_ceil_free(&m);
}

/* Node 1's bridge with its node unknown: no move, though its ports would
 * help. With the node known, the moves go there. */
static void test_unknown_locality(void)
{
	struct two_nodes s;
	struct model_ceil m;

	two_nodes(&s, 6);
	s.t.r[s.hb1].node = -1;
	CHECK(!tree_init(&m, &s.t));
	CHECK(model_ceil_plan(&m) == 0);
	model_ceil_free(&m);
	/* the unknown bridge with a node now known takes the moves: its
	 * ports come first, and it sits above nothing (no memory known) */
	two_nodes(&s, 6);
	s.t.r[s.hbx].node = 1;
	CHECK(!tree_init(&m, &s.t));
	CHECK(model_ceil_plan(&m) >= 1);
	CHECK(m.move[0].to_bridge == s.hbx && m.move[0].to_port == 0);
	model_ceil_free(&m);
}

/* Four drives asking 1M behind one Gen4 x4 switch (1739603 IOPS) and two
 * free ports on the same bridge: a Gen5 x16 slot, where a Gen4 x4 drive
 * trains to Gen4 x4, and a Gen3 x4 one. First move: the Gen5 slot,
 * 1739603 + 1M; second: the Gen3 slot, 1739603 + 1M + 869801.58. */
static void test_out_of_switch(void)
{
	struct tree t = { .n = 0 };
	struct model_ceil m;
	int hb, sw, i, d[4];

	hb = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:40", -1, 0);
	sw = add_link(&t, MODEL_CEIL_SWITCH, "0000:41:00.0", hb, 16.0, 4);
	for (i = 0; i < 4; i++) {
		d[i] = add_slot_drive(&t, "x", sw, 16.0, 4, 1e6, -1);
		t.r[d[i]].link.speed_gts = 16.0;	/* what it can run */
		t.r[d[i]].link.width = 4;
	}
	add_port(&t, "0000:40:03.1", hb, 32.0, 16);
	add_port(&t, "0000:40:05.1", hb, 8.0, 4);
	CHECK(!tree_init(&m, &t));
	model_ceil_solve(&m);
	CHECK(near_rel(m.predicted, GEN4X4) && m.binding == sw);
	CHECK(model_ceil_plan(&m) == 2);
	CHECK(m.move[0].to_port == 0 && m.move[0].from_port == sw);
	CHECK(m.move[0].from_bridge == hb && m.move[0].to_bridge == hb);
	CHECK(near_rel(m.move[0].ceiling_after, GEN4X4 + 1e6));
	CHECK(m.res[m.move[0].link].link.speed_gts == 16.0);
	CHECK(m.res[m.move[0].link].link.width == 4);
	CHECK(m.move[1].to_port == 1);
	CHECK(near_rel(m.move[1].ceiling_after, GEN4X4 + 1e6 + GEN3X4));
	CHECK(m.move[1].drive != m.move[0].drive);
	CHECK(near_rel(m.predicted, GEN4X4 + 1e6 + GEN3X4));
	model_ceil_free(&m);
}

/* A gain under MODEL_CEIL_MIN_GAIN is no move: 50 drives asking 20k
 * under a memory of 995k; one free port elsewhere would add 0.5%. */
static void test_small_gain(void)
{
	struct tree t = { .n = 0 };
	struct model_ceil m;
	int mem, hb0, mem1, hb1, i;

	mem = add_node(&t, MODEL_CEIL_MEMORY, "node 0", -1, 0);
	t.r[mem].iops = 995e3;
	hb0 = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:00", mem, 0);
	mem1 = add_node(&t, MODEL_CEIL_MEMORY, "node 1", -1, 1);
	hb1 = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:80", mem1, 1);
	for (i = 0; i < 50; i++)
		add_drive(&t, "x", hb0, 20e3, -1);
	add_port(&t, "0000:80:01.1", hb1, 16.0, 4);
	CHECK(!tree_init(&m, &t));
	CHECK(model_ceil_plan(&m) == 0);
	CHECK(near_rel(m.predicted, 995e3));
	model_ceil_free(&m);
}

/* No free port at all (a default lstopo export): what moving one of the
 * drives node 0's memory holds back onto each other host bridge gives,
 * each alone. Node 1's 0000:80 lifts the ceiling by 1M; node 0's other
 * root complex 0000:40 lifts it by nothing, under the same memory;
 * 0000:c0, of no node, would lift it too (no memory above it) but is
 * never a target: the drives have no CPU here, so its node alone keeps
 * it out. m is left as it was. */
static void test_what_if(void)
{
	struct model_ceil_what_if w[4];
	struct two_nodes s;
	struct model_ceil m;
	double hb0cap;
	unsigned i;

	two_nodes(&s, 0);
	s.t.np = 0;	/* not even the unknown bridge's ports */
	add_node(&s.t, MODEL_CEIL_HOST_BRIDGE, "0000:40", s.mem0, 0);
	for (i = 0; i < 8; i++)
		s.t.r[s.d[i]].cpu = -1;
	CHECK(!tree_init(&m, &s.t));
	CHECK(model_ceil_plan(&m) == 0);
	CHECK(near_rel(m.predicted, 4882812.5) && m.binding == s.mem0);
	hb0cap = m.fig[s.hb0].capacity;
	CHECKF(model_ceil_what_if(&m, w, 4) == 1, "%d what-ifs",
	       model_ceil_what_if(&m, w, 4));
	CHECK(w[0].drive == (unsigned)s.d[0]);
	CHECK(w[0].from_bridge == s.hb0 && w[0].from_port == s.t.r[s.d[0]].parent);
	CHECK(w[0].to_bridge == s.hb1);
	CHECKF(near_rel(w[0].ceiling_after, 5882812.5), "%.1f", w[0].ceiling_after);
	/* m as it was: no drive moved, its figures not the slots' */
	CHECK(near_rel(m.predicted, 4882812.5) && m.binding == s.mem0);
	CHECK(m.res[s.d[0]].parent == s.t.r[s.d[0]].parent && m.nmoves == 0);
	CHECK(m.fig[s.hb0].capacity == hb0cap && m.fig[s.hb1].ndrives == 0);
	CHECK(model_ceil_what_if(&m, w, 0) == 0);
	model_ceil_free(&m);
	/* nothing binds: nothing to ask */
	two_nodes(&s, 0);
	s.t.r[s.mem0].bytes_s = 0;
	CHECK(!tree_init(&m, &s.t));
	model_ceil_solve(&m);
	CHECK(m.binding == -1 && model_ceil_what_if(&m, w, 4) == 0);
	model_ceil_free(&m);
}

/* The switch of test_out_of_switch binds four drives, nvme9 on a Gen3 x4
 * link of its own under the same bridge holds back less; no free port.
 * Moving nvme9 would add more (it can do 2M on its Gen4 x16) but it is not
 * the binding switch's; a switch drive moves, and never onto its own
 * bridge 0000:40 (whose free slot, if any, is the same question), only
 * onto the bridges whose devices show they are there: 0000:60, whose
 * node's memory takes 500k, and 0000:80, best first though later. */
static void test_what_if_binding(void)
{
	struct model_ceil_what_if w[4];
	struct tree t = { .n = 0 };
	struct model_ceil m;
	int hb, sw, i, d[4], x, mem2, hb2, hb3;

	hb = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:40", -1, 0);
	x = add_slot_drive(&t, "nvme9n1", hb, 8.0, 4, 2e6, -1);
	t.r[x].link.speed_gts = 16.0;
	t.r[x].link.width = 16;
	sw = add_link(&t, MODEL_CEIL_SWITCH, "0000:41:00.0", hb, 16.0, 4);
	for (i = 0; i < 4; i++)
		d[i] = add_slot_drive(&t, "x", sw, 16.0, 4, 1e6, -1);
	mem2 = add_node(&t, MODEL_CEIL_MEMORY, "node 2", -1, 2);
	t.r[mem2].iops = 500e3;
	hb2 = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:60", mem2, 2);
	hb3 = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:80", -1, 1);
	CHECK(!tree_init(&m, &t));
	model_ceil_solve(&m);
	CHECK(m.binding == sw);
	CHECK(near_rel(m.predicted, GEN4X4 + GEN3X4));
	CHECKF(model_ceil_what_if(&m, w, 4) == 2, "%d what-ifs", model_ceil_what_if(&m, w, 4));
	CHECK(w[0].to_bridge == hb3 && w[1].to_bridge == hb2);
	for (i = 0; i < 2; i++) {
		CHECKF(w[i].drive == (unsigned)d[0], "what-if %d moves %u", i, w[i].drive);
		CHECK(w[i].from_bridge == hb && w[i].from_port == sw);
	}
	/* its own Gen4 x4 there: its 1M, and the switch is the others' */
	CHECKF(near_rel(w[0].ceiling_after, GEN4X4 + GEN3X4 + 1e6), "%.1f", w[0].ceiling_after);
	CHECKF(near_rel(w[1].ceiling_after, GEN4X4 + GEN3X4 + 500e3), "%.1f", w[1].ceiling_after);
	/* room for one: the best */
	CHECK(model_ceil_what_if(&m, w, 1) == 1 && w[0].to_bridge == hb3);
	model_ceil_free(&m);
}

/* docs/ceiling.md's worked example, figure for figure. */
static void test_doc_example(void)
{
	struct tree t = { .n = 0 };
	struct model_ceil m;
	char name[32];
	int mem0, mem1, cpu0, cpu1, hb0, hb1, hbx, sw, d[7], i;

	mem0 = add_node(&t, MODEL_CEIL_MEMORY, "node 0 memory", -1, 0);
	mem1 = add_node(&t, MODEL_CEIL_MEMORY, "node 1 memory", -1, 1);
	t.r[mem0].bytes_s = t.r[mem1].bytes_s = 40e9;
	cpu0 = add_node(&t, MODEL_CEIL_CPU, "node 0 cpu", -1, 0);
	cpu1 = add_node(&t, MODEL_CEIL_CPU, "node 1 cpu", -1, 1);
	for (i = cpu0; i <= cpu1; i++) {
		t.r[i].ios_per_cpu_s = 500e3;
		t.r[i].cores = 16;
		t.r[i].smt = 1.2;
	}
	hb0 = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:00", mem0, 0);
	hb1 = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:80", mem1, 1);
	hbx = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:c0", -1, -1);
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "nvme%dn1", i);
		d[i] = add_slot_drive(&t, name, hb0, 16.0, 4, 1.4e6, cpu0);
	}
	sw = add_link(&t, MODEL_CEIL_SWITCH, "0000:01:00.0", hb0, 16.0, 8);
	for (i = 2; i < 6; i++) {
		snprintf(name, sizeof(name), "nvme%dn1", i);
		d[i] = add_slot_drive(&t, name, sw, 16.0, 4, 1.4e6, cpu0);
	}
	d[6] = add_slot_drive(&t, "nvme6n1", hb0, 8.0, 4, 1.4e6, cpu0);
	t.r[d[6]].link.speed_gts = 16.0;
	t.r[d[6]].link.width = 4;
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "0000:80:0%d.1", i + 1);
		add_port(&t, name, hb1, 16.0, 4);
	}
	add_port(&t, "0000:c0:01.1", hbx, 32.0, 16);
	CHECK(!tree_init(&m, &t));
	model_ceil_solve(&m);
	CHECK(near_rel(m.fig[mem0].capacity, 9765625));
	CHECK(near_rel(m.fig[cpu0].capacity, 9.6e6));
	CHECK(near_rel(m.fig[hb0].capacity, 2 * GEN4X4 + GEN4X8 + GEN3X4));
	CHECK(m.fig[hb0].implied);
	CHECK(near_rel(m.predicted, 2 * 1.4e6 + 5 * GEN3X4));
	CHECK(m.binding == sw);
	CHECK(near_rel(m.fig[sw].gain, 1));
	CHECK(near_rel(m.fig[t.r[d[6]].parent].gain, 1));
	CHECK(near_rel(m.fig[sw].held_back, 4 * (1.4e6 - GEN3X4)));
	CHECK(near_rel(m.fig[cpu0].utilization, m.predicted / 9.6e6));
	CHECK(model_ceil_plan(&m) == 3);
	CHECK(m.move[0].drive == (unsigned)d[2] && m.move[0].to_port == 0);
	CHECK(m.move[0].from_port == sw);
	CHECK(near_rel(m.move[0].ceiling_after, 3 * 1.4e6 + GEN4X8 + GEN3X4));
	CHECK(m.move[1].drive == (unsigned)d[3] && m.move[1].to_port == 1);
	CHECK(near_rel(m.move[1].ceiling_after, 6 * 1.4e6 + GEN3X4));
	CHECK(m.move[2].drive == (unsigned)d[6] && m.move[2].to_port == 2);
	CHECK(m.move[2].from_port == t.r[d[6]].parent);
	CHECK(near_rel(m.move[2].ceiling_after, 9.8e6));
	CHECK(m.binding == -1 && !m.port_used[3] && !m.port_used[4]);
	model_ceil_free(&m);
}

int main(void)
{
	test_unknown_slot_link();
	test_one_bridge();
	test_no_cpu_there();
	test_unknown_locality();
	test_out_of_switch();
	test_small_gain();
	test_what_if();
	test_what_if_binding();
	test_doc_example();
	return t_result();
}
