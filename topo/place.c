/* Worker placement: which CPU and which memory node each worker gets. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "topo/topo.h"
#include "topo/topo_int.h"

struct pu {
	int os;
	unsigned core;		/* index into core_load */
	unsigned load;		/* workers on this PU */
	unsigned rank;		/* its CPU kind's, 0: the most performant */
};

struct placer {
	struct topo *t;
	struct pu *pus;
	unsigned npus;
	unsigned *core_load;	/* workers per core */
};

/* A note of kind about d, the device of paths[dev]; its facts are filled
 * in by the caller. NULL when notes is NULL or full (counted). */
static struct topo_note *note(struct topo_notes *n, enum topo_note_kind kind,
			      const struct topo_dev *d, unsigned dev)
{
	struct topo_note *nt;

	if (!n)
		return NULL;
	if (n->n >= TOPO_MAX_NOTES) {
		n->ndropped++;
		return NULL;
	}
	nt = &n->note[n->n++];
	memset(nt, 0, sizeof(*nt));
	nt->kind = kind;
	nt->dev = dev;
	topo_copy_str(nt->name, sizeof(nt->name), d->name);
	return nt;
}

int topo_policy_parse(const char *s, enum topo_policy *pol)
{
	if (!strcmp(s, "local"))
		*pol = TOPO_PLACE_LOCAL;
	else if (!strcmp(s, "remote"))
		*pol = TOPO_PLACE_REMOTE;
	else if (!strcmp(s, "none"))
		*pol = TOPO_PLACE_NONE;
	else
		return -EINVAL;
	return 0;
}

const char *topo_policy_name(enum topo_policy pol)
{
	switch (pol) {
	case TOPO_PLACE_LOCAL:
		return "local";
	case TOPO_PLACE_REMOTE:
		return "remote";
	case TOPO_PLACE_NONE:
		return "none";
	}
	return "?";
}

/* The NUMA node for a worker's memory on cpu: one of prefer's nodes (the
 * device's) that holds the CPU, else the first node that holds it. */
static int node_of_cpu(const struct topo *t, int cpu, const struct topo_dev *prefer)
{
	unsigned i, k;

	if (prefer)
		for (k = 0; k < prefer->nnodes; k++) {
			int idx = topo_node_index(t, prefer->nodes[k]);

			if (idx >= 0 && !t->nodes[idx].cpuless &&
			    hwloc_bitmap_isset(t->node_obj[idx]->cpuset, (unsigned)cpu))
				return (int)prefer->nodes[k];
		}
	/* the node that owns the CPU, not an HBM node local to it */
	for (i = 0; i < t->nnodes; i++)
		if (!t->nodes[i].cpuless && hwloc_bitmap_isset(t->node_obj[i]->cpuset, (unsigned)cpu))
			return (int)t->nodes[i].os_index;
	for (i = 0; i < t->nnodes; i++)
		if (hwloc_bitmap_isset(t->node_obj[i]->cpuset, (unsigned)cpu))
			return (int)t->nodes[i].os_index;
	return -1;
}

static int placer_init(struct placer *p, struct topo *t)
{
	int ncores = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_CORE);
	hwloc_obj_t pu = NULL;

	memset(p, 0, sizeof(*p));
	p->t = t;
	p->pus = calloc((size_t)hwloc_bitmap_weight(t->allowed) + 1, sizeof(*p->pus));
	/* a PU without a Core above it counts as its own core */
	p->core_load = calloc((size_t)(ncores > 0 ? ncores : 0) +
			      (size_t)hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PU) + 1,
			      sizeof(*p->core_load));
	if (!p->pus || !p->core_load)
		return -ENOMEM;
	while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(t->h, t->allowed, HWLOC_OBJ_PU, pu))) {
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_CORE, pu);
		int kind = topo_cpu_kind(t, (int)pu->os_index);

		p->pus[p->npus].os = (int)pu->os_index;
		p->pus[p->npus].rank = kind >= 0 ? t->kinds[kind].rank : 0;
		p->pus[p->npus].core = core ? core->logical_index :
			(unsigned)(ncores > 0 ? ncores : 0) + pu->logical_index;
		p->npus++;
	}
	return p->npus ? 0 : -ENODEV;
}

