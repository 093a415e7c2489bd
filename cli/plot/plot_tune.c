/* A tune report drawn: the search, every candidate's runs by stage and
 * round, each figure with its interval, the candidate each stage carried
 * on marked, and dashed lines between the stages (docs/tune.md). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/plot/plot_int.h"

/* The goal's figure as drawn: latency in us, the rest as they are. */
static double shown(const char *goal, double v)
{
	return goal && !strcmp(goal, "latency") ? v / 1000.0 : v;
}

/* An interval's end: NAN where unbounded or absent. */
static double elem(const json_t *a, size_t i)
{
	const json_t *v = json_array_get(a, i);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *ylabel(const char *goal)
{
	if (goal && !strcmp(goal, "latency"))
		return "p99 at QD1 (us)";
	if (goal && !strcmp(goal, "iops-per-core"))
		return "IOs per CPU-second";
	return "IOPS, all targets";
}

int cli_plot_tune(FILE *gp, const json_t *r, char *err, size_t errlen)
{
	const json_t *t = json_object_get(r, "tune"), *cands = json_object_get(t, "candidates");
	const json_t *c, *runs, *x, *ci;
	const char *goal = cli_gp_name(t, "goal"), *stage, *last = NULL;
	double f, lo, hi;
	size_t i, j;
	int n = 0, k = 0, rounds = 0, round;

	if (!json_is_array(cands)) {
		snprintf(err, errlen, "no tune.candidates");
		return -ENODATA;
	}
	/* x: the candidate's place in the search; one column per round */
	fputs("$runs << EOD\n", gp);
	json_array_foreach(cands, i, c) {
		runs = json_object_get(c, "runs");
		json_array_foreach(runs, j, x) {
			f = shown(goal, cli_gp_num(x, "figure"));
			ci = json_object_get(x, "figure_ci");
			lo = shown(goal, elem(ci, 0));
			hi = shown(goal, elem(ci, 1));
			round = (int)cli_gp_num(x, "round");
			if (!isfinite(f))
				continue;
			fprintf(gp, "%zu %.9g %.9g %.9g %d %d\n", i, f, isfinite(lo) ? lo : f,
				isfinite(hi) ? hi : f, round + 1,
				json_is_true(json_object_get(c, "survived")));
			rounds = round + 1 > rounds ? round + 1 : rounds;
			n++;
		}
	}
	fputs("EOD\n", gp);
	if (!n) {
		snprintf(err, errlen, "no run of any candidate to draw");
		return -ENODATA;
	}
	cli_gp_panel(gp, "the search: each candidate's runs, by stage and round");
	/* a dashed line where each stage searched begins, its name above (a
	 * stage of one candidate searched nothing) */
	json_array_foreach(cands, i, c) {
		const char *next = cli_gp_name(json_array_get(cands, i + 1), "stage");

		stage = cli_gp_name(c, "stage");
		if (stage && (!last || strcmp(stage, last)) && next && !strcmp(next, stage)) {
			fprintf(gp, "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead dashtype 2\n",
				(double)i - 0.5, (double)i - 0.5);
			fprintf(gp, "set label %d at %.9g, graph 0.97 ", ++k, (double)i - 0.4);
			cli_gp_str(gp, stage);
			fputs(" left\n", gp);
		}
		last = stage;
	}
	fprintf(gp, "set xrange [-0.8:%.9g]\nset xlabel 'candidate, in the order searched'\n"
		"set ylabel '%s'\nset cbrange [0.5:%.9g]\nset cblabel 'round'\n"
		"set palette maxcolors %d\n"
		"plot $runs using 1:2:3:4:5 with yerrorbars pointtype 7 pointsize 0.7 lc palette "
		"title 'a run (its 95%% interval)', \\\n"
		"  $runs using ($6 > 0 ? $1 : NaN):2 with points pointtype 6 pointsize 2 lc rgb 'black' "
		"title 'the best of its stage'\n", (double)json_array_size(cands) - 0.2, ylabel(goal),
		(double)rounds + 0.5, rounds > 1 ? rounds : 2);
	return 1;
}
