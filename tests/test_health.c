/* The SMART / Health log on recorded pages: bytes written at the offsets
 * the NVMe Base Specification gives (Critical Warning at 0, Composite
 * Temperature at 1-2, Media and Data Integrity Errors at 160-175, Warning
 * and Critical Composite Temperature Time at 192 and 196, the sensors at
 * 200-215, the Thermal Management Temperature 1 and 2 transition counts at
 * 216 and 220 and their total times at 224 and 228), each warning bit,
 * counters past 64 bits, and what model_health_change makes of two reads;
 * the zero-read share from which a run is said to read never-written
 * blocks (model_zero_high). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/health.h"
#include "setup/health.h"
#include "tests/helpers.h"

static uint8_t page[SETUP_HEALTH_PAGE];

/* put OFF WIDTH VALUE: little-endian, as the spec stores every field */
static void put(unsigned off, unsigned width, uint64_t v)
{
	for (unsigned i = 0; i < width; i++, v >>= 8)
		page[off + i] = i < 8 ? (uint8_t)v : 0;
}

/* The nvme driver's hwmon temperature on a recorded tree: the folder under
 * the controller or under its device, none, and what a read gives. */
static void hwmon(void)
{
	char root[] = "/tmp/iostorm-hwmon.XXXXXX", path[4096], cmd[4200];
	struct setup_roots r = { NULL, NULL };
	int64_t mc = 0;
	FILE *f;

	CHECK(mkdtemp(root) != NULL);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/class/nvme/nvme0/hwmon3 %s/class/nvme/nvme1/device/hwmon0 "
		 "%s/class/nvme/nvme2/device", root, root, root);
	CHECK(system(cmd) == 0);
	snprintf(path, sizeof(path), "%s/class/nvme/nvme0/hwmon3/temp1_input", root);
	CHECK((f = fopen(path, "w")) != NULL && fputs("45850\n", f) >= 0 && !fclose(f));
	snprintf(path, sizeof(path), "%s/class/nvme/nvme1/device/hwmon0/temp1_input", root);
	CHECK((f = fopen(path, "w")) != NULL && fputs("-5000\n", f) >= 0 && !fclose(f));
	r.sysfs = root;

	CHECK(setup_health_temp_path(&r, "nvme0", path, sizeof(path)) == 0);
	CHECK(strstr(path, "/class/nvme/nvme0/hwmon3/temp1_input") != NULL);
	CHECK(setup_health_temp_read(path, &mc) == 0 && mc == 45850);
	CHECK(setup_health_temp_path(&r, "nvme1", path, sizeof(path)) == 0);
	CHECK(setup_health_temp_read(path, &mc) == 0 && mc == -5000);
	CHECK(setup_health_temp_path(&r, "nvme2", path, sizeof(path)) == -ENOENT);
	CHECK(setup_health_temp_path(&r, "nvme9", path, sizeof(path)) < 0);
	CHECK(setup_health_temp_read("/nonexistent/temp1_input", &mc) == -ENOENT);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(system(cmd) == 0);
}

static void parse(struct setup_health *h)
{
	CHECK(setup_health_parse(page, sizeof(page), h) == 0);
}

