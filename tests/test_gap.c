/* The gap arithmetic and its attribution rules on given numbers: a clean
 * machine, a CPU-bound one, a shared upstream link, a lopsided NUMA node, an
 * interrupted run, and the sweep's knee and p99 doubling. */
#include <math.h>
#include <string.h>

#include "cli/opts/qd_list.h"
#include "model/gap.h"
#include "cli/words/findings_words.h"
#include "model/sweep.h"
#include "tests/helpers.h"

/* A finding's sentence and the verdict, as the words table says them. */
static char textbuf[CLI_GAP_WORDS_MAX], verdictbuf[CLI_GAP_WORDS_MAX];

static const char *text_of(const struct model_gap_finding *f)
{
	cli_gap_text(f, textbuf, sizeof(textbuf));
	return textbuf;
}

static const char *verdict_of(const struct model_gap *g)
{
	cli_gap_verdict_text(g, verdictbuf, sizeof(verdictbuf));
	return verdictbuf;
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6 * (fabs(b) + 1);
}

static unsigned count(const struct model_gap *g, enum model_gap_kind k)
{
	unsigned i, n = 0;

	for (i = 0; i < g->nfind; i++)
		n += g->find[i].kind == k;
	return n;
}

static const struct model_gap_finding *first(const struct model_gap *g, enum model_gap_kind k)
{
	unsigned i;

	for (i = 0; i < g->nfind; i++)
		if (g->find[i].kind == k)
			return &g->find[i];
	return NULL;
}

static const int cpu0[] = { 0 }, cpu1[] = { 1 }, cpu2[] = { 2 }, cpu3[] = { 3 };
static const int *const cpus[] = { cpu0, cpu1, cpu2, cpu3 };

/* A healthy device: 100k at QD1, 700k at QDn, loses little together. */
static struct model_gap_dev dev(const char *name, int node, unsigned i)
{
	struct model_gap_dev d = {
		.name = name, .node = node, .host_bridge = "", .upstream = "",
		.qd1_solo = 100e3, .qd1_all = 98e3, .qdn_solo = 700e3,
		.qdn_all = 690e3, .qd1_solo_p99 = 20e3, .qd1_all_p99 = 22e3,
		.cpu_pct = 40, .cpus = cpus[i % 4], .nworkers = 1,
		.off_node = false, .qdn_remote = -1,
	};
	return d;
}

static void analyse(struct model_gap *g, const struct model_gap_dev *d, unsigned n,
		    unsigned host_cpus)
{
	struct model_gap_in in = { .dev = d, .ndev = n, .qd = 128, .host_cpus = host_cpus };

	model_gap_analyse(&in, g);
}

/* Four healthy devices on two nodes: sums, subtotals, no finding but
 * "no gap", and the verdict says they add up. */
static void test_clean(void)
{
	struct model_gap_dev d[4] = { dev("a", 0, 0), dev("b", 0, 1), dev("c", 1, 2), dev("d", 1, 3) };
	struct model_gap g;

	analyse(&g, d, 4, 8);
	CHECK(near(g.sys.qd1_solo, 400e3));
	CHECK(near(g.sys.qd1_all, 392e3));
	CHECK(near(g.sys.qd1_gap, 8e3));
	CHECK(near(g.sys.qd1_gap_pct, 2.0));
	CHECK(near(g.sys.qdn_solo, 2800e3));
	CHECK(near(g.sys.qdn_all, 2760e3));
	CHECK(near(g.sys.qdn_gap_pct, 100.0 * 40e3 / 2800e3));
	CHECK(g.nnodes == 2);
	CHECK(g.nodes[0].os_index == 0 && g.nodes[0].ndev == 2);
	CHECK(near(g.nodes[1].qdn_solo, 1400e3) && near(g.nodes[1].qdn_all, 1380e3));
	CHECKF(g.nfind == 1 && g.find[0].kind == MODEL_GAP_NO_GAP, "nfind %u", g.nfind);
	CHECK(g.verdict == MODEL_GAP_V_NONE);
	CHECK(strstr(verdict_of(&g), "add up") != NULL);
}

/* A gap with no supported cause: both devices lost 12% on one node with
 * idle CPUs and no shared link known: only the device loss rule speaks, and
 * the verdict invents no host cause. */
