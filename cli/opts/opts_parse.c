/* The bounded value parsers behind every option: sizes, counts, durations
 * and CPU lists. Each refuses a bad value with one line naming the option,
 * the value and the problem, and writes its result only on success. */
#include "cli/opts/opts_int.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/opts/roots.h"
#include "setup/knob.h"
#include "topo/cpu.h"

int cli_opts_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int cli_parse_digits(const char *s, uint64_t *v, const char **end)
{
	char *e;
	unsigned long long x;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &e, 10);
	if (errno == ERANGE)
		return -ERANGE;
	*v = x;
	*end = e;
	return 0;
}

/* The last check of a size or a count: v between min and max. */
static int within(const char *what, const char *s, uint64_t v, uint64_t min,
		  uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	if (v < min)
		return cli_opts_fail(err, errlen, "%s: '%s' is below %llu", what, s, (unsigned long long)min);
	if (v > max)
		return cli_opts_fail(err, errlen, "%s: '%s' is above %llu", what, s, (unsigned long long)max);
	*out = v;
	return 0;
}

/* "k", "K", "KiB", "kb", ...: the power of 1024 of a size suffix, or -1. */
static int size_shift(const char *s)
{
	static const char units[] = "kmgt";
	const char *u;
	int shift;

	if (!*s)
		return 0;
	u = strchr(units, s[0] | 0x20);
	if (!u || !s[0])
		return -1;
	shift = 10 * (int)(u - units + 1);
	s++;
	if (!*s || !strcmp(s, "b") || !strcmp(s, "B") || !strcmp(s, "iB") ||
	    !strcmp(s, "ib"))
		return shift;
	return -1;
}

int cli_parse_size(const char *what, const char *s, uint64_t min,
		   uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	const char *end;
	uint64_t v;
	int shift, rc;

	rc = cli_parse_digits(s, &v, &end);
	if (rc == -EINVAL)
		return cli_opts_fail(err, errlen, "%s: '%s' is not a size (like 4096, 4k, 1m)", what, s);
	shift = rc ? 0 : size_shift(end);
	if (shift < 0)
		return cli_opts_fail(err, errlen, "%s: '%s' has an unknown suffix (use k, m, g or t)", what, s);
	if (rc || (shift && v > (UINT64_MAX >> shift)))
		return cli_opts_fail(err, errlen, "%s: '%s' is too large", what, s);
	v <<= shift;
	return within(what, s, v, min, max, out, err, errlen);
}

/* Counts use decimal suffixes: 1k = 1000. */
static uint64_t count_mult(const char *s)
{
	if (!*s)
		return 1;
	if (s[1])
		return 0;
	switch (s[0] | 0x20) {
	case 'k': return 1000ull;
	case 'm': return 1000000ull;
	case 'g': return 1000000000ull;
	}
	return 0;
}

int cli_parse_count(const char *what, const char *s, uint64_t min,
		    uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	const char *end;
	uint64_t v, mult;
	int rc;

	rc = cli_parse_digits(s, &v, &end);
	if (rc == -EINVAL)
		return cli_opts_fail(err, errlen, "%s: '%s' is not a number", what, s);
	mult = rc ? 1 : count_mult(end);
	if (!mult)
		return cli_opts_fail(err, errlen, "%s: '%s' has an unknown suffix (use k, m or g)", what, s);
	if (rc || v > UINT64_MAX / mult)
		return cli_opts_fail(err, errlen, "%s: '%s' is too large", what, s);
	v *= mult;
	return within(what, s, v, min, max, out, err, errlen);
}

/* Nanoseconds per unit of a duration suffix; a bare number is seconds. */
static uint64_t duration_mult(const char *s)
{
	static const struct { const char *u; uint64_t ns; } units[] = {
		{ "", CLI_NS_PER_S }, { "s", CLI_NS_PER_S }, { "ms", 1000000ull },
		{ "us", 1000ull }, { "ns", 1ull }, { "m", 60 * CLI_NS_PER_S },
		{ "h", 3600 * CLI_NS_PER_S },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(s, units[i].u))
			return units[i].ns;
	return 0;
}

/* The digits after a decimal point, at most 6 of them ("0.25s"): *frac
 * over *scale. Finer than a microsecond is refused rather than rounded. */
