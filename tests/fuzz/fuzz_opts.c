/* libFuzzer: the option parser. The input is a command line, one argument
 * per line (or NUL-separated); a first word that names a verb picks it, as
 * main.c does, else the words are saturate's, after "iostorm". Every line
 * must end in go, --help/--version or one error message: never a crash, a
 * leak or an exit. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts/opts.h"
#include "tests/fuzz/fuzz.h"

#define MAX_WORDS 64
#define MAX_DURATION_NS (30ull * 24 * 3600 * 1000000000ull)	/* opts_table.c */

/* What a parse that went on must leave: values inside their bounds. */
static void check_go(const struct cli_opts *o, int argc)
{
	const struct cli_optdesc *qd = cli_opt_find(o, "qd");
	/* a --qd list (sweep) clamps --batch and --reap at each of its depths */
	uint32_t deepest = qd && (qd->flags & CLI_OF_LIST) ? CLI_MAX_QD : o->qd;

	if (!o->bs || o->bs > CLI_MAX_BS || (o->bs & (o->bs - 1)))
		fuzz_fail("bs %u out of bounds", o->bs);
	if (!o->qd || o->qd > CLI_MAX_QD || !o->batch || o->batch > deepest ||
	    !o->reap || o->reap > deepest)
		fuzz_fail("qd %u batch %u reap %u out of bounds", o->qd, o->batch, o->reap);
	if (o->ncpus > CLI_MAX_CPUS || o->ntargets > (unsigned)argc)
		fuzz_fail("ncpus %u ntargets %u out of bounds", o->ncpus, o->ntargets);
	if (!o->jobs || o->jobs > CLI_MAX_JOBS || !o->jobs_per_device ||
	    o->jobs_per_device > CLI_MAX_JOBS)
		fuzz_fail("jobs %u jobs-per-device %u out of bounds", o->jobs,
			  o->jobs_per_device);
	if (o->time_ns > MAX_DURATION_NS || o->ramp_ns > MAX_DURATION_NS ||
	    o->stall_ns > MAX_DURATION_NS)
		fuzz_fail("a duration above 30 days: time %llu ramp %llu stall %llu ns",
			  (unsigned long long)o->time_ns, (unsigned long long)o->ramp_ns,
			  (unsigned long long)o->stall_ns);
	if (o->range_len && o->range_off > UINT64_MAX - o->range_len)
		fuzz_fail("range %llu:%llu wraps", (unsigned long long)o->range_off,
			  (unsigned long long)o->range_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *words[MAX_WORDS + 1], *argv[MAX_WORDS + 2], err[512];
	enum cli_parse_outcome outcome = CLI_PARSE_GO;
	const struct cli_verb *v;
	struct cli_opts o;
	int n, argc = 0, i, rc;

	n = fuzz_split(data, size, words, MAX_WORDS);
	if (n < 0)
		return 0;
	v = n > 0 ? cli_verb_find(words[0]) : NULL;
	if (!v) {
		v = &cli_verb_saturate;
		argv[argc++] = "iostorm";
	}
	for (i = 0; i < n; i++)
		argv[argc++] = words[i];
	argv[argc] = NULL;

	err[0] = '\0';
	cli_opts_init(&o, v->name, v->groups);
	rc = cli_opts_parse(&o, argc, argv, &outcome, err, sizeof(err));
	if (rc && (rc != -EINVAL || !err[0]))
		fuzz_fail("parse returned %d with message '%s'", rc, err);
	if (!rc && outcome == CLI_PARSE_GO)
		check_go(&o, argc);
	/* the usage text, as the command prints it (stdout is /dev/null) */
	if (!rc && outcome != CLI_PARSE_GO && cli_opts_cmdline(&o, v, argc, argv) != -ECANCELED)
		fuzz_fail("--help or --version went on");
	fuzz_free_words(words, n);
	return 0;
}
