/* --listen's HTTP server: libmicrohttpd, one internal thread, GET and
 * HEAD of /metrics only, each connection bounded in memory, time and
 * number, and the text rendered once per interval, not per request. See
 * prom.h. */
#include "cli/live/prom.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "cli/live/prom_int.h"
#include "cli/report/out.h"
#include "cli/runner/stop.h"

/* docs/prometheus.md ("The server") says why each. A scrape's request is
 * a few hundred bytes: MHD answers one whose headers do not fit in mem
 * with 431. conns_per_ip is not applied on a loopback address
 * (cli_prom_open). */
const struct cli_prom_limits cli_prom_limits = {
	.conns = 16, .conns_per_ip = 4, .idle_s = 3, .mem = 16u * 1024,
};

#define TICK_NS 50000000ull	/* how often the linger looks for a stop */

#define CT_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define CT_TEXT "text/plain; version=0.0.4; charset=utf-8"

struct cli_prom {
	struct MHD_Daemon *d;
	unsigned port;
	char url[INET6_ADDRSTRLEN + 32];	/* http://ADDR:PORT/metrics */
	enum cli_prom_reach reach;
	pthread_mutex_t lock;		/* st and text: the reporting thread
					 * writes both, the server reads text */
	struct cli_prom_state st;
	/* st rendered (classic, OpenMetrics) when it last changed, each
	 * request answered with one of them: NULL where that rendering
	 * failed (the request gets 500) */
	struct MHD_Response *text[2];
	bool stopped;			/* a stop request had come by the last
					 * interval (under lock) */
	bool oom_said;
};

/* ---- --listen's value ---- */

static int bad_listen(const char *where, char *err, size_t errlen)
{
	snprintf(err, errlen, "--listen: '%s' is not [ADDR:]PORT (PORT 0..65535; ADDR "
		 "numeric, 127.0.0.1 or [::1])", where);
	return -EINVAL;
}

static int parse_port(const char *s, uint16_t *port)
{
	unsigned long v = 0;

	if (!*s || strlen(s) > 5)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	if (v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

int cli_prom_parse_listen(const char *where, struct sockaddr_storage *ss,
			  socklen_t *len, char *err, size_t errlen)
{
	struct sockaddr_storage a;
	struct sockaddr_in *v4 = (struct sockaddr_in *)&a;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&a;
	char addr[INET6_ADDRSTRLEN + 2];
	const char *colon = strrchr(where, ':'), *port = where;
	size_t alen = 0;
	uint16_t n;

	memset(&a, 0, sizeof(a));
	if (colon) {
		port = colon + 1;
		alen = (size_t)(colon - where);
		if (alen >= sizeof(addr))
			return bad_listen(where, err, errlen);
		memcpy(addr, where, alen);
		addr[alen] = '\0';
	}
	if (parse_port(port, &n))
		return bad_listen(where, err, errlen);
	if (colon && addr[0] == '[' && alen > 2 && addr[alen - 1] == ']') {
		addr[alen - 1] = '\0';
		if (inet_pton(AF_INET6, addr + 1, &v6->sin6_addr) != 1)
			return bad_listen(where, err, errlen);
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(n);
		*len = sizeof(*v6);
	} else {
		v4->sin_family = AF_INET;
		v4->sin_port = htons(n);
		v4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (colon && inet_pton(AF_INET, addr, &v4->sin_addr) != 1)
			return bad_listen(where, err, errlen);
		*len = sizeof(*v4);
	}
	memcpy(ss, &a, sizeof(a));
	return 0;
}

/* ---- the server ---- */

/* A short constant answer, made for this request alone */
static enum MHD_Result plain(struct MHD_Connection *c, unsigned status, const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (char *)text,
								 MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* Prometheus asks for OpenMetrics first in its Accept header; curl, a
 * browser and promtool's reader get the classic text format. */
static bool wants_openmetrics(struct MHD_Connection *c)
{
	const char *a = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);

	return a && strstr(a, "application/openmetrics-text");
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version,
			      const char *upload, size_t *upload_size, void **con_cls)
{
	struct cli_prom *p = cls;
	enum MHD_Result ret = MHD_NO;
	struct MHD_Response *r;
	bool om;

	(void)version;
	(void)upload;
	(void)upload_size;
	(void)con_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return plain(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET /metrics\n");
	if (!strcmp(url, "/"))
		return plain(c, MHD_HTTP_NOT_FOUND, "iostorm: the metrics are at /metrics\n");
	if (strcmp(url, "/metrics"))
		return plain(c, MHD_HTTP_NOT_FOUND, "not found: only /metrics\n");
	om = wants_openmetrics(c);
	/* queued under the lock: the reporting thread replaces the text only
	 * then, and queueing takes the connection's own reference to it
	 * (libmicrohttpd counts them: the old text is freed once the last
	 * connection sending it is done) */
	pthread_mutex_lock(&p->lock);
	r = p->text[om];
	if (r)
		ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	pthread_mutex_unlock(&p->lock);
	return r ? ret : plain(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
}

/* st in format om, ready to be sent any number of times: NULL without
 * memory */
static struct MHD_Response *render(const struct cli_prom_state *st, bool om)
{
	struct MHD_Response *r;
	char *body;
	size_t len;

	if (cli_prom_render(st, om, &body, &len))
		return NULL;
	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return NULL;
	}
	if (MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				    om ? CT_OPENMETRICS : CT_TEXT) == MHD_NO) {
		MHD_destroy_response(r);
		return NULL;
	}
	return r;
}

/* p->st changed (under p->lock): its text rendered anew, once for all the
 * requests until the next change. -ENOMEM where a format could not be
 * rendered: its requests get 500 until the next change. */
static int rerender(struct cli_prom *p)
{
	int i, rc = 0;

	for (i = 0; i < 2; i++) {
		MHD_destroy_response(p->text[i]);
		p->text[i] = render(&p->st, i);
		if (!p->text[i])
			rc = -ENOMEM;
	}
	return rc;
}

/* The bound socket, listening, and its address (the kernel's port for
 * PORT 0): -errno with err said. */
static int bind_listen(const char *where, int *fd_out, struct sockaddr_storage *bound,
		       char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, one = 1, rc;

	rc = cli_prom_parse_listen(where, &ss, &len, err, errlen);
	if (rc)
		return rc;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "--listen %s: %s", where, strerror(-rc));
		return rc;
	}
	/* SO_REUSEADDR lets a new run bind over the last one's TIME_WAIT
	 * connections; Linux still refuses a port another socket listens on */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    (ss.ss_family == AF_INET6 &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one))) ||
	    bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 16) ||
	    getsockname(fd, (struct sockaddr *)&ss, &len)) {
		rc = -errno;
		snprintf(err, errlen, "--listen %s: %s", where,
			 rc == -EADDRINUSE ? "the port is in use" : strerror(-rc));
		close(fd);
		return rc;
	}
	memcpy(bound, &ss, sizeof(ss));
	*fd_out = fd;
	return 0;
}

