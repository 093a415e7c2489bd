/* A JSON document written to a file descriptor as it is serialised, in
 * pieces, never held whole as text; and a report too large to hold whole
 * as a tree (merge of 20,000 devices: 20 KiB of jansson nodes each),
 * whose one large array is made an element at a time while it is
 * written. */
#ifndef CLI_REPORT_JSON_DUMP_H
#define CLI_REPORT_JSON_DUMP_H

#include <jansson.h>
#include <stddef.h>

/* The array at the document's member key, made as it is written: row(i)
 * gives element i (a new reference, dropped once written; NULL: out of
 * memory). The document's own value at key is a placeholder, not
 * written. */
struct cli_json_rows {
	const char *key;
	size_t n;
	json_t *(*row)(size_t i, void *ctx);
	void *ctx;
};

/* j and a newline to fd, byte for byte what json_dumps(j, flags) makes
 * (flags: jansson's, without JSON_SORT_KEYS), in writes of 64 KiB; with
 * rows (j an object), its member rows->key made by rows->row. 0, or
 * -errno: the write's, -ENOMEM (jansson, or a row). */
int cli_json_dump_fd(int fd, const json_t *j, size_t flags, const struct cli_json_rows *rows);

/* Writes len bytes of s to fd, across short writes and EINTR (the stop
 * handler has no SA_RESTART): 0 or -errno (a reader gone is -EPIPE). */
int cli_write_all(int fd, const char *s, size_t len);

#endif
