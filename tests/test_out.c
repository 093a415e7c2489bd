/* The output layer: the microsecond format's precision steps, the prefix
 * of a line before and after a verb is named, cli_json_write: a new file
 * complete with its newline and fopen's mode, nothing left beside it, a
 * missing directory reported with the path, a device written in place;
 * and the reservation before the work: a missing folder or a directory
 * refused at once with nothing left, a dropped reservation leaving
 * nothing, the reserved report written at the end, an old report intact
 * until then, a FIFO not opened (no reader waited for), a symlink's file
 * replaced whole at the end with the link kept. */
#include "cli/report/out.h"
#include "tests/helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
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
	CHECK(cli_out_json(path, NULL, CLI_JSON_REPORT) == -ENOMEM);
	json_decref(j);
	umask(mask);
}

/* Files in dir whose name has ".tmp-": temporaries left behind. */
static int temporaries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strstr(e->d_name, ".tmp-") != NULL;
	closedir(d);
	return n;
}

static void check_reserve(const char *dir)
{
	char path[256], link[256], fifo[256], err[512], buf[64] = "";
	json_t *j = json_pack("{s:s}", "schema", CLI_JSON_SCHEMA), *back;
	struct cli_outfile f;
	struct stat st;
	FILE *old;

	snprintf(path, sizeof(path), "%s/none/r.json", dir);
	CHECK(cli_outfile_reserve(&f, path) == -ENOENT && !f.path && f.fd < 0);
	CHECK(cli_outfile_reserve(&f, dir) == -EISDIR && !f.path);
	CHECK(cli_outfile_reserve(&f, "/dev/null") == 0 && f.fd >= 0 && !f.tmp[0]);
	cli_outfile_discard(&f);
	CHECK(temporaries(dir) == 0);

	/* reserved, then dropped: nothing there */
	snprintf(path, sizeof(path), "%s/res.json", dir);
	CHECK(!cli_outfile_reserve(&f, path) && f.tmp[0] && temporaries(dir) == 1);
	cli_outfile_discard(&f);
	CHECK(temporaries(dir) == 0 && stat(path, &st) && errno == ENOENT);
	cli_outfile_discard(&f);	/* twice: harmless */

	/* the old report stays whole until the reserved one replaces it */
	old = fopen(path, "w");
	CHECK(old && fputs("old\n", old) >= 0 && !fclose(old));
	CHECK(cli_out_reserve(path) == 0 && temporaries(dir) == 1);
	old = fopen(path, "r");
	CHECK(old && fgets(buf, sizeof(buf), old) && !strcmp(buf, "old\n"));
	if (old)
		fclose(old);
	CHECKF(!cli_json_write(j, path, CLI_JSON_REPORT, err, sizeof(err)), "%s", err);
	back = json_load_file(path, 0, NULL);
	CHECK(back && json_equal(back, j) && temporaries(dir) == 0);
	json_decref(back);
	cli_out_release();	/* already written: nothing to drop */
	CHECK(!stat(path, &st) && temporaries(dir) == 0);

	/* a reservation released unwritten (a failed run) leaves nothing */
	snprintf(path, sizeof(path), "%s/fail.json", dir);
	CHECK(cli_out_reserve(path) == 0 && temporaries(dir) == 1);
	cli_out_release();
	CHECK(temporaries(dir) == 0 && stat(path, &st) && errno == ENOENT);
	CHECK(cli_out_reserve("-") == 0 && cli_out_reserve(NULL) == 0 && temporaries(dir) == 0);

	/* the claims of this command's outputs end with it (a file replaced
	 * since may free an inode a new file takes) */
	cli_outpath_forget();

	/* a FIFO: checked, not opened (that would wait for a reader) */
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	CHECK(!mkfifo(fifo, 0600));
	CHECKF(!cli_outfile_reserve(&f, fifo) && f.fd < 0 && !f.tmp[0], "%s", f.at.why);
	cli_outfile_discard(&f);
	CHECK(!unlink(fifo));

	/* a symlink's file: replaced whole beside it at the end, the link kept */
	snprintf(path, sizeof(path), "%s/res.json", dir);
	snprintf(link, sizeof(link), "%s/link.json", dir);
	CHECK(!symlink(path, link));
	CHECKF(!cli_outfile_reserve(&f, link) && f.fd >= 0 && f.tmp[0] && temporaries(dir) == 1,
	       "%s", f.at.why);
	CHECK(!stat(path, &st) && st.st_size > 0);
	CHECK(cli_outfile_fd(&f) == f.fd);
	CHECK(write(f.fd, "x\n", 2) == 2 && !cli_outfile_commit(&f) && f.fd < 0 && !f.path);
	CHECK(!lstat(link, &st) && S_ISLNK(st.st_mode) && !stat(path, &st) && st.st_size == 2);
	CHECK(!unlink(link) && !unlink(path) && temporaries(dir) == 0);
	json_decref(j);
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
	check_reserve(dir);
	/* only r.json: no PATH.tmp-* left beside it */
	snprintf(path, sizeof(path), "%s/r.json", dir);
	CHECK(!unlink(path) && !rmdir(dir));
	return t_result();
}
