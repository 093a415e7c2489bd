/* The cluster gap's arithmetic and rules on given numbers: hosts that add
 * up, one slow host, a loss that follows a shared switch, a resource every
 * host shares, windows far apart, and a host without figures. */
#include <math.h>
#include <string.h>

#include "model/cgap.h"
#include "cli/words/findings_words.h"
#include "tests/helpers.h"

/* A finding's sentence and the verdict, as the words table says them. */
static char textbuf[CLI_GAP_WORDS_MAX], verdictbuf[CLI_GAP_WORDS_MAX];

static const char *text_of(const struct model_cgap_finding *f)
{
	cli_cgap_text(f, textbuf, sizeof(textbuf));
	return textbuf;
}

static const char *verdict_of(const struct model_cgap *g)
{
	cli_cgap_verdict_text(g, verdictbuf, sizeof(verdictbuf));
	return verdictbuf;
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6 * (fabs(b) + 1);
}

static const struct model_cgap_finding *find(const struct model_cgap *g,
					     enum model_cgap_kind k)
{
	unsigned i;

	for (i = 0; i < g->nfind; i++)
		if (g->find[i].kind == k)
			return &g->find[i];
	return NULL;
}

/* A host: 100k at QD1 and 1M at QDn alone, losing loss% in the cluster. */
static struct model_cgap_host host(const char *name, double loss,
				   const char *const *res, unsigned nres)
{
	struct model_cgap_host h = {
		.name = name, .qd1_alone = 100e3, .qd1_cluster = 100e3,
		.qdn_alone = 1e6, .qdn_cluster = 1e6 * (1 - loss / 100), .res = res,
		.nres = nres,
	};

	return h;
}

static const char *const sw1[] = { "switch leaf1" }, *const sw2[] = { "switch leaf2" };

static void add_up(void)
{
	struct model_cgap_host h[3] = { host("a", 1, sw1, 1), host("b", 2, sw1, 1),
					host("c", 0, sw2, 1) };
	struct model_cgap_in in = { h, 3, 1.0, 0.001 };
	struct model_cgap g;

	model_cgap_analyse(&in, &g);
	CHECK(g.nhost == 3);
	CHECK(near(g.qdn_alone, 3e6));
	CHECK(near(g.qdn_cluster, 0.99e6 + 0.98e6 + 1e6));
	CHECK(near(g.qdn_gap, 3e6 - g.qdn_cluster));
	CHECK(near(g.qdn_gap_pct, 1.0));
	CHECK(near(g.qd1_gap, 0));
	CHECK(g.verdict == MODEL_CGAP_V_NONE);
	CHECK(find(&g, MODEL_CGAP_NO_GAP) && !find(&g, MODEL_CGAP_HOST_LOSS));
	CHECK(!find(&g, MODEL_CGAP_SPREAD));
}

static void one_slow_host(void)
{
	struct model_cgap_host h[3] = { host("a", 0, sw1, 1), host("b", 60, sw1, 1),
					host("c", 0, sw2, 1) };
	struct model_cgap_in in = { h, 3, 1.0, -1 };
	const struct model_cgap_finding *f;
	struct model_cgap g;

	model_cgap_analyse(&in, &g);
	CHECK(near(g.qdn_gap_pct, 20.0));
	f = find(&g, MODEL_CGAP_HOST_LOSS);
	CHECKF(f && strstr(text_of(f), "1 of 3 hosts") && strstr(text_of(f), " b 60%"), "%s", f ? text_of(f) : "none");
	/* leaf1's two hosts lost 30% together, leaf2 0%, but one host
	 * carries it all: that host's, not the switch's */
	CHECK(!find(&g, MODEL_CGAP_SHARED));
	CHECK(g.verdict == MODEL_CGAP_V_HOSTS);
}

static void follows_switch(void)
{
	struct model_cgap_host h[4] = { host("a", 40, sw1, 1), host("b", 30, sw1, 1),
					host("c", 2, sw2, 1), host("d", 0, sw2, 1) };
	struct model_cgap_in in = { h, 4, 2.0, 0.01 };
	const struct model_cgap_finding *f;
	struct model_cgap g;

	model_cgap_analyse(&in, &g);
	f = find(&g, MODEL_CGAP_SHARED);
	CHECKF(f && !strcmp(f->what, "switch leaf1") && strstr(text_of(f), "2 hosts lost 35%") &&
	       strstr(text_of(f), "the other 2 lost 1%"), "%s", f ? text_of(f) : "none");
	CHECK(g.verdict == MODEL_CGAP_V_SHARED);
	CHECK(strstr(verdict_of(&g), "switch leaf1") != NULL);
	f = find(&g, MODEL_CGAP_HOST_LOSS);
	CHECKF(f && strstr(text_of(f), ": a 40%") && strstr(text_of(f), ", b 30%"), "%s", f ? text_of(f) : "none");
}

