/* What the drive's SMART / Health log (setup/health.h) says of a run: the
 * warnings it holds, and what its counters moved between a read before
 * and one after. Pure: values only; cli/ writes the words. */
#ifndef MODEL_HEALTH_H
#define MODEL_HEALTH_H

#include <stdbool.h>
#include <stdint.h>

#include "setup/health.h"

/* Each Critical Warning bit and its key (JSON and the words' table). */
struct model_health_bit {
	unsigned bit;			/* enum setup_health_warn */
	const char *key;		/* "spare", "temperature", ... */
};
extern const struct model_health_bit model_health_bits[];
extern const unsigned model_health_nbits;

/* The share of a run's sampled blocks (engine/zeroes.h) that read as
 * zeros, 0-100, from which the run is said to read never-written or
 * trimmed blocks: a drive answers those from its mapping table, so a
 * quarter of them already lifts IOPS well above what written data gives.
 * Below it, zero-filled data of a written file system is common enough. */
extern const double model_zero_high_pct;
/* Whether pct (-1: not sampled) reaches it. */
bool model_zero_high(double pct);

/* Kelvin to whole degrees Celsius, as the nvme driver's hwmon and
 * nvme-cli show them; INT32_MIN where the drive gave none (0 K). */
int32_t model_health_celsius(uint16_t kelvin);

/* From before to after. A counter that went down (the controller was
 * replaced or reset its log) moved 0. */
struct model_health_change {
	unsigned warn_new;		/* warning bits set after, not before */
	uint32_t tmt_count[2];		/* TMT1 and TMT2 transitions */
	uint32_t tmt_s[2];		/* seconds in TMT1 and TMT2 */
	uint32_t throttled_s;		/* tmt_s[0] + tmt_s[1]: the drive
					 * throttles in one state at a time */
	uint32_t warn_temp_min;		/* minutes above the warning and */
	uint32_t crit_temp_min;		/* the critical composite temperature */
	uint64_t media_errors;		/* Media and Data Integrity Errors */
	uint64_t error_log_entries;
	int32_t temp_c_before, temp_c_after;	/* INT32_MIN unknown */
};

/* Fills c from two reads of one drive; returns whether anything a reader
 * must be told moved (a new warning, a throttle transition or time, time
 * above a temperature threshold, an error). */
bool model_health_change(const struct setup_health *before, const struct setup_health *after,
			 struct model_health_change *c);

#endif