/* Where addr lets a request come from */
static enum cli_prom_reach reach_of(const struct sockaddr_storage *ss)
{
	const struct in6_addr *a6 = &((const struct sockaddr_in6 *)ss)->sin6_addr;
	uint32_t a4;

	if (ss->ss_family == AF_INET) {
		a4 = ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr);
		return a4 >> 24 == IN_LOOPBACKNET ? CLI_PROM_LOOPBACK :
		       a4 == INADDR_ANY ? CLI_PROM_ANY : CLI_PROM_ADDR;
	}
	return IN6_IS_ADDR_LOOPBACK(a6) ? CLI_PROM_LOOPBACK :
	       IN6_IS_ADDR_UNSPECIFIED(a6) ? CLI_PROM_ANY : CLI_PROM_ADDR;
}

/* p->url from the address bound and p->port */
static void set_url(struct cli_prom *p, const struct sockaddr_storage *ss)
{
	char a[INET6_ADDRSTRLEN] = "?";
	bool v6 = ss->ss_family == AF_INET6;

	inet_ntop(ss->ss_family, v6 ? (const void *)&((const struct sockaddr_in6 *)ss)->sin6_addr :
		  (const void *)&((const struct sockaddr_in *)ss)->sin_addr, a, sizeof(a));
	snprintf(p->url, sizeof(p->url), "http://%s%s%s:%u/metrics", v6 ? "[" : "", a,
		 v6 ? "]" : "", p->port);
}

static void free_prom(struct cli_prom *p)
{
	MHD_destroy_response(p->text[0]);
	MHD_destroy_response(p->text[1]);
	cli_prom_state_free(&p->st);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

/* The server on listening socket fd (which it then owns), started with
 * lim: -EIO with err said */
static int start(struct cli_prom *p, int fd, const struct cli_prom_limits *lim,
		 const char *where, char *err, size_t errlen)
{
	/* MHD_USE_ITC: MHD_stop_daemon wakes the server's thread through
	 * it. Without it, stop only shuts the listening socket down, which
	 * wakes nobody once the connection limit is reached: MHD then
	 * polls the connections alone (libmicrohttpd 0.9.75, daemon.c:
	 * MHD_poll_all and MHD_epoll leave the listening socket out at the
	 * limit), and idle ones held the stop until their timeout */
	p->d = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC, 0, NULL, NULL,
				handle, p,
				MHD_OPTION_LISTEN_SOCKET, fd,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, lim->mem,
				MHD_OPTION_CONNECTION_TIMEOUT, lim->idle_s,
				MHD_OPTION_CONNECTION_LIMIT, lim->conns,
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, lim->conns_per_ip,
				MHD_OPTION_END);
	if (p->d)
		return 0;
	close(fd);
	snprintf(err, errlen, "--listen %s: cannot start the HTTP server", where);
	return -EIO;
}

