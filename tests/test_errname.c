/* Naming IO errors: errno names and texts (short reads and numbers beyond
 * the table included), the most common errno picked from per-errno counts,
 * the footer line, and first_error / most_common_error in a device's JSON:
 * objects with errors, null without. */
#include "cli/report/json.h"
#include "cli/report/report.h"
#include "tests/helpers.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static void check_name(int err, const char *name, const char *text)
{
	CHECKF(!strcmp(cli_errno_name(err), name), "%d: name \"%s\", want \"%s\"", err,
	       cli_errno_name(err), name);
	CHECKF(!strcmp(cli_errno_text(err), text), "%d: text \"%s\", want \"%s\"", err,
	       cli_errno_text(err), text);
}

static void check_names(void)
{
	check_name(EIO, "EIO", "Input/output error");
	check_name(ENODATA, "ENODATA", "No data available");
	check_name(ETIMEDOUT, "ETIMEDOUT", "Connection timed out");
	check_name(EHWPOISON, "EHWPOISON", "Memory page has hardware error");
	check_name(0, "short", "short read");
	check_name(ENG_ERR_OTHER, "unknown", "unknown error");
	check_name(-5, "unknown", "unknown error");
	CHECK(EHWPOISON == ENG_ERRNO_MAX);
}

static void check_errs(void)
{
	uint64_t count[ENG_ERR_SLOTS] = { 0 };
	struct cli_dev d;

	memset(&d, 0, sizeof(d));
	count[ENODATA] = 3;
	count[EIO] = 10;
	count[0] = 4;
	d.errors = 17;
	cli_dev_errs(&d, count, ENODATA, 1.5);
	CHECK(d.errs.first == ENODATA && d.errs.first_s == 1.5);
	CHECKF(d.errs.common == EIO && d.errs.common_count == 10, "most %d x %llu",
	       d.errs.common, (unsigned long long)d.errs.common_count);
	/* short reads alone: the most common is errno 0 */
	memset(count, 0, sizeof(count));
	count[0] = 2;
	d.errors = 2;
	cli_dev_errs(&d, count, 0, 0.25);
	CHECK(d.errs.common == 0 && d.errs.common_count == 2);
	d.errors = 0;
	cli_dev_errs(&d, count, EIO, 1.0);
	CHECK(d.errs.first == 0 && d.errs.common_count == 0);
}

static void check_footer(void)
{
	uint64_t count[ENG_ERR_SLOTS] = { 0 };
	struct cli_dev dev[2];
	struct cli_report r = { .ndev = 2, .dev = dev };
	char buf[512] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	memset(dev, 0, sizeof(dev));
	snprintf(dev[0].name, sizeof(dev[0].name), "loop0");
	snprintf(dev[1].name, sizeof(dev[1].name), "loop3");
	dev[1].errors = count[EIO] = 13628;
	cli_dev_errs(&dev[1], count, EIO, 3.021);
	CHECK(f != NULL);
	if (!f)
		return;
	cli_report_print_errors(f, &r);
	fclose(f);
	CHECKF(!strcmp(buf, "loop3: 13628 errors from 3.02s: first EIO (Input/output error), most EIO\n"),
	       "footer \"%s\"", buf);
}

static void check_json(void)
{
	uint64_t count[ENG_ERR_SLOTS] = { 0 };
	struct cli_dev d;
	json_t *j, *fe, *mc;

	memset(&d, 0, sizeof(d));
	j = cli_json_dev(&d);
	CHECK(j && json_is_null(json_object_get(j, "first_error")) &&
	      json_is_null(json_object_get(j, "most_common_error")));
	json_decref(j);
	d.errors = count[EIO] = 7;
	cli_dev_errs(&d, count, EIO, 0.5);
	j = cli_json_dev(&d);
	fe = json_object_get(j, "first_error");
	mc = json_object_get(j, "most_common_error");
	CHECK(json_integer_value(json_object_get(fe, "errno")) == EIO);
	CHECK(!strcmp(json_string_value(json_object_get(fe, "name")), "EIO"));
	CHECK(!strcmp(json_string_value(json_object_get(fe, "text")), "Input/output error"));
	CHECK(json_real_value(json_object_get(fe, "at_s")) == 0.5);
	CHECK(!strcmp(json_string_value(json_object_get(mc, "name")), "EIO"));
	CHECK(json_integer_value(json_object_get(mc, "count")) == 7);
	json_decref(j);
}

int main(void)
{
	check_names();
	check_errs();
	check_footer();
	check_json();
	return t_result();
}
