/* The harnesses' shared half: quiet output, the input as words or as a
 * file, and the abort that turns a broken invariant into a crash. */
#include "tests/fuzz/fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Reports and usage texts go to stdout, which libFuzzer does not use;
 * stderr stays, since libFuzzer and the sanitizers report there. The XML
 * harness must see only the file it is given, never this machine's sysfs,
 * and hwloc must not comment on every bad file. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!freopen("/dev/null", "w", stdout))
		abort();
	unsetenv("IOSTORM_SYSFS_ROOT");
	setenv("HWLOC_XML_VERBOSE", "0", 1);
	setenv("HWLOC_HIDE_ERRORS", "2", 1);
	return 0;
}

int fuzz_split(const uint8_t *data, size_t size, char **words, int max)
{
	size_t start = 0, i;
	int n = 0;

	for (i = 0; i <= size; i++) {
		if (i < size && data[i] != '\n' && data[i] != '\0')
			continue;
		if (i == size && start == size && n > 0)
			break;	/* a trailing separator ends the last word */
		if (n == max) {
			fuzz_free_words(words, n);
			return -E2BIG;
		}
		words[n] = malloc(i - start + 1);
		if (!words[n])
			abort();
		memcpy(words[n], data + start, i - start);
		words[n++][i - start] = '\0';
		start = i + 1;
	}
	if (n == 1 && !words[0][0]) {
		free(words[0]);
		n = 0;	/* the empty input: no words at all */
	}
	words[n] = NULL;
	return n;
}

void fuzz_free_words(char **words, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(words[i]);
}

int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);
	size_t off = 0;
	ssize_t w;

	if (fd < 0)
		return -errno;
	while (off < size) {
		w = write(fd, data + off, size - off);
		if (w < 0) {
			int e = errno;

			close(fd);
			return -e;
		}
		off += (size_t)w;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz: invariant broken: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
