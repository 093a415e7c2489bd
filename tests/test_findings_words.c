/* The words table covers every finding kind: model/ and topo/ state a
 * kind and its values, cli/words/findings_words.c says them, so a kind
 * added to an enum without words in the table fails here. Each kind is
 * said from a zeroed finding (every figure 0, every name ""), which must
 * still give words (a now that is a bare named value may be ""). */
#include <stdio.h>
#include <string.h>

#include "cli/words/findings_words.h"
#include "tests/helpers.h"

static void check_kinds(void)
{
	char now[CLI_CHECK_WORDS_MAX], better[CLI_CHECK_WORDS_MAX];
	struct check_finding f;
	int k;

	for (k = 0; k < CHECK_NKINDS; k++) {
		const char *name = check_kind_info((enum check_kind)k)->name;

		CHECKF(cli_check_has_words((enum check_kind)k), "check kind %s has no words", name);
		memset(&f, 0, sizeof(f));
		f.kind = (enum check_kind)k;
		cli_check_now(&f, now, sizeof(now));
		cli_check_better(&f, better, sizeof(better));
		/* now may be a bare named value (a scheduler), "" here */
		CHECKF(better[0], "check kind %s: now '%s', better '%s'", name, now, better);
	}
	CHECK(!cli_check_has_words(CHECK_NKINDS));
}

int main(void)
{
	check_kinds();
	return t_result();
}
