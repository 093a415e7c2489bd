/* Which drives to move to which free slots, in order: every drive not
 * moved yet into every free port, solved on the layout the moves before
 * left; the best move is kept if it raises the ceiling enough, then the
 * next one is looked for. Greedy, one move at a time, as a person would
 * move drives, so each move's ceiling is what the machine has once it and
 * those before it are done. */
#include "model/ceiling_int.h"

#include <errno.h>
#include <stddef.h>

struct cand {
	unsigned drive, port;
	double ceiling;
};

/* The first host bridge above drive d and the resource right below it;
 * -ENOENT when d has none. */
static int bridge_of(const struct model_ceil *m, unsigned d, int *bridge,
		     int *below)
{
	int p, prev = (int)d;

	for (p = m->res[d].parent; p >= 0; prev = p, p = m->res[p].parent) {
		if (m->res[p].kind == MODEL_CEIL_HOST_BRIDGE) {
			*bridge = p;
			*below = prev;
			return 0;
		}
	}
	return -ENOENT;
}

static int cpu_of_node(const struct model_ceil *m, int node)
{
	unsigned i;

	for (i = 0; i < m->nin; i++)
		if (m->res[i].kind == MODEL_CEIL_CPU && m->res[i].node == node)
			return (int)i;
	return -1;
}

/* What drive d can run: its own link when known, else the link it sits
 * on; NULL when neither is known. */
static const struct model_pcie_link *drive_link(const struct model_ceil *m,
						unsigned d)
{
	const struct model_ceil_res *r = &m->res[d];
	double rate;
	int p = r->parent;

	if (!model_pcie_data_bytes_s(&r->link, &rate))
		return &r->link;
	if (p >= 0 && (m->res[p].kind == MODEL_CEIL_LINK ||
		       m->res[p].kind == MODEL_CEIL_SWITCH) &&
	    !model_pcie_data_bytes_s(&m->res[p].link, &rate))
		return &m->res[p].link;
	return NULL;
}

/* Puts drive d into free port p: the port's link trains to the lower of
 * the two, and d is served by the CPU of the port's node. -EINVAL where
 * the model cannot say what d would do there: the bridge's node is
 * unknown, or d has a CPU and that node none. */
static int place(struct model_ceil *m, unsigned d, unsigned p)
{
	const struct model_ceil_port *port = &m->port[p];
	const struct model_pcie_link *dl = drive_link(m, d);
	struct model_ceil_res *link = &m->res[m->nin + p];
	int node = m->res[port->host_bridge].node, cpu = -1;
	double rate;

	if (node < 0)
		return -EINVAL;
	if (m->res[d].cpu >= 0) {
		cpu = cpu_of_node(m, node);
		if (cpu < 0)
			return -EINVAL;
	}
	/* the slower of the drive and the slot; an empty slot's link is often
	 * not recorded: then the drive's own, not no limit at all */
	if (!dl || model_pcie_link_min(dl, &port->link, &link->link))
		link->link = dl && model_pcie_data_bytes_s(&port->link, &rate) ? *dl
									: port->link;
	link->parent = port->host_bridge;
	m->fig[m->nin + p].capacity = ceil_link_capacity(m, &link->link);
	m->res[d].parent = (int)(m->nin + p);
	m->res[d].cpu = cpu;
	return 0;
}

/* Takes drive d out of free port p again: the port is as init left it. */
static void unplace(struct model_ceil *m, unsigned d, unsigned p,
		    const struct model_ceil_res *was)
{
	struct model_ceil_res *link = &m->res[m->nin + p];

	m->res[d].parent = was->parent;
	m->res[d].cpu = was->cpu;
	link->parent = -1;
	link->link = m->port[p].link;
	m->fig[m->nin + p].capacity = ceil_link_capacity(m, &link->link);
}

/* The ceiling with d in port p; m's figures are that solve's afterwards.
 * -EINVAL when d cannot go there. */
static int try_move(struct model_ceil *m, unsigned d, unsigned p, double *ceiling)
{
	struct model_ceil_res was = m->res[d];
	int ret = place(m, d, p);

	if (ret)
		return ret;
	ceil_fill(m);
	*ceiling = m->predicted;
	unplace(m, d, p, &was);
	return 0;
}

/* A free port like an earlier free one (same bridge, same slot) gives
 * the same ceiling: trying the first of each kind is enough, which keeps
 * a machine with a hundred empty root ports quick. */
static bool same_as_earlier(const struct model_ceil *m, unsigned p)
{
	const struct model_ceil_port *a = &m->port[p], *b;
	unsigned q;

	for (q = 0; q < p; q++) {
		b = &m->port[q];
		if (!m->port_used[q] && b->host_bridge == a->host_bridge &&
		    b->link.speed_gts == a->link.speed_gts &&
		    b->link.width == a->link.width &&
		    b->link.data_bytes_s == a->link.data_bytes_s &&
		    b->link.mps == a->link.mps)
			return true;
	}
	return false;
}

/* Ceilings this close are one: moving any of several like drives gives
 * the same figure but for rounding, and the first one should win. */
#define TIE_EPS 1e-9

/* The move that raises the ceiling most above now; false when none
 * raises it by MODEL_CEIL_MIN_GAIN. Ties: the first drive, then port. */
static bool best_move(struct model_ceil *m, double now, struct cand *best)
{
	unsigned d, p;
	int bridge, below;
	double c;

	best->ceiling = now * (1 + MODEL_CEIL_MIN_GAIN) / (1 + TIE_EPS);
	best->drive = m->nres;
	best->port = 0;
	for (d = 0; d < m->nin; d++) {
		if (m->res[d].kind != MODEL_CEIL_DRIVE || m->moved[d] ||
		    bridge_of(m, d, &bridge, &below))
			continue;
		for (p = 0; p < m->nports; p++) {
			if (m->port_used[p] || same_as_earlier(m, p) ||
			    try_move(m, d, p, &c))
				continue;
			if (c > best->ceiling * (1 + TIE_EPS)) {
				best->ceiling = c;
				best->drive = d;
				best->port = p;
			}
		}
	}
	return best->drive < m->nres;
}

int model_ceil_plan(struct model_ceil *m)
{
	struct model_ceil_move *mv;
	struct cand best;

	m->nmoves = 0;
	ceil_fill(m);
	while (m->nmoves < m->nports && best_move(m, m->predicted, &best)) {
		mv = &m->move[m->nmoves++];
		mv->drive = best.drive;
		bridge_of(m, best.drive, &mv->from_bridge, &mv->from_port);
		mv->to_port = best.port;
		mv->to_bridge = m->port[best.port].host_bridge;
		mv->link = (int)(m->nin + best.port);
		place(m, best.drive, best.port);
		m->moved[best.drive] = true;
		m->port_used[best.port] = true;
		ceil_fill(m);
		mv->ceiling_after = m->predicted;
	}
	model_ceil_solve(m);
	m->stop = m->binding < 0 ? MODEL_CEIL_STOP_MET :
		  m->nmoves == m->nports ? MODEL_CEIL_STOP_NO_SLOT : MODEL_CEIL_STOP_NO_GAIN;
	return (int)m->nmoves;
}
