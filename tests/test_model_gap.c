/* The CPU figure the CPU-bound rule reads is the busiest worker's: with two
 * workers at 100% and 60% the rule fires, where their average (80%) would
 * hide the saturated one. Checked on the model alone and through
 * saturate's own step from kept figures to the model's input. Also the
 * off-node test and the one "unknown" value, in and out. */
#include <string.h>

#include "cli/saturate/sat_int.h"
#include "model/gap.h"
#include "cli/words/findings_words.h"
#include "tests/helpers.h"

/* A finding's sentence and the verdict, as the words table says them. */
static char textbuf[CLI_GAP_WORDS_MAX];

static const char *text_of(const struct model_gap_finding *f)
{
	cli_gap_text(f, textbuf, sizeof(textbuf));
	return textbuf;
}

static const struct model_gap_finding *find_kind(const struct model_gap *g,
						 enum model_gap_kind k)
{
	unsigned i;

	for (i = 0; i < g->nfind; i++)
		if (g->find[i].kind == k)
			return &g->find[i];
	return NULL;
}

static bool has_kind(const struct model_gap *g, enum model_gap_kind k)
{
	return find_kind(g, k) != NULL;
}

static bool near(double a, double b)
{
	return a - b < 1e-9 && b - a < 1e-9;
}

/* Two workers over a 3 s step, busy 3.0 s and 1.8 s. */
#define STEP_S 3.0
#define BUSY0_S 3.0
#define BUSY1_S 1.8

static void test_cpu_pct(void)
{
	CHECK(near(model_gap_cpu_pct(BUSY0_S, STEP_S, 1), 100.0));
	CHECK(near(model_gap_cpu_pct(BUSY1_S, STEP_S, 1), 60.0));
	CHECK(near(model_gap_cpu_pct(BUSY0_S + BUSY1_S, STEP_S, 2), 80.0));
	CHECK(!model_gap_known(model_gap_cpu_pct(1.0, 0, 1)));
	CHECK(!model_gap_known(model_gap_cpu_pct(1.0, STEP_S, 0)));
	CHECK(!model_gap_known(model_gap_cpu_pct(MODEL_GAP_UNKNOWN, STEP_S, 1)));
}

/* One device that lost 40% all at once, its workers at cpu_pct. */
static void analyse_one(struct model_gap *g, double cpu_pct)
{
	static const int cpus[] = { 0, 1 };
	struct model_gap_dev d = {
		.name = "nvme0n1", .node = 0, .host_bridge = "", .upstream = "",
		.qd1_solo = 100e3, .qd1_all = 98e3, .qdn_solo = 700e3,
		.qdn_all = 420e3, .qd1_solo_p99 = 20e3, .qd1_all_p99 = 22e3,
		.cpu_pct = cpu_pct, .cpus = cpus, .nworkers = 2,
		.qdn_remote = MODEL_GAP_UNKNOWN,
	};
	struct model_gap_in in = { .dev = &d, .ndev = 1, .qd = 128, .host_cpus = 8 };

	model_gap_analyse(&in, g);
}

static void test_rule_busiest(void)
{
	struct model_gap g;

	analyse_one(&g, model_gap_cpu_pct(BUSY0_S + BUSY1_S, STEP_S, 2));
	CHECK(!has_kind(&g, MODEL_GAP_CPU_BOUND));	/* the average misses */
	analyse_one(&g, model_gap_cpu_pct(BUSY0_S, STEP_S, 1));
	CHECK(has_kind(&g, MODEL_GAP_CPU_BOUND));
	CHECK(g.verdict == MODEL_GAP_V_HOST);
	analyse_one(&g, MODEL_GAP_UNKNOWN);
	CHECK(!has_kind(&g, MODEL_GAP_CPU_BOUND));
}

/* saturate's figures as the runner leaves them: two workers summed into
 * user_s and sys_s, the busiest one in busiest_s. */
static void keep_step(struct satdev *sd, enum sat_fig f, double iops)
{
	struct cli_dev *d = &sd->fig[f];

	d->iops = iops;
	d->nworkers = 2;
	d->elapsed_s = STEP_S;
	d->user_s = 0.5 * (BUSY0_S + BUSY1_S);
	d->sys_s = 0.5 * (BUSY0_S + BUSY1_S);
	d->busiest_s = BUSY0_S;
	sd->done[f] = true;
}

static void test_saturate_feeds_busiest(void)
{
	const struct model_gap_finding *f;
	struct eng_target t;
	struct cli_opts o;
	struct satdev sd;
	struct sat s;

	memset(&t, 0, sizeof(t));
	memset(&o, 0, sizeof(o));
	memset(&sd, 0, sizeof(sd));
	memset(&s, 0, sizeof(s));
	snprintf(t.name, sizeof(t.name), "nvme0n1");
	o.qd = 128;
	sd.t = &t;
	keep_step(&sd, SAT_QD1_SOLO, 100e3);
	keep_step(&sd, SAT_QD1_ALL, 98e3);
	keep_step(&sd, SAT_QDN_SOLO, 700e3);
	keep_step(&sd, SAT_QDN_ALL, 420e3);
	s.o = &o;
	s.dev = &sd;
	s.n = 1;
	CHECK(cli_sat_analyse(&s) == 0);
	f = find_kind(&s.gap, MODEL_GAP_CPU_BOUND);
	CHECK(f && strstr(text_of(f), "busy up to 100%") != NULL);
	CHECK(s.gap.verdict == MODEL_GAP_V_HOST);
}

/* A pinned worker outside the local cpuset ran off its node; an unpinned
 * one (-1) did not. */
static void test_off_node(void)
{
	const int local[] = { 2, 3 }, on[] = { 3, -1 }, off[] = { 2, 0 };

	CHECK(!model_gap_off_node(on, 2, local, 2));
	CHECK(model_gap_off_node(off, 2, local, 2));
	CHECK(!model_gap_off_node(off, 1, local, 2));
	CHECK(!model_gap_off_node(off, 0, local, 2));
}

/* MODEL_GAP_UNKNOWN in gives MODEL_GAP_UNKNOWN out, never a made-up
 * figure; a negative loss is a known one. */
static void test_unknown(void)
{
	CHECK(!model_gap_known(MODEL_GAP_UNKNOWN));
	CHECK(model_gap_known(-10.0) && model_gap_known(0.0));
	CHECK(!model_gap_known(model_gap_loss_pct(MODEL_GAP_UNKNOWN, 10)));
	CHECK(!model_gap_known(model_gap_loss_pct(10, MODEL_GAP_UNKNOWN)));
	CHECK(!model_gap_known(model_gap_loss_pct(-1, 10)));
	CHECK(near(model_gap_loss_pct(100, 110), -10.0));
}

int main(void)
{
	test_cpu_pct();
	test_rule_busiest();
	test_saturate_feeds_busiest();
	test_off_node();
	test_unknown();
	return t_result();
}
