/* The cluster gap: sums over the hosts whose figures are all known, the
 * hosts that lost, a loss that follows a shared resource, and the
 * verdict (model/cgap.h). */
#include "model/cgap.h"

#include <stdio.h>
#include <string.h>

static bool known4(const struct model_cgap_host *h)
{
	return model_gap_known(h->qd1_alone) && model_gap_known(h->qd1_cluster) &&
	       model_gap_known(h->qdn_alone) && model_gap_known(h->qdn_cluster);
}

static double host_loss(const struct model_cgap_host *h)
{
	return model_gap_loss_pct(h->qdn_alone, h->qdn_cluster);
}

/* A finding of kind k about what (NULL: none) with its figures; NULL when
 * the list is full. */
static struct model_cgap_finding *add(struct model_cgap *g, enum model_cgap_kind k,
				      const char *what, double a, double b, double c, double d)
{
	struct model_cgap_finding *f;

	if (g->nfind >= MODEL_CGAP_MAX_FIND)
		return NULL;
	f = &g->find[g->nfind++];
	memset(f, 0, sizeof(*f));
	f->kind = k;
	snprintf(f->what, sizeof(f->what), "%s", what ? what : "");
	f->num[0] = a;
	f->num[1] = b;
	f->num[2] = c;
	f->num[3] = d;
	return f;
}

static void sums(const struct model_cgap_in *in, struct model_cgap *g)
{
	const struct model_cgap_host *h;
	unsigned i;

	for (i = 0; i < in->nhost; i++) {
		h = &in->host[i];
		if (!known4(h))
			continue;
		g->nhost++;
		g->qd1_alone += h->qd1_alone;
		g->qd1_cluster += h->qd1_cluster;
		g->qdn_alone += h->qdn_alone;
		g->qdn_cluster += h->qdn_cluster;
	}
	if (!g->nhost) {
		g->qd1_alone = g->qd1_cluster = g->qdn_alone = g->qdn_cluster = MODEL_GAP_UNKNOWN;
		g->qd1_gap = g->qdn_gap = g->qd1_gap_pct = g->qdn_gap_pct = MODEL_GAP_UNKNOWN;
		return;
	}
	g->qd1_gap = g->qd1_alone - g->qd1_cluster;
	g->qdn_gap = g->qdn_alone - g->qdn_cluster;
	g->qd1_gap_pct = model_gap_loss_pct(g->qd1_alone, g->qd1_cluster);
	g->qdn_gap_pct = model_gap_loss_pct(g->qdn_alone, g->qdn_cluster);
}

/* The three worst hosts that lost MODEL_GAP_LOSS_PCT or more into top[]
 * (ties: the first host first); how many lost in all. */
static unsigned worst3(const struct model_cgap_in *in, unsigned top[3], unsigned *ntop)
{
	unsigned i, k, n = 0;
	double l;

	*ntop = 0;
	for (i = 0; i < in->nhost; i++) {
		l = host_loss(&in->host[i]);
		if (!known4(&in->host[i]) || l < MODEL_GAP_LOSS_PCT)
			continue;
		n++;
		for (k = *ntop; k > 0 && host_loss(&in->host[top[k - 1]]) < l; k--)
			if (k < 3)
				top[k] = top[k - 1];
		if (k < 3)
			top[k] = i;
		if (*ntop < 3)
			(*ntop)++;
	}
	return n;
}

/* One finding naming the hosts that lost most; how many lost. */
static unsigned losers(const struct model_cgap_in *in, struct model_cgap *g)
{
	struct model_cgap_finding *f;
	unsigned top[3], ntop, k, n;

	n = worst3(in, top, &ntop);
	if (!n || !(f = add(g, MODEL_CGAP_HOST_LOSS, NULL, n, g->nhost, MODEL_GAP_LOSS_PCT, 0)))
		return n;
	for (k = 0; k < ntop; k++) {
		const struct model_cgap_host *h = &in->host[top[k]];

		snprintf(f->top[k], sizeof(f->top[k]), "%s", h->name);
		f->top_loss[k] = host_loss(h);
		f->top_alone[k] = h->qdn_alone;
		f->top_cluster[k] = h->qdn_cluster;
	}
	f->ntop = ntop;
	return n;
}

/* Sums of the hosts that hold label (inside) or do not; how many of them
 * lost MODEL_GAP_LOSS_PCT or more on their own into *nlost. */
static void group(const struct model_cgap_in *in, const char *label, bool inside,
		  double *alone, double *cluster, unsigned *n, unsigned *nlost)
{
	unsigned i, r;
	bool has;

	*alone = *cluster = 0;
	*n = *nlost = 0;
	for (i = 0; i < in->nhost; i++) {
		const struct model_cgap_host *h = &in->host[i];

		if (!known4(h))
			continue;
		for (has = false, r = 0; r < h->nres && !has; r++)
			has = !strcmp(h->res[r], label);
		if (has != inside)
			continue;
		*alone += h->qdn_alone;
		*cluster += h->qdn_cluster;
		*nlost += host_loss(h) >= MODEL_GAP_LOSS_PCT;
		(*n)++;
	}
}

/* A label seen before host i (or on no other host) is not tried again. */
static bool first_seen(const struct model_cgap_in *in, unsigned i, unsigned r)
{
	unsigned j, q;

	for (j = 0; j < i; j++)
		for (q = 0; q < in->host[j].nres; q++)
			if (!strcmp(in->host[j].res[q], in->host[i].res[r]))
				return false;
	return true;
}

/* Each resource held by two or more hosts: the loss follows it when two
 * or more of its hosts lost, its hosts together lost, and the others did
 * not (one slow host is that host's, whatever it shares). Returns the
 * findings made. */