static void test_no_cause(void)
{
	struct model_gap_dev d[2] = { dev("a", 0, 0), dev("b", 0, 1) };
	struct model_gap g;

	d[0].qdn_all = d[1].qdn_all = 616e3;	/* 12% */
	analyse(&g, d, 2, 8);
	CHECK(near(g.sys.qdn_gap_pct, 12.0));
	CHECK(count(&g, MODEL_GAP_CPU_BOUND) == 0);
	CHECK(count(&g, MODEL_GAP_CPU_SHARED) == 0);
	CHECK(count(&g, MODEL_GAP_SHARED_LINK) == 0);
	CHECK(count(&g, MODEL_GAP_NODE_LOSS) == 0);
	CHECK(count(&g, MODEL_GAP_OFF_NODE) == 0);
	CHECK(count(&g, MODEL_GAP_DEVICE_LOSS) == 1);
	CHECK(g.verdict == MODEL_GAP_V_DEVICES);

	/* 9% each: under every threshold, nothing at all is claimed */
	d[0].qdn_all = d[1].qdn_all = 637e3;
	analyse(&g, d, 2, 8);
	CHECK(count(&g, MODEL_GAP_DEVICE_LOSS) == 0);
	CHECK(g.verdict == MODEL_GAP_V_NONE);
}

/* Workers at 97% CPU and a real gap: the host is the limit. */
static void test_cpu_bound(void)
{
	struct model_gap_dev d[3] = { dev("nvme0n1", 0, 0), dev("nvme1n1", 0, 1), dev("nvme2n1", 0, 2) };
	const struct model_gap_finding *f;
	struct model_gap g;
	unsigned i;

	for (i = 0; i < 3; i++) {
		d[i].qdn_all = 420e3;
		d[i].cpu_pct = i == 2 ? 80 : 97;
	}
	analyse(&g, d, 3, 8);
	CHECK(near(g.sys.qdn_gap_pct, 40.0));
	f = first(&g, MODEL_GAP_CPU_BOUND);
	CHECK(f != NULL);
	CHECK(f && strstr(text_of(f), "nvme0n1, nvme1n1") && !strstr(text_of(f), "nvme2n1"));
	CHECK(f && strstr(text_of(f), "97%"));
	CHECK(count(&g, MODEL_GAP_DEVICE_LOSS) == 1);
	CHECK(g.verdict == MODEL_GAP_V_HOST);
}

/* A drive that lost and throttled (its own log) is named with its
 * seconds, and the verdict is thermal even with CPU-bound workers; one
 * that throttled but lost nothing is not named. */
static void test_throttled(void)
{
	struct model_gap_dev d[3] = { dev("nvme0n1", 0, 0), dev("nvme1n1", 0, 1), dev("nvme2n1", 0, 2) };
	const struct model_gap_finding *f;
	struct model_gap g;

	d[1].qdn_all = 420e3;
	d[1].throttled_s = 20;
	d[1].cpu_pct = 97;
	d[2].throttled_s = 5;
	analyse(&g, d, 3, 8);
	CHECK(count(&g, MODEL_GAP_THROTTLED) == 1);
	f = first(&g, MODEL_GAP_THROTTLED);
	CHECK(f && !strcmp(f->device, "nvme1n1"));
	CHECKF(f && strstr(text_of(f), "nvme1n1 throttled for 20 s") && strstr(text_of(f), "lost 40%"),
	       "'%s'", f ? text_of(f) : "");
	CHECK(g.verdict == MODEL_GAP_V_THERMAL);
	CHECK(!strcmp(model_gap_verdict_name(g.verdict), "thermal"));
	CHECK(!strcmp(model_gap_kind_name(MODEL_GAP_THROTTLED), "throttled"));

	/* no throttling: the same loss is the host's */
	d[1].throttled_s = 0;
	analyse(&g, d, 3, 8);
	CHECK(count(&g, MODEL_GAP_THROTTLED) == 0 && g.verdict != MODEL_GAP_V_THERMAL);
}