static int parse_fraction(const char *s, uint64_t *frac, uint64_t *scale,
			  const char **end)
{
	uint64_t f = 0, sc = 1;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (sc == 1000000)
			return -EINVAL;
		f = f * 10 + (uint64_t)(*s - '0');
		sc *= 10;
	}
	*frac = f;
	*scale = sc;
	*end = s;
	return 0;
}

int cli_parse_duration(const char *what, const char *s, uint64_t min_ns,
		       uint64_t max_ns, uint64_t *out, char *err, size_t errlen)
{
	const char *end;
	uint64_t v, mult;
	int rc;

	uint64_t frac = 0, scale = 1;

	rc = cli_parse_digits(s, &v, &end);
	if (!rc && *end == '.')
		rc = parse_fraction(end + 1, &frac, &scale, &end);
	if (rc == -EINVAL)
		return cli_opts_fail(err, errlen, "%s: '%s' is not a duration (like 10s, 500ms, 2m)", what, s);
	mult = rc ? 1 : duration_mult(end);
	if (!mult)
		return cli_opts_fail(err, errlen, "%s: '%s' has an unknown unit (use ms, s, m or h)", what, s);
	if (frac && mult % scale)
		return cli_opts_fail(err, errlen, "%s: '%s' is finer than a nanosecond", what, s);
	/* the fraction counts too: 720.5h is above 30 days */
	if (rc || v > max_ns / mult || frac * (mult / scale) > max_ns - v * mult)
		return cli_opts_fail(err, errlen, "%s: '%s' is too long", what, s);
	v = v * mult + frac * (mult / scale);
	if (v < min_ns && min_ns <= 1)
		return cli_opts_fail(err, errlen, "%s: '%s' must be above zero", what, s);
	if (v < min_ns) {
		char m[32];

		cli_fmt_duration(min_ns, m, sizeof(m));
		return cli_opts_fail(err, errlen, "%s: '%s' is below %s, the least it takes", what,
				     s, m);
	}
	*out = v;
	return 0;
}

int cli_parse_flag(const char *what, const char *s, bool *out, char *err,
		   size_t errlen)
{
	if (!s || !strcmp(s, "1") || !strcmp(s, "true") || !strcmp(s, "yes") ||
	    !strcmp(s, "on"))
		*out = true;
	else if (!strcmp(s, "0") || !strcmp(s, "false") || !strcmp(s, "no") ||
		 !strcmp(s, "off"))
		*out = false;
	else
		return cli_opts_fail(err, errlen, "%s: '%s' is not true or false", what, s);
	return 0;
}

/* --cpus as topo_cpulist_walk hands it over: in order, each CPU once. */
struct cpulist {
	int *cpus;
	unsigned max, n;
	unsigned char seen[CLI_MAX_CPUS];
	char *err;
	size_t errlen;
};

static int add_cpus(void *ctx, unsigned lo, unsigned hi)
{
	struct cpulist *l = ctx;
	unsigned c;

	for (c = lo; c <= hi; c++) {
		if (l->seen[c])
			return cli_opts_fail(l->err, l->errlen, "--cpus: CPU %u is listed twice", c);
		if (l->n == l->max)
			return cli_opts_fail(l->err, l->errlen, "--cpus: more than %u CPUs", l->max);
		l->seen[c] = 1;
		l->cpus[l->n++] = (int)c;
	}
	return 0;
}

int cli_parse_cpulist(const char *s, int *cpus, unsigned max, unsigned *n,
		      char *err, size_t errlen)
{
	struct cpulist l = { .cpus = cpus, .max = max, .err = err, .errlen = errlen };
	const char *bad = s;
	int rc;

	if (!*s)
		return cli_opts_fail(err, errlen, "--cpus: the list is empty");
	err[0] = '\0';
	rc = topo_cpulist_walk(s, CLI_MAX_CPUS, 0, add_cpus, &l, &bad);
	if (rc && !err[0])
		return cli_opts_fail(err, errlen, "--cpus: '%.*s' is not a CPU or range of CPUs 0-%u",
				     (int)(strchrnul(bad, ',') - bad), bad, CLI_MAX_CPUS - 1);
	if (!rc)
		*n = l.n;
	return rc;
}

/* --cpus on a recorded machine ($IOSTORM_SYSFS_ROOT): its online CPUs
 * answer, as the live machine's would; this process's affinity is no fact
 * about it. */
