/* The setup record every JSON report carries ("setup"): the machine and
 * each target's settings it was measured on, so two reports can be
 * compared and one reproduced (docs/json.md). No serial numbers. */
#ifndef CLI_REPORT_SETUP_JSON_H
#define CLI_REPORT_SETUP_JSON_H

#include <jansson.h>

#include "setup/setup.h"

/* {"machine": {...}, "devices": [...]} of facts already read; NULL: no
 * memory. A fact not known is null, never a zero. */
json_t *cli_json_setup_of(const struct setup_machine *m, const struct setup_dev *devs,
			  unsigned ndevs);
/* The same, reading the live machine and paths[0..n) now, with what each
 * target's drive said of the run (cli/runner/drive.h: the share read as
 * zeros, the warnings before it). A target whose settings cannot be read
 * is kept with its name and nulls; NULL: no memory. */
json_t *cli_json_setup(const char *const *paths, unsigned n);

#endif
