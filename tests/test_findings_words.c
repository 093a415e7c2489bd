/* The words table covers every finding kind: model/ and topo/ state a
 * kind and its values, cli/words/findings_words.c says them, so a kind
 * added to an enum (check's, saturate's gap's and verdicts, iostorm-mpi's
 * cluster gap's, topo's) without words in the table fails here. Each kind is
 * said from a zeroed finding (every figure 0, every name ""), which must
 * still give words (a now that is a bare named value may be ""). */
#include <stdio.h>
#include <string.h>

#include "cli/words/findings_words.h"
#include "tests/helpers.h"

static void check_kinds(void)
{
	char now[CLI_CHECK_WORDS_MAX], better[CLI_CHECK_WORDS_MAX];
	char about[CLI_CHECK_ABOUT_MAX], cost[CLI_CHECK_ABOUT_MAX];
	struct check_finding f;
	int k;

	for (k = 0; k < CHECK_NKINDS; k++) {
		const struct check_kind_info *in = check_kind_info((enum check_kind)k);
		const char *name = in->name;

		/* what it is about and its summary name; its cost in words
		 * exactly where model/ gives figures and a source, and that
		 * source cited */
		cli_check_about((enum check_kind)k, about, sizeof(about));
		CHECKF(about[0], "check kind %s: nothing says what it is about", name);
		CHECKF(in->knobs[0] == NULL || strstr(about, in->knobs[0]),
		       "check kind %s: '%s' does not name %s", name, about, in->knobs[0]);
		CHECKF(cli_check_summary_name((enum check_kind)k)[0],
		       "check kind %s has no summary name", name);
		cli_check_cost((enum check_kind)k, cost, sizeof(cost));
		CHECKF(!cost[0] == !in->cost.source, "check kind %s: cost '%s', source %s", name,
		       cost, in->cost.source ? in->cost.source : "none");
		CHECKF(!cli_check_cost_cite((enum check_kind)k)[0] == !in->cost.source,
		       "check kind %s: its source %s has no citation", name,
		       in->cost.source ? in->cost.source : "none");

		CHECKF(cli_check_has_words((enum check_kind)k), "check kind %s has no words", name);
		memset(&f, 0, sizeof(f));
		f.kind = (enum check_kind)k;
		cli_check_now(&f, now, sizeof(now));
		cli_check_better(&f, better, sizeof(better));
		/* now may be a bare named value (a scheduler), "" here */
		CHECKF(better[0], "check kind %s: now '%s', better '%s'", name, now, better);
	}
	CHECK(!cli_check_has_words(CHECK_NKINDS));
	CHECK(!cli_check_summary_name(CHECK_NKINDS)[0]);
	/* the figures said as the sources give them */
	cli_check_cost(CHECK_IOMMU_STRICT, cost, sizeof(cost));
	CHECKF(!strcmp(cost, "570K IOPS strict against 5.01M passthrough on one Optane drive "
		       "(1.93M lazy)"), "iommu_strict costs '%s'", cost);
	cli_check_cost(CHECK_IOMMU_LAZY, cost, sizeof(cost));
	CHECKF(!strcmp(cost, "1.93M IOPS lazy against 5.01M passthrough on one Optane drive"),
	       "iommu_lazy costs '%s'", cost);
	cli_check_cost(CHECK_IOSTATS, cost, sizeof(cost));
	CHECKF(!strcmp(cost, "about 8% at the top end: 122M IOPS against 112-113M"),
	       "iostats costs '%s'", cost);
	cli_check_cost(CHECK_NO_POLL_QUEUES, cost, sizeof(cost));
	CHECKF(!strcmp(cost, "polling took 4 Optane drives from 14.4M to 20.4M IOPS"),
	       "no_poll_queues costs '%s'", cost);
	cli_check_about(CHECK_ASPM, about, sizeof(about));
	CHECKF(!strcmp(about, "PCIe ASPM (link/l1_aspm, l0s_aspm)"), "aspm is about '%s'", about);
	cli_check_about(CHECK_NUMA_BALANCING, about, sizeof(about));
	CHECKF(!strcmp(about, "sysctl kernel.numa_balancing"), "numa_balancing is about '%s'",
	       about);
	CHECK(!strcmp(cli_check_cost_cite(CHECK_IOMMU_STRICT), "linux-nvme list, 2025-11"));
}

