/* --slo PCT=DURATION[,...] and --slo-points N: parsed with the one
 * duration parser and the one percentile table (model/slo.h), and the
 * refusals that need the other options. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/opts/opts_int.h"
#include "cli/report/out.h"
#include "cli/slo/slo.h"

#define MAX_BOUND_NS (3600 * CLI_NS_PER_S)

/* The finest latency the chosen clock can tell apart, in whole ns: the
 * TSC ticks finer than CLOCK_MONOTONIC, against which it is calibrated,
 * and the latency is kept in whole ns, so CLOCK_MONOTONIC's resolution
 * (at least 1 ns) holds whichever the engine chooses (engine/clock.h). */
static uint64_t clock_res_ns(void)
{
	struct timespec r;
	uint64_t ns;

	if (clock_getres(CLOCK_MONOTONIC, &r))
		return 1;
	ns = (uint64_t)r.tv_sec * CLI_NS_PER_S + (uint64_t)r.tv_nsec;
	return ns ? ns : 1;
}

static void pct_names(char *buf, size_t len)
{
	size_t at = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < MODEL_SLO_NPCT && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? (i + 1 < MODEL_SLO_NPCT ? ", " : " or ") : "",
				       model_slo_pcts[i].name);
}

/* One PCT=DURATION into slo. */
static int set_one(struct model_slo *slo, char *w, char *err, size_t errlen)
{
	char *eq = strchr(w, '='), what[48], names[64];
	uint64_t ns;
	unsigned i;
	int p;

	if (!eq)
		return cli_opts_fail(err, errlen, "--slo: '%s' is not PERCENTILE=DURATION (like p99=500us)", w);
	*eq = '\0';
	p = model_slo_pct_find(w);
	if (p < 0) {
		pct_names(names, sizeof(names));
		return cli_opts_fail(err, errlen, "--slo: unknown percentile '%s' (%s)", w, names);
	}
	for (i = 0; i < slo->n; i++)
		if (slo->pct[i] == (unsigned)p)
			return cli_opts_fail(err, errlen, "--slo: %s is bounded twice", w);
	if (slo->n == MODEL_SLO_MAX_BOUNDS)
		return cli_opts_fail(err, errlen, "--slo: more than %d bounds", MODEL_SLO_MAX_BOUNDS);
	snprintf(what, sizeof(what), "--slo %s", w);
	if (cli_parse_duration(what, eq + 1, 0, MAX_BOUND_NS, &ns, err, errlen))
		return -EINVAL;
	if (!ns)
		return cli_opts_fail(err, errlen, "%s: a bound of zero is never met", what);
	if (ns < clock_res_ns())
		return cli_opts_fail(err, errlen, "%s: '%s' is below the clock's resolution (%llu ns)",
				     what, eq + 1, (unsigned long long)clock_res_ns());
	slo->ns[slo->n] = ns;
	slo->pct[slo->n++] = (unsigned)p;
	return 0;
}

int cli_slo_set(struct cli_opts *o, const char *arg, char *err, size_t errlen)
{
	struct model_slo slo = { 0 };
	char buf[256], *w, *save = NULL;

	if (strlen(arg) >= sizeof(buf))
		return cli_opts_fail(err, errlen, "--slo: '%.32s...' is too long", arg);
	snprintf(buf, sizeof(buf), "%s", arg);
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save))
		if (set_one(&slo, w, err, errlen))
			return -EINVAL;
	if (!slo.n)
		return cli_opts_fail(err, errlen, "--slo: no bound given (like p99=500us)");
	o->slo = slo;
	return 0;
}

unsigned cli_slo_cap(const struct cli_opts *o)
{
	return o->slo_points ? o->slo_points : MODEL_SLO_POINTS;
}

int cli_slo_show_points(const struct cli_opts *o, char *buf, size_t len)
{
	return snprintf(buf, len, "%u", cli_slo_cap(o));
}

void cli_slo_words(const struct model_slo *slo, char *buf, size_t len)
{
	size_t at = 0;
	char us[24];
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < slo->n && at < len; i++) {
		cli_fmt_us(us, sizeof(us), (double)slo->ns[i], true);
		at += (size_t)snprintf(buf + at, len - at, "%s%s %s us", i ? ", " : "",
				       model_slo_pcts[slo->pct[i]].name, us);
	}
}

int cli_slo_check(const struct cli_opts *o)
{
	if (!o->slo.n) {
		if (o->slo_points) {
			cli_say("--slo-points: without --slo there is no search");
			return -EINVAL;
		}
		return 0;
	}
	if (o->rate || o->rate_list) {
		cli_say("--slo searches the rate itself: drop --rate");
		return -EINVAL;
	}
	if (!o->time_ns || o->ios) {
		cli_say("--slo: each point runs for --time; drop --ios");
		return -EINVAL;
	}
	if (!o->latency) {
		cli_say("--slo bounds the latency: drop --no-latency");
		return -EINVAL;
	}
	return 0;
}
