/* Rank 0's saturate report for the cluster, from the hosts' gathered JSON
 * (so the table and the JSON say the same): a row per host (drives, sum
 * of its devices alone, the host alone, the host within the cluster run,
 * its loss), the cluster rows, how far apart the windows were, the gap
 * attributed by model/cgap.c, and the JSON with every host's saturate. */
#include "mpi/mpi_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/report/json.h"
#include "cli/report/out.h"
#include "cli/words/findings_words.h"
#include "model/cgap.h"

#define NW 16	/* host column */
#define IW 10	/* IOPS column */
#define MAX_LABELS (1 + 2 * IMPI_MAX_RES)

/* The number at a dotted path in j; MODEL_GAP_UNKNOWN when not there. */
static double num(const json_t *j, const char *path)
{
	char key[64];
	const char *dot;

	while (j && (dot = strchr(path, '.'))) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		j = json_object_get(j, key);
		path = dot + 1;
	}
	j = j ? json_object_get(j, path) : NULL;
	return json_is_number(j) ? json_number_value(j) : MODEL_GAP_UNKNOWN;
}

double mpi_spread(const json_t *hosts, const char *step, const char *key)
{
	char path[64];
	double lo = 0, hi = 0, v;
	unsigned n = 0;
	size_t i;
	json_t *h;

	snprintf(path, sizeof(path), "cluster.%s%s%s", step ? step : "", step ? "." : "", key);
	json_array_foreach(hosts, i, h) {
		v = num(h, path);
		if (!model_gap_known(v) || v <= 0)
			continue;
		lo = n && lo < v ? lo : v;
		hi = n && hi > v ? hi : v;
		n++;
	}
	return n < 2 ? -1 : (hi - lo) / 1e9;
}

/* Per host: its name in the report and the figures model/cgap reads. */
struct hrow {
	char name[IMPI_HOST_LEN + 16];
	const char *labels[MAX_LABELS];
	char store[MAX_LABELS][IMPI_RES_LEN + 8];
	unsigned ndev;
	double solo_sum;
};

void mpi_host_name(const json_t *hosts, size_t i, char *buf, size_t len)
{
	size_t k, n = json_array_size(hosts);
	const char *a, *b;
	bool dup = false;

	a = json_string_value(json_object_get(json_array_get(hosts, i), "host"));
	for (k = 0; k < n && a && !dup; k++) {
		b = json_string_value(json_object_get(json_array_get(hosts, k), "host"));
		dup = k != i && b && !strcmp(a, b);
	}
	if (dup || !a)
		snprintf(buf, len, "%s#%zu", a ? a : "?", i);
	else
		snprintf(buf, len, "%s", a);
}

/* The shared-resource labels of host j: "switch NAME", "nqn NQN". */
static unsigned labels(const json_t *j, struct hrow *r)
{
	const json_t *sw = json_object_get(j, "switch"), *v;
	unsigned n = 0;
	size_t i;

	if (json_is_string(sw))
		snprintf(r->store[n++], sizeof(r->store[0]), "switch %s", json_string_value(sw));
	json_array_foreach(json_object_get(j, "nqns"), i, v)
		if (json_is_string(v) && n < MAX_LABELS)
			snprintf(r->store[n++], sizeof(r->store[0]), "nqn %s", json_string_value(v));
	for (i = 0; i < n; i++)
		r->labels[i] = r->store[i];
	return n;
}

static void fill(const json_t *hosts, struct hrow *r, struct model_cgap_host *in)
{
	size_t i;
	json_t *j;

	json_array_foreach(hosts, i, j) {
		mpi_host_name(hosts, i, r[i].name, sizeof(r[i].name));
		in[i].name = r[i].name;
		in[i].qd1_alone = num(j, "saturate.system.qd1.all_iops");
		in[i].qdn_alone = num(j, "saturate.system.qdn.all_iops");
		in[i].qd1_cluster = num(j, "cluster.qd1.iops");
		in[i].qdn_cluster = num(j, "cluster.qdn.iops");
		in[i].nres = labels(j, &r[i]);
		in[i].res = r[i].labels;
		r[i].ndev = (unsigned)json_integer_value(json_object_get(j, "devices"));
		r[i].solo_sum = num(j, "saturate.system.qdn.solo_sum_iops");
	}
}