/* saturate's gap and iostorm-mpi's cluster gap: every finding kind and
 * every verdict has its sentence. */
static void gap_kinds(void)
{
	char text[CLI_GAP_WORDS_MAX];
	struct model_gap_finding f;
	struct model_cgap_finding cf;
	static struct model_gap g;
	static struct model_cgap cg;
	int k;

	for (k = 0; k < MODEL_GAP_NKINDS; k++) {
		const char *name = model_gap_kind_name((enum model_gap_kind)k);

		CHECKF(cli_gap_has_words((enum model_gap_kind)k), "gap kind %s has no words", name);
		memset(&f, 0, sizeof(f));
		f.kind = (enum model_gap_kind)k;
		cli_gap_text(&f, text, sizeof(text));
		CHECKF(text[0], "gap kind %s says nothing", name);
	}
	for (k = 0; k < MODEL_GAP_NVERDICTS; k++) {
		const char *name = model_gap_verdict_name((enum model_gap_verdict)k);

		CHECKF(cli_gap_verdict_has_words((enum model_gap_verdict)k),
		       "gap verdict %s has no words", name);
		memset(&g, 0, sizeof(g));
		g.verdict = g.healthy = (enum model_gap_verdict)k;
		cli_gap_verdict_text(&g, text, sizeof(text));
		CHECKF(text[0], "gap verdict %s says nothing", name);
	}
	for (k = 0; k < MODEL_CGAP_NKINDS; k++) {
		const char *name = model_cgap_kind_name((enum model_cgap_kind)k);

		CHECKF(cli_cgap_has_words((enum model_cgap_kind)k), "cgap kind %s has no words", name);
		memset(&cf, 0, sizeof(cf));
		cf.kind = (enum model_cgap_kind)k;
		cli_cgap_text(&cf, text, sizeof(text));
		CHECKF(text[0], "cgap kind %s says nothing", name);
	}
	for (k = 0; k < MODEL_CGAP_NVERDICTS; k++) {
		const char *name = model_cgap_verdict_name((enum model_cgap_verdict)k);

		CHECKF(cli_cgap_verdict_has_words((enum model_cgap_verdict)k),
		       "cgap verdict %s has no words", name);
		memset(&cg, 0, sizeof(cg));
		cg.verdict = (enum model_cgap_verdict)k;
		cli_cgap_verdict_text(&cg, text, sizeof(text));
		CHECKF(text[0], "cgap verdict %s says nothing", name);
	}
	CHECK(!cli_gap_has_words(MODEL_GAP_NKINDS) && !cli_cgap_has_words(MODEL_CGAP_NKINDS));
}

/* topo's findings: every kind, in every form, has its sentence. */
static void topo_kinds(void)
{
	char text[CLI_TOPO_WORDS_MAX];
	static struct topo_finding f;
	int k, form;

	for (k = 0; k < TOPO_FIND_NKINDS; k++) {
		const char *name = topo_finding_kind_name((enum topo_finding_kind)k);

		CHECKF(cli_topo_has_words((enum topo_finding_kind)k), "topo kind %s has no words",
		       name);
		for (form = TOPO_FORM_PLAIN; form <= TOPO_FORM_ONE_WITH_CPUS; form++) {
			memset(&f, 0, sizeof(f));
			f.kind = (enum topo_finding_kind)k;
			f.form = (enum topo_finding_form)form;
			cli_topo_text(&f, text, sizeof(text));
			CHECKF(text[0], "topo kind %s says nothing", name);
		}
	}
	CHECK(!cli_topo_has_words(TOPO_FIND_NKINDS));
}

int main(void)
{
	check_kinds();
	gap_kinds();
	topo_kinds();
	return t_result();
}
