/* sweep's --rate list, each entry bounded, with one message naming it. */
#include "cli/sweep/rate_list.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts/opts.h"

/* One entry, [s, s + len): a percentage or a count. 0 or -EINVAL. */
static int entry(const char *list, const char *s, size_t len, bool *pct, double *v,
		 char *err, size_t errlen)
{
	char buf[32], *end;
	uint64_t n;

	if (!len || len >= sizeof(buf)) {
		snprintf(err, errlen, "--rate: '%s' has an empty or overlong entry", list);
		return -EINVAL;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	*pct = buf[len - 1] == '%';
	if (!*pct)
		return cli_parse_count("--rate", buf, 1, CLI_MAX_RATE, &n, err, errlen) ? -EINVAL :
		       (*v = (double)n, 0);
	buf[len - 1] = '\0';
	errno = 0;
	*v = strtod(buf, &end);
	if (errno || end == buf || *end || !isfinite(*v) || !(*v > 0) || *v > CLI_MAX_LOAD_PCT) {
		snprintf(err, errlen, "--rate: '%s%%' is not a load in (0, %d]%%", buf,
			 CLI_MAX_LOAD_PCT);
		return -EINVAL;
	}
	return 0;
}

int cli_rate_list_parse(const char *s, struct cli_rate_list *l, char *err, size_t errlen)
{
	struct cli_rate_list r;
	const char *p = s, *comma;
	bool pct;
	double v;

	memset(&r, 0, sizeof(r));
	for (;;) {
		comma = strchr(p, ',');
		if (entry(s, p, comma ? (size_t)(comma - p) : strlen(p), &pct, &v, err, errlen))
			return -EINVAL;
		if (r.n && pct != r.pct) {
			snprintf(err, errlen, "--rate: '%s' mixes loads (%%) and rates: give one kind", s);
			return -EINVAL;
		}
		if (r.n && v <= r.v[r.n - 1]) {
			snprintf(err, errlen, "--rate: '%s': entries must increase", s);
			return -EINVAL;
		}
		if (r.n == CLI_MAX_RATES) {
			snprintf(err, errlen, "--rate: '%s' has more than %u entries", s, CLI_MAX_RATES);
			return -EINVAL;
		}
		r.pct = pct;
		r.v[r.n++] = v;
		if (!comma)
			break;
		p = comma + 1;
	}
	*l = r;
	return 0;
}
