/* NVMe status names: one table, read by the text report and the JSON. */
#include "cli/report/nvme_status.h"

#include <stddef.h>
#include <stdio.h>

#define NVME_CODES 0x800

static const struct {
	unsigned code;
	const char *name;
} spec[] = {
	/* generic command status (SCT 0) */
	{ 0x001, "Invalid Command Opcode" },
	{ 0x002, "Invalid Field in Command" },
	{ 0x003, "Command ID Conflict" },
	{ 0x004, "Data Transfer Error" },
	{ 0x005, "Commands Aborted due to Power Loss Notification" },
	{ 0x006, "Internal Error" },
	{ 0x007, "Command Abort Requested" },
	{ 0x008, "Command Aborted due to SQ Deletion" },
	{ 0x00b, "Invalid Namespace or Format" },
	{ 0x00c, "Command Sequence Error" },
	{ 0x080, "LBA Out of Range" },
	{ 0x081, "Capacity Exceeded" },
	{ 0x082, "Namespace Not Ready" },
	{ 0x083, "Reservation Conflict" },
	/* media and data integrity errors (SCT 2) */
	{ 0x280, "Write Fault" },
	{ 0x281, "Unrecovered Read Error" },
	{ 0x282, "End-to-end Guard Check Error" },
	{ 0x283, "End-to-end Application Tag Check Error" },
	{ 0x284, "End-to-end Reference Tag Check Error" },
	{ 0x285, "Compare Failure" },
	{ 0x286, "Access Denied" },
	{ 0x287, "Deallocated or Unwritten Logical Block" },
	/* path related status (SCT 3) */
	{ 0x300, "Internal Path Error" },
	{ 0x301, "Asymmetric Access Persistent Loss" },
	{ 0x302, "Asymmetric Access Inaccessible" },
	{ 0x303, "Asymmetric Access Transition" },
	{ 0x360, "Controller Pathing Error" },
	{ 0x370, "Host Pathing Error" },
	{ 0x371, "Command Aborted By Host" },
};

const char *cli_nvme_status_spec(unsigned code)
{
	size_t i;

	for (i = 0; i < sizeof(spec) / sizeof(spec[0]); i++)
		if (spec[i].code == code)
			return spec[i].name;
	return NULL;
}

/* Filled on first use, one entry per code: a report names a few. */
static char names[NVME_CODES][12];
static char texts[NVME_CODES][48];

const char *cli_nvme_status_name(unsigned code)
{
	code &= NVME_CODES - 1;
	if (!names[code][0])
		snprintf(names[code], sizeof(names[code]), "nvme:%x/%02x", code >> 8, code & 0xff);
	return names[code];
}

const char *cli_nvme_status_text(unsigned code)
{
	const char *s = cli_nvme_status_spec(code & (NVME_CODES - 1));

	if (s)
		return s;
	code &= NVME_CODES - 1;
	if (!texts[code][0])
		snprintf(texts[code], sizeof(texts[code]), "status code type %xh, status code %02xh",
			 code >> 8, code & 0xff);
	return texts[code];
}