/* Two workers pinned to one CPU, and more workers than CPUs. */
static void test_cpu_shared(void)
{
	struct model_gap_dev d[3] = { dev("a", 0, 0), dev("b", 0, 1), dev("c", 0, 0) };
	const struct model_gap_finding *f;
	struct model_gap g;

	d[0].qdn_all = d[2].qdn_all = 350e3;
	analyse(&g, d, 3, 8);
	f = first(&g, MODEL_GAP_CPU_SHARED);
	CHECK(f && strstr(text_of(f), "a and c shared CPU 0"));
	CHECK(g.verdict == MODEL_GAP_V_HOST);

	d[2].cpus = cpu2;
	analyse(&g, d, 3, 2);	/* 3 workers, 2 CPUs */
	f = first(&g, MODEL_GAP_CPU_SHARED);
	CHECK(f && strstr(text_of(f), "3 workers ran on 2 CPUs"));
	analyse(&g, d, 3, 8);
	CHECK(count(&g, MODEL_GAP_CPU_SHARED) == 0);
	CHECK(g.verdict == MODEL_GAP_V_DEVICES);
}

/* Two devices behind one root port lost 40% together, the other two
 * nothing: a shared upstream link. The host bridge rule stays silent when
 * the port already explains it; when every device sits behind the same
 * port nothing is claimed (there is no "others" to compare with). */
static void test_shared_link(void)
{
	struct model_gap_dev d[4] = { dev("n0", 0, 0), dev("n1", 0, 1), dev("n2", 0, 2), dev("n3", 0, 3) };
	const struct model_gap_finding *f;
	struct model_gap g;
	unsigned i;

	d[0].upstream = d[1].upstream = "0000:40:01.1";
	d[2].upstream = "0000:40:01.2";
	d[3].upstream = "0000:80:01.1";
	for (i = 0; i < 4; i++)
		d[i].host_bridge = i < 3 ? "0000:40" : "0000:80";
	d[0].qdn_all = d[1].qdn_all = 420e3;
	analyse(&g, d, 4, 8);
	CHECK(count(&g, MODEL_GAP_SHARED_LINK) == 1);
	f = first(&g, MODEL_GAP_SHARED_LINK);
	CHECK(f && strstr(text_of(f), "n0, n1 behind upstream port 0000:40:01.1 lost 40%"));
	CHECK(g.sys.qdn_gap_pct > MODEL_GAP_SIGNIFICANT_PCT);
	CHECK(g.verdict == MODEL_GAP_V_LINK);

	/* the same loss on a host bridge with separate ports */
	d[1].upstream = "0000:40:01.3";
	d[2].qdn_all = 420e3;
	analyse(&g, d, 4, 8);
	f = first(&g, MODEL_GAP_SHARED_LINK);
	CHECK(f && strstr(text_of(f), "n0, n1, n2 behind host bridge 0000:40"));

	/* everyone behind one port: no comparison, no claim */
	for (i = 0; i < 4; i++) {
		d[i].upstream = "0000:40:01.1";
		d[i].host_bridge = "0000:40";
		d[i].qdn_all = 420e3;
	}
	analyse(&g, d, 4, 8);
	CHECK(count(&g, MODEL_GAP_SHARED_LINK) == 0);
	CHECK(g.verdict == MODEL_GAP_V_DEVICES);
}

/* Node 1 lost 50%, node 0 nothing; one of node 1's workers ran off its
 * node; QD1 latency rose on one device; remote placement cost 30%. */
static void test_node_and_placement(void)
{
	struct model_gap_dev d[4] = { dev("a", 0, 0), dev("b", 0, 1), dev("c", 1, 2), dev("d", 1, 3) };
	const struct model_gap_finding *f;
	struct model_gap g;

	d[2].qdn_all = d[3].qdn_all = 350e3;
	d[3].off_node = true;
	d[0].qd1_all_p99 = 45e3;
	d[1].qdn_remote = 483e3;	/* 30% below 690k */
	analyse(&g, d, 4, 8);
	f = first(&g, MODEL_GAP_NODE_LOSS);
	CHECK(f && strstr(text_of(f), "node 1 lost 50%"));
	f = first(&g, MODEL_GAP_OFF_NODE);
	CHECK(f && !strcmp(f->device, "d"));
	f = first(&g, MODEL_GAP_LATENCY);
	CHECK(f && !strcmp(f->device, "a") && strstr(text_of(f), "20.0 to 45.0 us"));
	CHECK(count(&g, MODEL_GAP_LATENCY) == 1);
	f = first(&g, MODEL_GAP_NUMA_PENALTY);
	CHECK(f && !strcmp(f->device, "b") && strstr(text_of(f), "30%"));
	CHECK(count(&g, MODEL_GAP_NUMA_PENALTY) == 1);
	CHECK(g.verdict == MODEL_GAP_V_PLACEMENT);
}

