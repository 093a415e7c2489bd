/* The ceiling model's moves: every drive on one host bridge with free
 * root ports on another node's (the ceiling rises with each move and the
 * moves stop when none helps), drives out of a shared switch into free
 * ports of the same bridge, the slot's link against the drive's, the
 * bridges no move may target: unknown locality, a node without CPU; slots
 * assumed or given of unknown link; the plan as a sequence (16 drives
 * behind one switch, the Threadripper's root complex, each move on the
 * layout the ones before left) and why it stops. */
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
	/* m is left solved after the last move, every drive its demand */
	CHECK(near_rel(m.predicted, 8e6) && m.binding == -1 && m.stop == MODEL_CEIL_STOP_MET);
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
	CHECK(near_rel(m.predicted, GEN4X4 + 1e6 + GEN3X4) && m.stop == MODEL_CEIL_STOP_NO_SLOT);
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
	CHECK(near_rel(m.predicted, 995e3) && m.stop == MODEL_CEIL_STOP_NO_GAIN);
	model_ceil_free(&m);
}

/* Every move's ceiling above the one before it (the first above before). */
static void check_rising(const struct model_ceil *m, double before)
{
	unsigned i;

	for (i = 0; i < m->nmoves; i++) {
		CHECKF(m->move[i].ceiling_after > before * (1 + MODEL_CEIL_MIN_GAIN) * (1 - 1e-9),
		       "move %u: %.1f after %.1f", i, m->move[i].ceiling_after, before);
		before = m->move[i].ceiling_after;
	}
}

/* No free port listed (a default lstopo export): one assumed under each
 * host bridge, of unknown link. Node 0's memory binds the eight drives;
 * its other root complex 0000:40 lifts nothing (the same memory), node
 * 1's 0000:80 lifts it by 1M, and 0000:c0, of no node, is never a target.
 * One move, then none raises the ceiling: the binding memory is not one a
 * move to what is left relieves. The assumed slots add nothing to their
 * bridges' sums. */
static void test_assumed(void)
{
	struct two_nodes s;
	struct model_ceil m;
	double hb0cap;
	int hb40;
	unsigned i;

	two_nodes(&s, 0);
	s.t.np = 0;
	hb40 = add_node(&s.t, MODEL_CEIL_HOST_BRIDGE, "0000:40", s.mem0, 0);
	for (i = 0; i < 8; i++)
		s.t.r[s.d[i]].cpu = -1;
	add_slot(&s.t, s.hb0, true);
	add_slot(&s.t, hb40, true);
	add_slot(&s.t, s.hb1, true);
	add_slot(&s.t, s.hbx, true);
	CHECK(!tree_init(&m, &s.t));
	model_ceil_solve(&m);
	hb0cap = m.fig[s.hb0].capacity;
	CHECK(near_rel(hb0cap, 8 * GEN4X4));	/* its ports alone */
	CHECK(near_rel(m.predicted, 4882812.5) && m.binding == s.mem0);
	CHECKF(model_ceil_plan(&m) == 1, "%u moves", m.nmoves);
	CHECK(m.move[0].drive == (unsigned)s.d[0] && m.move[0].to_bridge == s.hb1);
	CHECK(m.move[0].to_port == 2 && m.port[m.move[0].to_port].assumed);
	CHECK(m.move[0].from_bridge == s.hb0 && m.move[0].from_port == s.t.r[s.d[0]].parent);
	CHECKF(near_rel(m.move[0].ceiling_after, 5882812.5), "%.1f", m.move[0].ceiling_after);
	/* its own Gen4 x4 in the slot of unknown link */
	CHECK(near_rel(m.fig[m.move[0].link].capacity, GEN4X4));
	CHECK(m.stop == MODEL_CEIL_STOP_NO_GAIN && m.binding == s.mem0);
	CHECK(m.fig[s.hb0].capacity == hb0cap);
	model_ceil_free(&m);
}

/* The user with 16 drives behind one switch: 16 Gen4 x4 drives asking 1M
 * behind a Gen4 x4 upstream link (1739603) under node 0's 0000:00; node
 * 0's 0000:40 and node 1's 0000:80 show devices but no slot. With one
 * slot assumed under each of the three bridges, three drives leave the
 * switch, each into its own slot: +1M each, and the switch still binds the
 * 13 left. */