/* ---- the table ---- */

static void put_iops(FILE *f, double v)
{
	if (!model_gap_known(v) || v < 0)
		fprintf(f, " %*s", IW, "-");
	else
		fprintf(f, " %*.0f", IW, v);
}

static void put_pct(FILE *f, double v)
{
	if (!model_gap_known(v))
		fprintf(f, " %6s", "-");
	else
		fprintf(f, " %6.1f", v);
}

static void put_ms(FILE *f, double s)
{
	if (s < 0)
		fprintf(f, "-");
	else
		fprintf(f, "%.2f ms", s * 1e3);
}

static void print_hosts(FILE *f, const struct cli_opts *o, const struct hrow *r,
			const struct model_cgap_host *in, unsigned n, const struct model_cgap *g)
{
	unsigned i, ndev = 0;
	double solo = 0;

	fprintf(f, "%*s %-*s %s\n", NW + 7, "", 4 * (IW + 1) + 7,
		"|------------------ QDn ------------------|", "|-------- QD1 -------|");
	fprintf(f, "%-*s %6s %*s %*s %*s %6s %*s %*s\n", NW, "host", "drives", IW, "solo sum",
		IW, "alone", IW, "in cluster", "loss%", IW, "alone", IW, "in cluster");
	(void)o;
	for (i = 0; i < n; i++) {
		fprintf(f, "%-*s %6u", NW, r[i].name, r[i].ndev);
		put_iops(f, r[i].solo_sum);
		put_iops(f, in[i].qdn_alone);
		put_iops(f, in[i].qdn_cluster);
		put_pct(f, model_gap_loss_pct(in[i].qdn_alone, in[i].qdn_cluster));
		put_iops(f, in[i].qd1_alone);
		put_iops(f, in[i].qd1_cluster);
		fputc('\n', f);
		ndev += r[i].ndev;
		solo = model_gap_known(r[i].solo_sum) && model_gap_known(solo) ?
		       solo + r[i].solo_sum : MODEL_GAP_UNKNOWN;
	}
	fprintf(f, "%-*s %6u", NW, "cluster", ndev);
	put_iops(f, solo);
	put_iops(f, g->qdn_alone);
	put_iops(f, g->qdn_cluster);
	put_pct(f, g->qdn_gap_pct);
	put_iops(f, g->qd1_alone);
	put_iops(f, g->qd1_cluster);
	fputc('\n', f);
}

