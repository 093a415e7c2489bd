/* What an output may be: see outpath.h. */
#include "cli/report/outpath.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/major.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli/report/say.h"

/* MAXSYMLINKS (include/linux/namei.h): the kernel's own bound on the links
 * one walk follows, past which it says ELOOP */
#define MAX_LINKS 40
/* fs/configfs/mount.c: not in the uapi headers */
#define CONFIGFS_MAGIC 0x62656570

/* ---- what a path is ---- */

/* File systems whose files are the kernel's interface, not storage: a
 * write there is an order (sysrq-trigger, a device's 'delete', an EFI
 * variable), never a report. The magics of include/uapi/linux/magic.h. */
static const struct {
	unsigned long magic;
	const char *name;
} kernel_fs[] = {
	{ PROC_SUPER_MAGIC, "proc" },		{ SYSFS_MAGIC, "sysfs" },
	{ DEBUGFS_MAGIC, "debugfs" },		{ TRACEFS_MAGIC, "tracefs" },
	{ SECURITYFS_MAGIC, "securityfs" },	{ SELINUX_MAGIC, "selinuxfs" },
	{ SMACK_MAGIC, "smackfs" },		{ CGROUP_SUPER_MAGIC, "cgroup" },
	{ CGROUP2_SUPER_MAGIC, "cgroup2" },	{ BPF_FS_MAGIC, "bpf" },
	{ CONFIGFS_MAGIC, "configfs" },		{ EFIVARFS_MAGIC, "efivarfs" },
	{ PSTOREFS_MAGIC, "pstore" },		{ BINFMTFS_MAGIC, "binfmt_misc" },
	{ USBDEVICE_SUPER_MAGIC, "usbfs" },	{ RDTGROUP_SUPER_MAGIC, "resctrl" },
	{ NSFS_MAGIC, "nsfs" },
};

/* The kernel interface path lies on (statfs follows it), or NULL. */
static const char *kernel_fs_of(const char *path)
{
	struct statfs sf;
	size_t i;

	if (statfs(path, &sf))
		return NULL;
	for (i = 0; i < sizeof(kernel_fs) / sizeof(kernel_fs[0]); i++)
		if ((unsigned long)sf.f_type == kernel_fs[i].magic)
			return kernel_fs[i].name;
	return NULL;
}

/* A character device a report may go to: /dev/null (drivers/char/mem.c,
 * minor 3 of MEM_MAJOR) or a terminal, by the majors of
 * include/uapi/linux/major.h: virtual consoles and serial ports
 * (TTY_MAJOR), /dev/tty and /dev/console (TTYAUX_MAJOR minors 0 and 1;
 * minor 2 is /dev/ptmx, which opens a new pty), BSD and Unix98 pty
 * slaves. A device is never opened to ask: opening some (a watchdog)
 * has effects of its own. */
static enum cli_outpath_kind chr_kind(dev_t rdev, bool *ok)
{
	unsigned maj = major(rdev), min = minor(rdev);

	*ok = true;
	if (maj == MEM_MAJOR && min == 3)
		return CLI_OUTPATH_NULL;
	if (maj == TTY_MAJOR || maj == PTY_SLAVE_MAJOR || (maj == TTYAUX_MAJOR && min <= 1) ||
	    (maj >= UNIX98_PTY_SLAVE_MAJOR &&
	     maj < UNIX98_PTY_SLAVE_MAJOR + UNIX98_PTY_MAJOR_COUNT))
		return CLI_OUTPATH_TTY;
	*ok = false;
	return CLI_OUTPATH_NEW;
}

#define GOES "reports go to a regular file, a FIFO, /dev/null or a terminal"

/* p->kind from p->st: 0, or -EINVAL with p->why. */
static int classify(struct cli_outpath *p)
{
	const struct stat *st = &p->st;
	const char *kfs;
	bool ok;

	switch (st->st_mode & S_IFMT) {
	case S_IFREG:
		kfs = kernel_fs_of(p->real);
		if (kfs) {
			snprintf(p->why, sizeof(p->why),
				 "a file of %s, a kernel interface, where a write is an order: " GOES,
				 kfs);
			return -EINVAL;
		}
		p->kind = CLI_OUTPATH_FILE;
		return 0;
	case S_IFIFO:
		p->kind = CLI_OUTPATH_FIFO;
		return 0;
	case S_IFDIR:
		snprintf(p->why, sizeof(p->why), "%s", strerror(EISDIR));
		return -EISDIR;
	case S_IFCHR:
		p->kind = chr_kind(st->st_rdev, &ok);
		if (ok)
			return 0;
		snprintf(p->why, sizeof(p->why), "a character device (%u:%u): " GOES,
			 major(st->st_rdev), minor(st->st_rdev));
		return -EINVAL;
	case S_IFBLK:
		snprintf(p->why, sizeof(p->why), "a block device: " GOES);
		return -EINVAL;
	default:
		snprintf(p->why, sizeof(p->why), "a socket: " GOES);
		return -EINVAL;
	}
}

/* ---- resolving symlinks as protected_symlinks would ---- */

