/* A namespace's LBA format for the setup record: what it moves per block
 * (data, metadata, inline or apart) and its protection information. The
 * drive's own account first, Identify Namespace (by the engine's reader,
 * engine/target.h, the one decoder of it), on the live machine where the
 * process may ask; else what the kernel shows in sysfs: the namespace's
 * metadata_bytes (Linux 6.8 on, drivers/nvme/host/sysfs.c) and the
 * integrity profile it registered (block/DISK/integrity/format,
 * block/blk-integrity.c: "T10-DIF-TYPE1-CRC", "nop" for metadata without
 * PI, "none"). A recorded tree has only the latter. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine/target.h"
#include "setup/setup_int.h"

/* The PI type an integrity profile's name carries ("...-TYPE1-..."),
 * -1 none. The kernel registers type 2 under TYPE1's profile
 * (drivers/nvme/host/core.c, nvme_init_integrity), so this is a floor. */
static int profile_pi_type(const char *fmt)
{
	const char *p = strstr(fmt, "TYPE");

	return p && p[4] >= '1' && p[4] <= '3' ? p[4] - '0' : -1;
}

static void from_sysfs(const struct setup_at *at, const char *ddir, struct setup_dev *d)
{
	int64_t v;

	topo_sys_read(at->sys, d->integrity, sizeof(d->integrity), "%s/integrity/format", ddir);
	if (!topo_sys_read_i64(at->sys, &v, "%s/metadata_bytes", ddir) && v >= 0 && v <= 65535)
		d->lbaf_ms = (int)v;
	if (d->integrity[0])
		d->lbaf_pi_type = profile_pi_type(d->integrity) > 0 ? profile_pi_type(d->integrity) : 0;
	if (d->lbaf_ms == 0)
		d->lbaf_ext = 0;
	/* an integrity profile is registered only for metadata apart
	 * (or PI stripped by PRACT); nop and T10 ones say it is not inline */
	else if (d->lbaf_ms > 0 && strcmp(d->integrity, "none") && d->integrity[0])
		d->lbaf_ext = 0;
	d->lbaf_data_bytes = d->logical_block_size;
}

static void from_identify(const struct setup_at *at, struct setup_dev *d)
{
	struct eng_nvme_lbaf f;
	int fd = setup_nvme_open(at, d->disk);

	if (fd < 0)
		return;
	if (!eng_nvme_lbaf_read(fd, &f)) {
		d->lbaf_index = f.index;
		d->lbaf_data_bytes = (int)f.data_bytes;
		d->lbaf_ms = f.ms;
		d->lbaf_ext = f.ext;
		d->lbaf_pi_type = f.pi_type;
	}
	close(fd);
}

void setup_nvme_lbaf(const struct setup_at *at, const char *ddir, struct setup_dev *d)
{
	d->lbaf_index = d->lbaf_data_bytes = d->lbaf_ms = d->lbaf_ext = d->lbaf_pi_type = -1;
	from_sysfs(at, ddir, d);
	from_identify(at, d);
}