int cli_prom_open_limits(struct cli_prom **out, const char *where, const json_t *setup,
			 const struct cli_prom_limits *lim, char *err, size_t errlen)
{
	struct cli_prom *p = calloc(1, sizeof(*p));
	struct sockaddr_storage ss = { 0 };
	int fd = -1, rc;

	if (!p || pthread_mutex_init(&p->lock, NULL)) {
		free(p);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* the first text before the first request: setup's, or none yet */
	rc = cli_prom_state_init(&p->st, setup);
	if (!rc)
		rc = rerender(p);
	if (rc)
		snprintf(err, errlen, "out of memory");
	if (!rc)
		rc = bind_listen(where, &fd, &ss, err, errlen);
	if (!rc)
		rc = start(p, fd, lim, where, err, errlen);
	if (rc) {
		free_prom(p);
		return rc;
	}
	p->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port :
			((struct sockaddr_in *)&ss)->sin_port);
	p->reach = reach_of(&ss);
	set_url(p, &ss);
	*out = p;
	return 0;
}

int cli_prom_open(struct cli_prom **out, const char *where, const json_t *setup,
		  char *err, size_t errlen)
{
	struct cli_prom_limits lim = cli_prom_limits;
	struct sockaddr_storage ss;
	socklen_t len;

	/* On loopback every client is a process of this host, which may
	 * connect from any of 127.0.0.0/8's addresses: a limit per address
	 * tells none of them apart, and would only close a burst of honest
	 * scrapes from one of them, which the kernel otherwise queues until
	 * a connection is free. A bad value: said by open_limits */
	if (!cli_prom_parse_listen(where, &ss, &len, err, errlen) &&
	    reach_of(&ss) == CLI_PROM_LOOPBACK)
		lim.conns_per_ip = 0;
	return cli_prom_open_limits(out, where, setup, &lim, err, errlen);
}

/* Out of memory once: said once */
static void say_oom(struct cli_prom *p, const char *what)
{
	if (p->oom_said)
		return;
	cli_say("--listen: out of memory: %s", what);
	p->oom_said = true;
}

void cli_prom_setup(struct cli_prom *p, const json_t *setup, bool latency)
{
	int err, rerr;

	pthread_mutex_lock(&p->lock);
	err = cli_prom_state_setup(&p->st, setup, latency);
	rerr = rerender(p);
	pthread_mutex_unlock(&p->lock);
	if (err)
		say_oom(p, "the setup's labels are not served");
	if (rerr)
		say_oom(p, "/metrics answers 500 until the next interval");
}

unsigned cli_prom_port(const struct cli_prom *p)
{
	return p->port;
}

enum cli_prom_reach cli_prom_reach(const struct cli_prom *p)
{
	return p->reach;
}

const char *cli_prom_url(const struct cli_prom *p)
{
	return p->url;
}

bool cli_prom_stopped(struct cli_prom *p)
{
	bool was;

	pthread_mutex_lock(&p->lock);
	was = p->stopped;
	pthread_mutex_unlock(&p->lock);
	return was;
}

void cli_prom_window(struct cli_prom *p, unsigned run, const char *label, unsigned ndev,
		     const char *const *devices)
{
	int err, rerr;

	pthread_mutex_lock(&p->lock);
	err = cli_prom_state_window(&p->st, run, label, ndev, devices);
	rerr = rerender(p);
	pthread_mutex_unlock(&p->lock);
	if (err)
		say_oom(p, "a new device's figures are not served");
	if (rerr)
		say_oom(p, "/metrics answers 500 until the next interval");
}

void cli_prom_interval(struct cli_prom *p, const struct cli_interval_set *s)
{
	int err, rerr;

	pthread_mutex_lock(&p->lock);
	err = cli_prom_state_add(&p->st, s);
	rerr = rerender(p);
	p->stopped = cli_runner_interrupted();
	pthread_mutex_unlock(&p->lock);
	if (err)
		say_oom(p, "a new device's figures are not served");
	if (rerr)
		say_oom(p, "/metrics answers 500 until the next interval");
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

	nanosleep(&ts, NULL);	/* EINTR: the loop looks at the stop flags */
}

void cli_prom_close(struct cli_prom *p, uint64_t linger_ns)
{
	uint64_t t;
	bool was;

	if (!p)
		return;
	/* a stop request after the last interval ends the wait: the first
	 * one, or the second where one had stopped the command. Read where
	 * the last interval was added, not here: one that comes while the
	 * report is written still ends it */
	pthread_mutex_lock(&p->lock);
	was = p->stopped;
	pthread_mutex_unlock(&p->lock);
	for (t = 0; t < linger_ns; t += TICK_NS) {
		if (was ? cli_runner_hurried() : cli_runner_interrupted())
			break;
		sleep_ns(linger_ns - t < TICK_NS ? linger_ns - t : TICK_NS);
	}
	/* wakes the server's thread at once (MHD_USE_ITC), however many
	 * connections are open; they are closed */
	MHD_stop_daemon(p->d);
	free_prom(p);
}