static void placer_fini(struct placer *p)
{
	free(p->pus);
	free(p->core_load);
}

/* Cores with at least one PU in set; only_free: with no worker yet. */
static unsigned count_cores(const struct placer *p, hwloc_const_bitmap_t set, bool only_free)
{
	unsigned i, j, n = 0;

	for (i = 0; i < p->npus; i++) {
		bool seen = false;

		if (!hwloc_bitmap_isset(set, (unsigned)p->pus[i].os) ||
		    (only_free && p->core_load[p->pus[i].core]))
			continue;
		for (j = 0; j < i && !seen; j++)
			seen = p->pus[j].core == p->pus[i].core &&
				hwloc_bitmap_isset(set, (unsigned)p->pus[j].os);
		n += !seen;
	}
	return n;
}

/* Whether u is a better place than best: fewer workers on the PU, then
 * on its core, then a more performant CPU kind. The kind comes last: a
 * free core of a lesser kind (an E core) before the second PU of a busy
 * P core, as the scheduler does; kernel/sched/fair.c's
 * sched_use_asym_prio() ranks a core by its kind's priority only while
 * the whole core is idle, and find_busiest_queue() lets lower-priority
 * CPUs take work from an SMT core with more than one busy sibling. */
static bool better(const struct placer *p, const struct pu *u, const struct pu *best)
{
	unsigned cu = p->core_load[u->core], cb = p->core_load[best->core];

	if (u->load != best->load)
		return u->load < best->load;
	if (cu != cb)
		return cu < cb;
	return u->rank < best->rank;
}

/* The least loaded PU of set: an idle core's first PU (of the most
 * performant kind first), then idle SMT siblings, then round again. */
static int pick(struct placer *p, hwloc_const_bitmap_t set)
{
	struct pu *best = NULL;
	unsigned i;

	for (i = 0; i < p->npus; i++) {
		struct pu *u = &p->pus[i];

		if (!hwloc_bitmap_isset(set, (unsigned)u->os))
			continue;
		if (!best || better(p, u, best))
			best = u;
	}
	if (!best)
		return -1;
	best->load++;
	p->core_load[best->core]++;
	return best->os;
}

/* A human name for a set of CPUs: "node 1", "nodes 0,1" or the cpulist. */
static void set_name(const struct topo *t, hwloc_const_bitmap_t set, char *buf, size_t len)
{
	hwloc_bitmap_t ns = hwloc_bitmap_alloc();
	unsigned i;
	int n = 0;

	if (ns) {
		for (i = 0; i < t->nnodes; i++)
			if (!t->nodes[i].cpuless &&
			    hwloc_bitmap_intersects(t->node_obj[i]->cpuset, set))
				hwloc_bitmap_set(ns, t->nodes[i].os_index);
		n = hwloc_bitmap_weight(ns);
	}
	if (n >= 1 && (unsigned)n < t->nnodes + 1) {
		char *l = NULL;

		if (hwloc_bitmap_list_asprintf(&l, ns) >= 0) {
			snprintf(buf, len, "node%s %s", n > 1 ? "s" : "", l);
			free(l);
			hwloc_bitmap_free(ns);
			return;
		}
		free(l);
	}
	hwloc_bitmap_free(ns);
	hwloc_bitmap_list_snprintf(buf, len, set);
}

