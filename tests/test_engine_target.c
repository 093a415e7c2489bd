/* eng_target_open: sizes and kinds of good targets, every error it
 * documents, and eng_target_same through symlinks, hard links and device
 * nodes. */
#include "tests/test_engine_util.h"

#include <sys/mount.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

static char tmpdir[128];		/* links and nodes, removed at exit */
static char ramdir[256];		/* ramfs mount point */
static bool ram_mounted;

static void cleanup(void)
{
	char cmd[PATH_MAX + 32];

	if (ram_mounted && umount2(ramdir, MNT_DETACH) < 0)
		fprintf(stderr, "umount %s: %s\n", ramdir, strerror(errno));
	ram_mounted = false;
	if (ramdir[0])
		rmdir(ramdir);
	if (tmpdir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", tmpdir);
	}
	ramdir[0] = tmpdir[0] = '\0';
}

static int open_err(const char *path, bool buffered)
{
	struct eng_target t;
	int ret = eng_target_open(&t, path, buffered);

	CHECKF(t.fd < 0 || ret == 0, "%s: fd %d left open after %d", path,
	       t.fd, ret);
	if (!ret)
		eng_target_close(&t);
	return ret;
}

static void test_errors(void)
{
	char path[PATH_MAX], longp[PATH_MAX + 16];
	int fd, ret;

	ret = open_err("/var/tmp/iostorm-no-such-file-here", false);
	CHECKF(ret == -ENOENT, "missing: %d", ret);
	ret = open_err(tmpdir, false);
	CHECKF(ret == -EISDIR, "directory: %d", ret);
	ret = open_err("/dev/null", false);
	CHECKF(ret == -ENOTBLK, "char device: %d", ret);
	ret = open_err("/dev/null", true);
	CHECKF(ret == -ENOTBLK, "char device, buffered: %d", ret);

	snprintf(path, sizeof(path), "%s/empty", tmpdir);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	CHECK(fd >= 0);
	ret = open_err(path, false);
	CHECKF(ret == -ENOSPC, "empty file: %d", ret);
	ret = open_err(path, true);
	CHECKF(ret == -ENOSPC, "empty file, buffered: %d", ret);
	CHECK(write(fd, "0123456789", 10) == 10);
	close(fd);
	ret = open_err(path, false);
	CHECKF(ret == -ENOSPC, "10-byte file: %d", ret);

	memset(longp, 'a', sizeof(longp) - 1);
	longp[0] = '/';
	longp[sizeof(longp) - 1] = '\0';
	ret = open_err(longp, false);
	CHECKF(ret == -ENAMETOOLONG, "path too long: %d", ret);
}

/* A root-only file opened as nobody: -EACCES. Needs root to switch. */
static void test_permission(const char *file)
{
	char path[PATH_MAX];
	pid_t pid;
	int st = 0;

	if (geteuid() != 0) {
		printf("no permission: not root, not checked\n");
		return;
	}
	snprintf(path, sizeof(path), "%s/secret", tmpdir);
	CHECK(link(file, path) == 0);
	CHECK(chmod(path, 0600) == 0);
	CHECK(chmod(tmpdir, 0755) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		if (setgid(65534) < 0 || setuid(65534) < 0)
			_exit(3);
		_exit(open_err(path, false) == -EACCES ? 0 : 1);
	}
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "nobody opening a 0600 root file: child status %d", st);
	CHECK(chmod(path, 0644) == 0);
}

static void test_file(const char *file, uint64_t size)
{
	struct eng_target a, b, c;
	char sym[PATH_MAX], hard[PATH_MAX], other[PATH_MAX];
	const char *base = strrchr(file, '/') + 1;
	int ret;

	ret = eng_target_open(&a, file, false);
	CHECKF(ret == 0, "open %s: %d", file, ret);
	if (ret)
		return;
	CHECK(a.fd >= 0);
	CHECK(!a.is_blk);
	CHECK(!a.buffered);
	CHECKF(a.size == size, "size %" PRIu64, a.size);
	CHECKF(a.lbs == 512, "lbs %u", a.lbs);
	CHECKF(strcmp(a.name, base) == 0, "name %s", a.name);
	CHECK(strcmp(a.path, file) == 0);
	CHECK(fcntl(a.fd, F_GETFL) & O_DIRECT);
	CHECK((fcntl(a.fd, F_GETFL) & O_ACCMODE) == O_RDONLY);

	snprintf(sym, sizeof(sym), "%s/sym", tmpdir);
	snprintf(hard, sizeof(hard), "%s/hard", tmpdir);
	CHECK(symlink(file, sym) == 0);
	CHECK(link(file, hard) == 0);
	ret = eng_target_open(&b, sym, true);
	CHECKF(ret == 0, "open through symlink: %d", ret);
	if (!ret) {
		CHECK(b.buffered);
		CHECK(!(fcntl(b.fd, F_GETFL) & O_DIRECT));
		CHECK((fcntl(b.fd, F_GETFL) & O_ACCMODE) == O_RDONLY);
		CHECK(eng_target_same(&a, &b));
		CHECK(strcmp(b.name, "sym") == 0);
		eng_target_close(&b);
		CHECK(b.fd == -1);
	}
	ret = eng_target_open(&b, hard, false);
	CHECKF(ret == 0, "open through hard link: %d", ret);
	if (!ret) {
		CHECK(eng_target_same(&a, &b));
		eng_target_close(&b);
	}
	/* a copy is another file */
	CHECK(tu_write_file(other, sizeof(other), tmpdir, 8192) == 0);
	ret = eng_target_open(&c, other, false);
	CHECKF(ret == 0, "open copy: %d", ret);
	if (!ret) {
		CHECK(!eng_target_same(&a, &c));
		CHECKF(c.size == 8192, "size %" PRIu64, c.size);
		eng_target_close(&c);
	}
	eng_target_close(&a);
	CHECK(a.fd == -1);
	eng_target_close(&a);	/* twice is harmless */
}

