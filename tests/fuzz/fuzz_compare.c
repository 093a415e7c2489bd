/* libFuzzer: two reports for iostorm compare, the input split at its first
 * NUL (base, then new; without one the input is compared with itself).
 * Each is parsed as any JSON at all and walked as compare walks it: its
 * rows, the new's rows against the base's, the setup diff, the table onto
 * stdout (/dev/null: fuzz_common.c). Never a crash, a leak, a row both sides hold that is also
 * listed as one side's only, a matched row one side lacks, or a change
 * outside its own interval. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli/compare/cmp_out.h"
#include "cli/compare/compare.h"
#include "tests/fuzz/fuzz.h"

static void check(const struct cmp_group *base, const struct cmp_side *s)
{
	const struct cmp_rows *b = &base->rows[0], *n = &s->g.rows[0];
	unsigned i, m;

	if (s->nlines + s->nonly_base != b->n || s->nlines + s->nonly_next != n->n)
		fuzz_fail("%u rows matched, %u and %u only on one side, of %u and %u",
			  s->nlines, s->nonly_base, s->nonly_next, b->n, n->n);
	for (i = 0; i < s->nlines; i++) {
		if (!cmp_row_find(b, s->lines[i].key) || !cmp_row_find(n, s->lines[i].key))
			fuzz_fail("row %s matched but not on both sides", s->lines[i].key);
		/* the change always lies inside its own interval: exactly, as
		 * rounding is monotonic */
		for (m = 0; m < CLI_NMETRICS; m++) {
			const struct cmp_metric *x = &s->lines[i].m[m];

			if (x->tested && !(x->ci_lo_pct <= x->change_pct &&
					   x->change_pct <= x->ci_hi_pct))
				fuzz_fail("row %s: change %g outside [%g, %g]", s->lines[i].key,
					  x->change_pct, x->ci_lo_pct, x->ci_hi_pct);
		}
	}
}

static void compare(json_t *a, json_t *b)
{
	char *names[] = { (char *)"base.json", (char *)"new.json" };
	struct cmp_bound bound = { false, false };
	struct cmp_rows *ra = calloc(1, sizeof(*ra)), *rb = calloc(1, sizeof(*rb));
	struct cmp_family fam;
	struct cmp_group base;
	struct cmp_side s;
	struct cli_opts o;

	memset(&s, 0, sizeof(s));
	memset(&o, 0, sizeof(o));
	o.targets = names;
	o.ntargets = 2;
	o.alpha = 0.05;
	o.fail_worse_pct = 5.0;
	base = (struct cmp_group){ (const char *const *)names, "run", 1, ra };
	s.g = (struct cmp_group){ (const char *const *)names + 1, "run", 1, rb };
	if (!ra || !rb) {
		free(ra);
		free(rb);
		return;
	}
	if (!cmp_rows_of(a, ra) && !cmp_rows_of(b, rb) && !cmp_side_build(&s, &base, bound, o.alpha, false) &&
	    !cmp_family_adjust(&s, 1, o.alpha, o.fail_worse_pct, false, &fam) &&
	    !cmp_setup_diff(a, b, &s.changes)) {
		check(&base, &s);
		cmp_out_text(stdout, &o, &base, &s, 1, &fam, bound, NULL);
	}
	cmp_side_free(&s);
	cmp_group_free(&base);
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
