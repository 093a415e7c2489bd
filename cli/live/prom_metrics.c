/* The figures --listen serves and their text: see prom_int.h and
 * docs/prometheus.md. */
#include "cli/live/prom_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hist.h"

#define NS_PER_S 1000000000ull

const uint64_t cli_prom_le_ns[CLI_PROM_NLE] = {
	1000ull, 2000ull, 5000ull, 10000ull, 20000ull, 50000ull,
	100000ull, 200000ull, 500000ull, 1000000ull, 2000000ull, 5000000ull,
	10000000ull, 20000000ull, 50000000ull, 100000000ull, 200000000ull, 500000000ull,
	1000000000ull, 2000000000ull, 5000000000ull, 10000000000ull,
};

static struct cli_prom_dev *dev_of(struct cli_prom_state *st, const char *name);

/* ---- the setup record's labels ---- */

static char *dup_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return strdup(s ? s : "");
}

static void free_setup(struct cli_prom_state *st)
{
	unsigned i;

	for (i = 0; i < st->ninfo; i++) {
		free(st->info[i].device);
		free(st->info[i].model);
		free(st->info[i].firmware);
	}
	free(st->info);
	free(st->version);
	free(st->hostname);
	free(st->kernel);
	st->info = NULL;
	st->ninfo = 0;
	st->version = st->hostname = st->kernel = NULL;
}

int cli_prom_state_init(struct cli_prom_state *st, const json_t *setup)
{
	memset(st, 0, sizeof(*st));
	return cli_prom_state_setup(st, setup);
}

int cli_prom_state_setup(struct cli_prom_state *st, const json_t *setup)
{
	const json_t *m = json_object_get(setup, "machine"), *devs, *d;
	size_t i;

	free_setup(st);
	st->version = dup_str(m, "iostorm_version");
	st->hostname = dup_str(m, "hostname");
	st->kernel = dup_str(m, "kernel");
	if (!st->version || !st->hostname || !st->kernel)
		return -ENOMEM;
	devs = json_object_get(setup, "devices");
	if (!json_array_size(devs))
		return 0;
	st->info = calloc(json_array_size(devs), sizeof(*st->info));
	if (!st->info)
		return -ENOMEM;
	json_array_foreach(devs, i, d) {
		st->info[i].device = dup_str(d, "name");
		st->info[i].model = dup_str(d, "model");
		st->info[i].firmware = dup_str(d, "firmware");
		st->ninfo++;
		if (!st->info[i].device || !st->info[i].model || !st->info[i].firmware)
			return -ENOMEM;
		/* its counters at 0 from the start: a scraper's first sample
		 * is then before the first IO, and its rates cover the run */
		if (*st->info[i].device && !dev_of(st, st->info[i].device))
			return -ENOMEM;
	}
	return 0;
}

void cli_prom_state_free(struct cli_prom_state *st)
{
	unsigned i;

	for (i = 0; i < st->ndev; i++)
		free(st->dev[i].name);
	free_setup(st);
	free(st->dev);
	free(st->label);
	memset(st, 0, sizeof(*st));
}

/* ---- adding an interval ---- */

/* Device name's figures, added when new: NULL only without memory. */
static struct cli_prom_dev *dev_of(struct cli_prom_state *st, const char *name)
{
	struct cli_prom_dev *d;
	unsigned i, cap;

	for (i = 0; i < st->ndev; i++)
		if (!strcmp(st->dev[i].name, name))
			return &st->dev[i];
	if (st->ndev == st->cap) {
		cap = st->cap ? 2 * st->cap : 8;
		d = realloc(st->dev, cap * sizeof(*d));
		if (!d)
			return NULL;
		st->dev = d;
		st->cap = cap;
	}
	d = &st->dev[st->ndev];
	memset(d, 0, sizeof(*d));
	d->name = strdup(name);
	if (!d->name)
		return NULL;
	st->ndev++;
	return d;
}

/* h's samples in the buckets below each bound's bucket, added to below:
 * those below the bound's bucket's lower end, which is at most the bound
 * and less than 1% under it (engine/hist.h). One pass over the buckets. */
static void add_below(uint64_t *below, const struct eng_hist *h)
{
	unsigned idx[CLI_PROM_NLE], i, k = 0;
	uint64_t cum = 0;

	for (i = 0; i < CLI_PROM_NLE; i++)
		idx[i] = eng_hist_index(cli_prom_le_ns[i]);
	for (i = 0; i < ENG_HIST_BUCKETS && k < CLI_PROM_NLE; i++) {
		while (k < CLI_PROM_NLE && idx[k] == i)
			below[k++] += cum;
		cum += h->b[i];
	}
	while (k < CLI_PROM_NLE)
		below[k++] += cum;
}

