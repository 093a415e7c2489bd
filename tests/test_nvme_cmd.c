/* NVMe passthrough's command encoding (engine/nvme_cmd.h) and the names
 * its failures are reported by: the Read command's opcode, nsid and
 * length; the starting LBA from a byte offset, split over cdw10 and cdw11;
 * the 0-based block count from --bs and the namespace's LBA size; the
 * metadata buffer and PRINFO of a namespace with metadata, from its LBA
 * format as Identify Namespace gives it; the status an error slot holds
 * and the spec's names for it. */
#include "cli/report/nvme_status.h"
#include "cli/report/report.h"
#include "engine/nvme_cmd.h"
#include "engine/target.h"
#include "tests/helpers.h"

#include <string.h>

static void check_template(void)
{
	struct nvme_uring_cmd c;

	memset(&c, 0xa5, sizeof(c));
	eng_nvme_read_template(&c, 7, 4096, 9, 0, 4096, 0);
	CHECK(c.opcode == 0x02);
	CHECK(c.nsid == 7);
	CHECK(c.data_len == 4096);
	CHECKF(c.cdw12 == 7, "4 KiB of 512-byte blocks: NLB %u, want 7 (0-based)", c.cdw12);
	CHECK(c.flags == 0 && c.cdw2 == 0 && c.cdw3 == 0 && c.metadata == 0 &&
	      c.metadata_len == 0 && c.cdw13 == 0 && c.cdw14 == 0 && c.cdw15 == 0 &&
	      c.timeout_ms == 0);
	eng_nvme_read_template(&c, 1, 4096, 12, 0, 4096, 0);
	CHECKF(c.cdw12 == 0, "4 KiB of 4 KiB blocks: NLB %u, want 0", c.cdw12);
	eng_nvme_read_template(&c, 1, 131072, 12, 0, 131072, 0);
	CHECKF(c.cdw12 == 31, "128 KiB of 4 KiB blocks: NLB %u, want 31", c.cdw12);
	/* PRINFO above NLB, the metadata length beside the data's */
	eng_nvme_read_template(&c, 1, 16384, 12, ENG_NVME_PRACT | ENG_NVME_PRCHK_GUARD, 16384, 32);
	CHECKF(c.cdw12 == (3u | 1u << 29 | 1u << 28), "cdw12 %#x, want 0x30000003", c.cdw12);
	CHECK(c.metadata_len == 32 && c.data_len == 16384 && c.metadata == 0);
	/* metadata inline: the block count from --bs, the length with it */
	eng_nvme_read_template(&c, 1, 8192, 12, 0, 8192 + 16, 0);
	CHECK(c.cdw12 == 1 && c.data_len == 8208 && c.metadata_len == 0);
}

static void check_at(void)
{
	struct nvme_uring_cmd c;
	char buf[8];
	/* byte 3 TiB + 12 KiB on 512-byte blocks: LBA 0x180000018 */
	uint64_t off = (3ull << 40) + 12288;

	memset(&c, 0, sizeof(c));
	eng_nvme_read_at(&c, buf, 0, off, 9);
	CHECK(c.addr == (uint64_t)(uintptr_t)buf && c.metadata == 0);
	CHECKF(c.cdw10 == 0x80000018u && c.cdw11 == 0x1,
	       "SLBA cdw10 %#x cdw11 %#x, want 0x80000018 0x1", c.cdw10, c.cdw11);
	/* EILBRT: the starting LBA's low 32 bits, the type 1 reference tag */
	CHECKF(c.cdw14 == 0x80000018u, "EILBRT %#x, want 0x80000018", c.cdw14);
	eng_nvme_read_at(&c, buf, 0x7000, off, 12);
	CHECKF(c.cdw10 == 0x30000003u && c.cdw11 == 0,
	       "4K blocks: SLBA cdw10 %#x cdw11 %#x, want 0x30000003 0", c.cdw10, c.cdw11);
	CHECK(c.metadata == 0x7000 && c.cdw14 == 0x30000003u);
	eng_nvme_read_at(&c, buf, 0, 0, 12);
	CHECK(c.cdw10 == 0 && c.cdw11 == 0 && c.cdw14 == 0);
}

