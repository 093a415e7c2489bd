/* Gap arithmetic and attribution rules. Each rule says something only when
 * the numbers carry it; the thresholds live in gap.h. */
#include "model/gap.h"

#include <stdio.h>
#include <string.h>

bool model_gap_known(double v)
{
	return v > MODEL_GAP_UNKNOWN;
}

/* An input figure: MODEL_GAP_UNKNOWN, or any negative one, was not measured. */
static bool measured(double v)
{
	return v >= 0;
}

double model_gap_loss_pct(double solo, double all)
{
	if (!measured(solo) || !measured(all) || solo <= 0)
		return MODEL_GAP_UNKNOWN;
	return 100.0 * (solo - all) / solo;
}

double model_gap_cpu_pct(double busy_s, double elapsed_s, unsigned nworkers)
{
	if (elapsed_s <= 0 || !nworkers || !measured(busy_s))
		return MODEL_GAP_UNKNOWN;
	return 100.0 * busy_s / elapsed_s / nworkers;
}

static bool cpu_in(const int *set, unsigned n, int cpu)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (set[i] == cpu)
			return true;
	return false;
}

bool model_gap_off_node(const int *cpus, unsigned n, const int *local,
			unsigned nlocal)
{
	unsigned w;

	for (w = 0; w < n; w++)
		if (cpus[w] >= 0 && !cpu_in(local, nlocal, cpus[w]))
			return true;
	return false;
}

static bool has(const char *s)
{
	return s && *s;
}

/* Adds v to *sum; once a part is unknown the sum is unknown. */
static void add(double *sum, double v)
{
	if (!measured(v) || !measured(*sum))
		*sum = MODEL_GAP_UNKNOWN;
	else
		*sum += v;
}

/* A finding of kind k about dev (NULL: several), with its first figures
 * (the rest 0); NULL when the list is full. */
static struct model_gap_finding *finding(struct model_gap *g, enum model_gap_kind k,
					 const char *dev, double a, double b, double c, double d)
{
	struct model_gap_finding *f;

	if (g->nfind == MODEL_GAP_MAX_FIND)
		return NULL;
	f = &g->find[g->nfind++];
	memset(f, 0, sizeof(*f));
	f->kind = k;
	snprintf(f->device, sizeof(f->device), "%s", dev ? dev : "");
	f->num[0] = a;
	f->num[1] = b;
	f->num[2] = c;
	f->num[3] = d;
	return f;
}

static void set_names(struct model_gap_finding *f, const char *names)
{
	if (f)
		snprintf(f->names, sizeof(f->names), "%s", names);
}

/* Appends to a list of names: "a, b, c", dropping names that do not fit. */
static void append_name(char *buf, size_t len, const char *name)
{
	size_t at = strlen(buf);

	if (at + strlen(name) + 3 >= len)
		return;
	snprintf(buf + at, len - at, "%s%s", at ? ", " : "", name);
}

/* ---- subtotals ---- */

static struct model_gap_node *node_slot(struct model_gap *g, int os_index)
{
	unsigned i;

	for (i = 0; i < g->nnodes; i++)
		if (g->nodes[i].os_index == os_index)
			return &g->nodes[i];
	if (g->nnodes == MODEL_GAP_MAX_NODES)
		return NULL;
	g->nodes[g->nnodes] = (struct model_gap_node){ os_index, 0, 0, 0, 0, 0, 0 };
	return &g->nodes[g->nnodes++];
}

static struct model_gap_bridge *bridge_slot(struct model_gap *g, const char *id)
{
	struct model_gap_bridge *b;
	unsigned i;

	for (i = 0; i < g->nbridges; i++)
		if (!strcmp(g->bridges[i].id, id))
			return &g->bridges[i];
	if (g->nbridges == MODEL_GAP_MAX_BRIDGES)
		return NULL;
	b = &g->bridges[g->nbridges++];
	memset(b, 0, sizeof(*b));
	snprintf(b->id, sizeof(b->id), "%s", id);
	return b;
}