/* The node with CPUs farthest from the device's nodes, -1: none. */
static int farthest_node(const struct topo *t, const struct topo_dev *d)
{
	int best = -1;
	uint64_t bestd = 0;
	unsigned j, k;

	for (j = 0; j < t->nnodes; j++) {
		uint64_t sum = 0;
		bool local = false;

		if (t->nodes[j].cpuless ||
		    !hwloc_bitmap_intersects(t->node_obj[j]->cpuset, t->allowed))
			continue;
		for (k = 0; k < d->nnodes; k++) {
			int i = topo_node_index(t, d->nodes[k]);

			local |= d->nodes[k] == t->nodes[j].os_index;
			if (t->dist && i >= 0)
				sum += t->dist[(unsigned)i * t->nnodes + j];
		}
		if (local)
			continue;
		if (best < 0 || sum > bestd) {
			best = (int)j;
			bestd = sum;
		}
	}
	return best;
}

/* A multipath namespace with paths on several nodes: local is all of
 * them. Under iopolicy numa (the default) each worker's IO takes the path
 * of its own node, so workers on every path's node keep every IO local
 * and use every controller. Other policies spread IOs over the paths
 * whatever the worker's node. */
static void multipath_note(const struct topo_dev *d, unsigned dev, struct topo_notes *notes)
{
	bool numa = !d->iopolicy[0] || !strcmp(d->iopolicy, "numa");
	struct topo_note *nt = note(notes, numa ? TOPO_NOTE_PATHS_NUMA : TOPO_NOTE_PATHS_SPREAD,
				    d, dev);
	size_t o = 0;
	unsigned k;

	if (!nt)
		return;
	for (k = 0; k < d->nnodes && o < sizeof(nt->what); k++)
		o += (size_t)snprintf(nt->what + o, sizeof(nt->what) - o, "%s%u", k ? "," : "",
				      d->nodes[k]);
	if (!numa)
		topo_copy_str(nt->where, sizeof(nt->where), d->iopolicy);
}

/* The CPUs a device's workers go to under pol, into set. */
static void candidates(struct topo *t, enum topo_policy pol, const struct topo_dev *d,
		       unsigned dev, hwloc_bitmap_t set, struct topo_notes *notes)
{
	unsigned k, with_cpus = 0;
	struct topo_note *nt;

	if (!d->has_pci || !d->cpus || !d->nnodes) {
		hwloc_bitmap_copy(set, t->allowed);
		nt = note(notes, TOPO_NOTE_NO_PCI, d, dev);
		if (nt)
			topo_copy_str(nt->what, sizeof(nt->what), topo_no_pci_name(d->no_pci));
		return;
	}
	topo_cpuset_to_hwloc(&d->cpuset, set);
	for (k = 0; k < d->nnodes; k++) {
		int idx = topo_node_index(t, d->nodes[k]);

		with_cpus += idx >= 0 && !t->nodes[idx].cpuless;
	}
	if (!with_cpus) {
		int idx = topo_nearest_cpu_index(t, d->nodes[0]);

		if (idx >= 0) {
			hwloc_bitmap_copy(set, t->node_obj[idx]->cpuset);
			nt = note(notes, TOPO_NOTE_CPULESS, d, dev);
			if (nt) {
				nt->node = d->nodes[0];
				nt->to = t->nodes[idx].os_index;
			}
		}
	}
	if (pol == TOPO_PLACE_LOCAL && with_cpus > 1 && topo_paths_span_nodes(d))
		multipath_note(d, dev, notes);
	if (pol == TOPO_PLACE_REMOTE) {
		int far = farthest_node(t, d);

		if (far < 0 && topo_paths_span_nodes(d)) {
			(void)note(notes, TOPO_NOTE_REMOTE_EVERY_PATH, d, dev);
		} else if (far < 0) {
			(void)note(notes, TOPO_NOTE_REMOTE_NO_OTHER, d, dev);
		} else {
			hwloc_bitmap_copy(set, t->node_obj[far]->cpuset);
			nt = note(notes, TOPO_NOTE_REMOTE_ON, d, dev);
			if (nt) {
				nt->node = t->nodes[far].os_index;
				nt->dist = t->dist != NULL;
			}
		}
	}
	hwloc_bitmap_and(set, set, t->allowed);
	if (hwloc_bitmap_iszero(set)) {
		hwloc_bitmap_copy(set, t->allowed);
		nt = note(notes, TOPO_NOTE_NOT_ALLOWED, d, dev);
		if (nt) {
			topo_copy_str(nt->what, sizeof(nt->what), d->cpus);
			set_name(t, set, nt->where, sizeof(nt->where));
		}
	}
}