/* An Identify Namespace answer: LBA formats 0 (512, no metadata), 1
 * (4096 + 8), 2 (4096 + 16); in use idx, FLBAS bit 4 ext, DPS dps. */
static void id_ns(uint8_t *id, unsigned idx, bool ext, unsigned dps)
{
	memset(id, 0, ENG_NVME_ID_NS_BYTES);
	id[0] = 0x00;
	id[1] = 0x40;		/* NSZE 0x4000 blocks */
	id[25] = 2;		/* three formats, 0-based */
	id[26] = (uint8_t)((idx & 0xf) | (ext ? 0x10 : 0) | ((idx >> 4) & 3) << 5);
	id[29] = (uint8_t)dps;
	id[128 + 2] = 9;
	id[132 + 0] = 8;
	id[132 + 2] = 12;
	id[136 + 0] = 16;
	id[136 + 2] = 12;
}

static void check_lbaf(void)
{
	static uint8_t id[ENG_NVME_ID_NS_BYTES];
	struct eng_nvme_lbaf f;

	/* PI type 1 in 8 bytes apart: a buffer of 8 per block, none with PRACT */
	id_ns(id, 1, false, 1);
	CHECK(!eng_nvme_lbaf_decode(id, &f));
	CHECKF(f.known && f.index == 1 && f.data_bytes == 4096 && f.ms == 8 && !f.ext &&
	       f.pi_type == 1 && f.pi_bytes == 8 && f.blocks == 0x4000,
	       "index %u data %u ms %u ext %d pi %u blocks %llu", f.index, f.data_bytes, f.ms,
	       f.ext, f.pi_type, (unsigned long long)f.blocks);
	CHECK(eng_nvme_md_moved(&f, false) == 8 && eng_nvme_md_moved(&f, true) == 0);
	CHECKF(eng_nvme_prinfo(&f, true) == (ENG_NVME_PRACT | ENG_NVME_PRCHK_GUARD | ENG_NVME_PRCHK_REF),
	       "prinfo %#x", eng_nvme_prinfo(&f, true));
	CHECK(eng_nvme_prinfo(&f, false) == 0);
	/* type 3: no reference tag to check */
	id_ns(id, 1, false, 3);
	CHECK(!eng_nvme_lbaf_decode(id, &f) && f.pi_type == 3);
	CHECK(eng_nvme_prinfo(&f, true) == (ENG_NVME_PRACT | ENG_NVME_PRCHK_GUARD));
	/* metadata without PI: moved whatever PRACT says, which has no PI to act on */
	id_ns(id, 1, false, 0);
	CHECK(!eng_nvme_lbaf_decode(id, &f) && f.ms == 8 && !f.pi_type && !f.ext);
	CHECK(eng_nvme_md_moved(&f, true) == 8 && eng_nvme_prinfo(&f, true) == 0);
	/* 16 bytes holding an 8-byte PI: PRACT leaves them all to move */
	id_ns(id, 2, false, 1 | 8);
	CHECK(!eng_nvme_lbaf_decode(id, &f) && f.ms == 16 && f.pi_first);
	CHECK(eng_nvme_md_moved(&f, true) == 16);
	/* inline (extended LBA) */
	id_ns(id, 1, true, 0);
	CHECK(!eng_nvme_lbaf_decode(id, &f) && f.ext && f.ms == 8);
	/* no metadata: FLBAS bit 4 and DPS mean nothing */
	id_ns(id, 0, true, 1);
	CHECK(!eng_nvme_lbaf_decode(id, &f) && f.data_bytes == 512 && !f.ms && !f.ext &&
	      !f.pi_type && eng_nvme_md_moved(&f, false) == 0);
	/* an index past NLBAF, a reserved PI type, a block under 512 bytes */
	id_ns(id, 3, false, 0);
	CHECK(eng_nvme_lbaf_decode(id, &f) == -EPROTO);
	id_ns(id, 1, false, 5);
	CHECK(eng_nvme_lbaf_decode(id, &f) == -EPROTO);
	id_ns(id, 0, false, 0);
	id[128 + 2] = 8;
	CHECK(eng_nvme_lbaf_decode(id, &f) == -EPROTO);
}

