/* sweep's --qd list: bounded numbers, increasing, with a message that
 * names the list and what is wrong with it. */
#include "cli/opts/qd_list.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int cli_qd_list_parse(const char *s, uint32_t *qds, unsigned max, char *err,
		      size_t errlen)
{
	const char *p = s;
	char *end;
	unsigned long v;
	unsigned n = 0;

	if (!*s) {
		snprintf(err, errlen, "--qd: the list is empty");
		return -EINVAL;
	}
	for (;;) {
		if (*p < '0' || *p > '9')
			goto bad;
		errno = 0;
		v = strtoul(p, &end, 10);
		if (errno || v < 1 || v > 65536 || (*end && *end != ','))
			goto bad;
		if (n && v <= qds[n - 1]) {
			snprintf(err, errlen, "--qd: '%s': depths must increase (%lu after %u)",
				 s, v, qds[n - 1]);
			return -EINVAL;
		}
		if (n == max) {
			snprintf(err, errlen, "--qd: '%s' has more than %u depths", s, max);
			return -EINVAL;
		}
		qds[n++] = (uint32_t)v;
		if (!*end)
			return (int)n;
		p = end + 1;
	}
bad:
	snprintf(err, errlen, "--qd: '%s' is not a list of depths 1..65536 like 1,2,4,8", s);
	return -EINVAL;
}
