/* fusefault MOUNTPOINT SIZE_MIB: a FUSE file system whose file "data"
 * (SIZE_MIB MiB of a pattern: each 8-byte word holds its own offset) fails
 * or hangs on command. Writing to "ctl":
 *   ok    reads are served (held ones too, now)
 *   eio   reads fail with EIO (held ones too, now)
 *   hang  reads are held, unanswered, until the next command
 *   gone  reads fail with ENODEV, as from a device that went away (read
 *         the file itself, not a loop device on it: the loop driver turns
 *         every failure into EIO)
 *   slow  reads are served, each after SLOW_US (the one thread sleeps:
 *         at most 1e6 / SLOW_US a second), a drive that throttles
 *   decay reads are served, each after DECAY_US doubled for every
 *         second since the command (up to DECAY_MAX_US): the rate halves
 *         every second, a drive that never settles, whatever second a
 *         reader's samples start on
 *   load  reads are served, each after LOAD_US + LOAD_K_US * (r / 1000)^6,
 *         r the reads a second served lately (a moving average over
 *         LOAD_BUCKET_MS buckets): a device whose service time rises
 *         with the rate it is asked, steeply near its top (100 us idle,
 *         400 us at 1000 reads a second, 630 us at 1100; the one thread
 *         tops out near 1150 a second). Up to about 1000 a second the one
 *         thread is idle more than half the time, so an open loop's reads
 *         arrive as asked and the service time follows the rate asked,
 *         not a queue
 *   peak  reads are served when due, each due PEAK_US * max(1, (n / PEAK_N)^2)
 *         after it arrived, n the peak reads at the server then, this one
 *         counted: nothing sleeps, a read waits stored, so a closed loop
 *         at total depth d gets d / PEAK_US reads a second up to d =
 *         PEAK_N (16) and PEAK_N^2 / (d PEAK_US) above it: a device whose
 *         IOPS peaks at 16 reads in flight (4000 a second; about 3600
 *         through a loop device, whose path adds 0.3 to 0.5 ms a read),
 *         half of it at 8 and at 32
 * or a schedule counted in reads, not in seconds, so a test knows what the
 * device did from the order of things rather than from a guess about how
 * fast it runs: MODE COUNT MODE [COUNT MODE]... takes the first mode for
 * the next COUNT reads, then the next one:
 *   ok 2000 eio       2000 reads served, then every one fails
 *   ok 100 hang 1 ok  one read held after 100, all the others served
 *   eio 500 hang      500 failures, then reads are held
 * Reads held by a hang step stay held when the schedule moves on; held
 * reads are answered as the first mode of the next command says (a hang
 * keeps them). Reading "ctl" gives the mode now and what was done since
 * the last command: "MODE served N failed N held N" (held: now; a peak
 * read waiting for its time is not counted held, so that "held" stays
 * hang's). Peak reads waiting are answered at once by the next command as
 * held ones are (kept, as held, by a hang). Held and waiting reads are
 * also answered (EIO) when the file system goes away. A
 * process blocked on a held read cannot be killed until it is answered, so
 * a test must always write "ok" before it ends (tests/lib.sh does).
 *
 * Put a loop device on MOUNTPOINT/data and it is a block device that fails
 * or hangs on cue. One thread: a held read is a stored request, never a
 * blocked handler, so "ctl" is always answered. Returns once mounted.
 * FUSE sends the server at most max_background async reads at once (a
 * loop device's direct IO is async): the init raises it from 12 so that
 * depths up to 128 reach the server. */
#define FUSE_USE_VERSION 31
#include <fuse_lowlevel.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define INO_DATA 2
#define INO_CTL 3
#define MAX_READ (1u << 20)
#define MAX_STEPS 8

#define SLOW_US 2000
#define DECAY_US 100
#define DECAY_MAX_US 50000
#define LOAD_US 100.0
#define LOAD_K_US 300.0
#define LOAD_BUCKET_MS 25
/* The peak's service time: long against what the one thread spends on a
 * read (tens of us) and against a busy machine's scheduling delays (a
 * wakeup late by 100 us moves the peak's IOPS by 2.5%), short enough that
 * a test's depth search gets hundreds of reads a run: 4000 a second at
 * the peak, which keeps the one thread idle most of the time */
