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
	struct check_finding f;
	int k;

	for (k = 0; k < CHECK_NKINDS; k++) {
		const char *name = check_kind_info((enum check_kind)k)->name;

		CHECKF(cli_check_has_words((enum check_kind)k), "check kind %s has no words", name);
		memset(&f, 0, sizeof(f));
		f.kind = (enum check_kind)k;
		cli_check_now(&f, now, sizeof(now));
		cli_check_better(&f, better, sizeof(better));
		/* now may be a bare named value (a scheduler), "" here */
		CHECKF(better[0], "check kind %s: now '%s', better '%s'", name, now, better);
	}
	CHECK(!cli_check_has_words(CHECK_NKINDS));
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
