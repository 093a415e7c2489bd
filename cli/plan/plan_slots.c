/* plan's --free-slots list, each entry checked, with one message naming it. */
#include "cli/plan/plan_slots.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/opts/opts.h"

/* "0000:40": four hex digits, a colon, two; into out in lower case. */
static bool bridge_name(const char *s, size_t len, char *out)
{
	size_t i;

	if (len != 7 || s[4] != ':')
		return false;
	for (i = 0; i < len; i++) {
		if (i != 4 && !isxdigit((unsigned char)s[i]))
			return false;
		out[i] = (char)tolower((unsigned char)s[i]);
	}
	out[len] = '\0';
	return true;
}

/* One entry, [s, s + len): BRIDGE=N. 0 or -EINVAL. */
static int entry(const char *s, size_t len, struct cli_plan_slot *e, char *err, size_t errlen)
{
	char buf[64];
	const char *eq;
	uint64_t n;

	if (!len || len >= sizeof(buf)) {
		snprintf(err, errlen, "--free-slots: an empty or overlong entry (want BRIDGE=N, "
			 "as 0000:40=2)");
		return -EINVAL;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	eq = strchr(buf, '=');
	if (!eq) {
		snprintf(err, errlen, "--free-slots: '%s' has no '=N' (want BRIDGE=N, as 0000:40=2)",
			 buf);
		return -EINVAL;
	}
	if (!bridge_name(buf, (size_t)(eq - buf), e->bridge)) {
		snprintf(err, errlen, "--free-slots: '%.*s' is not a host bridge as plan names it "
			 "(domain:bus, as 0000:40)", (int)(eq - buf), buf);
		return -EINVAL;
	}
	if (cli_parse_count("--free-slots", eq + 1, 0, CLI_PLAN_MAX_SLOTS, &n, err, errlen))
		return -EINVAL;
	e->count = (unsigned)n;
	return 0;
}

int cli_plan_slots_parse(const char *s, struct cli_plan_slots *l, char *err, size_t errlen)
{
	struct cli_plan_slot e;
	const char *p = s, *comma;
	unsigned k;

	l->n = 0;
	for (;;) {
		comma = strchr(p, ',');
		if (entry(p, comma ? (size_t)(comma - p) : strlen(p), &e, err, errlen))
			return -EINVAL;
		for (k = 0; k < l->n; k++)
			if (!strcmp(l->v[k].bridge, e.bridge)) {
				snprintf(err, errlen, "--free-slots: host bridge %s is named twice",
					 e.bridge);
				return -EINVAL;
			}
		if (l->n == CLI_PLAN_MAX_SLOT_BRIDGES) {
			snprintf(err, errlen, "--free-slots: more than %u host bridges",
				 CLI_PLAN_MAX_SLOT_BRIDGES);
			return -EINVAL;
		}
		l->v[l->n++] = e;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}
