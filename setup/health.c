/* The SMART / Health Information log page: its decoding from the byte
 * offsets of the NVM Express Base Specification (as libnvme's struct
 * nvme_smart_log and the kernel's include/linux/nvme.h lay them out), and its
 * read by admin Get Log Page (opcode 02h) through the nvme driver's
 * NVME_IOCTL_ADMIN_CMD on the controller's char device. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "setup/health.h"
#include "setup/setup_int.h"

#define NVME_ADMIN_GET_LOG_PAGE 0x02
#define NVME_LOG_HEALTH 0x02
#define NVME_NSID_ALL 0xffffffffu

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* A 16-byte little-endian counter, UINT64_MAX when it needs more than 64
 * bits. */
static uint64_t le128(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 8; i < 16; i++)
		if (p[i])
			return UINT64_MAX;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int setup_health_parse(const void *page, size_t len, struct setup_health *h)
{
	const uint8_t *p = page;

	if (len < SETUP_HEALTH_PAGE)
		return -EINVAL;
	memset(h, 0, sizeof(*h));
	h->critical_warning = p[0];
	h->temp_k = le16(p + 1);
	h->spare_pct = p[3];
	h->spare_thresh_pct = p[4];
	h->used_pct = p[5];
	h->host_reads = le128(p + 64);
	h->busy_min = le128(p + 96);
	h->media_errors = le128(p + 160);
	h->error_log_entries = le128(p + 176);
	h->warn_temp_min = le32(p + 192);
	h->crit_temp_min = le32(p + 196);
	for (int i = 0; i < SETUP_HEALTH_SENSORS; i++)
		h->sensor_k[i] = le16(p + 200 + 2 * i);
	h->tmt_count[0] = le32(p + 216);
	h->tmt_count[1] = le32(p + 220);
	h->tmt_time_s[0] = le32(p + 224);
	h->tmt_time_s[1] = le32(p + 228);
	return 0;
}

int setup_health_read(const char *controller, struct setup_health *h)
{
	uint8_t page[SETUP_HEALTH_PAGE];
	char dev[64];
	int fd, r;

	if (snprintf(dev, sizeof(dev), "/dev/%s", controller) >= (int)sizeof(dev))
		return -ENAMETOOLONG;
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	memset(page, 0, sizeof(page));
	/* CDW10: NUMDL (dwords - 1, bits 31:16) and LID (bits 7:0) */
	r = setup_nvme_admin(fd, NVME_ADMIN_GET_LOG_PAGE, NVME_NSID_ALL,
			     (uint32_t)(sizeof(page) / 4 - 1) << 16 | NVME_LOG_HEALTH, page,
			     sizeof(page), NULL);
	close(fd);
	return r ? r : setup_health_parse(page, sizeof(page), h);
}

/* The first hwmon* entry of <root>/<dir>, into path. */
static int hwmon_in(const char *root, const char *dir, char *path, size_t len)
{
	char (*names)[SETUP_NAME_MAX] = NULL;
	int n, i, ret = -ENOENT;

	n = topo_sys_list(root, &names, "%s", dir);
	for (i = 0; i < n && ret; i++) {
		if (strncmp(names[i], "hwmon", 5))
			continue;
		ret = snprintf(path, len, "%s/%s/%s/temp1_input", root, dir, names[i]) < (int)len ?
			0 : -ENAMETOOLONG;
	}
	free(names);
	return ret;
}

int setup_health_temp_path(const struct setup_roots *r, const char *controller, char *path,
			   size_t len)
{
	struct setup_at at;
	char dir[128];
	int ret = setup_at_init(&at, r);

	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "class/nvme/%s", controller);
	ret = hwmon_in(at.sys, dir, path, len);
	if (ret) {
		snprintf(dir, sizeof(dir), "class/nvme/%s/device", controller);
		ret = hwmon_in(at.sys, dir, path, len);
	}
	return ret;
}

int setup_health_temp_read(const char *path, int64_t *millic)
{
	return topo_sys_read_i64("", millic, "%s", path);
}
