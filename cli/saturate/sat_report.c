/* saturate's text report: a row per device and per NUMA node, the system
 * rows with the gap, the placement comparison, then the gap attributed and
 * the verdict. */
#include "cli/saturate/sat_int.h"
#include "cli/report/openloop.h"

#include <string.h>

#include "cli/report/out.h"
#include "cli/report/spread.h"
#include "cli/words/findings_words.h"

#define IW 9	/* IOPS column */
#define LW 7	/* latency column, us */

/* "-" for an unknown figure, and for a negative gap as well. */
static void put_iops(FILE *f, double v)
{
	if (v < 0)
		fprintf(f, " %*s", IW, "-");
	else
		fprintf(f, " %*.0f", IW, v);
}

/* Step e's percentile k (model_pct_list's), marked as every table marks
 * one (cli_fmt_pct); "-" without a device. */
static void put_lat(FILE *f, const struct satdev *sd, enum sat_fig e, unsigned k,
		    unsigned *marks)
{
	char buf[32];

	if (!sd)
		fprintf(f, " %*s", LW, "-");
	else
		fprintf(f, " %*s", LW, cli_fmt_pct(buf, sizeof(buf), &sd->fig[e].lat,
						    sd->done[e] && sd->fig[e].has_lat, k, marks));
}

static void put_pct(FILE *f, double v)
{
	if (!model_gap_known(v))
		fprintf(f, " %6s", "-");
	else
		fprintf(f, " %6.1f", v);
}

