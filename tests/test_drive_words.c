/* The words of what a drive's SMART / Health log says of a run
 * (cli/runner/drive.h): every Critical Warning bit model/health.h knows
 * has its words, distinct, and a list of several is each of them in bit
 * order; the line for what moved names a throttled drive with its
 * seconds and each TMT state's transitions and time, the time above the
 * temperatures, the errors and a new warning, each only when it moved,
 * and the temperatures before and after only where both are known. */
#include <stdint.h>
#include <string.h>

#include "cli/runner/drive.h"
#include "tests/helpers.h"

static char buf[1024];

static struct model_health_change none(void)
{
	struct model_health_change c;

	memset(&c, 0, sizeof(c));
	c.temp_c_before = c.temp_c_after = INT32_MIN;
	return c;
}

int main(void)
{
	char one[8][256];
	struct model_health_change c;
	unsigned i, k;

	CHECK(model_health_nbits <= 8);
	/* each bit alone: words of its own */
	for (i = 0; i < model_health_nbits; i++) {
		cli_drive_warn_words(one[i], sizeof(one[i]), model_health_bits[i].bit);
		CHECKF(one[i][0] && !strchr(one[i], ';'), "bit %#x: '%s'", model_health_bits[i].bit, one[i]);
		for (k = 0; k < i; k++)
			CHECKF(strcmp(one[i], one[k]), "bits %u and %u share '%s'", i, k, one[i]);
	}
	cli_drive_warn_words(buf, sizeof(buf), 0);
	CHECK(!buf[0]);
	/* reserved bits have no words */
	cli_drive_warn_words(buf, sizeof(buf), 0xc0);
	CHECK(!buf[0]);
	cli_drive_warn_words(buf, sizeof(buf), SETUP_WARN_SPARE | SETUP_WARN_READ_ONLY);
	CHECKF(!strcmp(buf, "available spare below its threshold; media placed in read-only mode"),
	       "'%s'", buf);

	/* a drive that throttled, warmer after */
	c = none();
	c.tmt_count[0] = 3;
	c.tmt_s[0] = 10;
	c.tmt_count[1] = 1;
	c.tmt_s[1] = 2;
	c.throttled_s = 12;
	c.temp_c_before = 31;
	c.temp_c_after = 48;
	cli_drive_moved_words(buf, sizeof(buf), "nvme3n1", &c);
	CHECKF(!strcmp(buf, "nvme3n1: the drive's own log moved during the run: throttled 12 s "
			    "(TMT1: 3 transitions, 10 s; TMT2: 1, 2 s); 31 C before, 48 C after"),
	       "'%s'", buf);

	/* errors and a new warning, no temperature known: nothing else said */
	c = none();
	c.media_errors = 2;
	c.error_log_entries = 5;
	c.warn_new = SETUP_WARN_RELIABILITY;
	c.temp_c_before = 40;
	cli_drive_moved_words(buf, sizeof(buf), "nvme0n1", &c);
	CHECKF(!strcmp(buf, "nvme0n1: the drive's own log moved during the run: 2 media and data "
			    "integrity errors; 5 new error log entries; a new critical warning: "
			    "reliability degraded by media or internal errors"),
	       "'%s'", buf);

	/* time above the temperatures */
	c = none();
	c.warn_temp_min = 4;
	c.crit_temp_min = 1;
	cli_drive_moved_words(buf, sizeof(buf), "nvme1n1", &c);
	CHECKF(!strcmp(buf, "nvme1n1: the drive's own log moved during the run: 4 min above its "
			    "warning temperature, 1 above its critical one"),
	       "'%s'", buf);
	return t_result();
}
