/* cli_json_dump_fd: a document written as it is serialised is byte for
 * byte what json_dumps makes, for the report's flags, an indent of 4,
 * no indent and JSON_COMPACT; and with its one large array made row by
 * row (0, 1 and 3 rows, each made once) it is byte for byte
 * what json_dumps makes of the same document holding those rows, the
 * rows' own nesting (objects, arrays, strings with newlines and quotes,
 * non-ASCII) indented in place. A row that fails is -ENOMEM. */
#include "cli/report/json_dump.h"
#include "cli/report/out.h"
#include "tests/helpers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Row i: a nested value with what indenting could break. */
static json_t *make_row(size_t i)
{
	return json_pack("{s:I, s:s, s:[i, {s:f, s:[]}, {}], s:{s:n, s:s}}",
			 "i", (json_int_t)i, "name", i % 2 ? "two\nlines \"quoted\"" : "n\xc3\xa9",
			 "list", (int)i, "x", 1.0 / (double)(i + 3), "empty",
			 "obj", "none", "tab", "a\tb");
}

static size_t made;

static json_t *row(size_t i, void *ctx)
{
	(void)ctx;
	made++;
	return make_row(i);
}

static json_t *row_fail(size_t i, void *ctx)
{
	(void)ctx;
	return i == 1 ? NULL : make_row(i);
}

/* What cli_json_dump_fd wrote, as a string (free it). */
static char *dumped(const json_t *j, size_t flags, const struct cli_json_rows *rows, int *rc)
{
	FILE *f = tmpfile();
	char *buf;
	long n;

	if (!f)
		return NULL;
	*rc = cli_json_dump_fd(fileno(f), j, flags, rows);
	n = ftell(f) >= 0 ? lseek(fileno(f), 0, SEEK_END) : -1;
	buf = n >= 0 ? calloc(1, (size_t)n + 1) : NULL;
	if (buf && pread(fileno(f), buf, (size_t)n, 0) != n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* The document: members before and after the array the rows fill. */
static json_t *doc(size_t nrows)
{
	json_t *rows = json_array();
	size_t i;

	for (i = 0; i < nrows; i++)
		json_array_append_new(rows, make_row(i));
	return json_pack("{s:s, s:{s:i, s:[s, s]}, s:o, s:f, s:[], s:{}}",
			 "schema", "iostorm/1", "config", "qd", 32, "targets", "a", "b",
			 "devices", rows, "elapsed_s", 2.5, "none", "nothing");
}

static void check_flags(size_t flags, const char *what)
{
	size_t n;
	int rc;

	for (n = 0; n <= 3; n += n ? 2 : 1) {
		json_t *whole = doc(n), *head = doc(0);
		char *want = json_dumps(whole, flags), *got, *plain;
		struct cli_json_rows rows = { "devices", n, row, NULL };

		made = 0;
		got = dumped(head, flags, &rows, &rc);
		CHECK(rc == 0);
		CHECKF(got && want && strlen(got) == strlen(want) + 1 &&
		       !strncmp(got, want, strlen(want)) && got[strlen(want)] == '\n',
		       "%s, %zu rows: got\n%s\nwant\n%s", what, n, got ? got : "(none)", want);
		CHECKF(made == n, "%s: %zu rows made, want %zu", what, made, n);
		free(got);
		/* without rows: the document itself */
		plain = dumped(whole, flags, NULL, &rc);
		CHECK(rc == 0);
		CHECKF(plain && want && !strncmp(plain, want, strlen(want)),
		       "%s, %zu rows, whole: got\n%s", what, n, plain ? plain : "(none)");
		free(plain);
		free(want);
		json_decref(whole);
		json_decref(head);
	}
}

int main(void)
{
	struct cli_json_rows bad = { "devices", 3, row_fail, NULL };
	json_t *head = doc(0);
	char *got;
	int rc;

	check_flags(CLI_JSON_REPORT, "the report's flags");
	check_flags(JSON_INDENT(4), "indent 4");
	check_flags(0, "no indent");
	check_flags(JSON_COMPACT, "compact");
	got = dumped(head, CLI_JSON_REPORT, &bad, &rc);
	CHECKF(rc == -ENOMEM, "a row that fails: %d, want -ENOMEM", rc);
	free(got);
	json_decref(head);
	return t_result();
}