static bool on_proc(const char *path)
{
	struct statfs sf;

	return !statfs(path, &sf) && sf.f_type == PROC_SUPER_MAGIC;
}

/* fs/namei.c, may_follow_link: with fs.protected_symlinks=1 a link is
 * followed when its owner is the follower (the fsuid: the euid here), or
 * its directory is not both sticky and world-writable, or the directory's
 * owner owns the link too. */
static bool may_follow(const struct stat *dir, const struct stat *link)
{
	if (link->st_uid == geteuid())
		return true;
	if ((dir->st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return true;
	return dir->st_uid == link->st_uid;
}

/* dst = a "/" b, within PATH_MAX: 0 or -ENAMETOOLONG. */
static int join(char *dst, const char *a, const char *b)
{
	char tmp[PATH_MAX];
	int n = snprintf(tmp, sizeof(tmp), "%s/%s", a, b);

	if (n < 0 || (size_t)n >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(dst, tmp, (size_t)n + 1);
	return 0;
}

/* The directory done names ("" is the root). */
static const char *dir_name(const char *done)
{
	return *done ? done : "/";
}

/* A link at cand, in the directory done: may it be followed? 0, or
 * -EACCES with p->why; -errno where the directory cannot be looked at. */
static int check_link(struct cli_outpath *p, const char *done, const char *cand,
		      const struct stat *link)
{
	struct stat dir;

	if (stat(dir_name(done), &dir))
		return -errno;
	if (may_follow(&dir, link))
		return 0;
	snprintf(p->why, sizeof(p->why),
		 "a symlink (%.160s) owned by uid %u in the sticky, world-writable %.160s of uid %u: not followed (the kernel's protected_symlinks rule)",
		 cand, (unsigned)link->st_uid, dir_name(done), (unsigned)dir.st_uid);
	return -EACCES;
}

/* path resolved into p->real, component by component, each link checked
 * (check_link) before it is followed. The last component need not be
 * there (p->real is then where the file will be). A link that lies on
 * proc (/proc/self/fd/1, which /dev/stdout names) is a magic link with no
 * path behind it ("pipe:[123]"): the rest is left to the kernel, whose
 * own rule is in force there (proc has no sticky directory).
 * 0 or -errno (p->why filled where the errno would not say it). */
static int resolve(const char *path, struct cli_outpath *p)
{
	char todo[PATH_MAX], next[PATH_MAX], link[PATH_MAX], cand[PATH_MAX];
	char *done = p->real, *comp, *rest, *slash;
	unsigned links = 0;
	struct stat st;
	ssize_t n;
	int rc;

	if (strlen(path) >= sizeof(todo))
		return -ENAMETOOLONG;
	strcpy(todo, path);
	done[0] = '\0';
	if (path[0] != '/') {
		if (!getcwd(done, PATH_MAX))
			return -errno;
		if (!strcmp(done, "/"))
			done[0] = '\0';
	}
	for (;;) {
		comp = todo + strspn(todo, "/");
		if (!*comp)
			return 0;
		slash = strchr(comp, '/');
		rest = slash ? slash + 1 : comp + strlen(comp);
		if (slash)
			*slash = '\0';
		if (!strcmp(comp, ".")) {
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if (!strcmp(comp, "..")) {
			/* done holds no link: its parent is the physical one
			 * ("/a/b" -> "/a", "/a" -> "" the root, which stays) */
			if (*done)
				*strrchr(done, '/') = '\0';
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		rc = join(cand, done, comp);
		if (rc)
			return rc;
		if (lstat(cand, &st)) {
			rc = -errno;
			/* the file to create: the last component, not there */
			if (rc == -ENOENT && !rest[strspn(rest, "/")]) {
				strcpy(done, cand);
				return 0;
			}
			return rc;
		}
		if (!S_ISLNK(st.st_mode)) {
			if (rest[strspn(rest, "/")] && !S_ISDIR(st.st_mode))
				return -ENOTDIR;
			strcpy(done, cand);
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if (++links > MAX_LINKS)
			return -ELOOP;
		rc = check_link(p, done, cand, &st);
		if (rc)
			return rc;
		if (on_proc(dir_name(done))) {
			p->magic = true;
			if (*rest)
				return join(done, cand, rest);
			strcpy(done, cand);
			return 0;
		}
		n = readlink(cand, link, sizeof(link) - 1);
		if (n < 0)
			return -errno;
		link[n] = '\0';
		if (link[0] == '/')
			done[0] = '\0';
		rc = *rest ? join(next, link, rest) : 0;
		if (rc)
			return rc;
		strcpy(todo, *rest ? next : link);
	}
}

/* ---- claims: what no output may be ---- */

struct claim {
	const char *path, *what;
	bool there;		/* st is what is there */
	struct stat st;
	char *real;		/* an output not there yet: where it will be */
};

static struct claim *claims;
static size_t nclaims, cap;

static int add_claim(const char *path, const char *what, const struct stat *st,
		     const char *real)
{
	struct claim *c;

	if (nclaims == cap) {
		size_t ncap = cap ? 2 * cap : 16;

		c = realloc(claims, ncap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		claims = c;
		cap = ncap;
	}
	c = &claims[nclaims];
	memset(c, 0, sizeof(*c));
	c->path = path;
	c->what = what;
	if (st) {
		c->there = true;
		c->st = *st;
	} else if (!(c->real = strdup(real))) {
		return -ENOMEM;
	}
	nclaims++;
	return 0;
}

int cli_outpath_claim(const char *path, const char *what)
{
	struct stat st;

	if (!path || !strcmp(path, "-") || stat(path, &st))
		return 0;
	return add_claim(path, what, &st, NULL);
}

int cli_outpath_claim_all(char *const *paths, unsigned n, const char *what)
{
	unsigned i;
	int rc = 0;

	for (i = 0; i < n && !rc; i++)
		rc = cli_outpath_claim(paths[i], what);
	if (rc)
		cli_say("out of memory");
	return rc;
}

int cli_outpath_claim_checked(const char *path, const char *what,
			      const struct cli_outpath *p)
{
	return add_claim(path, what, p->kind == CLI_OUTPATH_NEW ? NULL : &p->st, p->real);
}

void cli_outpath_forget(void)
{
	size_t i;

	for (i = 0; i < nclaims; i++)
		free(claims[i].real);
	free(claims);
	claims = NULL;
	nclaims = cap = 0;
}

/* a and b are one file: one inode, or one device by two names (a block
 * device and its partition-less alias, /dev/disk/by-id). */
static bool same(const struct stat *a, const struct stat *b)
{
	bool dev_a = S_ISBLK(a->st_mode) || S_ISCHR(a->st_mode);
	bool dev_b = S_ISBLK(b->st_mode) || S_ISCHR(b->st_mode);

	if (dev_a && dev_b && (a->st_mode & S_IFMT) == (b->st_mode & S_IFMT) &&
	    a->st_rdev == b->st_rdev)
		return true;
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The claim p is, or NULL. /dev/null and terminals are shared by every
 * output that names them, as by a shell's redirections. */
static const struct claim *claimed(const struct cli_outpath *p)
{
	size_t i;

	if (p->kind == CLI_OUTPATH_NULL || p->kind == CLI_OUTPATH_TTY)
		return NULL;
	for (i = 0; i < nclaims; i++) {
		const struct claim *c = &claims[i];

		if (p->kind == CLI_OUTPATH_NEW ? c->real && !strcmp(c->real, p->real) :
		    c->there && same(&c->st, &p->st))
			return c;
	}
	return NULL;
}

/* ---- the check ---- */

int cli_outpath_check(const char *path, struct cli_outpath *p)
{
	const struct claim *c;
	char dir[PATH_MAX], *slash;
	const char *kfs;
	int rc;

	memset(p, 0, sizeof(*p));
	rc = resolve(path, p);
	if (!rc && stat(p->real, &p->st)) {
		rc = -errno;
		if (rc == -ENOENT && !p->magic) {
			/* a new file: its folder is there (resolve saw it) */
			rc = 0;
			p->kind = CLI_OUTPATH_NEW;
			strcpy(dir, p->real);
			slash = strrchr(dir, '/');
			*(slash == dir ? slash + 1 : slash) = '\0';
			kfs = kernel_fs_of(dir);
			if (kfs) {
				snprintf(p->why, sizeof(p->why),
					 "in %s, a kernel interface, where a write is an order: " GOES,
					 kfs);
				return -EINVAL;
			}
		}
	} else if (!rc) {
		rc = classify(p);
		/* a device that is a target is named as the target: the more
		 * telling of the two reasons */
		if (rc == -EINVAL && !S_ISREG(p->st.st_mode)) {
			p->kind = CLI_OUTPATH_FILE;
			if (claimed(p))
				rc = 0;
		}
	}
	if (rc) {
		if (!p->why[0])
			snprintf(p->why, sizeof(p->why), "%s", strerror(-rc));
		return rc;
	}
	c = claimed(p);
	if (c) {
		p->why[0] = '\0';
		snprintf(p->why, sizeof(p->why),
			 c->what[0] == '-' ? "is %s %.300s too: give each output its own file" :
			 "is %s %.300s, which is only read, never written", c->what, c->path);
		return -EINVAL;
	}
	return 0;
}

/* ---- opening what was checked ---- */

int cli_outpath_open(const struct cli_outpath *p, int flags)
{
	struct stat st;
	int fd, rc;

	flags |= O_WRONLY | O_CLOEXEC | O_NOCTTY;
	/* a magic link is the kernel's to follow; anywhere else a link swapped
	 * in since the check is not followed */
	if (!p->magic)
		flags |= O_NOFOLLOW;
	if (p->kind == CLI_OUTPATH_NEW && (flags & O_CREAT))
		flags |= O_EXCL;
	fd = open(p->real, flags, 0666);
	if (fd < 0)
		return -errno;
	rc = fstat(fd, &st) ? -errno : 0;
	if (!rc && p->kind != CLI_OUTPATH_NEW && !same(&st, &p->st))
		rc = -ESTALE;
	if (!rc && p->kind == CLI_OUTPATH_NEW && !S_ISREG(st.st_mode))
		rc = -ESTALE;
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}
