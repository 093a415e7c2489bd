/* The words of every finding: model/ and topo/ state a kind, its form and
 * its figures; this one table says each kind for people. The text and
 * the JSON's now and better read it here, as do a check kind's about,
 * summary name and cost, and tests/test_findings_words.c fails a kind
 * without words. */
#ifndef CLI_WORDS_FINDINGS_WORDS_H
#define CLI_WORDS_FINDINGS_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/check.h"
#include "model/cgap.h"
#include "model/gap.h"
#include "topo/topo.h"

/* Room for a check finding's now or better: what is longer is cut. */
#define CLI_CHECK_WORDS_MAX 160

/* The setting now, "DMA (strict)", and what is better, "identity
 * (passthrough)", of check finding f, into buf (cut to len). */
void cli_check_now(const struct check_finding *f, char *buf, size_t len);
void cli_check_better(const struct check_finding *f, char *buf, size_t len);
/* Whether check kind k has words (a kind past the table has none). */
bool cli_check_has_words(enum check_kind k);

/* Room for what a check kind is about or what it costs. */
#define CLI_CHECK_ABOUT_MAX 128
/* What check kind k is about, with the knobs it reads: "IO accounting
 * (queue/iostats)" (check --help's list), into buf; "" past the table. */
void cli_check_about(enum check_kind k, char *buf, size_t len);
/* k's name in the one-line summary: "IOMMU strict"; "" past the table. */
const char *cli_check_summary_name(enum check_kind k);
/* What k costs, from the figures a source gives: "570K IOPS strict
 * against 5.01M passthrough on one Optane drive (1.93M lazy)"; "" where
 * none is published. */
void cli_check_cost(enum check_kind k, char *buf, size_t len);
/* The source of k's cost as a reader cites it, "linux-nvme list,
 * 2025-11" (docs/check.md quotes it); "" none. */
const char *cli_check_cost_cite(enum check_kind k);

/* Room for a gap finding's sentence or the verdict: what is longer is cut. */
#define CLI_GAP_WORDS_MAX 360

/* saturate's gap finding f, one sentence, into buf (cut to len). */
void cli_gap_text(const struct model_gap_finding *f, char *buf, size_t len);
/* The verdict of g: its kind's words, the failed devices first. */
void cli_gap_verdict_text(const struct model_gap *g, char *buf, size_t len);
bool cli_gap_has_words(enum model_gap_kind k);
bool cli_gap_verdict_has_words(enum model_gap_verdict v);

/* iostorm-mpi's cluster gap: a finding and the verdict (CLI_GAP_WORDS_MAX). */
void cli_cgap_text(const struct model_cgap_finding *f, char *buf, size_t len);
void cli_cgap_verdict_text(const struct model_cgap *g, char *buf, size_t len);
bool cli_cgap_has_words(enum model_cgap_kind k);
bool cli_cgap_verdict_has_words(enum model_cgap_verdict v);

/* Room for a topo finding's sentence: what is longer is cut. */
#define CLI_TOPO_WORDS_MAX 512

/* topo's finding f: one sentence that says what to do, into buf. */
void cli_topo_text(const struct topo_finding *f, char *buf, size_t len);
bool cli_topo_has_words(enum topo_finding_kind k);

#endif
