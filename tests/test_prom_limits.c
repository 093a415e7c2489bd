/* --listen's server held and flooded (cli/live/prom_int.h's limits):
 * - scrapes are answered from the text rendered once per interval: 200
 *   of them from 8 threads render nothing (renderings counted through
 *   the linker's --wrap=cli_prom_render, in this binary only) and get the
 *   same body, which the next interval replaces;
 * - one client address holds at most conns_per_ip connections: one more
 *   from it is closed unanswered while the others stay open and another
 *   address is answered; cli_prom_open applies 4 to an address other
 *   hosts reach and none on loopback, where five connections from
 *   127.0.0.1 are accepted at once;
 * - a connection idle for idle_s is closed;
 * - the stop wakes the server at its connection limit: with 16 idle
 *   connections held (and 4 queued) under a 600 s idle timeout,
 *   cli_prom_close returns, so through the wake and not the timeout (an
 *   alarm fails the test after 60 s rather than let it hang), and only
 *   then are the held connections closed;
 * - who can reach the address listened on (the warning of listen.c). */
#include "cli/live/prom.h"
#include "cli/live/prom_int.h"
#include "tests/helpers.h"
#include "tests/prom_client.h"

#include <dirent.h>
#include <ifaddrs.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#define GUARD_S 60	/* an alarm against a hang, not a measure */

/* ---- the renderings, counted ---- */

int __real_cli_prom_render(const struct cli_prom_state *st, bool om, char **out,
			   size_t *len);
int __wrap_cli_prom_render(const struct cli_prom_state *st, bool om, char **out,
			   size_t *len);

static _Atomic unsigned renders;

int __wrap_cli_prom_render(const struct cli_prom_state *st, bool om, char **out,
			   size_t *len)
{
	atomic_fetch_add(&renders, 1);
	return __real_cli_prom_render(st, om, out, len);
}

/* ---- helpers ---- */

static void on_alarm(int sig)
{
	static const char msg[] = "FAIL: the server held its stop (no answer in 60 s)\n";

	(void)sig;
	/* only async-signal-safe calls: the test ends here */
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

static void nap(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* The sockets this process holds: the test's clients, the server's
 * listening socket and the connections it accepted */
static unsigned sockets(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char path[300], link[64];
	unsigned n = 0;
	ssize_t l;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		l = readlink(path, link, sizeof(link) - 1);
		if (l > 0 && (link[l] = '\0', !strncmp(link, "socket:", 7)))
			n++;
	}
	closedir(d);
	return n;
}

/* Waits (10 ms a try, GUARD_S in all) until this process holds n
 * sockets: true once it does */
static bool await_sockets(unsigned n)
{
	int i;

	for (i = 0; i < GUARD_S * 100; i++) {
		if (sockets() == n)
			return true;
		nap();
	}
	return false;
}

/* fd is open at both ends: nothing to read, no end seen */
static bool still_open(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDHUP };

	return poll(&p, 1, 0) == 0;
}

/* The server closed fd without an answer: recv sees the end (or a
 * reset) and no byte. Waits for it at most GUARD_S (a guard against a
 * hang: false then). */
static bool closed_unanswered(int fd)
{
	struct timeval tv = { .tv_sec = GUARD_S };
	char c;
	ssize_t n;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return false;
	n = recv(fd, &c, 1, 0);
	return n == 0 || (n < 0 && errno == ECONNRESET);
}

/* n connections from src held open (fds in fd[]): 0, or the first
 * failure's -errno */
static int hold(unsigned port, const char *src, int *fd, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		fd[i] = prom_connect(port, false, src);
		if (fd[i] < 0)
			return fd[i];
	}
	return 0;
}

static void release(int *fd, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (fd[i] >= 0)
			close(fd[i]);
}

/* One device's interval of ios IOs */
static void publish(struct cli_prom *p, uint64_t ios)
{
	struct cli_interval dev = { .device = "a", .t1_s = 1, .t1_seen_s = 1, .ios = ios,
				    .bytes = ios * 4096 };
	struct cli_interval total = dev;
	struct cli_interval_set s = { .label = "run", .ndev = 1, .dev = &dev, .total = &total };

	total.device = NULL;
	cli_prom_interval(p, &s);
}

/* ---- a flood served from the rendered text ---- */

#define THREADS 8
#define SCRAPES 25	/* each */

struct scraper {
	unsigned port;
	int ok, same;		/* answered 200; with the expected body */
	const char *want[2];	/* the bodies (classic, OpenMetrics) */
};

static const char om_accept[] = "application/openmetrics-text;version=1.0.0,"
				"text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

static void *scrape(void *arg)
{
	static _Thread_local struct reply r;
	struct scraper *s = arg;
	int i, om;

	for (i = 0; i < SCRAPES; i++) {
		om = i % 2;
		if (prom_get(s->port, "GET", "/metrics", om ? om_accept : NULL, &r) ||
		    r.status != 200 || !r.body)
			continue;
		s->ok++;
		s->same += !strcmp(r.body, s->want[om]);
	}
	return NULL;
}

