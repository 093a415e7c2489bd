/* The NVMe statuses a passthrough read can fail with, by the spec's names
 * (NVM Express Base Specification 2.0, Status Code Type and Status Code). */
#ifndef CLI_REPORT_NVME_STATUS_H
#define CLI_REPORT_NVME_STATUS_H

/* code: SCT << 8 | SC (11 bits). The spec's name, NULL for one this table
 * lacks. */
const char *cli_nvme_status_spec(unsigned code);
/* "nvme:2/81" (SCT/SC in hex): the key a report names a status by. */
const char *cli_nvme_status_name(unsigned code);
/* The spec's name, or "status code type 2h, status code 90h". */
const char *cli_nvme_status_text(unsigned code);

#endif