static int cpus_check_tree(const struct setup_roots *r, const int *cpus, unsigned n, char *err,
			   size_t errlen)
{
	struct topo_cpuset online;
	char list[64];
	unsigned i;
	int rc = setup_cpus_online(r, &online);

	if (rc)
		return cli_opts_fail(err, errlen, "--cpus: cannot read the CPUs of the recorded machine "
				     "at %s (devices/system/cpu/online): %s", r->sysfs, strerror(-rc));
	for (i = 0; i < n; i++) {
		if (topo_cpuset_has(&online, cpus[i]))
			continue;
		if (topo_cpuset_format(&online, list, sizeof(list)) < 0)
			snprintf(list, sizeof(list), "%u of them", topo_cpuset_count(&online));
		return cli_opts_fail(err, errlen, "--cpus: CPU %d is not online on the recorded machine "
				     "at %s (its CPUs: %s)", cpus[i], r->sysfs, list);
	}
	return 0;
}

int cli_cpus_check(const int *cpus, unsigned n, char *err, size_t errlen)
{
	const struct setup_roots *r = cli_roots();
	cpu_set_t allowed;
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	unsigned i;

	if (setup_sysfs_redirected(r))
		return cpus_check_tree(r, cpus, n, err, errlen);
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return cli_opts_fail(err, errlen, "--cpus: cannot read this process's CPU affinity: %s",
			    strerror(errno));
	for (i = 0; i < n; i++) {
		if (conf > 0 && cpus[i] >= conf)
			return cli_opts_fail(err, errlen, "--cpus: CPU %d does not exist (this machine has %ld)",
				    cpus[i], conf);
		if (!CPU_ISSET((size_t)cpus[i], &allowed))
			return cli_opts_fail(err, errlen, "--cpus: CPU %d is offline or outside this process's affinity",
				    cpus[i]);
	}
	return 0;
}

/* ---- values as a user writes them: what the parsers above read back ---- */

int cli_fmt_size(uint64_t v, char *buf, size_t len)
{
	static const char units[] = "kmgt";
	int i;

	for (i = 3; v && i >= 0; i--) {
		unsigned shift = 10 * (unsigned)(i + 1);

		if (!(v & ((1ull << shift) - 1)))
			return snprintf(buf, len, "%llu%c", (unsigned long long)(v >> shift), units[i]);
	}
	return snprintf(buf, len, "%llu", (unsigned long long)v);
}

int cli_fmt_count(uint64_t v, char *buf, size_t len)
{
	static const struct { char u; uint64_t mult; } units[] = {
		{ 'g', 1000000000ull }, { 'm', 1000000ull }, { 'k', 1000ull },
	};
	size_t i;

	for (i = 0; v && i < sizeof(units) / sizeof(units[0]); i++)
		if (!(v % units[i].mult))
			return snprintf(buf, len, "%llu%c",
					(unsigned long long)(v / units[i].mult), units[i].u);
	return snprintf(buf, len, "%llu", (unsigned long long)v);
}

int cli_fmt_duration(uint64_t ns, char *buf, size_t len)
{
	static const struct { const char *u; uint64_t ns; } units[] = {
		{ "h", 3600 * CLI_NS_PER_S }, { "m", 60 * CLI_NS_PER_S }, { "s", CLI_NS_PER_S },
		{ "ms", 1000000ull }, { "us", 1000ull },
	};
	size_t i;

	for (i = 0; ns && i < sizeof(units) / sizeof(units[0]); i++)
		if (!(ns % units[i].ns))
			return snprintf(buf, len, "%llu%s",
					(unsigned long long)(ns / units[i].ns), units[i].u);
	return snprintf(buf, len, "%llu%s", (unsigned long long)ns, ns ? "ns" : "");
}

int cli_parse_real(const char *opt, const char *arg, double min, double max, bool pct,
		   double *out, char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (pct && end != arg && *end == '%')
		end++;
	if (end == arg || *end || errno || !isfinite(v)) {
		snprintf(err, errlen, "%s: '%s' is not a number", opt, arg);
		return -EINVAL;
	}
	if (v < min || v > max || (min == 0.0 && !pct && v <= 0.0)) {
		snprintf(err, errlen, "%s: '%s' is outside %s%g..%g%s", opt, arg,
			 !pct ? "(" : "", min, max, pct ? "%" : "]");
		return -EINVAL;
	}
	*out = v;
	return 0;
}