#define PEAK_US 4000
#define PEAK_N 16
/* fs/fuse/dev.c fuse_request_queue_background: a connection with
 * max_background requests out blocks the next sender (fc->blocked, waited
 * on in fuse_get_req), and flush_bg_queue passes the server no more than
 * max_background at once; FUSE_DEFAULT_MAX_BACKGROUND is 12, so without
 * this the peak at 16 could never be reached. fs/fuse/inode.c
 * process_init_limits takes the server's value as is from a mount by root
 * (CAP_SYS_ADMIN), else caps it at the max_user_bgreq module parameter */
#define MAX_BACKGROUND 256

enum mode { MODE_OK, MODE_EIO, MODE_HANG, MODE_GONE, MODE_SLOW, MODE_DECAY, MODE_LOAD, MODE_PEAK };

struct held {
	fuse_req_t req;
	size_t size;
	off_t off;
	uint64_t due;	/* MODE_PEAK: when it is answered, CLOCK_MONOTONIC ns */
};

/* stored reads: hang's held ones, or peak's waiting for their time */
struct reads {
	struct held *v;
	size_t n, cap;
};

/* The schedule: mode steps[i] for counts[i] reads; the last step has no
 * count and lasts. */
struct sched {
	enum mode steps[MAX_STEPS];
	uint64_t counts[MAX_STEPS];
	unsigned n, at;
	uint64_t left;		/* reads left in step at */
};

static const char *const mode_name[] = { "ok", "eio", "hang", "gone", "slow", "decay", "load", "peak" };
static uint64_t data_size;
static enum mode mode;
static struct sched sched = { { MODE_OK }, { 0 }, 1, 0, 0 };
static uint64_t nserved, nfailed;
static struct timespec since;	/* the last command */
static struct reads held, timed;

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

static void store(struct reads *q, fuse_req_t req, size_t size, off_t off, uint64_t due)
{
	struct held *h;

	if (q->n == q->cap) {
		h = realloc(q->v, (q->cap ? 2 * q->cap : 64) * sizeof(*h));
		if (!h) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
		q->v = h;
		q->cap = q->cap ? 2 * q->cap : 64;
	}
	q->v[q->n++] = (struct held){ req, size, off, due };
}

static int answers(enum mode m)
{
	return m == MODE_OK || m == MODE_SLOW || m == MODE_DECAY || m == MODE_LOAD ||
	       m == MODE_PEAK;
}

