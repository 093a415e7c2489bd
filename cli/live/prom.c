/* --listen's HTTP server: libmicrohttpd, one internal thread, GET and
 * HEAD of /metrics only, each connection bounded in memory, time and
 * number. See prom.h. */
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
#include "cli/out/out.h"
#include "cli/runner/stop.h"

/* A scrape's request is a few hundred bytes; MHD answers one whose
 * headers do not fit in this with 431 (docs/prometheus.md). */
#define MEM_LIMIT (16u * 1024)
#define CONN_TIMEOUT_S 10u	/* idle connection closed after */
#define CONN_LIMIT 16u		/* connections at once */
#define TICK_NS 50000000ull	/* how often the linger looks for a stop */

#define CT_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define CT_TEXT "text/plain; version=0.0.4; charset=utf-8"

struct cli_prom {
	struct MHD_Daemon *d;
	unsigned port;
	pthread_mutex_t lock;		/* st: the reporting thread adds, the
					 * server renders */
	struct cli_prom_state st;
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

static enum MHD_Result answer(struct MHD_Connection *c, unsigned status, char *body,
			      size_t len, enum MHD_ResponseMemoryMode mode,
			      const char *type)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, mode);
	enum MHD_Result ret;

	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result plain(struct MHD_Connection *c, unsigned status, const char *text)
{
	return answer(c, status, (char *)text, strlen(text), MHD_RESPMEM_PERSISTENT,
		      "text/plain; charset=utf-8");
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
	bool om;
	char *body;
	size_t len;
	int err;

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
	pthread_mutex_lock(&p->lock);
	err = cli_prom_render(&p->st, om, &body, &len);
	pthread_mutex_unlock(&p->lock);
	if (err)
		return plain(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
	return answer(c, MHD_HTTP_OK, body, len, MHD_RESPMEM_MUST_FREE,
		      om ? CT_OPENMETRICS : CT_TEXT);
}

/* The bound socket, listening: -errno with err said. */
static int bind_listen(const char *where, int *fd_out, unsigned *port, char *err,
		       size_t errlen)
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
	*port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port :
			((struct sockaddr_in *)&ss)->sin_port);
	*fd_out = fd;
	return 0;
}

int cli_prom_open(struct cli_prom **out, const char *where, const json_t *setup,
		  char *err, size_t errlen)
{
	struct cli_prom *p = calloc(1, sizeof(*p));
	int fd = -1, rc;

	if (!p || pthread_mutex_init(&p->lock, NULL)) {
		free(p);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = cli_prom_state_init(&p->st, setup);
	if (rc)
		snprintf(err, errlen, "out of memory");
	if (!rc)
		rc = bind_listen(where, &fd, &p->port, err, errlen);
	if (!rc) {
		/* MHD owns fd from here, and closes it when stopped */
		p->d = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL, NULL, handle, p,
					MHD_OPTION_LISTEN_SOCKET, fd,
					MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)MEM_LIMIT,
					MHD_OPTION_CONNECTION_TIMEOUT, CONN_TIMEOUT_S,
					MHD_OPTION_CONNECTION_LIMIT, CONN_LIMIT,
					MHD_OPTION_END);
		if (!p->d) {
			close(fd);
			snprintf(err, errlen, "--listen %s: cannot start the HTTP server", where);
			rc = -EIO;
		}
	}
	if (rc) {
		cli_prom_state_free(&p->st);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return rc;
	}
	*out = p;
	return 0;
}

void cli_prom_setup(struct cli_prom *p, const json_t *setup)
{
	int err;

	pthread_mutex_lock(&p->lock);
	err = cli_prom_state_setup(&p->st, setup);
	pthread_mutex_unlock(&p->lock);
	if (err && !p->oom_said) {
		cli_say("--listen: out of memory: the setup's labels are not served");
		p->oom_said = true;
	}
}

unsigned cli_prom_port(const struct cli_prom *p)
{
	return p->port;
}

void cli_prom_interval(struct cli_prom *p, const struct cli_interval_set *s)
{
	int err;

	pthread_mutex_lock(&p->lock);
	err = cli_prom_state_add(&p->st, s);
	p->stopped = cli_runner_interrupted();
	pthread_mutex_unlock(&p->lock);
	if (err && !p->oom_said) {
		cli_say("--listen: out of memory: a new device's figures are not served");
		p->oom_said = true;
	}
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
	MHD_stop_daemon(p->d);
	cli_prom_state_free(&p->st);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