static void bridge_subtotals(const struct model_gap_in *in, struct model_gap *g)
{
	struct model_gap_bridge *b;
	unsigned i;

	for (i = 0; i < in->ndev; i++) {
		const struct model_gap_dev *d = &in->dev[i];

		b = bridge_slot(g, has(d->host_bridge) ? d->host_bridge : "");
		if (!b)
			continue;
		b->ndev++;
		add(&b->qd1_solo, d->qd1_solo);
		add(&b->qd1_all, d->qd1_all);
		add(&b->qdn_solo, d->qdn_solo);
		add(&b->qdn_all, d->qdn_all);
	}
	for (i = 0; i < g->nbridges; i++)
		g->bridges[i].loss_pct = model_gap_loss_pct(g->bridges[i].qdn_solo,
							  g->bridges[i].qdn_all);
}

static void subtotals(const struct model_gap_in *in, struct model_gap *g)
{
	struct model_gap_sys *s = &g->sys;
	struct model_gap_node *n;
	unsigned i;

	for (i = 0; i < in->ndev; i++) {
		const struct model_gap_dev *d = &in->dev[i];

		add(&s->qd1_solo, d->qd1_solo);
		add(&s->qd1_all, d->qd1_all);
		add(&s->qdn_solo, d->qdn_solo);
		add(&s->qdn_all, d->qdn_all);
		n = node_slot(g, d->node < 0 ? -1 : d->node);
		if (!n)
			continue;
		n->ndev++;
		add(&n->qd1_solo, d->qd1_solo);
		add(&n->qd1_all, d->qd1_all);
		add(&n->qdn_solo, d->qdn_solo);
		add(&n->qdn_all, d->qdn_all);
	}
	for (i = 0; i < g->nnodes; i++)
		g->nodes[i].loss_pct = model_gap_loss_pct(g->nodes[i].qdn_solo,
							g->nodes[i].qdn_all);
	s->qd1_gap_pct = model_gap_loss_pct(s->qd1_solo, s->qd1_all);
	s->qdn_gap_pct = model_gap_loss_pct(s->qdn_solo, s->qdn_all);
	s->qd1_gap = model_gap_known(s->qd1_gap_pct) ? s->qd1_solo - s->qd1_all
						     : MODEL_GAP_UNKNOWN;
	s->qdn_gap = model_gap_known(s->qdn_gap_pct) ? s->qdn_solo - s->qdn_all
						     : MODEL_GAP_UNKNOWN;
	if (!in->ndev) {
		s->qd1_solo = s->qd1_all = s->qdn_solo = s->qdn_all = MODEL_GAP_UNKNOWN;
		s->qd1_gap = s->qdn_gap = MODEL_GAP_UNKNOWN;
	}
}

/* ---- rules ---- */

static double dev_loss(const struct model_gap_dev *d)
{
	return model_gap_loss_pct(d->qdn_solo, d->qdn_all);
}

/* The devices that lost at least MODEL_GAP_LOSS_PCT, worst first (three). */
static void rule_device_loss(const struct model_gap_in *in, struct model_gap *g)
{
	bool used[MODEL_GAP_MAX_FIND * 8] = { false };
	struct model_gap_finding *f;
	unsigned i, k, best, lost = 0;

	for (i = 0; i < in->ndev; i++)
		lost += dev_loss(&in->dev[i]) >= MODEL_GAP_LOSS_PCT;
	if (!lost || !(f = finding(g, MODEL_GAP_DEVICE_LOSS, NULL, lost, in->ndev,
				  MODEL_GAP_LOSS_PCT, in->qd)))
		return;
	for (k = 0; k < MODEL_GAP_TOP && k < lost; k++) {
		best = in->ndev;
		for (i = 0; i < in->ndev && i < sizeof(used); i++) {
			if (used[i] || dev_loss(&in->dev[i]) < MODEL_GAP_LOSS_PCT)
				continue;
			if (best == in->ndev || dev_loss(&in->dev[i]) > dev_loss(&in->dev[best]))
				best = i;
		}
		if (best == in->ndev)
			break;
		used[best] = true;
		snprintf(f->top[f->ntop], sizeof(f->top[f->ntop]), "%s", in->dev[best].name);
		f->top_pct[f->ntop++] = dev_loss(&in->dev[best]);
	}
	/* about one device: that device */
	if (lost == 1)
		memcpy(f->device, f->top[0], sizeof(f->device));
}