/* v as a column entry: "-" when unknown (and for a negative gap). */
static const char *fmt_iops(char *buf, size_t len, double v)
{
	if (!model_gap_known(v) || v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

static void print_gap_row(FILE *f, const char *label, double alone, double all,
			  double gap, double pct)
{
	char a[32], b[32], c[32];

	fprintf(f, "  %-8s %18s %18s %12s", label, fmt_iops(a, sizeof(a), alone),
		fmt_iops(b, sizeof(b), all), fmt_iops(c, sizeof(c), gap));
	put_pct(f, pct);
	fputc('\n', f);
}

static void print_cluster(FILE *f, const struct cli_opts *o, const json_t *hosts,
			  const struct model_cgap *g, unsigned n)
{
	char qdn[16];

	snprintf(qdn, sizeof(qdn), "QD%u", o->qd);
	fprintf(f, "\n%-10s %18s %18s %12s %6s", "cluster", "sum of hosts alone",
		"all hosts at once", "gap", "gap%");
	if (g->nhost < n)
		fprintf(f, "   (%u of %u hosts)", g->nhost, n);
	fputc('\n', f);
	print_gap_row(f, "QD1", g->qd1_alone, g->qd1_cluster, g->qd1_gap, g->qd1_gap_pct);
	print_gap_row(f, qdn, g->qdn_alone, g->qdn_cluster, g->qdn_gap, g->qdn_gap_pct);
	fprintf(f, "windows: the hosts' cluster steps started within ");
	put_ms(f, mpi_spread(hosts, "qd1", "window_start_ns"));
	fprintf(f, " (QD1) and ");
	put_ms(f, mpi_spread(hosts, "qdn", "window_start_ns"));
	fprintf(f, " (%s) of each other, and ended within ", qdn);
	put_ms(f, mpi_spread(hosts, "qd1", "window_end_ns"));
	fprintf(f, " and ");
	put_ms(f, mpi_spread(hosts, "qdn", "window_end_ns"));
	fprintf(f, " (by the hosts' clocks)\n");
}

/* Resources two or more hosts report, with the hosts that share each. */
static void print_shared(FILE *f, const struct hrow *r, const struct model_cgap_host *in,
			 unsigned n)
{
	unsigned i, k, q, p, cnt, said = 0;

	for (i = 0; i < n; i++)
		for (q = 0; q < in[i].nres; q++) {
			bool earlier = false;

			for (k = 0; k < i && !earlier; k++)
				for (p = 0; p < in[k].nres && !earlier; p++)
					earlier = !strcmp(in[k].res[p], in[i].res[q]);
			for (cnt = 0, k = 0; !earlier && k < n; k++)
				for (p = 0; p < in[k].nres; p++)
					cnt += !strcmp(in[k].res[p], in[i].res[q]);
			if (earlier || cnt < 2)
				continue;
			if (!said++)
				fprintf(f, "shared:\n");
			fprintf(f, "  %s:", in[i].res[q]);
			for (k = 0; k < n; k++)
				for (p = 0; p < in[k].nres; p++)
					if (!strcmp(in[k].res[p], in[i].res[q]))
						fprintf(f, " %s", r[k].name);
			fputc('\n', f);
		}
}

/* ---- the JSON ---- */

static json_t *jnum(double v)
{
	return model_gap_known(v) ? json_real(v) : json_null();
}

/* A finding's figures by name (model_cgap_value_name), what its text is
 * said from. */
static json_t *cgap_values(const struct model_cgap_finding *f)
{
	json_t *v = json_object();
	const char *name;
	unsigned i;

	for (i = 0; v && (name = model_cgap_value_name(f->kind, i)); i++)
		json_object_set_new(v, name, jnum(f->num[i]));
	return v ? v : json_null();
}

/* host_loss's worst hosts, worst first; [] for the other kinds. */
static json_t *cgap_worst(const struct model_cgap_finding *f)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < f->ntop; i++)
		json_array_append_new(a, json_pack("{s:s, s:o, s:o, s:o}", "host", f->top[i],
						   "loss_pct", jnum(f->top_loss[i]),
						   "alone_iops", jnum(f->top_alone[i]),
						   "cluster_iops", jnum(f->top_cluster[i])));
	return a ? a : json_null();
}

static json_t *jspread(double s)
{
	return s < 0 ? json_null() : json_real(s);
}

static json_t *step_json(const json_t *hosts, const char *step, double alone, double all,
			 double gap, double gap_pct)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "alone_sum_iops", jnum(alone),
			 "all_iops", jnum(all), "gap_iops", jnum(gap), "gap_pct", jnum(gap_pct),
			 "window_start_spread_s", jspread(mpi_spread(hosts, step, "window_start_ns")),
			 "window_end_spread_s", jspread(mpi_spread(hosts, step, "window_end_ns")));
}

