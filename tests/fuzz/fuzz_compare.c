/* libFuzzer: two reports for iostorm compare, the input split at its first
 * NUL (base, then new; without one the input is compared with itself).
 * Each is parsed as any JSON at all and walked as compare walks it: its
 * rows, the new's rows against the base's, the setup diff, the table onto
 * stdout (/dev/null: fuzz_common.c). Never a crash, a leak, a row both sides hold that is also
 * listed as one side's only, or a matched row whose keys differ. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli/compare/cmp_out.h"
#include "cli/compare/compare.h"
#include "tests/fuzz/fuzz.h"

static void check(const struct cmp_rows *base, const struct cmp_side *s)
{
	unsigned i;

	if (s->nlines + s->nonly_base != base->n || s->nlines + s->nonly_next != s->rows.n)
		fuzz_fail("%u rows matched, %u and %u only on one side, of %u and %u",
			  s->nlines, s->nonly_base, s->nonly_next, base->n, s->rows.n);
	for (i = 0; i < s->nlines; i++)
		if (strcmp(s->lines[i].base->key, s->lines[i].next->key))
			fuzz_fail("row %s matched to %s", s->lines[i].base->key,
				  s->lines[i].next->key);
}

static void compare(json_t *a, json_t *b)
{
	char *names[] = { (char *)"base.json", (char *)"new.json" };
	const char *cmd[] = { "run", "run" };
	struct cmp_rows base;
	struct cmp_side s;
	struct cli_opts o;

	memset(&s, 0, sizeof(s));
	memset(&o, 0, sizeof(o));
	o.targets = names;
	o.ntargets = 2;
	o.alpha = 0.05;
	o.fail_worse_pct = 5.0;
	s.file = names[1];
	if (cmp_rows_of(a, &base))
		return;
	if (!cmp_rows_of(b, &s.rows) && !cmp_side_build(&s, &base, o.alpha, o.fail_worse_pct) &&
	    !cmp_setup_diff(a, b, &s.changes)) {
		check(&base, &s);
		cmp_out_text(stdout, &o, cmd, &s, 1);
	}
	cmp_side_free(&s);
	cmp_rows_free(&base);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t na = nul ? (size_t)(nul - data) : size;
	json_t *a = json_loadb((const char *)data, na, JSON_DECODE_ANY, NULL);
	json_t *b = nul ? json_loadb((const char *)nul + 1, size - na - 1, JSON_DECODE_ANY, NULL) :
		json_incref(a);

	if (a && b)
		compare(a, b);
	json_decref(a);
	json_decref(b);
	return 0;
}
