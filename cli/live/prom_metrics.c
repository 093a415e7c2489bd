/* The figures --listen serves and their text: see prom_int.h and
 * docs/prometheus.md. */
#include "cli/live/prom_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/hist.h"

#define NS_PER_S 1000000000ull

/* A bound must be an engine bucket's lower edge: above 2^ENG_HIST_SUB_BITS
 * ns a power of two holds ENG_HIST_SUB buckets of equal width, so a
 * division of it into PER_OCTAVE (a power of two, no more than
 * ENG_HIST_SUB) lands on their edges */
_Static_assert(CLI_PROM_LE_LO >= ENG_HIST_SUB_BITS, "the first bound below the log-linear buckets");
_Static_assert(CLI_PROM_LE_HI <= ENG_HIST_MAX_EXP, "the last bound above the engine's range");
_Static_assert(CLI_PROM_PER_OCTAVE <= ENG_HIST_SUB &&
	       !(CLI_PROM_PER_OCTAVE & (CLI_PROM_PER_OCTAVE - 1)),
	       "PER_OCTAVE: a power of two up to the engine's buckets per octave");

uint64_t cli_prom_le_ns(unsigned k)
{
	unsigned e = CLI_PROM_LE_LO + k / CLI_PROM_PER_OCTAVE;
	uint64_t j = k % CLI_PROM_PER_OCTAVE;

	return (1ull << e) + j * ((1ull << e) / CLI_PROM_PER_OCTAVE);
}

/* ns as seconds in the shortest text that reads back to the same double,
 * as Go's %g writes it and with ".0" where it has no point or exponent:
 * the canonical le that OpenMetrics asks for, the same in every scrape */
static void le_text(char *buf, size_t len, uint64_t ns)
{
	double v = (double)ns / (double)NS_PER_S;
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(buf, len, "%.17g", v);
	if (!strpbrk(buf, ".e"))
		strncat(buf, ".0", len - strlen(buf) - 1);
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

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
	unsigned k;

	memset(st, 0, sizeof(*st));
	for (k = 0; k < CLI_PROM_NLE; k++)
		le_text(st->le[k], sizeof(st->le[k]), cli_prom_le_ns(k));
	return cli_prom_state_setup(st, setup, false);
}

int cli_prom_state_setup(struct cli_prom_state *st, const json_t *setup, bool latency)
{
	const json_t *m = json_object_get(setup, "machine"), *devs, *d;
	size_t i;

	free_setup(st);
	/* once on, on: a device that had latency keeps its histogram */
	st->latency |= latency;
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
	d->created_ns = realtime_ns();
	st->ndev++;
	return d;
}

/* h's samples below each bound, added to below: those in the engine's
 * buckets below the one the bound begins. One pass over the buckets. */