static void add_one(struct cli_prom_dev *d, const struct cli_interval *iv)
{
	d->ios += iv->ios;
	d->bytes += iv->bytes;
	d->errors += iv->errors;
	d->user_ns += iv->user_ns;
	d->sys_ns += iv->sys_ns;
	if (iv->t1_s > iv->t0_s)
		d->measured_ns += (uint64_t)((iv->t1_s - iv->t0_s) * (double)NS_PER_S + 0.5);
	d->inflight = iv->inflight;
	if (iv->hist) {
		d->has_lat = true;
		d->lat_count += iv->hist->count;
		d->lat_sum_ns += iv->hist->sum_ns;
		add_below(d->below, iv->hist);
	}
}

int cli_prom_state_add(struct cli_prom_state *st, const struct cli_interval_set *set)
{
	struct cli_prom_dev *d;
	char *label = NULL;
	unsigned i;

	/* every device first, so a failure leaves st as it was */
	for (i = 0; i < set->ndev; i++)
		if (!dev_of(st, set->dev[i].device ? set->dev[i].device : "?"))
			return -ENOMEM;
	if (set->label && (!st->label || strcmp(st->label, set->label))) {
		label = strdup(set->label);
		if (!label)
			return -ENOMEM;
		free(st->label);
		st->label = label;
	}
	for (i = 0; i < set->ndev; i++) {
		d = dev_of(st, set->dev[i].device ? set->dev[i].device : "?");
		add_one(d, &set->dev[i]);
	}
	st->run = set->run;
	st->have_window = true;
	return 0;
}

/* ---- the text ---- */