/* With devices on two or more nodes: the node that lost most, when it lost
 * clearly more than the others. */
static void rule_node_loss(struct model_gap *g)
{
	const struct model_gap_node *worst = NULL;
	double rest = 0, rest_solo = 0, rest_all = 0;
	unsigned i, real = 0;

	for (i = 0; i < g->nnodes; i++) {
		if (g->nodes[i].os_index < 0 || !model_gap_known(g->nodes[i].loss_pct))
			continue;
		real++;
		if (!worst || g->nodes[i].loss_pct > worst->loss_pct)
			worst = &g->nodes[i];
	}
	if (real < 2 || worst->loss_pct < MODEL_GAP_LOSS_PCT)
		return;
	for (i = 0; i < g->nnodes; i++) {
		if (&g->nodes[i] == worst || g->nodes[i].os_index < 0 ||
		    !model_gap_known(g->nodes[i].loss_pct))
			continue;
		rest_solo += g->nodes[i].qdn_solo;
		rest_all += g->nodes[i].qdn_all;
	}
	rest = model_gap_loss_pct(rest_solo, rest_all);
	if (!model_gap_known(rest) || worst->loss_pct - rest < MODEL_GAP_TOGETHER_PTS)
		return;
	finding(g, MODEL_GAP_NODE_LOSS, NULL, worst->os_index, worst->loss_pct, rest, 0);
}

static void rule_cpu_busy(const struct model_gap_in *in, struct model_gap *g)
{
	char list[MODEL_GAP_TEXT / 2] = "";
	double top = 0;
	unsigned i, n = 0;

	for (i = 0; i < in->ndev; i++) {
		if (!measured(in->dev[i].cpu_pct) ||
		    in->dev[i].cpu_pct < MODEL_GAP_CPU_BUSY_PCT)
			continue;
		append_name(list, sizeof(list), in->dev[i].name);
		if (in->dev[i].cpu_pct > top)
			top = in->dev[i].cpu_pct;
		n++;
	}
	if (n)
		set_names(finding(g, MODEL_GAP_CPU_BOUND, n == 1 ? list : "", top, in->qd, 0, 0),
			  list);
}

/* Workers of devices a and b pinned to one CPU. */
static void shared_cpu(struct model_gap *g, const char *a, const char *b, int cpu)
{
	struct model_gap_finding *f = finding(g, MODEL_GAP_CPU_SHARED, NULL, cpu, -1, -1, 0);

	if (!f)
		return;
	set_names(f, a);
	snprintf(f->other, sizeof(f->other), "%s", b);
}

/* Several workers on one CPU: pinned to the same one, or more workers than
 * CPUs to run them. */
static void rule_cpu_shared(const struct model_gap_in *in, struct model_gap *g)
{
	struct model_gap_finding *f;
	unsigned i, j, a, b, workers = 0;

	for (i = 0; i < in->ndev; i++)
		workers += in->dev[i].nworkers;
	for (i = 0; i < in->ndev; i++) {
		for (a = 0; a < in->dev[i].nworkers; a++) {
			int cpu = in->dev[i].cpus ? in->dev[i].cpus[a] : -1;

			if (cpu < 0)
				continue;
			for (j = i; j < in->ndev; j++) {
				for (b = j == i ? a + 1 : 0; b < in->dev[j].nworkers; b++) {
					if (!in->dev[j].cpus || in->dev[j].cpus[b] != cpu)
						continue;
					shared_cpu(g, in->dev[i].name, in->dev[j].name, cpu);
					return;
				}
			}
		}
	}
	if (in->host_cpus && workers > in->host_cpus &&
	    (f = finding(g, MODEL_GAP_CPU_SHARED, NULL, -1, workers, in->host_cpus, 0)))
		f->form = 1;
}

