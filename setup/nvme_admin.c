/* What only the drive itself can say: its power state now and whether its
 * autonomous power state transitions are on, by admin Get Features on the
 * controller's char device, and what its namespace reads from a block it
 * holds no data for, by Identify Namespace on the namespace's device. Live machine only, and only where the process
 * may send admin commands (CAP_SYS_ADMIN): else unknown. A Get Features
 * reads; it changes nothing on the drive. */
#include <errno.h>
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "setup/setup_int.h"

#define NVME_ADMIN_GET_FEATURES 0x0a
#define NVME_FEAT_POWER_MGMT 0x02	/* cdw0 bits 4:0: the power state */
#define NVME_FEAT_APST 0x0c		/* cdw0 bit 0: APSTE; data: the table */
#define APST_TABLE_BYTES 256		/* 32 entries of 8 bytes */
#define NVME_ADMIN_IDENTIFY 0x06
#define NVME_ID_CNS_NS 0x00
#define ID_NS_BYTES 4096
#define ID_NS_DLFEAT 33			/* byte 33; bits 2:0 the read behaviour */

int setup_nvme_admin(int fd, uint8_t opcode, uint32_t nsid, uint32_t cdw10, void *buf,
		     uint32_t len, uint32_t *result)
{
	struct nvme_admin_cmd c;
	int r;

	memset(&c, 0, sizeof(c));
	c.opcode = opcode;
	c.nsid = nsid;
	c.cdw10 = cdw10;
	c.addr = (uint64_t)(uintptr_t)buf;
	c.data_len = len;
	c.timeout_ms = 2000;
	r = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	if (r < 0)
		return -errno;
	if (r > 0)
		return -EOPNOTSUPP;
	if (result)
		*result = c.result;
	return 0;
}

/* cdw0 of Get Features FID (the current value, SEL 0), 0 or -errno */
static int get_feature(int fd, unsigned fid, void *buf, unsigned len, uint32_t *out)
{
	return setup_nvme_admin(fd, NVME_ADMIN_GET_FEATURES, 0, fid, buf, len, out);
}

int setup_nvme_open(const struct setup_at *at, const char *name)
{
	char dev[SETUP_NAME_MAX + 8];

	if (!at->live_sys || !name[0])
		return -1;
	snprintf(dev, sizeof(dev), "/dev/%s", name);
	return open(dev, O_RDONLY | O_CLOEXEC);
}

void setup_nvme_power(const struct setup_at *at, struct setup_dev *d)
{
	uint8_t table[APST_TABLE_BYTES];
	uint32_t v;
	int fd = setup_nvme_open(at, d->controller);

	if (fd < 0)
		return;
	if (!get_feature(fd, NVME_FEAT_POWER_MGMT, NULL, 0, &v))
		d->power_state = (int)(v & 0x1f);
	if (!get_feature(fd, NVME_FEAT_APST, table, sizeof(table), &v))
		d->apst_enabled = (int)(v & 1);
	close(fd);
}

void setup_nvme_dlfeat(const struct setup_at *at, struct setup_dev *d)
{
	static uint8_t id[ID_NS_BYTES];	/* setup reads one device at a time */
	int fd = setup_nvme_open(at, d->disk), nsid;

	if (fd < 0)
		return;
	nsid = ioctl(fd, NVME_IOCTL_ID);
	if (nsid > 0 && !setup_nvme_admin(fd, NVME_ADMIN_IDENTIFY, (uint32_t)nsid, NVME_ID_CNS_NS,
					  id, sizeof(id), NULL))
		d->dealloc_read = id[ID_NS_DLFEAT] & 7;
	close(fd);
}
