/* A report read back and checked (report_load.h). */
#include "cli/report/report_load.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/report/json.h"
#include "cli/report/out.h"

static const char *name_of(const json_t *j, const char *key)
{
	return json_string_value(json_object_get(j, key));
}

int cli_report_load(const char *path, json_t **out, const char **command)
{
	const char *schema, *cmd;
	json_error_t je;
	json_t *r;
	FILE *f;
	int err;

	f = fopen(path, "r");
	if (!f) {
		err = -errno;
		cli_say("%s: %s", path, strerror(-err));
		return err;
	}
	r = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
	err = ferror(f) ? -EIO : -EINVAL;	/* a directory fails to read */
	fclose(f);
	if (!r) {
		cli_say("%s: not an iostorm report (not JSON: line %d: %s)", path, je.line, je.text);
		return err;
	}
	schema = name_of(r, "schema");
	cmd = name_of(r, "command");
	if (!json_is_object(r) || !schema || strcmp(schema, CLI_JSON_SCHEMA) || !cmd) {
		cli_say("%s: not an iostorm report (no \"schema\": \"%s\" and \"command\")", path,
			CLI_JSON_SCHEMA);
		json_decref(r);
		return -EINVAL;
	}
	*out = r;
	*command = cmd;
	return 0;
}

/* "a string": what a JSON value is, for a message that says so. */
static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number with a fraction part";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	default: return "something else";
	}
}

int cli_report_int(const char *path, const json_t *obj, const char *where, const char *key,
		   long long *v)
{
	const json_t *x = json_object_get(obj, key);

	if (obj && !json_is_object(obj) && !json_is_null(obj)) {
		if (path)
			cli_say("%s: %s is %s, not an object", path, where, type_name(obj));
		return -EINVAL;
	}
	if (!x || json_is_null(x))
		return -ENOENT;
	if (!json_is_integer(x)) {
		if (path)
			cli_say("%s: %s.%s is %s, not an integer", path, where, key, type_name(x));
		return -EINVAL;
	}
	*v = (long long)json_integer_value(x);
	return 0;
}