typedef const char *(*group_key)(const struct model_gap_dev *d);

static const char *key_upstream(const struct model_gap_dev *d)
{
	return d->upstream;
}

static const char *key_bridge(const struct model_gap_dev *d)
{
	return d->host_bridge;
}

static const char *key_backing(const struct model_gap_dev *d)
{
	return d->backing;
}

/* Devices sharing one key lost together while the rest did not: a
 * finding of kind k (form: as model_gap_finding's). Returns the number of
 * findings added. */
static unsigned rule_group(const struct model_gap_in *in, struct model_gap *g,
			   group_key key, enum model_gap_kind k_find, int form)
{
	struct model_gap_finding *f;
	char names[MODEL_GAP_TEXT / 2];
	unsigned i, j, n, found = 0;
	double in_solo, in_all, out_solo, out_all, lin, lout;

	for (i = 0; i < in->ndev; i++) {
		const char *k = key(&in->dev[i]);

		if (!has(k))
			continue;
		for (j = 0; j < i; j++)	/* each group once, at its first member */
			if (has(key(&in->dev[j])) && !strcmp(key(&in->dev[j]), k))
				break;
		if (j < i)
			continue;
		names[0] = '\0';
		n = 0;
		in_solo = in_all = out_solo = out_all = 0;
		for (j = 0; j < in->ndev; j++) {
			const struct model_gap_dev *d = &in->dev[j];

			if (has(key(d)) && !strcmp(key(d), k)) {
				add(&in_solo, d->qdn_solo);
				add(&in_all, d->qdn_all);
				append_name(names, sizeof(names), d->name);
				n++;
			} else {
				add(&out_solo, d->qdn_solo);
				add(&out_all, d->qdn_all);
			}
		}
		/* a shared backing device is a cause on its own: all the devices
		 * may share it; a link is told apart by the others' not losing */
		if (n < 2 || (n == in->ndev && k_find != MODEL_GAP_SHARED_BACKING))
			continue;
		lin = model_gap_loss_pct(in_solo, in_all);
		lout = model_gap_loss_pct(out_solo, out_all);
		if (n == in->ndev && model_gap_known(lin) && lin >= MODEL_GAP_LOSS_PCT)
			lout = 0;	/* no others to set against */
		else if (!model_gap_known(lin) || !model_gap_known(lout) ||
			 lin < MODEL_GAP_LOSS_PCT || lout >= MODEL_GAP_LOSS_PCT ||
			 lin - lout < MODEL_GAP_TOGETHER_PTS)
			continue;
		f = finding(g, k_find, NULL, lin, lout < 0 ? 0.0 : lout, 0, 0);
		if (f) {
			/* shared_backing: 1 every device shares it */
			f->form = k_find == MODEL_GAP_SHARED_BACKING ? n == in->ndev : form;
			set_names(f, names);
			snprintf(f->other, sizeof(f->other), "%s", k);
		}
		found++;
	}
	return found;
}

/* A device alone below itself all at once, by more than both steps'
 * noise: the alone step was disturbed (another process, the machine's
 * own work), so every loss worked out from it is understated. qd: 1 or
 * the QDn. */
static void alone_below(struct model_gap *g, const struct model_gap_dev *d, unsigned qd, double solo, double solo_hi,
			double all, double all_lo, double other_pct)
{
	if (!measured(solo) || !measured(all) || !(solo_hi > 0) || !(all_lo > 0) ||
	    solo_hi >= all_lo)
		return;
	finding(g, MODEL_GAP_ALONE_BELOW, d->name, qd, solo, all,
		measured(other_pct) ? other_pct : MODEL_GAP_UNKNOWN);
}