static json_t *report_json(const struct mpi_ctx *m, const struct cli_opts *o, json_t *hosts,
			   const struct hrow *r, const struct model_cgap_host *in,
			   const struct model_cgap *g, bool interrupted)
{
	json_t *find = json_array(), *j, *config;
	char text[CLI_GAP_WORDS_MAX], verdict[CLI_GAP_WORDS_MAX];
	struct cli_report meta;
	size_t i;

	/* rank 0's, as its saturate ran them (the engine it used) */
	config = json_object_get(json_object_get(json_array_get(hosts, 0), "saturate"), "config");
	memset(&meta, 0, sizeof(meta));
	meta.command = "saturate";
	config = config ? json_deep_copy(config) : cli_json_config(o, &meta);
	json_array_foreach(hosts, i, j) {
		if (!json_is_object(j))
			continue;
		json_object_set_new(j, "name", json_string(r[i].name));
		json_object_set_new(j, "solo_sum_iops", jnum(r[i].solo_sum));
		json_object_set_new(j, "alone_iops", jnum(in[i].qdn_alone));
		json_object_set_new(j, "cluster_iops", jnum(in[i].qdn_cluster));
		json_object_set_new(j, "loss_pct", jnum(model_gap_loss_pct(in[i].qdn_alone,
									    in[i].qdn_cluster)));
		json_object_set_new(j, "qd1", json_pack("{s:o, s:o, s:o}",
			"alone_iops", jnum(in[i].qd1_alone), "cluster_iops", jnum(in[i].qd1_cluster),
			"loss_pct", jnum(model_gap_loss_pct(in[i].qd1_alone, in[i].qd1_cluster))));
	}
	for (i = 0; find && i < g->nfind; i++) {
		cli_cgap_text(&g->find[i], text, sizeof(text));
		json_array_append_new(find, json_pack("{s:s, s:s?, s:o, s:o, s:s}", "kind",
			model_cgap_kind_name(g->find[i].kind), "resource",
			g->find[i].what[0] ? g->find[i].what : NULL,
			"values", cgap_values(&g->find[i]), "worst", cgap_worst(&g->find[i]),
			"text", text));
	}
	cli_cgap_verdict_text(g, verdict, sizeof(verdict));
	return json_pack("{s:s, s:s, s:{s:i, s:s?}, s:o, s:O, s:{s:I, s:I, s:o, s:o}, s:o,"
			 " s:{s:s, s:s}, s:b}",
			 "schema", CLI_JSON_SCHEMA, "command", "saturate",
			 "mpi", "ranks", m->size, "targets_file", m->targets_file,
			 "config", config, "hosts", hosts,
			 "cluster", "hosts", (json_int_t)g->nhost, "qd", (json_int_t)o->qd,
			 "qd1", step_json(hosts, "qd1", g->qd1_alone, g->qd1_cluster, g->qd1_gap, g->qd1_gap_pct),
			 "qdn", step_json(hosts, "qdn", g->qdn_alone, g->qdn_cluster, g->qdn_gap, g->qdn_gap_pct),
			 "findings", find ? find : json_null(),
			 "verdict", "kind", model_cgap_verdict_name(g->verdict), "text", verdict,
			 "interrupted", interrupted);
}

int mpi_sat_report(const struct mpi_ctx *m, const struct cli_opts *o, json_t *hosts,
		   bool interrupted)
{
	unsigned n = (unsigned)json_array_size(hosts), i;
	struct model_cgap_host *in = calloc(n ? n : 1, sizeof(*in));
	struct hrow *r = calloc(n ? n : 1, sizeof(*r));
	struct model_cgap *g = malloc(sizeof(*g));
	struct model_cgap_in cin;
	FILE *f = cli_out_text(o);
	char text[CLI_GAP_WORDS_MAX];
	int rc = CLI_EXIT_OK;

	if (!in || !r || !g) {
		mpi_say(m, "out of memory");
		rc = CLI_EXIT_RUNTIME;
		goto out;
	}
	fill(hosts, r, in);
	cin = (struct model_cgap_in){ in, n, cli_secs(o->time_ns), -1 };
	cin.spread_s = mpi_spread(hosts, "qd1", "window_start_ns");
	if (mpi_spread(hosts, "qdn", "window_start_ns") > cin.spread_s)
		cin.spread_s = mpi_spread(hosts, "qdn", "window_start_ns");
	model_cgap_analyse(&cin, g);
	fprintf(f, "\niostorm-mpi saturate: %u hosts, bs %u, QD1 and QD%u, per step ramp %.3gs time %.3gs%s\n",
		n, o->bs, o->qd, cli_secs(o->ramp_ns), cli_secs(o->time_ns),
		interrupted ? ", INTERRUPTED" : "");
	print_hosts(f, o, r, in, n, g);
	print_cluster(f, o, hosts, g, n);
	print_shared(f, r, in, n);
	fprintf(f, "\nthe gap, attributed:\n");
	for (i = 0; i < g->nfind; i++) {
		cli_cgap_text(&g->find[i], text, sizeof(text));
		fprintf(f, "  - %s\n", text);
	}
	if (!g->nfind)
		fprintf(f, "  (nothing the numbers support)\n");
	cli_cgap_verdict_text(g, text, sizeof(text));
	fprintf(f, "verdict: %s\n", text);
	fflush(f);
	if (o->json)
		rc = cli_exit_status(cli_out_json(o->json,
						  report_json(m, o, hosts, r, in, g, interrupted),
						  CLI_JSON_REPORT));
out:
	free(in);
	free(r);
	free(g);
	return rc;
}
