/* JSON shape: a report built from given numbers, serialised, parsed back
 * with jansson; every key of the documented minimum shape is there with
 * its type and value; without latency lat_ns is null. */
#include "cli/report/json.h"
#include "cli/report/report.h"
#include "tests/helpers.h"

#include <string.h>
#include <unistd.h>

static const char *const lat_keys[] = {
	"mean", "stddev", "min", "p50", "p90", "p99", "p99.9", "p99.99", "max",
};

static void fill_dev(struct cli_dev *d, const char *name, uint64_t ios,
		     struct eng_hist *h, int cpu)
{
	uint64_t v;

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->path, sizeof(d->path), "/dev/%s", name);
	d->nworkers = 1;
	d->cpus = malloc(sizeof(int));
	d->cpus[0] = cpu;
	d->engine = "io_uring";
	d->ios = ios;
	d->bytes = ios * 4096;
	d->calls = ios / 32;
	d->elapsed_s = 2.0;
	d->user_s = 0.25;
	d->sys_s = 1.5;
	if (h) {
		eng_hist_reset(h);
		for (v = 1000; v <= 100000; v += 10)
			eng_hist_add(h, v);
		d->hist = h;
	}
	cli_lat_from_hist(d, h);
	cli_dev_rates(d);
}

static json_t *roundtrip(const struct cli_report *r, const struct cli_opts *o)
{
	char path[] = "/tmp/iostorm-test-json-XXXXXX", err[256];
	json_error_t jerr;
	json_t *j = cli_json_report(r, o), *back;
	int fd = mkstemp(path);

	CHECK(j != NULL && fd >= 0);
	if (!j || fd < 0)
		exit(T_EXIT_FAIL);
	close(fd);
	CHECKF(cli_json_write(j, path, CLI_JSON_REPORT, err, sizeof(err)) == 0, "%s", err);
	json_decref(j);
	back = json_load_file(path, 0, &jerr);
	unlink(path);
	CHECKF(back != NULL, "%s", jerr.text);
	if (!back)
		exit(T_EXIT_FAIL);
	return back;
}

static void check_number(json_t *o, const char *key, double want)
{
	json_t *v = json_object_get(o, key);

	CHECKF(v && json_is_number(v), "key %s missing or not a number", key);
	if (v && want >= 0)
		CHECKF(json_number_value(v) > want * 0.999999 - 1e-9 &&
		       json_number_value(v) < want * 1.000001 + 1e-9,
		       "%s = %g, want %g", key, json_number_value(v), want);
}

static void check_lat(json_t *lat, const struct cli_dev *d)
{
	size_t i;

	CHECKF(json_is_object(lat), "lat_ns of %s is not an object", d->name);
	for (i = 0; json_is_object(lat) && i < sizeof(lat_keys) / sizeof(lat_keys[0]); i++)
		check_number(lat, lat_keys[i], -1);
	if (json_is_object(lat)) {
		check_number(lat, "p50", (double)d->lat.p50);
		check_number(lat, "max", 100000);
		check_number(lat, "min", 1000);
	}
}

static void check_dev(json_t *jd, const struct cli_dev *d, bool lat)
{
	json_t *cpu = json_object_get(jd, "cpu");

	CHECK(json_is_object(jd));
	CHECK(json_is_string(json_object_get(jd, "name")) &&
	      !strcmp(json_string_value(json_object_get(jd, "name")), d->name));
	CHECK(json_is_string(json_object_get(jd, "path")));
	check_number(jd, "iops", d->iops);
	check_number(jd, "bw_bytes", d->bw_bytes);
	CHECK(json_is_integer(json_object_get(jd, "ios")) &&
	      (uint64_t)json_integer_value(json_object_get(jd, "ios")) == d->ios);
	CHECK(json_is_integer(json_object_get(jd, "errors")));
	check_number(jd, "ios_per_call", d->ios_per_call);
	CHECK(json_is_string(json_object_get(jd, "engine")));
	CHECK(json_is_array(json_object_get(jd, "cpus")) &&
	      json_array_size(json_object_get(jd, "cpus")) == d->nworkers);
	CHECK(json_is_object(cpu));
	check_number(cpu, "user_s", d->user_s);
	check_number(cpu, "sys_s", d->sys_s);
	if (lat)
		check_lat(json_object_get(jd, "lat_ns"), d);
	else
		CHECK(json_is_null(json_object_get(jd, "lat_ns")));
}

static void check_top(json_t *j, const struct cli_report *r, bool lat)
{
	json_t *devs = json_object_get(j, "devices"), *tot = json_object_get(j, "total");
	json_t *cfg = json_object_get(j, "config");
	size_t i;

	CHECK(!strcmp(json_string_value(json_object_get(j, "schema")), "iostorm/1"));
	CHECK(!strcmp(json_string_value(json_object_get(j, "command")), "run"));
	CHECK(json_is_object(cfg));
	CHECK(json_integer_value(json_object_get(cfg, "bs")) == 4096);
	CHECK(json_integer_value(json_object_get(cfg, "qd")) == 32);
	CHECK(json_is_string(json_object_get(cfg, "engine")));
	CHECK(json_is_string(json_object_get(cfg, "completion")));
	CHECK(json_is_array(json_object_get(cfg, "targets")));
	CHECK(json_is_array(devs) && json_array_size(devs) == r->ndev);
	for (i = 0; i < json_array_size(devs) && i < r->ndev; i++)
		check_dev(json_array_get(devs, i), &r->dev[i], lat);
	CHECK(json_is_object(tot));
	check_number(tot, "iops", r->total.iops);
	check_number(tot, "bw_bytes", r->total.bw_bytes);
	CHECK(json_integer_value(json_object_get(tot, "ios")) == (json_int_t)r->total.ios);
	CHECK(json_is_integer(json_object_get(tot, "errors")));
	check_number(j, "elapsed_s", 2.0);
	CHECK(json_is_boolean(json_object_get(j, "interrupted")));
}

static void run_case(bool lat)
{
	static struct eng_hist h[2];
	char *argv[] = { "run", "/dev/a", "/dev/b", NULL };
	struct cli_opts o;
	struct cli_report r;
	char err[256];
	json_t *j;
	enum cli_parse_outcome outcome;

	cli_opts_init(&o, "run", CLI_OG_ENGINE | CLI_OG_TARGET | CLI_OG_JSON);
	CHECK(cli_opts_parse(&o, 3, argv, &outcome, err, sizeof(err)) == 0);
	memset(&r, 0, sizeof(r));
	r.command = "run";
	r.engine = "io_uring";
	r.ndev = 2;
	r.dev = calloc(2, sizeof(*r.dev));
	fill_dev(&r.dev[0], "a", 200000, lat ? &h[0] : NULL, 0);
	fill_dev(&r.dev[1], "b", 100000, lat ? &h[1] : NULL, -1);
	r.elapsed_s = 2.0;
	CHECK(cli_report_total(&r) == 0);
	CHECK(r.total.ios == 300000 && r.total.iops > 149999.0 && r.total.iops < 150001.0);
	CHECK(r.total.has_lat == lat);
	j = roundtrip(&r, &o);
	check_top(j, &r, lat);
	json_decref(j);
	r.dev[0].hist = r.dev[1].hist = NULL;	/* static here */
	cli_report_free(&r);
}

int main(void)
{
	run_case(true);
	run_case(false);
	return t_result();
}
