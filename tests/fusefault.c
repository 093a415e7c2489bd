/* fusefault MOUNTPOINT SIZE_MIB: a FUSE file system whose file "data"
 * (SIZE_MIB MiB of a pattern: each 8-byte word holds its own offset) fails
 * or hangs on command. Writing to "ctl":
 *   ok    reads are served (held ones too, now)
 *   eio   reads fail with EIO (held ones too, now)
 *   hang  reads are held, unanswered, until the next command
 *   gone  reads fail with ENODEV, as from a device that went away (read
 *         the file itself, not a loop device on it: the loop driver turns
 *         every failure into EIO)
 * Held reads are also answered (EIO) when the file system goes away. A
 * process blocked on a held read cannot be killed until it is answered, so
 * a test must always write "ok" before it ends (tests/lib.sh does).
 *
 * Put a loop device on MOUNTPOINT/data and it is a block device that fails
 * or hangs on cue. One thread: a held read is a stored request, never a
 * blocked handler, so "ctl" is always answered. Returns once mounted. */
#define FUSE_USE_VERSION 31
#include <fuse_lowlevel.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define INO_DATA 2
#define INO_CTL 3
#define MAX_READ (1u << 20)

enum mode { MODE_OK, MODE_EIO, MODE_HANG, MODE_GONE };

struct held {
	fuse_req_t req;
	size_t size;
	off_t off;
};

static uint64_t data_size;
static enum mode mode;
static struct held *held;
static size_t nheld, held_cap;

static void fill_attr(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_nlink = 1;
	if (ino == FUSE_ROOT_ID) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else if (ino == INO_DATA) {
		st->st_mode = S_IFREG | 0444;
		st->st_size = (off_t)data_size;
	} else {
		st->st_mode = S_IFREG | 0666;
	}
}

static void ff_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;

	memset(&e, 0, sizeof(e));
	if (parent != FUSE_ROOT_ID || (strcmp(name, "data") && strcmp(name, "ctl"))) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	e.ino = strcmp(name, "data") ? INO_CTL : INO_DATA;
	e.attr_timeout = 1.0;
	e.entry_timeout = 1.0;
	fill_attr(e.ino, &e.attr);
	fuse_reply_entry(req, &e);
}

static void ff_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct stat st;

	(void)fi;
	if (ino != FUSE_ROOT_ID && ino != INO_DATA && ino != INO_CTL) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_attr(ino, &st);
	fuse_reply_attr(req, &st, 1.0);
}

/* "echo ok > ctl" truncates first: accepted, nothing changes. */
static void ff_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
		       struct fuse_file_info *fi)
{
	(void)attr;
	(void)to_set;
	ff_getattr(req, ino, fi);
}

static void ff_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	if (ino == FUSE_ROOT_ID) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	/* no page cache: every read of data reaches us, so a switch to eio or
	 * hang is seen by the very next read, not after the cache runs dry */
	fi->direct_io = 1;
	fi->keep_cache = 0;
	fuse_reply_open(req, fi);
}

static void serve(fuse_req_t req, size_t size, off_t off)
{
	static unsigned char buf[MAX_READ];
	uint64_t o, end;
	size_t i;

	if ((uint64_t)off >= data_size) {
		fuse_reply_buf(req, NULL, 0);
		return;
	}
	end = (uint64_t)off + size < data_size ? (uint64_t)off + size : data_size;
	size = (size_t)(end - (uint64_t)off);
	if (size > sizeof(buf))
		size = sizeof(buf);
	for (i = 0; i < size; i++) {
		o = (uint64_t)off + i;
		buf[i] = (unsigned char)((o & ~7ull) >> (8 * (o & 7)));
	}
	fuse_reply_buf(req, (const char *)buf, size);
}

static void hold(fuse_req_t req, size_t size, off_t off)
{
	struct held *h;

	if (nheld == held_cap) {
		h = realloc(held, (held_cap ? 2 * held_cap : 64) * sizeof(*held));
		if (!h) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
		held = h;
		held_cap = held_cap ? 2 * held_cap : 64;
	}
	held[nheld++] = (struct held){ req, size, off };
}

/* Answers every held read: served when m is MODE_OK, else failed. */
static void release(enum mode m)
{
	size_t i;

	for (i = 0; i < nheld; i++) {
		if (m == MODE_OK)
			serve(held[i].req, held[i].size, held[i].off);
		else
			fuse_reply_err(held[i].req, m == MODE_GONE ? ENODEV : EIO);
	}
	nheld = 0;
}

static void ff_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	static const char *const name[] = { "ok\n", "eio\n", "hang\n", "gone\n" };
	size_t len = strlen(name[mode]);

	(void)fi;
	if (ino == INO_CTL)
		fuse_reply_buf(req, name[mode] + (off < (off_t)len ? off : (off_t)len),
			       off < (off_t)len ? len - (size_t)off : 0);
	else if (mode == MODE_EIO)
		fuse_reply_err(req, EIO);
	else if (mode == MODE_GONE)
		fuse_reply_err(req, ENODEV);
	else if (mode == MODE_HANG)
		hold(req, size, off);
	else
		serve(req, size, off);
}

static void ff_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size,
		     off_t off, struct fuse_file_info *fi)
{
	size_t n = size;

	(void)off;
	(void)fi;
	if (ino != INO_CTL) {
		fuse_reply_err(req, EACCES);
		return;
	}
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	if (n == 2 && !memcmp(buf, "ok", 2))
		mode = MODE_OK;
	else if (n == 3 && !memcmp(buf, "eio", 3))
		mode = MODE_EIO;
	else if (n == 4 && !memcmp(buf, "hang", 4))
		mode = MODE_HANG;
	else if (n == 4 && !memcmp(buf, "gone", 4))
		mode = MODE_GONE;
	else {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (mode != MODE_HANG)
		release(mode);
	fuse_reply_write(req, size);
}

/* names and attributes; then the two files' IO */
static const struct fuse_lowlevel_ops ops = {
	.lookup = ff_lookup, .getattr = ff_getattr, .setattr = ff_setattr,
	.open = ff_open, .read = ff_read, .write = ff_write,
};

static int parse_size(const char *s)
{
	char *end;
	unsigned long mib;

	errno = 0;
	mib = strtoul(s, &end, 10);
	if (errno || end == s || *end || !mib || mib > (1ul << 20)) {
		fprintf(stderr, "fusefault: SIZE_MIB must be 1..1048576, not '%s'\n", s);
		return -1;
	}
	data_size = (uint64_t)mib << 20;
	return 0;
}

int main(int argc, char **argv)
{
	char *fargv[] = { argv[0], "-o", "fsname=fusefault,default_permissions", NULL };
	struct fuse_args args = FUSE_ARGS_INIT(3, fargv);
	struct fuse_session *se;
	int ret = 1;

	if (argc != 3) {
		fprintf(stderr, "usage: fusefault MOUNTPOINT SIZE_MIB\n");
		return 2;
	}
	if (parse_size(argv[2]))
		return 2;
	se = fuse_session_new(&args, &ops, sizeof(ops), NULL);
	if (!se)
		return 1;
	if (fuse_set_signal_handlers(se) == 0) {
		if (fuse_session_mount(se, argv[1]) == 0) {
			/* the parent returns here, once mounted */
			fuse_daemonize(0);
			ret = fuse_session_loop(se) ? 1 : 0;
			/* unmounted or signalled: nothing stays held */
			release(MODE_EIO);
			fuse_session_unmount(se);
		}
		fuse_remove_signal_handlers(se);
	}
	fuse_session_destroy(se);
	free(held);
	return ret;
}
