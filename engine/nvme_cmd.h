/* NVMe passthrough: a Read command sent through io_uring's
 * IORING_OP_URING_CMD to a namespace's generic char device (/dev/ngXnY),
 * in the 80 bytes an SQE128 ring gives each command (struct
 * nvme_uring_cmd). The fields that never change are written once per SQE
 * (eng_nvme_read_template); an IO writes its buffer, its metadata buffer
 * and its starting LBA (eng_nvme_read_at). Its completion's res is 0, the
 * NVMe status (> 0: the CQE's status field without the phase bit) or
 * -errno.
 *
 * Metadata (NVMe 1.4 §8.2, Metadata Handling): a namespace formatted with
 * ms bytes of metadata per block moves them with every read, inline after
 * each block's data (extended LBA) or into a separate buffer named by the
 * command's metadata pointer (MPTR, physically contiguous when the
 * command uses PRPs). The kernel sets MPTR only from the command's
 * metadata and metadata_len (drivers/nvme/host/ioctl.c,
 * nvme_map_user_request: both non-zero, and the disk has an integrity
 * profile, else -EINVAL) and never refuses a read without them: the
 * controller would then write the metadata to bus address 0. So a read of
 * a separate-metadata namespace always carries a buffer of nlb * ms bytes
 * (eng_nvme_md_moved), and an extended-LBA one a data buffer of
 * nlb * (lbs + ms) (NVMe 1.4 §8.2: the data pointer then covers both),
 * unless PRACT is set on a PI namespace whose
 * metadata is the PI tuple alone (ms 8): the controller checks the PI and
 * strips it, and moves no metadata (NVMe 1.4 §8.3.1; the kernel's own
 * rule in nvme_submit_io). */
#ifndef ENG_NVME_CMD_H
#define ENG_NVME_CMD_H

#include <errno.h>
#include <linux/nvme_ioctl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "engine/target.h"

#define ENG_NVME_OP_READ 0x02	/* NVM command set: Read */

/* Read's CDW12 PRINFO, bits 29:26 (NVMe 1.4 §6.5, Figure 355): PRACT, then
 * the checks of the guard, the application tag and the reference tag. */
#define ENG_NVME_PRACT (1u << 29)
#define ENG_NVME_PRCHK_GUARD (1u << 28)
#define ENG_NVME_PRCHK_APP (1u << 27)
#define ENG_NVME_PRCHK_REF (1u << 26)

/* Identify Namespace (CNS 0), the bytes read here */
#define ENG_NVME_ID_NS_BYTES 4096
#define ENG_NVME_PI_BYTES 8	/* a PI tuple with the 16-bit guard */

/* The status a completion carries: bits 0-7 the status code (SC), 8-10 the
 * status code type (SCT); above them CRD, More and DNR. */
#define ENG_NVME_SC(st) ((unsigned)(st) & 0xffu)
#define ENG_NVME_SCT(st) (((unsigned)(st) >> 8) & 0x7u)
#define ENG_NVME_CODE(st) ((unsigned)(st) & 0x7ffu)	/* SCT and SC */
#define ENG_NVME_SCT_PATH 0x3u	/* path related: the host lost its way to it */

/*
 * The LBA format in use, from an Identify Namespace answer (NVMe 1.4
 * §5.15.2.1, Figure 245): NSZE (bytes 7:0), NLBAF (25, 0-based), FLBAS
 * (26: bits 3:0 and 6:5 the format's index, bit 4 extended LBA), DPS (29:
 * bits 2:0 the PI type, bit 3 PI first), LBAF[i] at 128 + 4i (bits 15:0
 * MS, 23:16 LBADS). 0, or -EPROTO for an index past NLBAF, a block size
 * outside 512 B..64 KiB or a reserved PI type.
 */
