/* A report read back and checked (report_load.h). */
#include "cli/out/report_load.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/out/json.h"
#include "cli/out/out.h"

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