/* Answers every stored read of q: served when m serves, else failed. */
static void release(struct reads *q, enum mode m)
{
	size_t i;

	for (i = 0; i < q->n; i++) {
		if (answers(m))
			serve(q->v[i].req, q->v[i].size, q->v[i].off);
		else
			fuse_reply_err(q->v[i].req, m == MODE_GONE ? ENODEV : EIO);
	}
	q->n = 0;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* MODE_PEAK: a read arriving now, with n - 1 others waiting. */
static void peak_store(fuse_req_t req, size_t size, off_t off)
{
	uint64_t n = timed.n + 1, us = PEAK_US;

	if (n > PEAK_N)
		us = PEAK_US * n * n / (PEAK_N * PEAK_N);
	store(&timed, req, size, off, now_ns() + us * 1000);
}

/* Serves the peak reads whose time has come; the earliest time left
 * (UINT64_MAX: none). Linear: a few hundred reads at most wait. */
static uint64_t peak_answer(void)
{
	uint64_t t = now_ns(), next = UINT64_MAX;
	size_t i, k = 0;

	for (i = 0; i < timed.n; i++) {
		if (timed.v[i].due <= t) {
			nserved++;
			serve(timed.v[i].req, timed.v[i].size, timed.v[i].off);
			continue;
		}
		if (timed.v[i].due < next)
			next = timed.v[i].due;
		timed.v[k++] = timed.v[i];
	}
	timed.n = k;
	return next;
}

/* The mode for the read now arriving; moves the schedule on. */
static enum mode next_mode(void)
{
	enum mode m = sched.steps[sched.at];

	if (sched.at + 1 < sched.n && --sched.left == 0) {
		sched.at++;
		sched.left = sched.counts[sched.at];
	}
	mode = sched.steps[sched.at];
	return m;
}

static void read_ctl(fuse_req_t req, off_t off)
{
	char line[128];
	int n = snprintf(line, sizeof(line), "%s served %llu failed %llu held %zu\n",
			 mode_name[mode], (unsigned long long)nserved,
			 (unsigned long long)nfailed, held.n);
	size_t len = n > 0 ? (size_t)n : 0;

	fuse_reply_buf(req, line + (off < (off_t)len ? off : (off_t)len),
		       off < (off_t)len ? len - (size_t)off : 0);
}

/* MODE_LOAD: the reads a second served lately: each whole bucket's count
 * moves the average half way (a bucket without reads counts as 0), so a
 * closed loop, whose rate follows the service time, settles instead of
 * swinging, and a new rate is the average's within 4 buckets (100 ms,
 * a test's ramp), whichever rate came before. */
static double load_rate(void)
{
	static uint64_t bucket, count;
	static double avg;
	struct timespec t;
	uint64_t b;

	clock_gettime(CLOCK_MONOTONIC, &t);
	b = ((uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000) / LOAD_BUCKET_MS;
	if (b != bucket) {
		avg = 0.5 * avg + 0.5 * (b == bucket + 1 ? (double)count * 1000 / LOAD_BUCKET_MS : 0);
		bucket = b;
		count = 0;
	}
	count++;
	return avg < 3000 ? avg : 3000;
}

/* How long a read in mode m waits before it is served, in us. */
static long wait_us(enum mode m)
{
	struct timespec t;
	long us = DECAY_US;
	time_t s;

	if (m == MODE_LOAD) {
		double r = load_rate() / 1000;

		return (long)(LOAD_US + LOAD_K_US * r * r * r * r * r * r);
	}
	if (m != MODE_DECAY)
		return m == MODE_SLOW ? SLOW_US : 0;
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (s = t.tv_sec - since.tv_sec - (t.tv_nsec < since.tv_nsec); s > 0 && us < DECAY_MAX_US; s--)
		us *= 2;
	return us < DECAY_MAX_US ? us : DECAY_MAX_US;
}

static void ff_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	enum mode m;

	(void)fi;
	if (ino == INO_CTL) {
		read_ctl(req, off);
		return;
	}
	m = next_mode();
	if (m == MODE_EIO || m == MODE_GONE)
		nfailed++;
	if (m == MODE_EIO)
		fuse_reply_err(req, EIO);
	else if (m == MODE_GONE)
		fuse_reply_err(req, ENODEV);
	else if (m == MODE_HANG)
		store(&held, req, size, off, 0);
	else if (m == MODE_PEAK)
		peak_store(req, size, off);
	else {
		long us = wait_us(m);

		if (us)
			nanosleep(&(struct timespec){ 0, us * 1000l }, NULL);
		nserved++;
		serve(req, size, off);
	}
}

static int parse_mode(const char *w, enum mode *m)
{
	unsigned i;

	for (i = 0; i < sizeof(mode_name) / sizeof(mode_name[0]); i++) {
		if (!strcmp(w, mode_name[i])) {
			*m = (enum mode)i;
			return 0;
		}
	}
	return -1;
}

/* "MODE [COUNT MODE]...": 0 and *out, or -1 (nothing changes). */
static int parse_sched(const char *buf, size_t size, struct sched *out)
{
	char line[256], *w, *save = NULL, *end;
	unsigned long long c;
	unsigned words = 0;

	if (size >= sizeof(line))
		return -1;
	memcpy(line, buf, size);
	line[size] = '\0';
	memset(out, 0, sizeof(*out));
	for (w = strtok_r(line, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		if (words++ % 2 == 0) {
			if (out->n == MAX_STEPS || parse_mode(w, &out->steps[out->n]))
				return -1;
			out->n++;
			continue;
		}
		errno = 0;
		c = strtoull(w, &end, 10);
		if (errno || end == w || *end || !c)
			return -1;
		out->counts[out->n - 1] = c;
	}
	/* a mode first and last: every count is followed by its mode */
	if (!out->n || words % 2 == 0)
		return -1;
	out->left = out->counts[0];
	return 0;
}

static void ff_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size,
		     off_t off, struct fuse_file_info *fi)
{
	struct sched next;
	size_t i;

	(void)off;
	(void)fi;
	if (ino != INO_CTL) {
		fuse_reply_err(req, EACCES);
		return;
	}
	if (parse_sched(buf, size, &next)) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	sched = next;
	mode = sched.steps[0];
	nserved = nfailed = 0;
	clock_gettime(CLOCK_MONOTONIC, &since);
	if (mode != MODE_HANG) {
		release(&held, mode);
		release(&timed, mode);
	} else {
		/* a hang keeps what waited for its time, as held */
		for (i = 0; i < timed.n; i++)
			store(&held, timed.v[i].req, timed.v[i].size, timed.v[i].off, 0);
		timed.n = 0;
	}
	fuse_reply_write(req, size);
}

static void ff_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	/* MAX_BACKGROUND's why. The congestion threshold stays libfuse's
	 * (do_init: 3/4 of max_background): it caps nothing, only
	 * max_background gates flush_bg_queue */
	conn->max_background = MAX_BACKGROUND;
}

