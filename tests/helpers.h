/* Tiny helpers shared by the test programs: exit 0 pass, 1 fail, 77 skip. */
#ifndef TESTS_HELPERS_H
#define TESTS_HELPERS_H

#include <stdio.h>
#include <stdlib.h>

#define T_EXIT_PASS 0
#define T_EXIT_FAIL 1
#define T_EXIT_SKIP 77

/* Set by CHECK() on failure; a test ends with `return t_result();`.
 * t_first_* name the first failed check, for a SKIP that comes after it. */
static int t_failed;
static const char *t_first_file, *t_first_cond;
static int t_first_line;

static inline void t_note_fail(const char *file, int line, const char *cond)
{
	if (!t_failed) {
		t_first_file = file;
		t_first_line = line;
		t_first_cond = cond;
	}
	t_failed = 1;
}

/* Keeps going after a failure so one run shows every broken check. */
#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: CHECK failed: %s\n",		\
			__FILE__, __LINE__, #cond);			\
		t_note_fail(__FILE__, __LINE__, #cond);			\
	}								\
} while (0)

/* CHECK with a printf-style explanation of the values involved. */
#define CHECKF(cond, ...) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: CHECK failed: %s: ",		\
			__FILE__, __LINE__, #cond);			\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		t_note_fail(__FILE__, __LINE__, #cond);			\
	}								\
} while (0)

/* The runner shows the last line printed as the reason. After a failed
 * check a skip is a failure that names it: a skip never hides one. */
#define SKIP(reason) t_skip(reason)

static inline void __attribute__((noreturn)) t_skip(const char *reason)
{
	if (t_failed) {
		fprintf(stderr, "FAIL: skipped (%s) after a failed check: %s:%d: %s\n",
			reason, t_first_file, t_first_line, t_first_cond);
		exit(T_EXIT_FAIL);
	}
	printf("%s\n", reason);
	fflush(stdout);
	exit(T_EXIT_SKIP);
}

static inline int t_result(void)
{
	return t_failed ? T_EXIT_FAIL : T_EXIT_PASS;
}

#endif
