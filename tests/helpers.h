/* Tiny helpers shared by the test programs: exit 0 pass, 1 fail, 77 skip. */
#ifndef TESTS_HELPERS_H
#define TESTS_HELPERS_H

#include <stdio.h>
#include <stdlib.h>

#define T_EXIT_PASS 0
#define T_EXIT_FAIL 1
#define T_EXIT_SKIP 77

/* Set by CHECK() on failure; a test ends with `return t_result();`. */
static int t_failed;

/* Keeps going after a failure so one run shows every broken check. */
#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: CHECK failed: %s\n",		\
			__FILE__, __LINE__, #cond);			\
		t_failed = 1;						\
	}								\
} while (0)

/* CHECK with a printf-style explanation of the values involved. */
#define CHECKF(cond, ...) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: CHECK failed: %s: ",		\
			__FILE__, __LINE__, #cond);			\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		t_failed = 1;						\
	}								\
} while (0)

/* The runner shows the last line printed as the reason. */
#define SKIP(reason) do {						\
	printf("%s\n", (reason));					\
	fflush(stdout);							\
	exit(T_EXIT_SKIP);						\
} while (0)

static inline int t_result(void)
{
	return t_failed ? T_EXIT_FAIL : T_EXIT_PASS;
}

#endif