/* A SHARED_CORES note of d's, whose workers found nfree free cores in
 * set; shared[] keeps set until the counts over every device are known. */
static void shared_note(const struct placer *p, hwloc_const_bitmap_t set,
			const struct topo_dev *d, unsigned dev, unsigned nfree,
			unsigned nworkers, struct topo_notes *notes, hwloc_bitmap_t *shared)
{
	struct topo_note *nt = note(notes, TOPO_NOTE_SHARED_CORES, d, dev);

	if (!nt)
		return;
	set_name(p->t, set, nt->where, sizeof(nt->where));
	nt->ncores = count_cores(p, set, false);
	nt->nfree = nfree;
	nt->nworkers = nworkers;
	shared[notes->n - 1] = hwloc_bitmap_dup(set);
}

/* Each SHARED_CORES note's nplaces: the workers of every device that ended
 * on its set's CPUs, the ones that share its cores. */
static void shared_count(struct topo_notes *notes, hwloc_bitmap_t *shared,
			 const struct topo_slot *slots, unsigned nslots)
{
	unsigned i, s;

	for (i = 0; notes && i < notes->n; i++) {
		if (!shared[i])
			continue;
		for (s = 0; s < nslots; s++)
			notes->note[i].nplaces += slots[s].cpu >= 0 &&
				hwloc_bitmap_isset(shared[i], (unsigned)slots[s].cpu);
		hwloc_bitmap_free(shared[i]);
		shared[i] = NULL;
	}
}

/* The CPUs of the poll queues that d's workers placed so far (slots
 * first..s) do not use, of set, into out; false when that leaves no free
 * core, and then the plain set decides. */
static bool unused_pollq(const struct placer *p, const struct topo_pollq *pq,
			 hwloc_const_bitmap_t set, const struct topo_slot *slots,
			 unsigned first, unsigned s, hwloc_bitmap_t q, hwloc_bitmap_t out)
{
	unsigned k, i;
	bool used;

	if (!pq || pq->n < 2)
		return false;
	hwloc_bitmap_zero(out);
	for (k = 0; k < pq->n; k++) {
		topo_cpuset_to_hwloc(&pq->cpus[k], q);
		for (i = first, used = false; i < s && !used; i++)
			used = slots[i].cpu >= 0 && hwloc_bitmap_isset(q, (unsigned)slots[i].cpu);
		if (!used)
			hwloc_bitmap_or(out, out, q);
	}
	hwloc_bitmap_and(out, out, set);
	return count_cores(p, out, true) > 0;
}

static int place(struct topo *t, enum topo_policy pol, const char *const *paths,
		 const unsigned *nworkers, unsigned ndev, const struct topo_pollq *pollq,
		 struct topo_slot *slots, struct topo_notes *notes)
{
	struct placer p = { 0 };
	hwloc_bitmap_t set = NULL, q = NULL, free_q = NULL, shared[TOPO_MAX_NOTES] = { 0 };
	unsigned d, w, s, first, total = 0;
	int ret;