/* An interrupted run: a missing figure makes the sums unknown, never a
 * made-up gap. */
static void test_incomplete(void)
{
	struct model_gap_dev d[2] = { dev("a", -1, 0), dev("b", -1, 1) };
	struct model_gap g;

	d[1].qdn_solo = -1;
	d[0].qdn_all = d[1].qdn_all = -1;
	analyse(&g, d, 2, 8);
	CHECK(g.nnodes == 1 && g.nodes[0].os_index == -1);
	CHECK(near(g.sys.qd1_solo, 200e3));
	CHECK(g.sys.qdn_solo < 0 && g.sys.qdn_all < 0 && g.sys.qdn_gap < 0);
	CHECK(!model_gap_known(g.sys.qdn_gap_pct));
	CHECK(g.verdict == MODEL_GAP_V_INCOMPLETE);
	CHECK(count(&g, MODEL_GAP_DEVICE_LOSS) == 0);
	CHECK(!model_gap_known(model_gap_loss_pct(0, 10)));
	CHECK(near(model_gap_loss_pct(200, 150), 25.0));
	CHECK(near(model_gap_loss_pct(100, 110), -10.0));
	analyse(&g, d, 0, 8);
	CHECK(g.verdict == MODEL_GAP_V_INCOMPLETE && g.nnodes == 0);
}

static void test_sweep(void)
{
	const double iops[] = { 10e3, 19e3, 36e3, 60e3, 82e3, 90e3, 91e3 };
	const double p99[] = { 50e3, 55e3, 70e3, 99e3, 100e3, 180e3, 400e3 };
	const double flat[] = { 0, 0 };
	uint32_t q[CLI_MAX_QDS];
	char err[200];

	CHECK(model_sweep_knee(iops, 7) == 4);	/* 82k >= 0.9 * 91k */
	CHECK(model_sweep_p99_double(p99, 7) == 4);
	CHECK(model_sweep_p99_double(p99, 4) == -1);
	CHECK(model_sweep_knee(flat, 2) == -1);
	CHECK(model_sweep_knee(iops, 0) == -1);
	CHECK(cli_qd_list_parse("1,2,4,256", q, CLI_MAX_QDS, err, sizeof(err)) == 4);
	CHECK(q[0] == 1 && q[3] == 256);
	CHECK(cli_qd_list_parse("32", q, CLI_MAX_QDS, err, sizeof(err)) == 1);
	CHECK(cli_qd_list_parse("", q, CLI_MAX_QDS, err, sizeof(err)) < 0);
	CHECK(cli_qd_list_parse("1,,2", q, CLI_MAX_QDS, err, sizeof(err)) < 0);
	CHECK(cli_qd_list_parse("0,2", q, CLI_MAX_QDS, err, sizeof(err)) < 0);
	CHECK(cli_qd_list_parse("1,65537", q, CLI_MAX_QDS, err, sizeof(err)) < 0);
	CHECK(cli_qd_list_parse("4,2", q, CLI_MAX_QDS, err, sizeof(err)) < 0);
	CHECK(strstr(err, "increase") != NULL);
	CHECK(cli_qd_list_parse("1,2,", q, CLI_MAX_QDS, err, sizeof(err)) < 0);
	CHECK(cli_qd_list_parse("1,2,3", q, 2, err, sizeof(err)) < 0);
}

/* A device that failed a step is named first, in the findings and the
 * verdict; the sums cover the others only; with none left the verdict
 * says so. */