/* names and attributes; then the two files' IO */
static const struct fuse_lowlevel_ops ops = {
	.init = ff_init,
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

/* fuse_session_loop, but the one thread waits in ppoll, up to the next
 * peak read's time, not in read(): a peak read is answered when due while
 * no request comes. The fd is non-blocking, so a request the kernel took
 * back between the poll and the read (its sender killed) costs a turn of
 * the loop, not a wait for the next one; signals are let in only in ppoll,
 * so one that comes between the exited check and the wait ends the wait
 * rather than going unseen until the next request. */
static int serve_loop(struct fuse_session *se)
{
	struct fuse_buf buf = { .mem = NULL };
	struct pollfd pfd = { .fd = fuse_session_fd(se), .events = POLLIN };
	struct timespec ts;
	sigset_t block, old;
	uint64_t next, t;
	int res = 0, fl;

	fl = fcntl(pfd.fd, F_GETFL);
	if (fl < 0 || fcntl(pfd.fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	/* the ones fuse_set_signal_handlers ends the session on */
	sigemptyset(&block);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	while (!fuse_session_exited(se)) {
		next = peak_answer();
		if (next != UINT64_MAX) {
			t = now_ns();
			t = next > t ? next - t : 0;
			ts = (struct timespec){ (time_t)(t / 1000000000u), (long)(t % 1000000000u) };
		}
		pfd.revents = 0;
		if (ppoll(&pfd, 1, next == UINT64_MAX ? NULL : &ts, &old) < 0 && errno != EINTR) {
			res = -errno;
			break;
		}
		if (!pfd.revents)
			continue;
		res = fuse_session_receive_buf(se, &buf);
		if (res == -EINTR || res == -EAGAIN) {
			res = 0;
			continue;
		}
		if (res <= 0)
			break;
		fuse_session_process_buf(se, &buf);
	}
	free(buf.mem);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return res < 0 ? res : 0;
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
			ret = serve_loop(se) ? 1 : 0;
			/* unmounted or signalled: nothing stays held */
			release(&held, MODE_EIO);
			release(&timed, MODE_EIO);
			fuse_session_unmount(se);
		}
		fuse_remove_signal_handlers(se);
	}
	fuse_session_destroy(se);
	free(held.v);
	free(timed.v);
	return ret;
}