/* ramfs has no direct IO: open(O_DIRECT) fails with EINVAL. */
static void test_no_direct(void)
{
	char path[PATH_MAX];
	int ret;

	snprintf(ramdir, sizeof(ramdir), "%s/ram", tmpdir);
	CHECK(mkdir(ramdir, 0755) == 0);
	if (mount("iostorm-test", ramdir, "ramfs", 0, NULL) < 0) {
		printf("O_DIRECT refusal: cannot mount ramfs (%s), not checked\n",
		       strerror(errno));
		return;
	}
	ram_mounted = true;
	ret = tu_write_file(path, sizeof(path), ramdir, 65536);
	CHECKF(ret == 0, "write on ramfs: %d", ret);
	if (ret)
		return;
	ret = open_err(path, false);
	CHECKF(ret == -EINVAL, "O_DIRECT on ramfs: %d", ret);
	ret = open_err(path, true);
	CHECKF(ret == 0, "buffered on ramfs: %d", ret);
	unlink(path);
}

static void test_loop(const char *file)
{
	struct eng_target a, b, f;
	char sym[PATH_MAX], node[PATH_MAX];
	const char *why = NULL, *dev = tu_loop_dev(1 << 20, 4096, &why);
	struct stat st;
	int ret;

	if (!dev) {
		printf("loop device: %s\n", why);
		return;
	}
	ret = eng_target_open(&a, dev, false);
	CHECKF(ret == 0, "open %s: %d", dev, ret);
	if (ret)
		return;
	CHECK(a.is_blk);
	CHECKF(a.size == 1 << 20, "loop size %" PRIu64, a.size);
	CHECKF(a.lbs == 4096, "loop lbs %u (--sector-size 4096)", a.lbs);
	CHECKF(strcmp(a.name, dev + 5) == 0, "name %s", a.name);
	CHECK(a.ino == 0);
	/* a measured device is never open for writing */
	CHECK((fcntl(a.fd, F_GETFL) & O_ACCMODE) == O_RDONLY);

	snprintf(sym, sizeof(sym), "%s/loopsym", tmpdir);
	CHECK(symlink(dev, sym) == 0);
	ret = eng_target_open(&b, sym, false);
	CHECKF(ret == 0, "open loop symlink: %d", ret);
	if (!ret) {
		CHECK(eng_target_same(&a, &b));
		eng_target_close(&b);
	}
	/* another device node with the same numbers is the same device */
	CHECK(stat(dev, &st) == 0);
	snprintf(node, sizeof(node), "%s/loopnode", tmpdir);
	if (mknod(node, S_IFBLK | 0600, st.st_rdev) == 0) {
		ret = eng_target_open(&b, node, false);
		CHECKF(ret == 0, "open second node: %d", ret);
		if (!ret) {
			CHECK(eng_target_same(&a, &b));
			eng_target_close(&b);
		}
	} else {
		printf("mknod not permitted here: second node not checked\n");
	}
	/* a file is never the same as a device, even the one it lives on */
	ret = eng_target_open(&f, file, false);
	CHECK(ret == 0);
	if (!ret) {
		CHECK(!eng_target_same(&a, &f));
		eng_target_close(&f);
	}
	eng_target_close(&a);
}

int main(void)
{
	const char *file;

	atexit(cleanup);
	snprintf(tmpdir, sizeof(tmpdir), "/var/tmp/iostorm-tgt.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		tmpdir[0] = '\0';
		fprintf(stderr, "mkdtemp under /var/tmp: %s\n", strerror(errno));
		return T_EXIT_FAIL;
	}
	file = tu_data_file(3 << 20);
	test_errors();
	test_file(file, 3 << 20);
	test_permission(file);
	test_no_direct();
	test_loop(file);
	return t_result();
}