struct sixteen {
	struct tree t;
	int hb0, hb40, hb80, sw, d[16];
};

static void sixteen(struct sixteen *s)
{
	struct tree *t = &s->t;
	int mem0, mem1, i;

	t->n = t->np = 0;
	mem0 = add_node(t, MODEL_CEIL_MEMORY, "node 0", -1, 0);
	mem1 = add_node(t, MODEL_CEIL_MEMORY, "node 1", -1, 1);
	s->hb0 = add_node(t, MODEL_CEIL_HOST_BRIDGE, "0000:00", mem0, 0);
	s->hb40 = add_node(t, MODEL_CEIL_HOST_BRIDGE, "0000:40", mem0, 0);
	s->hb80 = add_node(t, MODEL_CEIL_HOST_BRIDGE, "0000:80", mem1, 1);
	s->sw = add_link(t, MODEL_CEIL_SWITCH, "0000:01:00.0", s->hb0, 16.0, 4);
	for (i = 0; i < 16; i++)
		s->d[i] = add_slot_drive(t, "x", s->sw, 16.0, 4, 1e6, -1);
}

static void test_sixteen_assumed(void)
{
	struct sixteen s;
	struct model_ceil m;
	unsigned i, k;

	sixteen(&s);
	add_slot(&s.t, s.hb0, true);
	add_slot(&s.t, s.hb40, true);
	add_slot(&s.t, s.hb80, true);
	CHECK(!tree_init(&m, &s.t));
	model_ceil_solve(&m);
	CHECK(near_rel(m.predicted, GEN4X4) && m.binding == s.sw);
	CHECKF(model_ceil_plan(&m) == 3, "%u moves", m.nmoves);
	check_rising(&m, GEN4X4);
	for (i = 0; i < m.nmoves; i++) {
		CHECKF(near_rel(m.move[i].ceiling_after, GEN4X4 + (i + 1) * 1e6), "move %u: %.1f",
		       i, m.move[i].ceiling_after);
		CHECK(m.move[i].from_port == s.sw && m.move[i].to_port == i);
		for (k = 0; k < i; k++)
			CHECK(m.move[k].drive != m.move[i].drive);
	}
	CHECK(m.stop == MODEL_CEIL_STOP_NO_SLOT && m.binding == s.sw);
	CHECK(m.fig[s.sw].ndrives == 13);
	model_ceil_free(&m);
}

/* The same with slots given: 20 under node 1's 0000:80. After k moves the
 * switch carries 16 - k drives: +1M each while two or more share it
 * (14 moves: 14M + 1739603), then the 15th leaves the last one its 1M:
 * 16M, every drive its demand, five slots still free. */
static void test_sixteen_given(void)
{
	struct sixteen s;
	struct model_ceil m;
	unsigned i;

	sixteen(&s);
	for (i = 0; i < 20; i++)
		add_slot(&s.t, s.hb80, false);
	CHECK(!tree_init(&m, &s.t));
	CHECKF(model_ceil_plan(&m) == 15, "%u moves", m.nmoves);
	check_rising(&m, GEN4X4);
	for (i = 0; i < 14 && i < m.nmoves; i++)
		CHECKF(near_rel(m.move[i].ceiling_after, GEN4X4 + (i + 1) * 1e6), "move %u: %.1f",
		       i, m.move[i].ceiling_after);
	CHECK(m.nmoves == 15 && near_rel(m.move[14].ceiling_after, 16e6));
	CHECK(m.stop == MODEL_CEIL_STOP_MET && m.binding == -1 && !m.port_used[15]);
	model_ceil_free(&m);
}

/* The seed's Threadripper: eight drives asking 1.4M, each on its own Gen4
 * x4 root port, all under one root complex that moves 28 GB/s (6835937.5
 * IOPS); three other root complexes of the one node have a free slot each.
 * Moving drives one after another: 8235937.5, 9635937.5, 11035937.5, and
 * no slot is left. A fourth slot gives the last 1.4%: 11.2M, every drive
 * its demand. */
