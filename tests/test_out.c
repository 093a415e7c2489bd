/* The output layer: the microsecond format's precision steps, the prefix
 * of a line before and after a verb is named, and cli_json_write: a new
 * file complete with its newline and fopen's mode, nothing left beside it,
 * a missing directory reported with the path, a device written in place. */
#include "cli/out.h"
#include "tests/helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void check_us(double ns, bool known, const char *want)
{
	char buf[32];

	cli_fmt_us(buf, sizeof(buf), ns, known);
	CHECKF(!strcmp(buf, want), "%.0f ns: \"%s\", want \"%s\"", ns, buf, want);
}

/* What cli_say prints, caught in a file. */
static void check_say(const char *want)
{
	char path[] = "/tmp/iostorm-test-out-XXXXXX", got[128] = "";
	int fd = mkstemp(path), saved = dup(STDERR_FILENO);
	ssize_t n;

	CHECK(fd >= 0 && saved >= 0);
	if (fd < 0 || saved < 0)
		return;
	dup2(fd, STDERR_FILENO);
	cli_say("%s: %d", "bad", 7);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, got, sizeof(got) - 1, 0);
	got[n > 0 ? n : 0] = '\0';
	CHECKF(!strcmp(got, want), "said \"%s\", want \"%s\"", got, want);
	close(fd);
	unlink(path);
}

static void check_write(const char *dir)
{
	char path[256], err[512];
	json_t *j = json_pack("{s:s, s:f}", "schema", CLI_JSON_SCHEMA, "x", 1.5), *back;
	struct stat st;
	mode_t mask = umask(022);

	snprintf(path, sizeof(path), "%s/r.json", dir);
	CHECKF(!cli_json_write(j, path, CLI_JSON_REPORT, err, sizeof(err)), "%s", err);
	back = json_load_file(path, 0, NULL);
	CHECK(back && json_equal(back, j));
	json_decref(back);
	CHECK(!stat(path, &st) && (st.st_mode & 0777) == 0644);
	snprintf(path, sizeof(path), "%s/none/r.json", dir);
	CHECK(cli_json_write(j, path, CLI_JSON_REPORT, err, sizeof(err)) == -ENOENT);
	CHECKF(strstr(err, path) && strstr(err, strerror(ENOENT)), "%s", err);
	CHECKF(!cli_json_write(j, "/dev/null", CLI_JSON_REPORT, err, sizeof(err)), "%s", err);
	CHECK(!stat("/dev/null", &st) && S_ISCHR(st.st_mode));
	/* NULL: building it ran out of memory, said as such */
	CHECK(cli_out_json(path, NULL, CLI_JSON_REPORT) == 1);
	json_decref(j);
	umask(mask);
}

int main(void)
{
	char dir[] = "/tmp/iostorm-test-out-XXXXXX", path[300];

	check_us(1234, true, "1.23");
	check_us(9994, true, "9.99");
	check_us(12345, true, "12.3");
	check_us(999900, true, "999.9");
	check_us(1234567, true, "1235");
	check_us(1234, false, "-");
	check_say("iostorm: bad: 7\n");
	cli_out_verb("run");
	check_say("iostorm run: bad: 7\n");
	if (!mkdtemp(dir))
		SKIP("no temporary directory");
	check_write(dir);
	/* only r.json: no PATH.tmp-* left beside it */
	snprintf(path, sizeof(path), "%s/r.json", dir);
	CHECK(!unlink(path) && !rmdir(dir));
	return t_result();
}