static void flood(void)
{
	static struct reply r[2];
	struct scraper s[THREADS];
	pthread_t t[THREADS];
	struct cli_prom *p = NULL;
	char err[256];
	unsigned port, before;
	int i, ok = 0, same = 0;

	atomic_store(&renders, 0);
	CHECKF(!cli_prom_open(&p, "127.0.0.1:0", NULL, err, sizeof(err)), "open: %s", err);
	if (!p)
		return;
	port = cli_prom_port(p);
	/* open rendered the setup's text, the interval the new figures: each
	 * in both formats, once */
	CHECKF(atomic_load(&renders) == 2, "open: %u renderings", atomic_load(&renders));
	publish(p, 10);
	CHECKF(atomic_load(&renders) == 4, "one interval: %u renderings", atomic_load(&renders));
	CHECK(!prom_get(port, "GET", "/metrics", NULL, &r[0]) && r[0].status == 200);
	CHECK(!prom_get(port, "GET", "/metrics", om_accept, &r[1]) && r[1].status == 200);
	CHECK(prom_has_line(&r[0], "iostorm_ios_total{device=\"a\"} 10"));
	CHECK(prom_has_line(&r[1], "iostorm_ios_total{device=\"a\"} 10"));
	if (!r[0].body || !r[1].body) {
		cli_prom_close(p, 0);
		return;
	}
	before = atomic_load(&renders);
	for (i = 0; i < THREADS; i++) {
		s[i] = (struct scraper){ .port = port, .want = { r[0].body, r[1].body } };
		CHECK(!pthread_create(&t[i], NULL, scrape, &s[i]));
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		ok += s[i].ok;
		same += s[i].same;
	}
	CHECKF(ok == THREADS * SCRAPES, "%d of %d scrapes answered", ok, THREADS * SCRAPES);
	CHECKF(same == ok, "%d of %d bodies as the first scrape's", same, ok);
	CHECKF(atomic_load(&renders) == before, "%u renderings for %d scrapes",
	       atomic_load(&renders) - before, ok);
	/* the next interval replaces the text, once */
	publish(p, 20);
	CHECKF(atomic_load(&renders) == before + 2, "the second interval: %u renderings",
	       atomic_load(&renders) - before);
	CHECK(!prom_get(port, "GET", "/metrics", NULL, &r[0]) && r[0].status == 200);
	CHECK(prom_has_line(&r[0], "iostorm_ios_total{device=\"a\"} 30"));
	cli_prom_close(p, 0);
}

/* ---- one address's share ---- */

static const struct cli_prom_limits *limits(unsigned per_ip)
{
	static struct cli_prom_limits lim;

	lim = cli_prom_limits;
	lim.conns_per_ip = per_ip;
	lim.idle_s = 600;	/* nothing closed for idleness during the test */
	return &lim;
}

/* A server with per_ip: per_ip connections from src held, one more from
 * src closed unanswered, while a request from other is answered; where
 * the server's idle timeout is the test's (idle: limits()), those held
 * are then still open, so the refusal was the limit's */
static void per_ip_case(struct cli_prom *p, unsigned per_ip, const char *src,
			const char *other, bool idle)
{
	static struct reply r;
	int fd[8], extra, i;
	unsigned port = cli_prom_port(p), n0 = sockets();

	CHECK(per_ip < 8);
	memset(fd, -1, sizeof(fd));
	CHECK(!hold(port, src, fd, per_ip));
	/* each client's socket and the server's accepted one */
	CHECKF(await_sockets(n0 + 2 * per_ip), "%u connections never accepted", per_ip);
	extra = prom_connect(port, false, src);
	CHECK(extra >= 0);
	if (extra >= 0) {
		CHECKF(closed_unanswered(extra), "connection %u from %s not refused",
		       per_ip + 1, src);
		close(extra);
	}
	CHECK(!prom_get_from(port, other, "GET", "/metrics", NULL, &r) && r.status == 200);
	for (i = 0; idle && i < (int)per_ip; i++)
		CHECKF(still_open(fd[i]), "held connection %d of %s closed", i, src);
	release(fd, per_ip);
}

