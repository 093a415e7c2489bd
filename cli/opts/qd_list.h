/* The depth list of sweep's --qd (and of a job file's qd = key in a sweep
 * section): an option's syntax, so it lives with the CLI, not the model. */
#ifndef CLI_QD_LIST_H
#define CLI_QD_LIST_H

#include <stddef.h>
#include <stdint.h>

#define CLI_MAX_QDS 64
/* "1,2,4,8" (each 1..65536, increasing, no duplicates) into qds. Returns
 * the count or -EINVAL with err filled. */
int cli_qd_list_parse(const char *s, uint32_t *qds, unsigned max, char *err,
		      size_t errlen);

#endif