/* hosts outside the resource that did better together read "gained" */
static void others_gained(void)
{
	struct model_cgap_host h[3] = { host("a", 30, sw1, 1), host("b", 30, sw1, 1),
					host("c", -20, sw2, 1) };
	struct model_cgap_in in = { h, 3, 1.0, 0 };
	const struct model_cgap_finding *f;
	struct model_cgap g;

	model_cgap_analyse(&in, &g);
	f = find(&g, MODEL_CGAP_SHARED);
	CHECKF(f && strstr(text_of(f), "the other 1 gained 20%"), "%s", f ? text_of(f) : "none");
}

static void shared_by_all(void)
{
	static const char *const nqn[] = { "nqn nqn.2024-01.example:array" };
	struct model_cgap_host h[2] = { host("a", 30, nqn, 1), host("b", 30, nqn, 1) };
	struct model_cgap_in in = { h, 2, 1.0, 0 };
	struct model_cgap g;

	model_cgap_analyse(&in, &g);
	CHECK(find(&g, MODEL_CGAP_SHARED_ALL) != NULL);
	CHECK(!find(&g, MODEL_CGAP_SHARED));
	CHECK(g.verdict == MODEL_CGAP_V_UNEXPLAINED);
}

static void hosts_no_resource(void)
{
	struct model_cgap_host h[5] = { host("a", 50, NULL, 0), host("b", 20, NULL, 0),
					host("c", 35, NULL, 0), host("d", 15, NULL, 0),
					host("e", 0, NULL, 0) };
	struct model_cgap_in in = { h, 5, 1.0, 0.5 };
	const struct model_cgap_finding *f;
	struct model_cgap g;

	model_cgap_analyse(&in, &g);
	f = find(&g, MODEL_CGAP_HOST_LOSS);
	/* worst first, three named, the fourth counted */
	CHECKF(f && strstr(text_of(f), "4 of 5 hosts") && strstr(text_of(f), ": a 50%") &&
	       strstr(text_of(f), ", c 35%") && strstr(text_of(f), ", b 20%") &&
	       strstr(text_of(f), "and 1 more"), "%s", f ? text_of(f) : "none");
	CHECK(g.verdict == MODEL_CGAP_V_HOSTS);
	CHECK(find(&g, MODEL_CGAP_SPREAD) != NULL);	/* 0.5 s of 1 s */
}

static void missing_host(void)
{
	struct model_cgap_host h[2] = { host("a", 0, NULL, 0), host("b", 0, NULL, 0) };
	struct model_cgap_in in = { h, 2, 1.0, 0 };
	struct model_cgap g;

	h[1].qdn_cluster = MODEL_GAP_UNKNOWN;
	model_cgap_analyse(&in, &g);
	CHECK(g.nhost == 1);
	CHECK(near(g.qdn_alone, 1e6));
	CHECK(g.verdict == MODEL_CGAP_V_INCOMPLETE);
	h[0].qdn_alone = MODEL_GAP_UNKNOWN;
	model_cgap_analyse(&in, &g);
	CHECK(g.nhost == 0 && !model_gap_known(g.qdn_gap_pct));
	CHECK(g.verdict == MODEL_CGAP_V_INCOMPLETE);
	CHECK(!strcmp(model_cgap_verdict_name(g.verdict), "incomplete"));
	CHECK(!strcmp(model_cgap_kind_name(MODEL_CGAP_SHARED), "shared_resource"));
}

/* Every kind names its figures for the JSON, each name once, and none
 * past the four a finding holds. */
static void value_names(void)
{
	const char *a, *b;
	unsigned k, i, j;

	for (k = 0; k < MODEL_CGAP_NKINDS; k++) {
		CHECK(model_cgap_value_name((enum model_cgap_kind)k, 0) != NULL);
		CHECK(model_cgap_value_name((enum model_cgap_kind)k, 4) == NULL);
		for (i = 0; (a = model_cgap_value_name((enum model_cgap_kind)k, i)); i++)
			for (j = i + 1; (b = model_cgap_value_name((enum model_cgap_kind)k, j)); j++)
				CHECK(strcmp(a, b) != 0);
	}
	CHECK(model_cgap_value_name(MODEL_CGAP_NKINDS, 0) == NULL);
	CHECK(!strcmp(model_cgap_value_name(MODEL_CGAP_SHARED, 1), "loss_pct"));
}

int main(void)
{
	value_names();
	add_up();
	one_slow_host();
	follows_switch();
	others_gained();
	shared_by_all();
	hosts_no_resource();
	missing_host();
	return t_result();
}