static int same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static void check_status(void)
{
	/* the CQE's status without the phase bit: DNR (bit 14) set, SCT 2 */
	unsigned st = 0x4000 | 0x281;

	CHECK(ENG_NVME_SCT(st) == 2 && ENG_NVME_SC(st) == 0x81 && ENG_NVME_CODE(st) == 0x281);
	CHECK(same(cli_nvme_status_spec(0x281), "Unrecovered Read Error"));
	CHECK(same(cli_nvme_status_spec(0x082), "Namespace Not Ready"));
	CHECK(same(cli_nvme_status_spec(0x080), "LBA Out of Range"));
	CHECK(cli_nvme_status_spec(0x290) == NULL);
	CHECK(same(cli_errno_name(ENG_ERR_NVME + 0x281), "nvme:2/81"));
	CHECK(same(cli_errno_text(ENG_ERR_NVME + 0x281), "Unrecovered Read Error"));
	CHECK(same(cli_errno_name(ENG_ERR_NVME + 0x002), "nvme:0/02"));
	CHECKF(same(cli_errno_text(ENG_ERR_NVME + 0x290), "status code type 2h, status code 90h"),
	       "%s", cli_errno_text(ENG_ERR_NVME + 0x290));
	CHECK(ENG_ERR_NVME + 0x7ff == ENG_ERR_SLOTS - 1);
	/* both ends of the NVMe slots, and the errno slot just below them */
	CHECK(same(cli_errno_name(ENG_ERR_NVME), "nvme:0/00"));
	CHECK(same(cli_errno_name(ENG_ERR_SLOTS - 1), "nvme:7/ff"));
	CHECK(same(cli_errno_name(ENG_ERR_OTHER), "unknown"));
	/* errnos keep their names beside them */
	CHECK(same(cli_errno_name(5), "EIO"));
}

/* Namespace names, block and generic: only the whole name, with its prefix. */
static void check_names(void)
{
	static const struct {
		const char *name, *prefix;
		bool ok;
		unsigned ctl, ns;
	} c[] = {
		{ "nvme3n1", "nvme", true, 3, 1 },
		{ "ng12n7", "ng", true, 12, 7 },
		{ "nvme0n1", "ng", false, 0, 0 },
		{ "ng0n1", "nvme", false, 0, 0 },
		{ "nvme3n1p2", "nvme", false, 0, 0 },	/* a partition */
		{ "nvme3c2n1", "nvme", false, 0, 0 },	/* a multipath path */
		{ "nvme3n", "nvme", false, 0, 0 },
		{ "nvme", "nvme", false, 0, 0 },
		{ "nvmexn1", "nvme", false, 0, 0 },
	};
	unsigned i, ctl, ns;
	bool ok;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ctl = ns = 99;
		ok = eng_nvme_numbers(c[i].name, c[i].prefix, &ctl, &ns);
		CHECKF(ok == c[i].ok, "%s as %s: %d", c[i].name, c[i].prefix, ok);
		if (ok && c[i].ok)
			CHECKF(ctl == c[i].ctl && ns == c[i].ns, "%s: %u and %u", c[i].name, ctl, ns);
	}
}

int main(void)
{
	check_names();
	check_template();
	check_at();
	check_lbaf();
	check_status();
	return t_result();
}