static void rule_noise(const struct model_gap_in *in, struct model_gap *g)
{
	unsigned i;

	for (i = 0; i < in->ndev; i++) {
		const struct model_gap_dev *d = &in->dev[i];
		double rep = d->qdn_solo_rep_pct > d->qdn_all_rep_pct ? d->qdn_solo_rep_pct
									: d->qdn_all_rep_pct;

		alone_below(g, d, 1, d->qd1_solo, d->qd1_solo_hi, d->qd1_all, d->qd1_all_lo,
			    d->qd1_solo_other_pct);
		alone_below(g, d, in->qd, d->qdn_solo, d->qdn_solo_hi, d->qdn_all,
			    d->qdn_all_lo, d->qdn_solo_other_pct);
		if (measured(rep) && rep > MODEL_GAP_REPEAT_PCT)
			finding(g, MODEL_GAP_REPEATS_DISAGREE, d->name, rep,
				d->qdn_solo_rep_pct >= d->qdn_all_rep_pct ? 1 : 0, in->qd,
				MODEL_GAP_REPEAT_PCT);
	}
}

/* The QDn gap rests on a disturbed baseline: a QDn alone step below its
 * all-at-once figure beyond their noise, or QDn repeats that disagree. */
static bool qdn_noisy(const struct model_gap *g)
{
	unsigned i;

	for (i = 0; i < g->nfind; i++)
		if ((g->find[i].kind == MODEL_GAP_ALONE_BELOW && g->find[i].num[0] != 1) ||
		    g->find[i].kind == MODEL_GAP_REPEATS_DISAGREE)
			return true;
	return false;
}

static void rule_off_node(const struct model_gap_in *in, struct model_gap *g)
{
	char list[MODEL_GAP_TEXT / 2] = "";
	unsigned i, n = 0;

	for (i = 0; i < in->ndev; i++) {
		if (!in->dev[i].off_node)
			continue;
		append_name(list, sizeof(list), in->dev[i].name);
		n++;
	}
	if (n)
		set_names(finding(g, MODEL_GAP_OFF_NODE, n == 1 ? list : "", 0, 0, 0, 0), list);
}

static void rule_latency(const struct model_gap_in *in, struct model_gap *g)
{
	unsigned i;

	for (i = 0; i < in->ndev; i++) {
		const struct model_gap_dev *d = &in->dev[i];

		if (d->qd1_solo_p99 <= 0 || !measured(d->qd1_all_p99) ||
		    d->qd1_all_p99 < MODEL_GAP_LAT_RISE * d->qd1_solo_p99)
			continue;
		finding(g, MODEL_GAP_LATENCY, d->name, d->qd1_solo_p99 / 1e3, d->qd1_all_p99 / 1e3, 0,
			0);
	}
}

/* A device that lost all at once and throttled: its own log names the
 * cause. */
static void rule_throttled(const struct model_gap_in *in, struct model_gap *g)
{
	unsigned i;

	for (i = 0; i < in->ndev; i++) {
		const struct model_gap_dev *d = &in->dev[i];
		double l = dev_loss(d);

		if (!d->throttled_s || !model_gap_known(l) || l < MODEL_GAP_LOSS_PCT)
			continue;
		finding(g, MODEL_GAP_THROTTLED, d->name, d->throttled_s, l, in->qd, 0);
	}
}

static void rule_numa(const struct model_gap_in *in, struct model_gap *g)
{
	unsigned i;
	double l;

	for (i = 0; i < in->ndev; i++) {
		const struct model_gap_dev *d = &in->dev[i];

		l = model_gap_loss_pct(d->qdn_all, d->qdn_remote);
		if (!model_gap_known(l) || l < MODEL_GAP_NUMA_PCT)
			continue;
		finding(g, MODEL_GAP_NUMA_PENALTY, d->name, l, d->qdn_remote, d->qdn_all, 0);
	}
}

