/* The CPU cost per IO (model/cost.h) on given numbers: its figures, the
 * unknowns (no IO, no CPU time, a bad input), a total that is its summed
 * parts' cost and not an average of their ratios, and the same figures in
 * the JSON's cpu object and in a repeat's metrics, with the estimators
 * that pool them. */
#include <errno.h>
#include <string.h>

#include "cli/report/json.h"
#include "cli/report/report.h"
#include "cli/report/spread.h"
#include "model/cost.h"
#include "tests/helpers.h"

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) + 1);
}

static void figures(void)
{
	struct model_cost c;

	CHECK(model_cost(0.25, 1.5, 1000000, &c) == 0);
	CHECKF(near(c.user_ns_per_io, 250) && near(c.sys_ns_per_io, 1500),
	       "user %g sys %g ns per IO, want 250 and 1500", c.user_ns_per_io, c.sys_ns_per_io);
	CHECKF(near(c.ios_per_cpu_s, 1e6 / 1.75), "%g IOs per CPU-second", c.ios_per_cpu_s);
	CHECKF(near(c.user_share, 0.25 / 1.75), "user share %g", c.user_share);
	/* no IO: nothing to divide by, not a cost of 0 */
	CHECK(model_cost(0.25, 1.5, 0, &c) == 0);
	CHECK(!model_cost_known(c.user_ns_per_io) && !model_cost_known(c.sys_ns_per_io) &&
	      !model_cost_known(c.ios_per_cpu_s) && !model_cost_known(c.user_share));
	/* IOs in a window too short for the clock: free per IO as far as it
	 * can tell, but no rate or share */
	CHECK(model_cost(0, 0, 10, &c) == 0);
	CHECK(c.user_ns_per_io == 0 && c.sys_ns_per_io == 0);
	CHECK(!model_cost_known(c.ios_per_cpu_s) && !model_cost_known(c.user_share));
	CHECK(model_cost(-1, 0, 10, &c) == -EINVAL);
	CHECK(model_cost(0, NAN, 10, &c) == -EINVAL);
	CHECK(!model_cost_known(MODEL_COST_UNKNOWN) && !model_cost_known(NAN));
}

static void dev(struct cli_dev *d, const char *name, uint64_t ios, uint64_t cpu_ios,
		double user_s, double sys_s)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->ios = ios;
	d->cpu_ios = cpu_ios;
	d->user_s = user_s;
	d->sys_s = sys_s;
	d->elapsed_s = 1.0;
	cli_dev_rates(d);
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* (user + sys) ns per IO times the IOs is the CPU time, for each part and
 * the total, and the total is summed CPU over summed IOs. */
static void total(void)
{
	struct cli_report r;
	struct model_cost c;
	json_t *j;
	unsigned i;

	memset(&r, 0, sizeof(r));
	r.ndev = 3;
	r.dev = calloc(3, sizeof(*r.dev));
	if (!r.dev)
		exit(T_EXIT_FAIL);
	dev(&r.dev[0], "a", 200000, 200000, 0.25, 1.5);
	/* a stalled worker's 50000 IOs came without CPU time */
	dev(&r.dev[1], "b", 150000, 100000, 1.0, 0.5);
	dev(&r.dev[2], "c", 0, 0, 0.01, 0.02);
	CHECK(cli_report_total(&r) == 0);
	CHECK(r.total.cpu_ios == 300000);
	cli_dev_cost(&r.total, &c);
	CHECKF(near(c.user_ns_per_io, 1.26e9 / 300000) && near(c.sys_ns_per_io, 2.02e9 / 300000),
	       "total: user %g sys %g ns per IO", c.user_ns_per_io, c.sys_ns_per_io);
	/* the average of the parts' ratios would be (1250 + 10000) / 2 */
	CHECK(!near(c.user_ns_per_io, (1250.0 + 10000.0) / 2));
	for (i = 0; i <= r.ndev; i++) {
		const struct cli_dev *d = i < r.ndev ? &r.dev[i] : &r.total;

		j = cli_json_cpu(d);
		CHECK(json_is_object(j));
		CHECK(json_integer_value(json_object_get(j, "ios")) == (json_int_t)d->cpu_ios);
		if (!d->cpu_ios) {
			CHECKF(json_is_null(json_object_get(j, "user_ns_per_io")) &&
			       json_is_null(json_object_get(j, "sys_ns_per_io")) &&
			       json_is_null(json_object_get(j, "ios_per_cpu_s")) &&
			       json_is_null(json_object_get(j, "user_share")),
			       "%s: a cost without IOs", d->name);
		} else {
			CHECKF(near((num(j, "user_ns_per_io") + num(j, "sys_ns_per_io")) *
				    (double)d->cpu_ios, 1e9 * (d->user_s + d->sys_s)),
			       "%s: the cost per IO times the IOs is not the CPU time", d->name);
			CHECKF(near(num(j, "ios_per_cpu_s") * (d->user_s + d->sys_s),
				    (double)d->cpu_ios), "%s: IOs per CPU-second", d->name);
			CHECKF(near(num(j, "user_share"), d->user_s / (d->user_s + d->sys_s)),
			       "%s: user share", d->name);
		}
		json_decref(j);
	}
	cli_report_free(&r);
}

/* A repeat keeps what its cost is worked out from; compare pools a time
 * per IO as the mean latency and IOs per CPU-second the other way. */
static void metrics(void)
{
	struct cli_dev d;
	struct cli_rep x;
	struct model_cost c;
	bool by_ios, open;

	dev(&d, "a", 400000, 400000, 0.1, 0.3);
	cli_rep_of(&d, &x);
	cli_dev_cost(&d, &c);
	CHECK(near(cli_rep_value(&x, CLI_M_CPU_USER), c.user_ns_per_io));
	CHECK(near(cli_rep_value(&x, CLI_M_CPU_SYS), c.sys_ns_per_io));
	CHECK(near(cli_rep_value(&x, CLI_M_IOS_PER_CPU), c.ios_per_cpu_s));
	CHECK(!cli_metrics[CLI_M_CPU_USER].rate && !cli_metrics[CLI_M_CPU_SYS].rate &&
	      cli_metrics[CLI_M_IOS_PER_CPU].rate);
	dev(&d, "b", 0, 0, 0.1, 0.3);
	cli_rep_of(&d, &x);
	CHECK(isnan(cli_rep_value(&x, CLI_M_CPU_USER)) && isnan(cli_rep_value(&x, CLI_M_IOS_PER_CPU)));
	for (by_ios = false; ; by_ios = true) {
		for (open = false; ; open = true) {
			enum model_mean m = cli_mean_of(CLI_M_MEAN, by_ios, open);

			CHECK(cli_mean_of(CLI_M_CPU_USER, by_ios, open) == m);
			CHECK(cli_mean_of(CLI_M_CPU_SYS, by_ios, open) == m);
			CHECK(cli_mean_of(CLI_M_IOS_PER_CPU, by_ios, open) ==
			      (m == MODEL_HMEAN ? MODEL_AMEAN : MODEL_HMEAN));
			if (open)
				break;
		}
		if (by_ios)
			break;
	}
}

int main(void)
{
	figures();
	total();
	metrics();
	return t_result();
}