static void test_failed(void)
{
	struct model_gap_dev d[2] = { dev("a", 0, 0), dev("b", 0, 1) };
	struct model_gap_failed f[1] = { { "c", "stalled in step alone QD1" } };
	struct model_gap_in in = { .dev = d, .ndev = 2, .failed = f, .nfailed = 1,
				   .qd = 128, .host_cpus = 8 };
	struct model_gap g;

	model_gap_analyse(&in, &g);
	CHECK(g.sys.ndev == 2);
	CHECK(near(g.sys.qdn_solo, 1400e3) && near(g.sys.qdn_all, 1380e3));
	CHECKF(g.nfind >= 1 && g.find[0].kind == MODEL_GAP_FAILED_DEVICE &&
	       !strcmp(g.find[0].device, "c"), "nfind %u", g.nfind);
	CHECK(strstr(text_of(&g.find[0]), "stalled in step alone QD1") != NULL);
	CHECK(g.verdict == MODEL_GAP_V_FAILED);
	CHECKF(!strncmp(verdict_of(&g), "failing device: c. The other 2: the devices add up",
			strlen("failing device: c. The other 2: the devices add up")),
	       "%s", verdict_of(&g));
	CHECK(!strcmp(model_gap_verdict_name(g.verdict), "failed_device"));

	in.ndev = 0;
	model_gap_analyse(&in, &g);
	CHECK(g.verdict == MODEL_GAP_V_FAILED);
	CHECKF(strstr(verdict_of(&g), "no healthy device") != NULL, "%s", verdict_of(&g));
	CHECK(!model_gap_known(g.sys.qdn_solo));
}

/* Subtotals by host bridge: one node, two root complexes, the loss on
 * one of them shows there; devices without PCI are a group of their own. */
static void test_bridges(void)
{
	struct model_gap_dev d[3] = { dev("a", 0, 0), dev("b", 0, 1), dev("c", 0, 2) };
	struct model_gap g;

	d[0].host_bridge = "0000:40";
	d[1].host_bridge = "0000:40";
	d[1].qdn_all = 350e3;
	analyse(&g, d, 3, 8);
	CHECKF(g.nbridges == 2, "%u bridges", g.nbridges);
	CHECK(!strcmp(g.bridges[0].id, "0000:40") && g.bridges[0].ndev == 2);
	CHECK(near(g.bridges[0].qdn_solo, 1400e3) && near(g.bridges[0].qdn_all, 1040e3));
	CHECK(near(g.bridges[0].loss_pct, 100.0 * 360e3 / 1400e3));
	CHECK(!strcmp(g.bridges[1].id, "") && g.bridges[1].ndev == 1);
	CHECK(near(g.bridges[1].qdn_all, 690e3));
}


/* Two loop devices on one backing disk lost 33% together, all devices
 * sharing it: the backing disk is the cause, not the settings; a third
 * device on its own disk that lost nothing makes the group stand out. */
static void test_shared_backing(void)
{
	struct model_gap_dev d[3] = { dev("loop5", 0, 0), dev("loop6", 0, 1), dev("x", 0, 2) };
	const struct model_gap_finding *f;
	struct model_gap g;

	d[0].backing = d[1].backing = "sda";
	d[0].qdn_all = d[1].qdn_all = 469e3;	/* 33% */
	analyse(&g, d, 2, 8);
	f = first(&g, MODEL_GAP_SHARED_BACKING);
	CHECK(f != NULL && f->form == 1 && near(f->num[0], 33.0));
	CHECK(f && !strcmp(f->other, "sda") && !strcmp(f->names, "loop5, loop6"));
	CHECKF(g.verdict == MODEL_GAP_V_BACKING, "verdict %s", model_gap_verdict_name(g.verdict));
	CHECK(strstr(verdict_of(&g), "backing device") != NULL);
	CHECK(f && strstr(text_of(f), "loop5, loop6 read files on one backing device (sda)"));
	CHECK(f && !strstr(text_of(f), "other devices"));

	d[2].backing = "sdb";
	analyse(&g, d, 3, 8);
	f = first(&g, MODEL_GAP_SHARED_BACKING);
	CHECK(f != NULL && f->form == 0);
	CHECK(f && strstr(text_of(f), "(the other devices 1%)"));

	/* different disks: no such finding */
	d[1].backing = "sdc";
	analyse(&g, d, 3, 8);
	CHECK(count(&g, MODEL_GAP_SHARED_BACKING) == 0);
	CHECK(g.verdict != MODEL_GAP_V_BACKING);
}