	for (d = 0; d < ndev; d++) {
		const struct topo_dev *dev;

		/* every path must resolve, even when nothing is pinned */
		ret = topo_lookup(t, paths[d], &dev);
		if (ret)
			return ret;
		for (w = 0; w < nworkers[d]; w++, total++) {
			slots[total].cpu = -1;
			slots[total].node = -1;
			slots[total].dev = d;
		}
	}
	if (pol == TOPO_PLACE_NONE)
		return 0;
	ret = placer_init(&p, t);
	set = hwloc_bitmap_alloc();
	q = hwloc_bitmap_alloc();
	free_q = hwloc_bitmap_alloc();
	if (ret || !set || !q || !free_q) {
		ret = ret ? ret : -ENOMEM;
		goto out;
	}
	for (d = 0, s = 0; d < ndev; d++) {
		const struct topo_dev *dev;
		unsigned nfree;

		ret = topo_lookup(t, paths[d], &dev);
		if (ret)
			goto out;
		candidates(t, pol, dev, d, set, notes);
		nfree = count_cores(&p, set, true);
		if (nworkers[d] > nfree)
			shared_note(&p, set, dev, d, nfree, nworkers[d], notes, shared);
		for (w = 0, first = s; w < nworkers[d]; w++, s++) {
			slots[s].cpu = unused_pollq(&p, pollq ? &pollq[d] : NULL, set, slots,
						    first, s, q, free_q) ?
				pick(&p, free_q) : pick(&p, set);
			slots[s].node = slots[s].cpu < 0 ? -1 :
				node_of_cpu(t, slots[s].cpu, pol == TOPO_PLACE_LOCAL ? dev : NULL);
		}
	}
	ret = 0;
out:
	shared_count(notes, shared, slots, total);
	hwloc_bitmap_free(free_q);
	hwloc_bitmap_free(q);
	hwloc_bitmap_free(set);
	placer_fini(&p);
	return ret;
}

/* The LESSER_KIND note of device d (paths[d]), whose workers are on
 * nworkers CPUs, n of them (lesser) of a lesser kind than the best; the
 * kind named is that of the first of them. */
static void kind_note(const struct topo *t, const struct topo_dev *dev, unsigned d,
		      const struct topo_cpuset *lesser, unsigned n, unsigned nworkers,
		      bool given, struct topo_notes *notes)
{
	struct topo_note *nt = note(notes, TOPO_NOTE_LESSER_KIND, dev, d);
	const struct topo_cpukind *k = &t->kinds[topo_cpu_kind(t, topo_cpuset_next(lesser, -1))];

	if (!nt)
		return;
	(void)topo_cpuset_format(lesser, nt->what, sizeof(nt->what));
	topo_copy_str(nt->where, sizeof(nt->where), k->core_type);
	topo_copy_str(nt->best, sizeof(nt->best), t->kinds[0].core_type);
	nt->basis = t->kind_basis;
	nt->value = k->value;
	nt->best_value = t->kinds[0].value;
	nt->nworkers = n;
	nt->nplaces = nworkers;
	nt->given = given;
}

int topo_kind_notes(struct topo *t, const char *const *paths, unsigned ndev,
		    const struct topo_slot *slots, unsigned nslots, bool given,
		    struct topo_notes *notes)
{
	unsigned d, s;

	for (d = 0; d < ndev; d++) {
		const struct topo_dev *dev;
		struct topo_cpuset lesser;
		unsigned n = 0, all = 0;
		int ret = topo_lookup(t, paths[d], &dev);

		if (ret)
			return ret;
		topo_cpuset_zero(&lesser);
		for (s = 0; s < nslots; s++) {
			if (slots[s].dev != d)
				continue;
			all++;
			if (slots[s].cpu >= 0 && topo_cpu_lesser(t, slots[s].cpu) &&
			    !topo_cpuset_add(&lesser, slots[s].cpu))
				n++;
		}
		if (n)
			kind_note(t, dev, d, &lesser, n, all, given, notes);
	}
	return 0;
}

int topo_place(struct topo *t, enum topo_policy pol,
	       const char *const *paths, const unsigned *nworkers,
	       unsigned ndev, struct topo_slot *slots,
	       struct topo_notes *notes)
{
	return place(t, pol, paths, nworkers, ndev, NULL, slots, notes);
}

int topo_place_polled(struct topo *t, enum topo_policy pol,
		      const char *const *paths, const unsigned *nworkers,
		      unsigned ndev, const struct topo_pollq *pollq,
		      struct topo_slot *slots, struct topo_notes *notes)
{
	return place(t, pol, paths, nworkers, ndev, pollq, slots, notes);
}