static bool any(const struct model_gap *g, enum model_gap_kind k)
{
	unsigned i;

	for (i = 0; i < g->nfind; i++)
		if (g->find[i].kind == k)
			return true;
	return false;
}

static void verdict(const struct model_gap_in *in, struct model_gap *g)
{
	const struct model_gap_sys *s = &g->sys;
	double pct = s->qdn_gap_pct;

	g->qd = in->qd;
	g->verdict_pct = pct;
	if (!in->ndev || !model_gap_known(pct))
		g->verdict = MODEL_GAP_V_INCOMPLETE;
	else if (qdn_noisy(g))
		g->verdict = MODEL_GAP_V_NOISY;
	else if (pct < MODEL_GAP_SIGNIFICANT_PCT)
		g->verdict = MODEL_GAP_V_NONE;
	else if (any(g, MODEL_GAP_THROTTLED))
		g->verdict = MODEL_GAP_V_THERMAL;
	else if (any(g, MODEL_GAP_CPU_BOUND) || any(g, MODEL_GAP_CPU_SHARED))
		g->verdict = MODEL_GAP_V_HOST;
	else if (any(g, MODEL_GAP_SHARED_BACKING))
		g->verdict = MODEL_GAP_V_BACKING;
	else if (any(g, MODEL_GAP_SHARED_LINK))
		g->verdict = MODEL_GAP_V_LINK;
	else if (any(g, MODEL_GAP_OFF_NODE))
		g->verdict = MODEL_GAP_V_PLACEMENT;
	else if (any(g, MODEL_GAP_DEVICE_LOSS) || any(g, MODEL_GAP_NODE_LOSS))
		g->verdict = MODEL_GAP_V_DEVICES;
	else
		g->verdict = MODEL_GAP_V_UNEXPLAINED;
	g->healthy = g->verdict;
}

/* Failed devices first: a failing drive explains a gap before anything
 * else does. */
static void rule_failed(const struct model_gap_in *in, struct model_gap *g)
{
	unsigned i;

	struct model_gap_finding *f;

	for (i = 0; i < in->nfailed; i++)
		if ((f = finding(g, MODEL_GAP_FAILED_DEVICE, in->failed[i].name, 0, 0, 0, 0)))
			snprintf(f->why, sizeof(f->why), "%s", in->failed[i].why);
}

/* The failed devices by name, before the verdict on the healthy ones. */
static void verdict_failed(const struct model_gap_in *in, struct model_gap *g)
{
	unsigned i;

	if (!in->nfailed)
		return;
	for (i = 0; i < in->nfailed; i++)
		append_name(g->failed, sizeof(g->failed), in->failed[i].name);
	g->nfailed = in->nfailed;
	g->verdict = MODEL_GAP_V_FAILED;
}

void model_gap_analyse(const struct model_gap_in *in, struct model_gap *out)
{
	memset(out, 0, sizeof(*out));
	rule_failed(in, out);
	subtotals(in, out);
	bridge_subtotals(in, out);
	out->sys.ndev = in->ndev;
	if (model_gap_known(out->sys.qdn_gap_pct) &&
	    out->sys.qdn_gap_pct < MODEL_GAP_SIGNIFICANT_PCT)
		finding(out, MODEL_GAP_NO_GAP, NULL, 100.0 - out->sys.qdn_gap_pct, in->qd, 0, 0);
	rule_device_loss(in, out);
	rule_node_loss(out);
	rule_cpu_busy(in, out);
	rule_cpu_shared(in, out);
	/* a root port is the narrower claim; the host bridge only when no
	 * port group explains it */
	if (!rule_group(in, out, key_upstream, MODEL_GAP_SHARED_LINK, 0))
		rule_group(in, out, key_bridge, MODEL_GAP_SHARED_LINK, 1);
	rule_group(in, out, key_backing, MODEL_GAP_SHARED_BACKING, 0);
	rule_noise(in, out);
	rule_off_node(in, out);
	rule_latency(in, out);
	rule_numa(in, out);
	rule_throttled(in, out);
	verdict(in, out);
	verdict_failed(in, out);
}