static inline int eng_nvme_lbaf_decode(const uint8_t *id, struct eng_nvme_lbaf *f)
{
	unsigned flbas = id[26], dps = id[29], idx = (flbas & 0xfu) | ((flbas >> 5) & 3u) << 4;
	const uint8_t *l = id + 128 + 4 * idx;
	uint64_t nsze = 0;
	int i;

	if (idx > id[25] || l[2] < 9 || l[2] > 16 || (dps & 7u) > 3)
		return -EPROTO;
	for (i = 7; i >= 0; i--)
		nsze = nsze << 8 | id[i];
	memset(f, 0, sizeof(*f));
	f->known = true;
	f->index = (uint8_t)idx;
	f->ms = (uint16_t)(l[0] | l[1] << 8);
	f->data_bytes = 1u << l[2];
	f->ext = f->ms && (flbas & 0x10u);
	/* PI needs metadata to live in; DPS means nothing without */
	f->pi_type = f->ms ? (uint8_t)(dps & 7u) : 0;
	f->pi_first = f->pi_type && (dps & 8u);
	f->pi_bytes = f->pi_type ? ENG_NVME_PI_BYTES : 0;
	f->blocks = nsze;
	return 0;
}

/* Metadata bytes a read moves per block: none with PRACT where the
 * metadata is the PI tuple alone (the controller strips it), else ms. */
static inline uint32_t eng_nvme_md_moved(const struct eng_nvme_lbaf *f, bool pract)
{
	return pract && f->pi_type && f->ms == f->pi_bytes ? 0 : f->ms;
}

/* CDW12's PRINFO for a read: 0, or with PRACT the checks the kernel's
 * own block path asks for (drivers/nvme/host/core.c, nvme_setup_rw):
 * the guard, and the reference tag against EILBRT (cdw14, the starting
 * LBA's low 32 bits: eng_nvme_read_at) for types 1 and 2; type 3 has no
 * reference tag to check. */
static inline uint32_t eng_nvme_prinfo(const struct eng_nvme_lbaf *f, bool pract)
{
	if (!pract || !f->pi_type)
		return 0;
	return ENG_NVME_PRACT | ENG_NVME_PRCHK_GUARD | (f->pi_type < 3 ? ENG_NVME_PRCHK_REF : 0);
}

/* nsid, data_len, the block count, PRINFO and the metadata length: NLB is
 * 0-based, so --bs 4096 on 512-byte LBAs (lba_shift 9) reads 8 blocks as
 * cdw12 = 7. data_len: bs, or with metadata inline (extended LBA) each
 * block's data and metadata, bs + nlb * ms. md_len: the separate metadata
 * buffer's bytes per IO (eng_nvme_md_moved per block), 0 none. */
static inline void eng_nvme_read_template(struct nvme_uring_cmd *c, uint32_t nsid,
					  uint32_t bs, uint32_t lba_shift, uint32_t prinfo,
					  uint32_t data_len, uint32_t md_len)
{
	memset(c, 0, sizeof(*c));
	c->opcode = ENG_NVME_OP_READ;
	c->nsid = nsid;
	c->data_len = data_len;
	c->metadata_len = md_len;
	c->cdw12 = ((bs >> lba_shift) - 1) | prinfo;	/* NLB, PRINFO */
}

/* One IO: the byte offset becomes the starting LBA in cdw10 (low) and
 * cdw11 (high), and its low 32 bits EILBRT (cdw14), which only a PI
 * namespace's checks read (ignored elsewhere: NVMe 1.4 §6.5): written
 * always, one store, rather than a copy of the loop per kind of format.
 * md: the IO's metadata buffer, 0 none. */
static inline void eng_nvme_read_at(struct nvme_uring_cmd *c, const void *buf, uint64_t md,
				    uint64_t off, uint32_t lba_shift)
{
	uint64_t slba = off >> lba_shift;

	c->addr = (uint64_t)(uintptr_t)buf;
	c->metadata = md;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
	c->cdw14 = (uint32_t)slba;
}

#endif
