/* A plain socket client of --listen's endpoint for its C tests
 * (test_prom.c, test_prom_limits.c): one request per connection. */
#ifndef TESTS_PROM_CLIENT_H
#define TESTS_PROM_CLIENT_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct reply {
	int status;		/* 0: no answer */
	char *head, *body;	/* inside buf */
	char buf[512 * 1024];
};

/* A connection to 127.0.0.1:port from IPv4 address src (NULL: the
 * kernel's choice, 127.0.0.1), or to [::1]:port: its fd, or -errno. */
static inline int prom_connect(unsigned port, bool v6, const char *src)
{
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port) };
	struct sockaddr_in from = { .sin_family = AF_INET };
	int fd, rc;

	a4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a6.sin6_addr = in6addr_loopback;
	fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (src && (inet_pton(AF_INET, src, &from.sin_addr) != 1 ||
		    bind(fd, (struct sockaddr *)&from, sizeof(from)))) {
		rc = errno ? -errno : -EINVAL;
		close(fd);
		return rc;
	}
	if (v6 ? connect(fd, (struct sockaddr *)&a6, sizeof(a6)) :
		 connect(fd, (struct sockaddr *)&a4, sizeof(a4))) {
		rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}

/* Sends req on a new connection (from src, as prom_connect), reads until
 * the server closes. -errno of connect, or 0. */
static inline int prom_fetch_from(unsigned port, bool v6, const char *src, const char *req,
				  size_t len, struct reply *r)
{
	size_t got = 0;
	ssize_t n;
	int fd = prom_connect(port, v6, src);

	memset(r, 0, sizeof(*r) - sizeof(r->buf));
	r->buf[0] = '\0';
	if (fd < 0)
		return fd;
	/* the server may answer and close before it has read all of it */
	for (size_t off = 0; off < len; off += (size_t)n) {
		n = send(fd, req + off, len - off, MSG_NOSIGNAL);
		if (n <= 0)
			break;
	}
	while (got < sizeof(r->buf) - 1 &&
	       (n = recv(fd, r->buf + got, sizeof(r->buf) - 1 - got, 0)) > 0)
		got += (size_t)n;
	close(fd);
	r->buf[got] = '\0';
	r->head = r->buf;
	if (sscanf(r->buf, "HTTP/1.%*d %d", &r->status) != 1)
		r->status = 0;
	r->body = strstr(r->buf, "\r\n\r\n");
	if (r->body) {
		*r->body = '\0';
		r->body += 4;
	}
	return 0;
}

static inline int prom_fetch(unsigned port, bool v6, const char *req, size_t len,
			     struct reply *r)
{
	return prom_fetch_from(port, v6, NULL, req, len, r);
}

/* METHOD PATH with an Accept header where accept is not NULL, from src */
static inline int prom_get_from(unsigned port, const char *src, const char *method,
				const char *path, const char *accept, struct reply *r)
{
	char req[512];
	int n = snprintf(req, sizeof(req), "%s %s HTTP/1.1\r\nHost: x\r\n%s%s%s"
			 "Connection: close\r\n\r\n", method, path,
			 accept ? "Accept: " : "", accept ? accept : "", accept ? "\r\n" : "");

	return prom_fetch_from(port, false, src, req, (size_t)n, r);
}

static inline int prom_get(unsigned port, const char *method, const char *path,
			   const char *accept, struct reply *r)
{
	return prom_get_from(port, NULL, method, path, accept, r);
}

/* The body holds this line exactly. */
static inline bool prom_has_line(const struct reply *r, const char *line)
{
	size_t n = strlen(line);
	const char *p = r->body;

	while (p && (p = strstr(p, line))) {
		if ((p == r->body || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

#endif
