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

/* cdw0 of Get Features FID (the current value), 0 or -errno; an NVMe
 * status (the drive does not support the feature) is -EOPNOTSUPP. */
static int get_feature(int fd, unsigned fid, void *buf, unsigned len, uint32_t *out)
{
	struct nvme_admin_cmd c;
	int r;

	memset(&c, 0, sizeof(c));
	c.opcode = NVME_ADMIN_GET_FEATURES;
	c.cdw10 = fid;			/* SEL 0: current */
	c.addr = (uint64_t)(uintptr_t)buf;
	c.data_len = len;
	c.timeout_ms = 2000;
	r = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	if (r < 0)
		return -errno;
	if (r > 0)
		return -EOPNOTSUPP;
	*out = c.result;
	return 0;
}

void setup_nvme_power(const struct setup_at *at, struct setup_dev *d)
{
	uint8_t table[APST_TABLE_BYTES];
	char dev[SETUP_NAME_MAX + 8];
	uint32_t v;
	int fd;

	if (!at->live_sys || !d->controller[0])
		return;
	snprintf(dev, sizeof(dev), "/dev/%s", d->controller);
	fd = open(dev, O_RDONLY | O_CLOEXEC);
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
	struct nvme_admin_cmd c;
	char dev[SETUP_NAME_MAX + 8];
	int fd, nsid;

	if (!at->live_sys || !d->disk[0])
		return;
	snprintf(dev, sizeof(dev), "/dev/%s", d->disk);
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	nsid = ioctl(fd, NVME_IOCTL_ID);
	memset(&c, 0, sizeof(c));
	c.opcode = NVME_ADMIN_IDENTIFY;
	c.nsid = (uint32_t)nsid;
	c.addr = (uint64_t)(uintptr_t)id;
	c.data_len = sizeof(id);
	c.cdw10 = NVME_ID_CNS_NS;
	c.timeout_ms = 2000;
	if (nsid > 0 && ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c) == 0)
		d->dealloc_read = id[ID_NS_DLFEAT] & 7;
	close(fd);
}
