/* What the libFuzzer harnesses share (fuzz_common.c): the input as argv
 * words or as a file, and one way to report a broken invariant. */
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data split at '\n' and '\0' into at most max words, each its own
 * allocation (so ASan sees a read past its end); a separator at the very
 * end ends the last word. The count, or -E2BIG for more words than max. */
int fuzz_split(const uint8_t *data, size_t size, char **words, int max);
void fuzz_free_words(char **words, int n);
/* data as a file: a memfd, its name in /proc/self/fd written to path.
 * The fd (close it), or -errno. */
int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len);
/* A broken invariant: one line on stderr, then abort() for libFuzzer. */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