/* loop5 alone at QD1 did 845 IOPS, 3,444 all at once: with both steps'
 * intervals apart it is named, and at QDn the gap's verdict is undecided
 * (its baseline was disturbed); intervals that overlap name nothing. */
static void test_alone_below(void)
{
	struct model_gap_dev d[2] = { dev("loop5", 0, 0), dev("loop6", 0, 1) };
	const struct model_gap_finding *f;
	struct model_gap g;

	d[0].qd1_solo = 845;
	d[0].qd1_solo_hi = 900;
	d[0].qd1_all = 3444;
	d[0].qd1_all_lo = 3300;
	d[0].qd1_solo_other_pct = 61;
	analyse(&g, d, 2, 8);
	f = first(&g, MODEL_GAP_ALONE_BELOW);
	CHECK(f != NULL && near(f->num[0], 1) && near(f->num[1], 845) && near(f->num[2], 3444));
	CHECK(f && strstr(text_of(f), "loop5 alone at QD1 did 845 IOPS, below its 3444"));
	CHECK(f && strstr(text_of(f), "other processes used 61%"));
	CHECK(f && strstr(text_of(f), "--repeat"));
	/* QD1 alone: named, but the QDn verdict stands */
	CHECK(g.verdict == MODEL_GAP_V_NONE);

	/* the noise unknown: said without it */
	d[0].qd1_solo_other_pct = MODEL_GAP_UNKNOWN;
	analyse(&g, d, 2, 8);
	f = first(&g, MODEL_GAP_ALONE_BELOW);
	CHECK(f && !strstr(text_of(f), "other processes"));

	/* overlapping intervals: within the noise */
	d[0].qd1_solo_hi = 3400;
	analyse(&g, d, 2, 8);
	CHECK(count(&g, MODEL_GAP_ALONE_BELOW) == 0);

	/* at QDn: the gap is undecided */
	d[1].qdn_solo = 300e3;
	d[1].qdn_solo_hi = 320e3;
	d[1].qdn_all_lo = 650e3;
	analyse(&g, d, 2, 8);
	CHECK(count(&g, MODEL_GAP_ALONE_BELOW) == 1);
	CHECKF(g.verdict == MODEL_GAP_V_NOISY, "verdict %s", model_gap_verdict_name(g.verdict));
	CHECK(strstr(verdict_of(&g), "undecided") != NULL);
}

/* Repeats of the QDn alone step 25% apart: named, and the verdict is
 * undecided; 5% apart: nothing. */
static void test_repeats_disagree(void)
{
	struct model_gap_dev d[2] = { dev("a", 0, 0), dev("b", 0, 1) };
	const struct model_gap_finding *f;
	struct model_gap g;

	d[0].qdn_solo_rep_pct = 25;
	analyse(&g, d, 2, 8);
	f = first(&g, MODEL_GAP_REPEATS_DISAGREE);
	CHECK(f != NULL && near(f->num[0], 25) && near(f->num[1], 1));
	CHECK(f && strstr(text_of(f), "a's repeats of the QD128 alone step differ by 25%"));
	CHECK(g.verdict == MODEL_GAP_V_NOISY);
	/* all at once above the sum alone on such figures: a gain said as
	 * one, never "the -29% gap" */
	d[0].qdn_all = d[1].qdn_all = 900e3;
	analyse(&g, d, 2, 8);
	CHECK(g.verdict == MODEL_GAP_V_NOISY);
	CHECKF(strstr(verdict_of(&g), "all at once measured 29% above the devices alone at QD128") &&
	       !strstr(verdict_of(&g), "-29"), "%s", verdict_of(&g));
	d[0].qdn_all = d[1].qdn_all = 690e3;
	d[0].qdn_solo_rep_pct = 5;
	analyse(&g, d, 2, 8);
	CHECK(count(&g, MODEL_GAP_REPEATS_DISAGREE) == 0);
	CHECK(g.verdict == MODEL_GAP_V_NONE);
}

int main(void)
{
	test_failed();
	test_bridges();
	test_clean();
	test_no_cause();
	test_cpu_bound();
	test_throttled();
	test_cpu_shared();
	test_shared_link();
	test_node_and_placement();
	test_incomplete();
	test_sweep();
	test_shared_backing();
	test_alone_below();
	test_repeats_disagree();
	return t_result();
}