static void test_threadripper(void)
{
	static const double after[] = { 8235937.5, 9635937.5, 11035937.5, 11.2e6 };
	struct tree t = { .n = 0 };
	struct model_ceil m;
	int mem, hb[4], i, pass;

	for (pass = 0; pass < 2; pass++) {
		t.n = t.np = 0;
		mem = add_node(&t, MODEL_CEIL_MEMORY, "node 0", -1, 0);
		for (i = 0; i < 4; i++) {
			hb[i] = add_node(&t, MODEL_CEIL_HOST_BRIDGE, i ? "other" : "0000:00", mem, 0);
			t.r[hb[i]].bytes_s = 28e9;
		}
		for (i = 0; i < 8; i++)
			add_slot_drive(&t, "x", hb[0], 16.0, 4, 1.4e6, -1);
		for (i = 1; i < 4; i++)
			add_port(&t, "p", hb[i], 16.0, 4);
		if (pass)
			add_port(&t, "p", hb[3], 16.0, 4);
		CHECK(!tree_init(&m, &t));
		model_ceil_solve(&m);
		CHECK(near_rel(m.predicted, 6835937.5) && m.binding == hb[0]);
		CHECKF(model_ceil_plan(&m) == 3 + pass, "pass %d: %u moves", pass, m.nmoves);
		check_rising(&m, 6835937.5);
		for (i = 0; i < (int)m.nmoves; i++)
			CHECKF(near_rel(m.move[i].ceiling_after, after[i]), "move %d: %.1f", i,
			       m.move[i].ceiling_after);
		CHECK(m.stop == (pass ? MODEL_CEIL_STOP_MET : MODEL_CEIL_STOP_NO_SLOT));
		model_ceil_free(&m);
	}
}

/* Each move on the layout the ones before left: node 1's memory (the
 * drives') takes 5 GB/s (1220703 IOPS), as does node 0's, which has two
 * root complexes with a slot each; node 2's has one. Alone, a move to
 * either of node 0's bridges gives +1M; after one of them, the other adds
 * only what node 0's memory has left (220703), so the second move goes
 * to node 2, and node 0's second bridge comes last. */
static void test_layout_after(void)
{
	struct tree t = { .n = 0 };
	struct model_ceil m;
	int mem[3], hb00, hb80, hb1, hb2, sw, i;

	for (i = 0; i < 3; i++) {
		mem[i] = add_node(&t, MODEL_CEIL_MEMORY, "node", -1, i);
		t.r[mem[i]].bytes_s = 5e9;
	}
	hb00 = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:00", mem[0], 0);
	hb80 = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0000:80", mem[0], 0);
	hb1 = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0001:80", mem[1], 1);
	hb2 = add_node(&t, MODEL_CEIL_HOST_BRIDGE, "0002:00", mem[2], 2);
	sw = add_link(&t, MODEL_CEIL_SWITCH, "0001:81:00.0", hb1, 16.0, 4);
	for (i = 0; i < 16; i++)
		add_slot_drive(&t, "x", sw, 16.0, 4, 1e6, -1);
	add_slot(&t, hb00, true);
	add_slot(&t, hb80, true);
	add_slot(&t, hb2, true);
	CHECK(!tree_init(&m, &t));
	model_ceil_solve(&m);
	CHECK(near_rel(m.predicted, 5e9 / 4096) && m.binding == mem[1]);
	CHECKF(model_ceil_plan(&m) == 3, "%u moves", m.nmoves);
	check_rising(&m, 5e9 / 4096);
	CHECK(m.move[0].to_bridge == hb00 && m.move[1].to_bridge == hb2 &&
	      m.move[2].to_bridge == hb80);
	CHECKF(near_rel(m.move[1].ceiling_after, 5e9 / 4096 + 2e6), "%.1f", m.move[1].ceiling_after);
	CHECKF(near_rel(m.move[2].ceiling_after, 5e9 / 4096 * 2 + 1e6), "%.1f",
	       m.move[2].ceiling_after);
	CHECK(m.stop == MODEL_CEIL_STOP_NO_SLOT);
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
	test_assumed();
	test_sixteen_assumed();
	test_sixteen_given();
	test_threadripper();
	test_layout_after();
	test_doc_example();
	return t_result();
}
