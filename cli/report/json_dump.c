/* A JSON document written as it is serialised: see json_dump.h. */
#include "cli/report/json_dump.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* jansson's FLAGS_TO_INDENT (src/dump.c): JSON_INDENT(n) is n & 0x1F */
#define INDENT_OF(flags) ((flags) & JSON_MAX_INDENT)

struct sink {
	int fd, rc;
	size_t len;
	size_t pad;		/* spaces after each newline of a value put in place */
	char buf[65536];
};

static void flush(struct sink *d)
{
	if (!d->rc && d->len)
		d->rc = cli_write_all(d->fd, d->buf, d->len);
	d->len = 0;
}

static void put(struct sink *d, const char *s, size_t n)
{
	while (n && !d->rc) {
		size_t k = sizeof(d->buf) - d->len < n ? sizeof(d->buf) - d->len : n;

		memcpy(d->buf + d->len, s, k);
		d->len += k;
		s += k;
		n -= k;
		if (d->len == sizeof(d->buf))
			flush(d);
	}
}

static void spaces(struct sink *d, size_t n)
{
	static const char sp[] = "                                ";	/* 32 */

	for (; n > sizeof(sp) - 1; n -= sizeof(sp) - 1)
		put(d, sp, sizeof(sp) - 1);
	put(d, sp, n);
}

/* json_dump_callback's sink for a value dumped at depth 0 but standing
 * deeper: each newline jansson writes is followed by the depth's indent.
 * jansson writes a newline only between tokens (one in a string is
 * escaped), so this moves the value in place and nothing else. */
static int put_value(const char *s, size_t n, void *ctx)
{
	struct sink *d = ctx;
	const char *nl;

	while (n && (nl = memchr(s, '\n', n))) {
		put(d, s, (size_t)(nl - s) + 1);
		spaces(d, d->pad);
		n -= (size_t)(nl - s) + 1;
		s = nl + 1;
	}
	put(d, s, n);
	return d->rc ? -1 : 0;
}

static void value(struct sink *d, const json_t *v, size_t flags, unsigned depth)
{
	d->pad = INDENT_OF(flags) * depth;
	if (json_dump_callback(v, put_value, d, flags | JSON_ENCODE_ANY) && !d->rc)
		d->rc = -ENOMEM;
}

/* jansson's dump_indent: a newline and the depth's indent, or with no
 * indent a space where one is due (not in JSON_COMPACT) */
static void indent(struct sink *d, size_t flags, unsigned depth, bool space)
{
	if (INDENT_OF(flags)) {
		put(d, "\n", 1);
		spaces(d, INDENT_OF(flags) * depth);
	} else if (space && !(flags & JSON_COMPACT)) {
		put(d, " ", 1);
	}
}

/* The rows as the array jansson would write at depth 1. */
static void rows_array(struct sink *d, size_t flags, const struct cli_json_rows *rows)
{
	json_t *r;
	size_t i;

	put(d, "[", 1);
	if (!rows->n) {
		put(d, "]", 1);
		return;
	}
	indent(d, flags, 2, false);
	for (i = 0; i < rows->n && !d->rc; i++) {
		if (i) {
			put(d, ",", 1);
			indent(d, flags, 2, true);
		}
		r = rows->row(i, rows->ctx);
		if (!r) {
			d->rc = -ENOMEM;
			break;
		}
		value(d, r, flags, 2);
		json_decref(r);
	}
	indent(d, flags, 1, false);
	put(d, "]", 1);
}

/* Object j as jansson's dump_object writes it (insertion order), its
 * member rows->key made by the rows. */
static void object(struct sink *d, const json_t *j, size_t flags, const struct cli_json_rows *rows)
{
	const char *key;
	json_t *v, *k;
	bool first = true;

	put(d, "{", 1);
	if (!json_object_size(j)) {
		put(d, "}", 1);
		return;
	}
	indent(d, flags, 1, false);
	json_object_foreach((json_t *)j, key, v) {
		if (!first) {
			put(d, ",", 1);
			indent(d, flags, 1, true);
		}
		first = false;
		k = json_string(key);
		if (!k) {
			d->rc = -ENOMEM;
			return;
		}
		value(d, k, flags, 1);
		json_decref(k);
		put(d, flags & JSON_COMPACT ? ":" : ": ", flags & JSON_COMPACT ? 1 : 2);
		if (!strcmp(key, rows->key))
			rows_array(d, flags, rows);
		else
			value(d, v, flags, 1);
		if (d->rc)
			return;
	}
	indent(d, flags, 0, false);
	put(d, "}", 1);
}

int cli_json_dump_fd(int fd, const json_t *j, size_t flags, const struct cli_json_rows *rows)
{
	struct sink *d = malloc(sizeof(*d));
	int rc;

	if (!d)
		return -ENOMEM;
	d->fd = fd;
	d->rc = 0;
	d->len = 0;
	if (rows && json_is_object(j))
		object(d, j, flags, rows);
	else
		value(d, j, flags, 0);
	put(d, "\n", 1);
	flush(d);
	rc = d->rc;
	free(d);
	return rc;
}

int cli_write_all(int fd, const char *s, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, s, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}