static void per_ip(void)
{
	static struct reply r;
	struct cli_prom *p = NULL;
	char err[256];
	int fd[8];
	unsigned n0;

	CHECKF(!cli_prom_open_limits(&p, "127.0.0.1:0", NULL, limits(2), err, sizeof(err)),
	       "open: %s", err);
	if (p) {
		per_ip_case(p, 2, "127.0.0.2", "127.0.0.3", true);
		cli_prom_close(p, 0);
	}
	/* what cli_prom_open applies (its idle timeout too): 4 where other
	 * hosts reach it */
	p = NULL;
	CHECKF(!cli_prom_open(&p, "0.0.0.0:0", NULL, err, sizeof(err)), "0.0.0.0: %s", err);
	if (p) {
		CHECK(cli_prom_reach(p) == CLI_PROM_ANY);
		per_ip_case(p, cli_prom_limits.conns_per_ip, "127.0.0.1", "127.0.0.2", false);
		cli_prom_close(p, 0);
	}
	/* none on loopback: five from 127.0.0.1 accepted at once, and a
	 * sixth answered */
	p = NULL;
	CHECKF(!cli_prom_open(&p, "127.0.0.1:0", NULL, err, sizeof(err)), "open: %s", err);
	if (!p)
		return;
	CHECK(cli_prom_reach(p) == CLI_PROM_LOOPBACK);
	n0 = sockets();
	memset(fd, -1, sizeof(fd));
	CHECK(!hold(cli_prom_port(p), "127.0.0.1", fd, 5));
	CHECK(await_sockets(n0 + 10));
	CHECK(!prom_get_from(cli_prom_port(p), "127.0.0.1", "GET", "/metrics", NULL, &r) &&
	      r.status == 200);
	release(fd, 5);
	cli_prom_close(p, 0);
}

/* ---- idle connections ---- */

/* A connection that sends nothing is closed by the server, unanswered */
static void idle(void)
{
	struct cli_prom_limits lim = cli_prom_limits;
	struct cli_prom *p = NULL;
	char err[256];
	int fd;

	lim.idle_s = 1;
	CHECKF(!cli_prom_open_limits(&p, "127.0.0.1:0", NULL, &lim, err, sizeof(err)),
	       "open: %s", err);
	if (!p)
		return;
	fd = prom_connect(cli_prom_port(p), false, NULL);
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK(closed_unanswered(fd));
		close(fd);
	}
	cli_prom_close(p, 0);
}

/* ---- the stop at the connection limit ---- */

#define HELD 20

static void held_stop(void)
{
	struct cli_prom *p = NULL;
	char err[256];
	int fd[HELD], i;
	unsigned n0, conns = cli_prom_limits.conns;

	CHECK(conns < HELD);
	CHECKF(!cli_prom_open_limits(&p, "127.0.0.1:0", NULL, limits(0), err, sizeof(err)),
	       "open: %s", err);
	if (!p)
		return;
	n0 = sockets();
	memset(fd, -1, sizeof(fd));
	CHECK(!hold(cli_prom_port(p), NULL, fd, HELD));
	/* conns accepted and idle: the server at its limit, the rest
	 * queued by the kernel */
	CHECKF(await_sockets(n0 + HELD + conns), "%u sockets, want %u", sockets(),
	       n0 + HELD + conns);
	for (i = 0; i < HELD; i++)
		CHECKF(still_open(fd[i]), "connection %d closed before the stop", i);
	signal(SIGALRM, on_alarm);
	alarm(GUARD_S);
	cli_prom_close(p, 0);
	alarm(0);
	/* closed by the stop, accepted or queued */
	for (i = 0; i < HELD; i++)
		CHECKF(closed_unanswered(fd[i]), "connection %d open after the stop", i);
	release(fd, HELD);
}

/* ---- who can reach it ---- */

/* An IPv4 address of this host other than loopback, or false */
static bool other_address(char *buf, size_t len)
{
	struct ifaddrs *ifs, *i;
	bool found = false;
	uint32_t a;

	if (getifaddrs(&ifs))
		return false;
	for (i = ifs; i && !found; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
			continue;
		a = ntohl(((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr);
		if (a >> 24 != IN_LOOPBACKNET)
			found = inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr,
					  buf, (socklen_t)len) != NULL;
	}
	freeifaddrs(ifs);
	return found;
}

static void reach_is(const char *where, enum cli_prom_reach want)
{
	struct cli_prom *p = NULL;
	char err[256];
	int rc = cli_prom_open(&p, where, NULL, err, sizeof(err));

	/* no IPv6 here: nothing to check */
	if (where[0] == '[' && (rc == -EADDRNOTAVAIL || rc == -EAFNOSUPPORT))
		return;
	CHECKF(!rc, "%s: %s", where, err);
	if (rc)
		return;
	CHECKF(cli_prom_reach(p) == want, "%s: reach %d, want %d", where, cli_prom_reach(p),
	       want);
	cli_prom_close(p, 0);
}

static void reach(void)
{
	char a[INET_ADDRSTRLEN + 8];

	reach_is("0", CLI_PROM_LOOPBACK);
	reach_is("127.0.0.2:0", CLI_PROM_LOOPBACK);
	reach_is("[::1]:0", CLI_PROM_LOOPBACK);
	reach_is("0.0.0.0:0", CLI_PROM_ANY);
	reach_is("[::]:0", CLI_PROM_ANY);
	if (!other_address(a, sizeof(a) - 2)) {
		printf("no IPv4 address but loopback here: one address's reach not checked\n");
		return;
	}
	strcat(a, ":0");
	reach_is(a, CLI_PROM_ADDR);
}

int main(void)
{
	flood();
	per_ip();
	idle();
	held_stop();
	reach();
	return t_result();
}