static void node_str(const struct satdev *sd, char *buf, size_t len)
{
	const struct topo_dev *td = sd->td;
	size_t at = 0;
	unsigned i;

	if (!td || !td->nnodes) {
		snprintf(buf, len, "-");
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < td->nnodes && at + 12 < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%u", i ? "," : "", td->nodes[i]);
}

static void print_dev(const struct sat *s, const struct satdev *sd, int namew, unsigned *marks)
{
	FILE *f = s->out;
	char node[32];

	node_str(sd, node, sizeof(node));
	fprintf(f, "%-*s %5s", namew, sd->t->name, node);
	put_iops(f, cli_sat_iops(sd, SAT_QD1_SOLO));
	put_lat(f, sd, SAT_QD1_SOLO, 0, marks);	/* p50 */
	put_lat(f, sd, SAT_QD1_SOLO, 2, marks);	/* p99 */
	put_lat(f, sd, SAT_QD1_SOLO, 4, marks);	/* p99.99 */
	put_iops(f, cli_sat_iops(sd, SAT_QD1_ALL));
	put_lat(f, sd, SAT_QD1_ALL, 0, marks);
	put_lat(f, sd, SAT_QD1_ALL, 2, marks);
	put_pct(f, model_gap_loss_pct(cli_sat_iops(sd, SAT_QD1_SOLO), cli_sat_iops(sd, SAT_QD1_ALL)));
	put_iops(f, cli_sat_iops(sd, SAT_QDN_SOLO));
	put_iops(f, cli_sat_iops(sd, SAT_QDN_ALL));
	put_pct(f, model_gap_loss_pct(cli_sat_iops(sd, SAT_QDN_SOLO), cli_sat_iops(sd, SAT_QDN_ALL)));
	fputc('\n', f);
}

/* A subtotal row: a NUMA node's or a host bridge's sums. */
static void print_group(const struct sat *s, const char *name, unsigned ndev, double qd1_solo,
			double qd1_all, double qdn_solo, double qdn_all, double loss, int namew)
{
	FILE *f = s->out;
	int k;

	fprintf(f, "%-*s %5u", namew, name, ndev);
	put_iops(f, qd1_solo);
	for (k = 0; k < 3; k++)
		put_lat(f, NULL, SAT_QD1_SOLO, 0, NULL);
	put_iops(f, qd1_all);
	for (k = 0; k < 2; k++)
		put_lat(f, NULL, SAT_QD1_SOLO, 0, NULL);
	put_pct(f, model_gap_loss_pct(qd1_solo, qd1_all));
	put_iops(f, qdn_solo);
	put_iops(f, qdn_all);
	put_pct(f, loss);
	fputc('\n', f);
}

static void print_node(const struct sat *s, const struct model_gap_node *n, int namew)
{
	char name[32];

	if (n->os_index < 0)
		snprintf(name, sizeof(name), "no node");
	else
		snprintf(name, sizeof(name), "node %d", n->os_index);
	print_group(s, name, n->ndev, n->qd1_solo, n->qd1_all, n->qdn_solo, n->qdn_all,
		    n->loss_pct, namew);
}

/* A host bridge's row, like a node's: shown where some device has one. */
static void print_bridge(const struct sat *s, const struct model_gap_bridge *b, int namew)
{
	char name[40];

	snprintf(name, sizeof(name), "%s%s", b->id[0] ? "hb " : "no PCI", b->id);
	print_group(s, name, b->ndev, b->qd1_solo, b->qd1_all, b->qdn_solo, b->qdn_all,
		    b->loss_pct, namew);
}

static bool any_bridge(const struct sat *s)
{
	unsigned i;

	for (i = 0; i < s->gap.nbridges; i++)
		if (s->gap.bridges[i].id[0])
			return true;
	return false;
}

/* One system row: the sum of each device alone, all at once, the gap. */
static void print_sys_row(FILE *f, const char *label, double solo, double all,
			  double gap, double gap_pct)
{
	fprintf(f, "  %-8s", label);
	put_iops(f, solo);
	fprintf(f, "          ");
	put_iops(f, all);
	fprintf(f, "   ");
	put_iops(f, gap);
	put_pct(f, gap_pct);
	fputc('\n', f);
}

static void print_system(const struct sat *s)
{
	const struct model_gap_sys *y = &s->gap.sys;
	char qdn[16];

	snprintf(qdn, sizeof(qdn), "QD%u", s->o->qd);
	fprintf(s->out, "\nsystem      sum of each alone   all at once         gap      gap%%");
	if (y->ndev < s->n) {
		fprintf(s->out, "   (%u of %u devices; left out, failed:", y->ndev, s->n);
		for (unsigned i = 0; i < s->n; i++)
			if (s->dev[i].failed)
				fprintf(s->out, " %s", s->dev[i].t->name);
		fputc(')', s->out);
	}
	fputc('\n', s->out);
	print_sys_row(s->out, "QD1", y->qd1_solo, y->qd1_all, y->qd1_gap, y->qd1_gap_pct);
	print_sys_row(s->out, qdn, y->qdn_solo, y->qdn_all, y->qdn_gap, y->qdn_gap_pct);
}

/* "-" where the step did not run or its cost is unknown. */
static void put_cost(FILE *f, const struct cli_dev *d, bool done)
{
	char buf[32];

	fprintf(f, " %*s", IW + 1, done ? cli_fmt_cost(buf, sizeof(buf), d) : "-");
}

/* The workers' CPU per IO in each step, the devices' and the system's
 * (summed CPU over summed IOs, the devices that failed no step). */
static void print_cost(const struct sat *s, int namew)
{
	static const enum sat_fig step[] = { SAT_QD1_SOLO, SAT_QD1_ALL, SAT_QDN_SOLO,
					     SAT_QDN_ALL, SAT_QDN_REMOTE };
	unsigned nstep = s->so->compare_placement ? 5 : 4, i, k;
	struct cli_dev sum;
	bool any;

	fprintf(s->out, "\nCPU per IO, ns (user+sys of the workers)\n%-*s %*s %*s %*s %*s",
		namew, "device", IW + 1, "QD1 alone", IW + 1, "QD1 all", IW + 1, "QDn alone",
		IW + 1, "QDn all");
	if (nstep > 4)
		fprintf(s->out, " %*s", IW + 1, "QDn remote");
	fputc('\n', s->out);
	for (i = 0; i < s->n; i++) {
		fprintf(s->out, "%-*s", namew, s->dev[i].t->name);
		for (k = 0; k < nstep; k++)
			put_cost(s->out, &s->dev[i].fig[step[k]], s->dev[i].done[step[k]]);
		fputc('\n', s->out);
	}
	fprintf(s->out, "%-*s", namew, "system");
	for (k = 0; k < nstep; k++) {
		any = cli_sat_cpu_sum(s, step[k], &sum);
		put_cost(s->out, &sum, any);
	}
	fputc('\n', s->out);
}

static void print_remote(const struct sat *s)
{
	unsigned i;

	if (!s->so->compare_placement)
		return;
	fprintf(s->out, "\nplacement     local QD%u    remote QD%u  NUMA penalty%%\n", s->o->qd, s->o->qd);
	for (i = 0; i < s->n; i++) {
		const struct satdev *sd = &s->dev[i];

		fprintf(s->out, "%-12s", sd->t->name);
		put_iops(s->out, cli_sat_iops(sd, SAT_QDN_ALL));
		fprintf(s->out, "    ");
		put_iops(s->out, cli_sat_iops(sd, SAT_QDN_REMOTE));
		fprintf(s->out, "   ");
		put_pct(s->out, model_gap_loss_pct(cli_sat_iops(sd, SAT_QDN_ALL), cli_sat_iops(sd, SAT_QDN_REMOTE)));
		fputc('\n', s->out);
	}
	if (s->topo && topo_nnodes(s->topo) < 2)
		fprintf(s->out, "(one NUMA node here: remote placement is local placement)\n");
}

static void print_smt(const struct sat *s)
{
	const double one = s->smt.one, both = s->smt.both;

	if (!s->smt.tried || one < 0 || both < 0)
		return;
	fprintf(s->out, "\nSMT: %s, one worker on CPU %d: %.0f IOPS (%.0f%% busy); one on each of CPUs %d,%d (one core): %.0f IOPS: ",
		s->smt.dev, s->smt.pu[0], one,
		model_gap_known(s->smt.one_busy_pct) ? s->smt.one_busy_pct : 0.0,
		s->smt.pu[0], s->smt.pu[1], both);
	if (s->smt.ratio >= 0)
		fprintf(s->out, "a core's second PU adds %.0f%%\n", 100.0 * (s->smt.ratio - 1));
	else
		fprintf(s->out, "the one-PU worker was not CPU-bound, so what SMT adds is unknown\n");
}

/* With --repeat, every device's steps over their repeats. */
static void print_spread(const struct sat *s, int namew)
{
	static const char *const step[SAT_NFIG] = {
		"QD1 alone", "QDn alone", "QD1 all", "QDn all", "QDn remote",
	};
	struct cli_dev row;
	unsigned i, f;

	if (s->o->repeat < 2)
		return;
	fputc('\n', s->out);
	cli_spread_head(s->out, s->o->repeat, "device, step", namew + 11);
	for (i = 0; i < s->n; i++)
		for (f = 0; f < SAT_NFIG; f++) {
			if (!s->dev[i].done[f])
				continue;
			row = s->dev[i].fig[f];
			snprintf(row.name, sizeof(row.name), "%.48s %s", s->dev[i].t->name, step[f]);
			cli_spread_row(s->out, &row, namew + 11);
		}
}

/* --rate: a line per step in which a device could not keep up. */
static void print_overloads(const struct sat *s)
{
	static const char *const step[SAT_NFIG] = {
		[SAT_QD1_SOLO] = "alone", [SAT_QDN_SOLO] = "alone",
		[SAT_QD1_ALL] = "all at once", [SAT_QDN_ALL] = "all at once",
		[SAT_QDN_REMOTE] = "remote",
	};
	unsigned i, f;

	for (i = 0; s->o->rate && i < s->n; i++) {
		for (f = 0; f < SAT_NFIG; f++) {
			const struct cli_dev *d = &s->dev[i].fig[f];

			if (!s->dev[i].done[f] || !cli_open_overloaded(d))
				continue;
			fprintf(s->out, "%s: QD%u %s: overloaded: %.0f of %.0f IOPS asked, %llu IOs due and never issued at the end\n",
				s->dev[i].t->name, f == SAT_QD1_SOLO || f == SAT_QD1_ALL ? 1u : s->o->qd,
				step[f], d->iops, d->open.asked,
				(unsigned long long)d->open.backlog);
		}
	}
}

void cli_sat_print_report(const struct sat *s)
{
	FILE *f = s->out;
	int namew = 10, k;
	unsigned i, marks = 0;
	char qdn[24], text[CLI_GAP_WORDS_MAX], ttext[CLI_TOPO_WORDS_MAX];

	for (i = 0; i < s->n; i++)
		if ((int)strlen(s->dev[i].t->name) > namew)
			namew = (int)strlen(s->dev[i].t->name);
	snprintf(qdn, sizeof(qdn), "QD%u IOPS", s->o->qd);
	fprintf(f, "\niostorm saturate: %s, completion %s, bs %u, QD1 and QD%u, per step ramp %.3gs time %.3gs%s\n",
		s->engine ? s->engine : "?", eng_mode_name(s->mode), s->o->bs, s->o->qd,
		cli_secs(s->o->ramp_ns), cli_secs(s->o->time_ns),
		s->interrupted ? ", INTERRUPTED" : "");
	if (s->o->rate)
		fprintf(f, "open loop: %llu IOs per second asked of each device in every step (%s); latency from when each IO was due\n",
			(unsigned long long)s->o->rate, cli_arrival_name(s->o->arrival));
	k = namew + 6;
	fprintf(f, "%*s %-*s %-*s %-*s\n", k, "",
		IW + 3 * (LW + 1), "|-------- QD1 alone, us ---------",
		IW + 2 * (LW + 1) + 7, "|------ QD1 all at once ------",
		2 * (IW + 1) + 7, qdn);
	fprintf(f, "%-*s %5s %*s %*s %*s %*s %*s %*s %*s %6s %*s %*s %6s\n", namew, "device",
		"node", IW, "IOPS", LW, "p50", LW, "p99", LW, "p99.99", IW, "IOPS", LW, "p50",
		LW, "p99", "loss%", IW, "alone", IW, "all", "loss%");
	for (i = 0; i < s->n; i++)
		print_dev(s, &s->dev[i], namew, &marks);
	for (i = 0; i < s->gap.nnodes; i++)
		print_node(s, &s->gap.nodes[i], namew);
	for (i = 0; any_bridge(s) && i < s->gap.nbridges; i++)
		print_bridge(s, &s->gap.bridges[i], namew);
	cli_pct_legend(f, marks);
	print_system(s);
	print_cost(s, namew);
	print_overloads(s);
	print_remote(s);
	print_smt(s);
	print_spread(s, namew);
	cli_sat_print_ceiling(s);
	fprintf(f, "\nthe gap, attributed:\n");
	for (i = 0; i < s->gap.nfind; i++) {
		cli_gap_text(&s->gap.find[i], text, sizeof(text));
		fprintf(f, "  - %s\n", text);
	}
	if (!s->gap.nfind)
		fprintf(f, "  (nothing the numbers support)\n");
	for (k = 0, i = 0; i < (unsigned)s->ntf; i++) {
		if (s->tf[i].kind == TOPO_FIND_NO_PCI)
			continue;
		if (!k++)
			fprintf(f, "topology:\n");
		cli_topo_text(&s->tf[i], ttext, sizeof(ttext));
		fprintf(f, "  - %s\n", ttext);
	}
	cli_gap_verdict_text(&s->gap, text, sizeof(text));
	fprintf(f, "verdict: %s\n", text);
	fflush(f);
}