int main(void)
{
	struct setup_health a, b;
	struct model_health_change c;

	CHECK(setup_health_parse(page, SETUP_HEALTH_PAGE - 1, &a) == -EINVAL);

	/* a drive at 45 C with 100% spare, threshold 10%, 3% used */
	memset(page, 0, sizeof(page));
	put(1, 2, 318);
	put(3, 1, 100);
	put(4, 1, 10);
	put(5, 1, 3);
	put(64, 16, 123456789);		/* Host Read Commands */
	put(160, 16, 2);
	put(176, 16, 7);
	put(192, 4, 11);
	put(196, 4, 1);
	put(200, 2, 320);
	put(214, 2, 300);
	put(216, 4, 5);
	put(220, 4, 1);
	put(224, 4, 600);
	put(228, 4, 30);
	parse(&a);
	CHECK(a.critical_warning == 0);
	CHECK(a.temp_k == 318 && model_health_celsius(a.temp_k) == 45);
	CHECK(a.spare_pct == 100 && a.spare_thresh_pct == 10 && a.used_pct == 3);
	CHECK(a.host_reads == 123456789);
	CHECK(a.media_errors == 2 && a.error_log_entries == 7);
	CHECK(a.warn_temp_min == 11 && a.crit_temp_min == 1);
	CHECK(a.sensor_k[0] == 320 && a.sensor_k[7] == 300 && a.sensor_k[1] == 0);
	CHECK(a.tmt_count[0] == 5 && a.tmt_count[1] == 1);
	CHECK(a.tmt_time_s[0] == 600 && a.tmt_time_s[1] == 30);
	CHECK(model_health_celsius(0) == INT32_MIN);

	/* the same page read again: nothing moved */
	b = a;
	CHECK(!model_health_change(&a, &b, &c));
	CHECK(c.temp_c_before == 45 && c.temp_c_after == 45);

	/* during a run: 3 more TMT1 transitions, 42 s in TMT1 and 8 in TMT2,
	 * 2 minutes over the warning temperature, at 81 C */
	put(1, 2, 354);
	put(192, 4, 13);
	put(216, 4, 8);
	put(224, 4, 642);
	put(228, 4, 38);
	parse(&b);
	CHECK(model_health_change(&a, &b, &c));
	CHECK(c.tmt_count[0] == 3 && c.tmt_count[1] == 0);
	CHECKF(c.tmt_s[0] == 42 && c.tmt_s[1] == 8 && c.throttled_s == 50, "%u %u %u",
	       c.tmt_s[0], c.tmt_s[1], c.throttled_s);
	CHECK(c.warn_temp_min == 2 && c.crit_temp_min == 0);
	CHECK(c.media_errors == 0 && c.error_log_entries == 0 && c.warn_new == 0);
	CHECK(c.temp_c_after == 81);

	/* an error, alone, is news */
	memcpy(&b, &a, sizeof(b));
	b.media_errors = a.media_errors + 1;
	CHECK(model_health_change(&a, &b, &c) && c.media_errors == 1);
	b = a;
	b.error_log_entries++;
	CHECK(model_health_change(&a, &b, &c) && c.error_log_entries == 1);

	/* every warning bit, by its place in byte 0, and its key */
	CHECK(model_health_nbits == 6);
	for (unsigned i = 0; i < model_health_nbits; i++) {
		const struct model_health_bit *w = &model_health_bits[i];

		CHECKF(w->bit == 1u << i, "%s is bit %u of the table's %u", w->key, w->bit, i);
		memset(page, 0, sizeof(page));
		put(0, 1, w->bit);
		parse(&b);
		CHECK(b.critical_warning == w->bit);
		memset(page, 0, sizeof(page));
		parse(&a);
		CHECK(model_health_change(&a, &b, &c) && c.warn_new == w->bit);
		/* held before and after: not new, nothing moved */
		CHECK(!model_health_change(&b, &b, &c) && c.warn_new == 0);
	}
	/* reserved bits 6 and 7 are not warnings */
	memset(page, 0, sizeof(page));
	put(0, 1, 0xc0);
	parse(&b);
	memset(page, 0, sizeof(page));
	parse(&a);
	CHECK(!model_health_change(&a, &b, &c));

	/* a 128-bit counter past 64 bits reads as UINT64_MAX, not wrapped */
	memset(page, 0, sizeof(page));
	put(160, 8, 5);
	page[160 + 8] = 1;
	parse(&a);
	CHECK(a.media_errors == UINT64_MAX);
	put(160, 16, UINT64_MAX - 1);
	parse(&a);
	CHECK(a.media_errors == UINT64_MAX - 1);

	/* a counter that went down (the log was reset) moved nothing */
	memset(page, 0, sizeof(page));
	put(216, 4, 9);
	put(160, 16, 4);
	parse(&a);
	put(216, 4, 2);
	put(160, 16, 1);
	parse(&b);
	CHECK(!model_health_change(&a, &b, &c) && c.tmt_count[0] == 0 && c.media_errors == 0);

	/* the live read: no such controller, and a device that is not one */
	CHECK(setup_health_read("nvme-no-such-controller", &a) == -ENOENT);

	/* the zero-read share that is said: from the threshold on, never
	 * for a target not sampled (-1) */
	CHECK(model_zero_high_pct > 0 && model_zero_high_pct < 100);
	CHECK(model_zero_high(model_zero_high_pct) && model_zero_high(100));
	CHECK(!model_zero_high(model_zero_high_pct - 0.5) && !model_zero_high(0));
	CHECK(!model_zero_high(-1));
	hwmon();
	return t_result();
}
