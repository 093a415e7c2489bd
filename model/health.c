/* The drive's own account of a run, from two reads of its SMART / Health
 * log (model/health.h). */
#include <string.h>

#include "model/health.h"

const struct model_health_bit model_health_bits[] = {
	{ SETUP_WARN_SPARE, "spare" },
	{ SETUP_WARN_TEMP, "temperature" },
	{ SETUP_WARN_RELIABILITY, "reliability" },
	{ SETUP_WARN_READ_ONLY, "read_only" },
	{ SETUP_WARN_BACKUP, "volatile_backup" },
	{ SETUP_WARN_PMR, "pmr_read_only" },
};
const unsigned model_health_nbits = sizeof(model_health_bits) / sizeof(model_health_bits[0]);

const double model_zero_high_pct = 25.0;

bool model_zero_high(double pct)
{
	return pct >= model_zero_high_pct;
}

int32_t model_health_celsius(uint16_t kelvin)
{
	return kelvin ? (int32_t)kelvin - 273 : INT32_MIN;
}

static uint64_t moved64(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

static uint32_t moved32(uint32_t a, uint32_t b)
{
	return b > a ? b - a : 0;
}

bool model_health_change(const struct setup_health *before, const struct setup_health *after,
			 struct model_health_change *c)
{
	memset(c, 0, sizeof(*c));
	c->warn_new = after->critical_warning & ~before->critical_warning & SETUP_WARN_ALL;
	for (int i = 0; i < 2; i++) {
		c->tmt_count[i] = moved32(before->tmt_count[i], after->tmt_count[i]);
		c->tmt_s[i] = moved32(before->tmt_time_s[i], after->tmt_time_s[i]);
	}
	c->throttled_s = c->tmt_s[0] + c->tmt_s[1];
	c->warn_temp_min = moved32(before->warn_temp_min, after->warn_temp_min);
	c->crit_temp_min = moved32(before->crit_temp_min, after->crit_temp_min);
	c->media_errors = moved64(before->media_errors, after->media_errors);
	c->error_log_entries = moved64(before->error_log_entries, after->error_log_entries);
	c->temp_c_before = model_health_celsius(before->temp_k);
	c->temp_c_after = model_health_celsius(after->temp_k);
	return c->warn_new || c->tmt_count[0] || c->tmt_count[1] || c->throttled_s ||
	       c->warn_temp_min || c->crit_temp_min || c->media_errors || c->error_log_entries;
}
