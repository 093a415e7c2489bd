/* NVMe passthrough: a Read command sent through io_uring's
 * IORING_OP_URING_CMD to a namespace's generic char device (/dev/ngXnY),
 * in the 80 bytes an SQE128 ring gives each command (struct
 * nvme_uring_cmd). The fields that never change are written once per SQE
 * (eng_nvme_read_template); an IO writes its buffer and starting LBA
 * (eng_nvme_read_at). Its completion's res is 0, the NVMe status (> 0:
 * the CQE's status field without the phase bit) or -errno. */
#ifndef ENG_NVME_CMD_H
#define ENG_NVME_CMD_H

#include <linux/nvme_ioctl.h>
#include <stdint.h>
#include <string.h>

#define ENG_NVME_OP_READ 0x02	/* NVM command set: Read */

/* The status a completion carries: bits 0-7 the status code (SC), 8-10 the
 * status code type (SCT); above them CRD, More and DNR. */
#define ENG_NVME_SC(st) ((unsigned)(st) & 0xffu)
#define ENG_NVME_SCT(st) (((unsigned)(st) >> 8) & 0x7u)
#define ENG_NVME_CODE(st) ((unsigned)(st) & 0x7ffu)	/* SCT and SC */
#define ENG_NVME_SCT_PATH 0x3u	/* path related: the host lost its way to it */

/* nsid, data_len and the block count: NLB is 0-based, so --bs 4096 on
 * 512-byte LBAs (lba_shift 9) reads 8 blocks as cdw12 = 7. */
static inline void eng_nvme_read_template(struct nvme_uring_cmd *c, uint32_t nsid,
					  uint32_t bs, uint32_t lba_shift)
{
	memset(c, 0, sizeof(*c));
	c->opcode = ENG_NVME_OP_READ;
	c->nsid = nsid;
	c->data_len = bs;
	c->cdw12 = (bs >> lba_shift) - 1;	/* NLB; bits 16+ (flags) zero */
}

/* One IO: the byte offset becomes the starting LBA in cdw10 (low) and
 * cdw11 (high). */
static inline void eng_nvme_read_at(struct nvme_uring_cmd *c, const void *buf, uint64_t off,
				    uint32_t lba_shift)
{
	uint64_t slba = off >> lba_shift;

	c->addr = (uint64_t)(uintptr_t)buf;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
}

#endif
