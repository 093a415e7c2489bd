/* Reading back a report that an iostorm command wrote with --json: plot
 * draws one, compare tests several. */
#ifndef CLI_OUT_REPORT_LOAD_H
#define CLI_OUT_REPORT_LOAD_H

#include <jansson.h>

/* The report at path into *out (a new reference), checked to carry our
 * schema and a command, which *command names (inside *out). 0 or -errno,
 * said in one line naming path: -EINVAL when it is not JSON or not one of
 * our reports (a usage error: the wrong file); another -errno when it
 * cannot be opened or read. */
int cli_report_load(const char *path, json_t **out, const char **command);

#endif