const char *model_gap_kind_name(enum model_gap_kind k)
{
	switch (k) {
	case MODEL_GAP_NO_GAP: return "no_gap";
	case MODEL_GAP_DEVICE_LOSS: return "device_loss";
	case MODEL_GAP_NODE_LOSS: return "node_loss";
	case MODEL_GAP_CPU_BOUND: return "cpu_bound";
	case MODEL_GAP_CPU_SHARED: return "cpu_shared";
	case MODEL_GAP_SHARED_LINK: return "shared_link";
	case MODEL_GAP_OFF_NODE: return "off_node";
	case MODEL_GAP_LATENCY: return "latency";
	case MODEL_GAP_NUMA_PENALTY: return "numa_penalty";
	case MODEL_GAP_FAILED_DEVICE: return "failed_device";
	case MODEL_GAP_THROTTLED: return "throttled";
	case MODEL_GAP_SHARED_BACKING: return "shared_backing";
	case MODEL_GAP_ALONE_BELOW: return "alone_below_all";
	case MODEL_GAP_REPEATS_DISAGREE: return "repeats_disagree";
	case MODEL_GAP_NKINDS: break;
	}
	return "?";
}

const char *const *model_gap_num_names(enum model_gap_kind k)
{
	static const char *const names[MODEL_GAP_NKINDS][MODEL_GAP_NUMS + 1] = {
		[MODEL_GAP_NO_GAP] = { "all_pct_of_solo", "qd" },
		[MODEL_GAP_DEVICE_LOSS] = { "devices_lost", "devices", "loss_pct_from", "qd" },
		[MODEL_GAP_NODE_LOSS] = { "node", "loss_pct", "others_loss_pct" },
		[MODEL_GAP_CPU_BOUND] = { "busy_pct", "qd" },
		[MODEL_GAP_CPU_SHARED] = { "cpu", "workers", "cpus" },
		[MODEL_GAP_SHARED_LINK] = { "loss_pct", "others_loss_pct" },
		[MODEL_GAP_OFF_NODE] = { NULL },
		[MODEL_GAP_LATENCY] = { "p99_us_solo", "p99_us_all" },
		[MODEL_GAP_NUMA_PENALTY] = { "loss_pct", "remote_iops", "local_iops" },
		[MODEL_GAP_FAILED_DEVICE] = { NULL },
		[MODEL_GAP_THROTTLED] = { "throttled_s", "loss_pct", "qd" },
		[MODEL_GAP_SHARED_BACKING] = { "loss_pct", "others_loss_pct" },
		[MODEL_GAP_ALONE_BELOW] = { "qd", "alone_iops", "all_iops", "other_cpu_pct" },
		[MODEL_GAP_REPEATS_DISAGREE] = { "spread_pct", "alone", "qd", "limit_pct" },
	};
	return (unsigned)k < MODEL_GAP_NKINDS ? names[k] : names[MODEL_GAP_OFF_NODE];
}

const char *model_gap_verdict_name(enum model_gap_verdict v)
{
	switch (v) {
	case MODEL_GAP_V_FAILED: return "failed_device";
	case MODEL_GAP_V_INCOMPLETE: return "incomplete";
	case MODEL_GAP_V_NONE: return "no_gap";
	case MODEL_GAP_V_HOST: return "host";
	case MODEL_GAP_V_LINK: return "link";
	case MODEL_GAP_V_PLACEMENT: return "placement";
	case MODEL_GAP_V_DEVICES: return "devices";
	case MODEL_GAP_V_UNEXPLAINED: return "unexplained";
	case MODEL_GAP_V_THERMAL: return "thermal";
	case MODEL_GAP_V_BACKING: return "backing";
	case MODEL_GAP_V_NOISY: return "undecided_noise";
	case MODEL_GAP_NVERDICTS: break;
	}
	return "?";
}
