/* Reading back a report that an iostorm command wrote with --json: plot
 * draws one, compare tests several. */
#ifndef CLI_REPORT_REPORT_LOAD_H
#define CLI_REPORT_REPORT_LOAD_H

#include <jansson.h>

/* The report at path into *out (a new reference), checked to carry our
 * schema and a command, which *command names (inside *out). 0 or -errno,
 * said in one line naming path: -EINVAL when it is not JSON or not one of
 * our reports (a usage error: the wrong file); another -errno when it
 * cannot be opened or read. */
int cli_report_load(const char *path, json_t **out, const char **command);

/* The integer at key of obj, a part of the report at path (where names
 * it: "config"): 0 with *v set; -ENOENT when obj has none there (no such
 * key, null, or obj NULL or null: a report written before the key
 * existed, or iostorm-mpi's without a config); -EINVAL when it holds
 * anything else, or obj is not an object, said in one line naming path
 * and where.key ("r.json: config.qd is a string, not an integer") unless
 * path is NULL. A wrong type is never read as a number it is not. */
int cli_report_int(const char *path, const json_t *obj, const char *where, const char *key,
		   long long *v);

#endif
