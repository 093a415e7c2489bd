/* The drive account as JSON (drive_json.h). */
#include "cli/report/drive_json.h"

#include <stdint.h>

static json_int_t ji(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? (json_int_t)INT64_MAX : (json_int_t)v;
}

/* The keys of the bits of w (model_health_bits), in bit order. */
static json_t *warn_names(unsigned w)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < model_health_nbits; i++) {
		if (!(w & model_health_bits[i].bit))
			continue;
		if (json_array_append_new(a, json_string(model_health_bits[i].key))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *celsius(uint16_t k)
{
	int32_t c = model_health_celsius(k);

	return c == INT32_MIN ? json_null() : json_integer(c);
}

static json_t *smart_json(const struct setup_health *h)
{
	return json_pack("{s:o, s:I, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			 "temperature_c", celsius(h->temp_k),
			 "critical_warning", (json_int_t)h->critical_warning,
			 "warnings", warn_names(h->critical_warning),
			 "available_spare_pct", (json_int_t)h->spare_pct,
			 "percentage_used", (json_int_t)h->used_pct,
			 "media_errors", ji(h->media_errors),
			 "error_log_entries", ji(h->error_log_entries),
			 "warn_temp_min", (json_int_t)h->warn_temp_min,
			 "crit_temp_min", (json_int_t)h->crit_temp_min,
			 "tmt1_count", (json_int_t)h->tmt_count[0],
			 "tmt2_count", (json_int_t)h->tmt_count[1],
			 "tmt1_s", (json_int_t)h->tmt_time_s[0],
			 "tmt2_s", (json_int_t)h->tmt_time_s[1],
			 "host_reads", ji(h->host_reads));
}

static json_t *change_json(const struct cli_drive *d)
{
	struct model_health_change c;
	bool moved = cli_drive_change(d, &c);

	if (!d->has_before || !d->has_after)
		return json_null();
	return json_pack("{s:b, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			 "moved", moved, "new_warnings", warn_names(c.warn_new),
			 "throttled_s", (json_int_t)c.throttled_s,
			 "tmt1_count", (json_int_t)c.tmt_count[0],
			 "tmt2_count", (json_int_t)c.tmt_count[1],
			 "tmt1_s", (json_int_t)c.tmt_s[0], "tmt2_s", (json_int_t)c.tmt_s[1],
			 "warn_temp_min", (json_int_t)c.warn_temp_min,
			 "crit_temp_min", (json_int_t)c.crit_temp_min,
			 "media_errors", ji(c.media_errors),
			 "error_log_entries", ji(c.error_log_entries));
}

json_t *cli_json_zero_pct(const struct cli_drive *d)
{
	return d && d->zero_pct >= 0 ? json_real(d->zero_pct) : json_null();
}

json_t *cli_json_warnings_before(const struct cli_drive *d)
{
	return d && d->has_before ? warn_names(d->before.critical_warning) : json_null();
}

json_t *cli_json_drive(const struct cli_drive *d)
{
	if (!d)
		return json_null();
	return json_pack("{s:o, s:I, s:o, s:o, s:o}",
			 "zero_read_pct", cli_json_zero_pct(d),
			 "zero_sampled", (json_int_t)(d->zero_pct >= 0 ? d->zs.sampled : 0),
			 "smart_before", d->has_before ? smart_json(&d->before) : json_null(),
			 "smart_after", d->has_after ? smart_json(&d->after) : json_null(),
			 "smart_change", change_json(d));
}