static unsigned shared(const struct model_cgap_in *in, struct model_cgap *g)
{
	double a_in, c_in, a_out, c_out, l_in, l_out;
	unsigned i, r, n_in, n_out, lost_in, lost_out, found = 0;

	for (i = 0; i < in->nhost; i++) {
		for (r = 0; r < in->host[i].nres; r++) {
			const char *label = in->host[i].res[r];

			if (!first_seen(in, i, r))
				continue;
			group(in, label, true, &a_in, &c_in, &n_in, &lost_in);
			group(in, label, false, &a_out, &c_out, &n_out, &lost_out);
			l_in = model_gap_loss_pct(a_in, c_in);
			if (lost_in < 2 || !model_gap_known(l_in) || l_in < MODEL_GAP_LOSS_PCT)
				continue;
			l_out = model_gap_loss_pct(a_out, c_out);
			if (!n_out) {
				add(g, MODEL_CGAP_SHARED_ALL, label, l_in, 0, 0, 0);
				found++;
			} else if (model_gap_known(l_out) && l_out < MODEL_GAP_LOSS_PCT &&
				   l_in - l_out >= MODEL_GAP_TOGETHER_PTS) {
				add(g, MODEL_CGAP_SHARED, label, n_in, l_in, n_out, l_out);
				found++;
			}
		}
	}
	return found;
}

static void spread(const struct model_cgap_in *in, struct model_cgap *g)
{
	if (in->spread_s < 0 || in->window_s <= 0 ||
	    100.0 * in->spread_s / in->window_s < MODEL_CGAP_SPREAD_PCT)
		return;
	add(g, MODEL_CGAP_SPREAD, NULL, in->spread_s, 100.0 * in->spread_s / in->window_s,
	    in->window_s, 0);
}

static const struct model_cgap_finding *first_of(const struct model_cgap *g,
						 enum model_cgap_kind k)
{
	unsigned i;

	for (i = 0; i < g->nfind; i++)
		if (g->find[i].kind == k)
			return &g->find[i];
	return NULL;
}

static void verdict(const struct model_cgap_in *in, struct model_cgap *g, unsigned nlost)
{
	const struct model_cgap_finding *f;

	g->nhost_in = in->nhost;
	g->nlost = nlost;
	g->shared_all = first_of(g, MODEL_CGAP_SHARED_ALL) != NULL;
	if (!g->nhost || g->nhost < in->nhost) {
		g->verdict = MODEL_CGAP_V_INCOMPLETE;
	} else if (!model_gap_known(g->qdn_gap_pct) || g->qdn_gap_pct < MODEL_GAP_SIGNIFICANT_PCT) {
		g->verdict = MODEL_CGAP_V_NONE;
	} else if ((f = first_of(g, MODEL_CGAP_SHARED))) {
		g->verdict = MODEL_CGAP_V_SHARED;
		snprintf(g->verdict_what, sizeof(g->verdict_what), "%s", f->what);
	} else if (nlost && nlost < g->nhost) {
		g->verdict = MODEL_CGAP_V_HOSTS;
	} else {
		g->verdict = MODEL_CGAP_V_UNEXPLAINED;
	}
}

void model_cgap_analyse(const struct model_cgap_in *in, struct model_cgap *out)
{
	unsigned nlost = 0;

	memset(out, 0, sizeof(*out));
	sums(in, out);
	spread(in, out);
	if (out->nhost && model_gap_known(out->qdn_gap_pct) &&
	    out->qdn_gap_pct < MODEL_GAP_SIGNIFICANT_PCT) {
		add(out, MODEL_CGAP_NO_GAP, NULL, 100.0 - out->qdn_gap_pct, MODEL_GAP_SIGNIFICANT_PCT, 0,
		    0);
	} else if (out->nhost) {
		nlost = losers(in, out);
		shared(in, out);
	}
	verdict(in, out, nlost);
}

const char *model_cgap_kind_name(enum model_cgap_kind k)
{
	static const char *const names[] = {
		[MODEL_CGAP_NO_GAP] = "no_gap",
		[MODEL_CGAP_HOST_LOSS] = "host_loss",
		[MODEL_CGAP_SHARED] = "shared_resource",
		[MODEL_CGAP_SHARED_ALL] = "shared_by_all",
		[MODEL_CGAP_SPREAD] = "window_spread",
	};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

/* What each of a kind's num[] is, as the report's JSON names it (the
 * order of add()'s figures above); NULL past a kind's last. */
const char *model_cgap_value_name(enum model_cgap_kind k, unsigned i)
{
	static const char *const names[MODEL_CGAP_NKINDS][4] = {
		[MODEL_CGAP_NO_GAP] = { "all_share_pct", "significant_pct" },
		[MODEL_CGAP_HOST_LOSS] = { "hosts_lost", "hosts", "loss_threshold_pct" },
		[MODEL_CGAP_SHARED] = { "hosts", "loss_pct", "other_hosts", "other_loss_pct" },
		[MODEL_CGAP_SHARED_ALL] = { "loss_pct" },
		[MODEL_CGAP_SPREAD] = { "spread_s", "window_share_pct", "window_s" },
	};

	return (unsigned)k < MODEL_CGAP_NKINDS && i < 4 ? names[k][i] : NULL;
}

const char *model_cgap_verdict_name(enum model_cgap_verdict v)
{
	static const char *const names[] = {
		[MODEL_CGAP_V_INCOMPLETE] = "incomplete",
		[MODEL_CGAP_V_NONE] = "no_gap",
		[MODEL_CGAP_V_SHARED] = "shared_resource",
		[MODEL_CGAP_V_HOSTS] = "hosts",
		[MODEL_CGAP_V_UNEXPLAINED] = "unexplained",
	};

	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "?";
}