/* A label value, escaped as both formats ask: backslash, quote, newline. */
static void put_value(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void put_label(FILE *f, const char *name, const char *value, bool first)
{
	fprintf(f, "%s%s=\"", first ? "" : ",", name);
	put_value(f, value);
	fputc('"', f);
}

/* ns as seconds, exactly */
static void put_secs(FILE *f, uint64_t ns)
{
	fprintf(f, "%llu.%09llu", (unsigned long long)(ns / NS_PER_S),
		(unsigned long long)(ns % NS_PER_S));
}

enum kind { K_COUNTER, K_GAUGE, K_HISTOGRAM, K_INFO };

static const char *const kind_name[] = { "counter", "gauge", "histogram", "info" };

/* The family's metadata. OpenMetrics names the family without its
 * sample's suffix (_total, _info) and gives a unit; the classic format
 * names the sample, knows no info type (a gauge of 1) and no unit. */
static void family(FILE *f, bool om, const char *name, enum kind k, const char *unit,
		   const char *help)
{
	const char *suffix = k == K_COUNTER ? "_total" : k == K_INFO ? "_info" : "";

	if (om) {
		fprintf(f, "# TYPE %s %s\n", name, kind_name[k]);
		if (unit)
			fprintf(f, "# UNIT %s %s\n", name, unit);
		fprintf(f, "# HELP %s %s\n", name, help);
	} else {
		fprintf(f, "# HELP %s%s %s\n", name, suffix, help);
		fprintf(f, "# TYPE %s%s %s\n", name, suffix,
			k == K_INFO ? "gauge" : kind_name[k]);
	}
}

/* One sample per device of the uint64_t at offset off in its figures. */
static void per_dev(FILE *f, const struct cli_prom_state *st, const char *sample,
		    size_t off)
{
	unsigned i;

	for (i = 0; i < st->ndev; i++) {
		fprintf(f, "%s{", sample);
		put_label(f, "device", st->dev[i].name, true);
		fprintf(f, "} %llu\n",
			(unsigned long long)*(const uint64_t *)((const char *)&st->dev[i] + off));
	}
}

static void counters(FILE *f, const struct cli_prom_state *st, bool om)
{
	unsigned i;

	family(f, om, "iostorm_ios", K_COUNTER, NULL, "IOs completed without error.");
	per_dev(f, st, "iostorm_ios_total", offsetof(struct cli_prom_dev, ios));
	family(f, om, "iostorm_bytes", K_COUNTER, "bytes", "Bytes read or written by those IOs.");
	per_dev(f, st, "iostorm_bytes_total", offsetof(struct cli_prom_dev, bytes));
	family(f, om, "iostorm_errors", K_COUNTER, NULL, "IOs completed with an error.");
	per_dev(f, st, "iostorm_errors_total", offsetof(struct cli_prom_dev, errors));
	family(f, om, "iostorm_inflight_ios", K_GAUGE, NULL,
	       "IOs in flight at the last interval's end.");
	per_dev(f, st, "iostorm_inflight_ios", offsetof(struct cli_prom_dev, inflight));
	family(f, om, "iostorm_measured_seconds", K_COUNTER, "seconds",
	       "Measured time the counters cover (ramps not counted).");
	for (i = 0; i < st->ndev; i++) {
		fputs("iostorm_measured_seconds_total{", f);
		put_label(f, "device", st->dev[i].name, true);
		fputs("} ", f);
		put_secs(f, st->dev[i].measured_ns);
		fputc('\n', f);
	}
	family(f, om, "iostorm_cpu_seconds", K_COUNTER, "seconds",
	       "CPU time of the device's workers.");
	for (i = 0; i < st->ndev; i++) {
		fputs("iostorm_cpu_seconds_total{", f);
		put_label(f, "device", st->dev[i].name, true);
		fputs(",mode=\"user\"} ", f);
		put_secs(f, st->dev[i].user_ns);
		fputs("\niostorm_cpu_seconds_total{", f);
		put_label(f, "device", st->dev[i].name, true);
		fputs(",mode=\"system\"} ", f);
		put_secs(f, st->dev[i].sys_ns);
		fputc('\n', f);
	}
}

static void histograms(FILE *f, const struct cli_prom_state *st, bool om)
{
	const struct cli_prom_dev *d;
	unsigned i, k;

	family(f, om, "iostorm_latency_seconds", K_HISTOGRAM, "seconds",
	       "IO latency (each le: the samples below the engine bucket holding it,"
	       " under 1% below le).");
	for (i = 0; i < st->ndev; i++) {
		d = &st->dev[i];
		if (!d->has_lat)
			continue;
		for (k = 0; k < CLI_PROM_NLE; k++) {
			fputs("iostorm_latency_seconds_bucket{", f);
			put_label(f, "device", d->name, true);
			fprintf(f, ",le=\"%g\"} %llu\n", (double)cli_prom_le_ns[k] / NS_PER_S,
				(unsigned long long)d->below[k]);
		}
		fputs("iostorm_latency_seconds_bucket{", f);
		put_label(f, "device", d->name, true);
		fprintf(f, ",le=\"+Inf\"} %llu\n", (unsigned long long)d->lat_count);
		fputs("iostorm_latency_seconds_sum{", f);
		put_label(f, "device", d->name, true);
		fputs("} ", f);
		put_secs(f, d->lat_sum_ns);
		fputs("\niostorm_latency_seconds_count{", f);
		put_label(f, "device", d->name, true);
		fprintf(f, "} %llu\n", (unsigned long long)d->lat_count);
	}
}

static void infos(FILE *f, const struct cli_prom_state *st, bool om)
{
	unsigned i;

	family(f, om, "iostorm_setup", K_INFO, NULL,
	       "The setup measured on: one per device of the setup record.");
	for (i = 0; i < st->ninfo; i++) {
		fputs("iostorm_setup_info{", f);
		put_label(f, "device", st->info[i].device, true);
		put_label(f, "model", st->info[i].model, false);
		put_label(f, "firmware", st->info[i].firmware, false);
		put_label(f, "kernel", st->kernel, false);
		put_label(f, "hostname", st->hostname, false);
		put_label(f, "version", st->version, false);
		fputs("} 1\n", f);
	}
	if (!st->have_window)
		return;
	family(f, om, "iostorm_window", K_GAUGE, NULL,
	       "The measured window now running: its index in the command"
	       " (a sweep's step, a repeat) and label.");
	fputs("iostorm_window{", f);
	put_label(f, "label", st->label ? st->label : "", true);
	fprintf(f, "} %u\n", st->run);
}

int cli_prom_render(const struct cli_prom_state *st, bool openmetrics, char **out,
		    size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return -ENOMEM;
	counters(f, st, openmetrics);
	histograms(f, st, openmetrics);
	infos(f, st, openmetrics);
	if (openmetrics)
		fputs("# EOF\n", f);
	if (ferror(f) | fclose(f)) {
		free(buf);
		return -ENOMEM;
	}
	*out = buf;
	*len = n;
	return 0;
}
