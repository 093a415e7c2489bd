/* A check finding's now or better, as the words table says it
 * (cli/words/findings_words.h): said(f, now), said(f, better). For the
 * tests of model/check's rules, which assert the words a user reads. */
#ifndef TESTS_CHECK_SAID_H
#define TESTS_CHECK_SAID_H

#include "cli/words/findings_words.h"
#include "model/check.h"

static char nowbuf[CLI_CHECK_WORDS_MAX], betterbuf[CLI_CHECK_WORDS_MAX];

static inline const char *said_now(const struct check_finding *f)
{
	cli_check_now(f, nowbuf, sizeof(nowbuf));
	return nowbuf;
}

static inline const char *said_better(const struct check_finding *f)
{
	cli_check_better(f, betterbuf, sizeof(betterbuf));
	return betterbuf;
}

#define said(f, field) said_##field(f)

#endif