static void add_below(uint64_t *below, const struct eng_hist *h)
{
	unsigned idx[CLI_PROM_NLE], i, k = 0;
	uint64_t cum = 0;

	for (i = 0; i < CLI_PROM_NLE; i++)
		idx[i] = eng_hist_index(cli_prom_le_ns(i));
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

/* st's window: run, and label (NULL: as it was). 0 or -ENOMEM (st as it
 * was). */
static int set_window(struct cli_prom_state *st, unsigned run, const char *label)
{
	char *copy;

	if (label && (!st->label || strcmp(st->label, label))) {
		copy = strdup(label);
		if (!copy)
			return -ENOMEM;
		free(st->label);
		st->label = copy;
	}
	st->run = run;
	st->have_window = true;
	return 0;
}

int cli_prom_state_window(struct cli_prom_state *st, unsigned run, const char *label,
			  unsigned ndev, const char *const *devices)
{
	unsigned i;

	for (i = 0; i < ndev; i++)
		if (!dev_of(st, devices[i] ? devices[i] : "?"))
			return -ENOMEM;
	return set_window(st, run, label);
}

int cli_prom_state_add(struct cli_prom_state *st, const struct cli_interval_set *set)
{
	unsigned i;

	/* every device first, so a failure leaves st as it was */
	for (i = 0; i < set->ndev; i++)
		if (!dev_of(st, set->dev[i].device ? set->dev[i].device : "?"))
			return -ENOMEM;
	if (set_window(st, set->run, set->label))
		return -ENOMEM;
	for (i = 0; i < set->ndev; i++)
		add_one(dev_of(st, set->dev[i].device ? set->dev[i].device : "?"), &set->dev[i]);
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

/* A sample's name and labels: NAME{device="D"[,mode="M"][,le="L"]}, and
 * the space before its value */
static void head(FILE *f, const char *name, const char *suffix,
		 const struct cli_prom_dev *d, const char *mode, const char *le)
{
	fprintf(f, "%s%s{", name, suffix);
	put_label(f, "device", d->name, true);
	if (mode)
		put_label(f, "mode", mode, false);
	if (le)
		put_label(f, "le", le, false);
	fputs("} ", f);
}

/* A counter of each device: its field at off[i] for each mode[i] (one
 * without a mode), a count or ns written as seconds */
struct counter {
	const char *name, *unit, *help;
	bool secs;
	unsigned nmode;
	const char *mode[2];
	size_t off[2];
};

static const struct counter counter_tab[] = {
	{ "iostorm_ios", NULL, "IOs completed without error.", false, 1, { NULL },
	  { offsetof(struct cli_prom_dev, ios) } },
	{ "iostorm_bytes", "bytes", "Bytes read or written by those IOs.", false, 1, { NULL },
	  { offsetof(struct cli_prom_dev, bytes) } },
	{ "iostorm_errors", NULL, "IOs completed with an error.", false, 1, { NULL },
	  { offsetof(struct cli_prom_dev, errors) } },
	{ "iostorm_measured_seconds", "seconds",
	  "Measured time the counters cover (ramps not counted).", true, 1, { NULL },
	  { offsetof(struct cli_prom_dev, measured_ns) } },
	{ "iostorm_cpu_seconds", "seconds", "CPU time of the device's workers.", true, 2,
	  { "user", "system" },
	  { offsetof(struct cli_prom_dev, user_ns), offsetof(struct cli_prom_dev, sys_ns) } },
};

static uint64_t field(const struct cli_prom_dev *d, size_t off)
{
	return *(const uint64_t *)((const char *)d + off);
}

/* The classic format knows no _created: as client_python does, each
 * family's _created samples follow it as a gauge family of their own
 * (OpenMetrics puts each beside its sample, as the one family) */
static void created_family(FILE *f, const char *name, const char *of)
{
	fprintf(f, "# HELP %s_created Unix time %s started from 0 (OpenMetrics' _created).\n",
		name, of);
	fprintf(f, "# TYPE %s_created gauge\n", name);
}

static void counter(FILE *f, const struct cli_prom_state *st, bool om,
		    const struct counter *c)
{
	const struct cli_prom_dev *d;
	unsigned i, m;
	uint64_t v;
	char of[128];

	family(f, om, c->name, K_COUNTER, c->unit, c->help);
	for (i = 0; i < st->ndev; i++) {
		d = &st->dev[i];
		for (m = 0; m < c->nmode; m++) {
			v = field(d, c->off[m]);
			head(f, c->name, "_total", d, c->mode[m], NULL);
			if (c->secs)
				put_secs(f, v);
			else
				fprintf(f, "%llu", (unsigned long long)v);
			fputc('\n', f);
			if (!om)
				continue;
			head(f, c->name, "_created", d, c->mode[m], NULL);
			put_secs(f, d->created_ns);
			fputc('\n', f);
		}
	}
	if (om)
		return;
	snprintf(of, sizeof(of), "%s_total", c->name);
	created_family(f, c->name, of);
	for (i = 0; i < st->ndev; i++)
		for (m = 0; m < c->nmode; m++) {
			head(f, c->name, "_created", &st->dev[i], c->mode[m], NULL);
			put_secs(f, st->dev[i].created_ns);
			fputc('\n', f);
		}
}

static void counters(FILE *f, const struct cli_prom_state *st, bool om)
{
	unsigned i;

	for (i = 0; i < sizeof(counter_tab) / sizeof(counter_tab[0]); i++)
		counter(f, st, om, &counter_tab[i]);
	family(f, om, "iostorm_inflight_ios", K_GAUGE, NULL,
	       "IOs in flight at the last interval's end.");
	for (i = 0; i < st->ndev; i++) {
		head(f, "iostorm_inflight_ios", "", &st->dev[i], NULL, NULL);
		fprintf(f, "%llu\n", (unsigned long long)st->dev[i].inflight);
	}
}

#define LAT "iostorm_latency_seconds"

/* A device's histogram: where the command times its IOs, from 0 before its
 * first interval; else only once one brought latencies */
static bool has_hist(const struct cli_prom_state *st, const struct cli_prom_dev *d)
{
	return st->latency || d->has_lat;
}

static void histograms(FILE *f, const struct cli_prom_state *st, bool om)
{
	const struct cli_prom_dev *d;
	unsigned i, k;
	bool any = false;

	family(f, om, LAT, K_HISTOGRAM, "seconds",
	       "IO latency (each le: the IOs below it, an engine bucket's edge).");
	for (i = 0; i < st->ndev; i++) {
		d = &st->dev[i];
		if (!has_hist(st, d))
			continue;
		any = true;
		for (k = 0; k < CLI_PROM_NLE; k++) {
			head(f, LAT, "_bucket", d, NULL, st->le[k]);
			fprintf(f, "%llu\n", (unsigned long long)d->below[k]);
		}
		head(f, LAT, "_bucket", d, NULL, "+Inf");
		fprintf(f, "%llu\n", (unsigned long long)d->lat_count);
		head(f, LAT, "_count", d, NULL, NULL);
		fprintf(f, "%llu\n", (unsigned long long)d->lat_count);
		head(f, LAT, "_sum", d, NULL, NULL);
		put_secs(f, d->lat_sum_ns);
		fputc('\n', f);
		if (!om)
			continue;
		head(f, LAT, "_created", d, NULL, NULL);
		put_secs(f, d->created_ns);
		fputc('\n', f);
	}
	if (om || !any)
		return;
	created_family(f, LAT, LAT);
	for (i = 0; i < st->ndev; i++) {
		if (!has_hist(st, &st->dev[i]))
			continue;
		head(f, LAT, "_created", &st->dev[i], NULL, NULL);
		put_secs(f, st->dev[i].created_ns);
		fputc('\n', f);
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
	family(f, om, "iostorm_window", K_INFO, NULL,
	       "The measured window now running: its index in the command"
	       " (a sweep's step, a repeat) and label.");
	if (!st->have_window)
		return;
	fprintf(f, "iostorm_window_info{index=\"%u\",", st->run);
	put_label(f, "label", st->label ? st->label : "", true);
	fputs("} 1\n", f);
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
