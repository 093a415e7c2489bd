/* The drive's own SMART / Health Information log (Log Identifier 02h, NVM
 * Express Base Specification, the page libnvme's struct nvme_smart_log
 * lays out byte for byte): what the controller
 * counts of its temperature, its thermal throttling, its spare and its
 * errors. setup/ reads and decodes the page; model/health.h says what
 * changed between two reads. */
#ifndef SETUP_HEALTH_H
#define SETUP_HEALTH_H

#include <stddef.h>
#include <stdint.h>

#include "setup/setup.h"

#define SETUP_HEALTH_PAGE 512	/* the log page's size in bytes */
#define SETUP_HEALTH_SENSORS 8

/* Critical Warning (byte 0): each bit the spec defines. */
enum setup_health_warn {
	SETUP_WARN_SPARE = 1u << 0,	/* available spare below its threshold */
	SETUP_WARN_TEMP = 1u << 1,	/* a temperature above an over- or below
					 * an under-temperature threshold */
	SETUP_WARN_RELIABILITY = 1u << 2,	/* NVM subsystem reliability degraded
						 * (media or internal errors) */
	SETUP_WARN_READ_ONLY = 1u << 3,	/* all media placed in read-only mode */
	SETUP_WARN_BACKUP = 1u << 4,	/* volatile memory backup device failed */
	SETUP_WARN_PMR = 1u << 5,	/* persistent memory region read-only */
};
#define SETUP_WARN_ALL 0x3fu

/* One read of the page. The 16-byte counters are kept to 64 bits:
 * larger values read as UINT64_MAX. A temperature is in kelvin, 0 where
 * the drive does not report it. */
struct setup_health {
	uint8_t critical_warning;	/* enum setup_health_warn bits */
	uint16_t temp_k;		/* Composite Temperature */
	uint16_t sensor_k[SETUP_HEALTH_SENSORS];	/* Temperature Sensor 1-8 */
	uint8_t spare_pct, spare_thresh_pct, used_pct;
	uint64_t media_errors;		/* Media and Data Integrity Errors */
	uint64_t error_log_entries;	/* Number of Error Information Log Entries */
	uint64_t host_reads;		/* Host Read Commands */
	uint64_t busy_min;		/* Controller Busy Time, minutes */
	uint32_t warn_temp_min;		/* Warning Composite Temperature Time */
	uint32_t crit_temp_min;		/* Critical Composite Temperature Time */
	uint32_t tmt_count[2];		/* Thermal Management Temperature 1 and
					 * 2 Transition Counts */
	uint32_t tmt_time_s[2];		/* Total Time For Thermal Management
					 * Temperature 1 and 2, seconds */
};

/* Decodes page (len bytes, at least SETUP_HEALTH_PAGE) into h:
 * 0, or -EINVAL for a short page. */
int setup_health_parse(const void *page, size_t len, struct setup_health *h);

/* Reads controller's ("nvme0") page by admin Get Log Page on /dev/CTRL,
 * for the whole controller (NSID FFFFFFFFh). Needs CAP_SYS_ADMIN: 0,
 * -EACCES or -EPERM without it, -ENOENT no such device, -EOPNOTSUPP the
 * controller refused the command, another -errno. It only reads. */
int setup_health_read(const char *controller, struct setup_health *h);

/* The composite temperature through the nvme driver's hwmon device, which
 * asks the drive's log itself on each read (an admin command: its cost
 * is the caller's to measure). path: the temp1_input of controller's
 * hwmon folder (/sys/class/nvme/CTRL/hwmonN, or under its device/),
 * below r's sysfs root (NULL: the live /sys): 0, or -ENOENT where it has
 * none. */
int setup_health_temp_path(const struct setup_roots *r, const char *controller, char *path,
			   size_t len);
/* One read of it, in millidegrees Celsius: 0 or -errno. */
int setup_health_temp_read(const char *path, int64_t *millic);

#endif
