/* The one reader below a root (topo/sysfs.h): one file's first line, a
 * number, a link's target, a folder's entries, and the PCI facts of a
 * function. Nothing here reaches outside the root it is given. */
#include "topo/sysfs.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int vpath(char *path, const char *root, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static int vpath(char *path, const char *root, const char *fmt, va_list ap)
{
	char rel[PATH_MAX];
	int n;

	if (!root)
		return -ENOENT;
	n = vsnprintf(rel, sizeof(rel), fmt, ap);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	n = snprintf(path, PATH_MAX, "%s/%s", root, rel);
	if (n < 0 || n >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

/* <root>/<fmt, the caller's ...> into path, as ret: every variadic call
 * below starts so. */
#define PATH_OF(path, root, fmt, ret) do {				\
	va_list ap_;							\
	va_start(ap_, fmt);						\
	(ret) = vpath(path, root, fmt, ap_);				\
	va_end(ap_);							\
} while (0)

int topo_sys_path(char *path, const char *root, const char *fmt, ...)
{
	int ret;

	PATH_OF(path, root, fmt, ret);
	return ret;
}

void topo_copy_str(char *dst, size_t len, const char *src)
{
	size_t n;

	if (!len)
		return;
	n = src ? strnlen(src, len - 1) : 0;
	memcpy(dst, src ? src : "", n);
	dst[n] = '\0';
}

static int vread(const char *root, char *buf, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

static int vread(const char *root, char *buf, size_t len, const char *fmt, va_list ap)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0, n;
	FILE *f;
	int ret;

	ret = vpath(path, root, fmt, ap);
	if (ret)
		return ret;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* the whole line, so a caller's buffer is the only place it is cut */
	if (getline(&line, &cap, f) < 0)
		ret = ferror(f) ? -EIO : -ENODATA;
	fclose(f);
	if (!ret) {
		line[strcspn(line, "\n")] = '\0';
		for (n = strlen(line); n > 0 && line[n - 1] == ' '; n--)
			line[n - 1] = '\0';
		topo_copy_str(buf, len, line);
	}
	free(line);
	return ret;
}

int topo_sys_read(const char *root, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread(root, buf, len, fmt, ap);
	va_end(ap);
	return ret;
}

int topo_parse_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || errno)
		return -EINVAL;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

/* The integer in the first line of <root>/<fmt...>: 0 or -errno. */
static int vread_i64(const char *root, int64_t *out, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static int vread_i64(const char *root, int64_t *out, const char *fmt, va_list ap)
{
	char buf[64];
	int ret = vread(root, buf, sizeof(buf), fmt, ap);

	return ret ? ret : topo_parse_i64(buf, out);
}

int topo_sys_read_i64(const char *root, int64_t *out, const char *fmt, ...)
{
	va_list ap;
	int ret;

	/* topo_parse_i64 writes *out only for a number */
	va_start(ap, fmt);
	ret = vread_i64(root, out, fmt, ap);
	va_end(ap);
	return ret;
}

int topo_sys_read_int(const char *root, int *out, const char *fmt, ...)
{
	int64_t v;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread_i64(root, &v, fmt, ap);
	va_end(ap);
	if (!ret && (v < INT_MIN || v > INT_MAX))
		ret = -ERANGE;
	if (!ret)
		*out = (int)v;
	return ret;
}

int topo_sys_realpath(const char *root, char *out, const char *fmt, ...)
{
	char path[PATH_MAX];
	int ret;

	PATH_OF(path, root, fmt, ret);
	return ret ? ret : realpath(path, out) ? 0 : -errno;
}

int topo_sys_relpath(const char *root, char *out, const char *fmt, ...)
{
	char path[PATH_MAX], real[PATH_MAX], base[PATH_MAX];
	size_t n;
	int ret;

	PATH_OF(path, root, fmt, ret);
	if (ret)
		return ret;
	if (!realpath(path, real) || !realpath(root, base))
		return -errno;
	n = strcmp(base, "/") ? strlen(base) : 0;
	if (strncmp(real, base, n) || real[n] != '/' || !real[n + 1])
		return -EXDEV;
	strcpy(out, real + n + 1);
	return 0;
}

int topo_sys_fopen(const char *root, FILE **out, const char *fmt, ...)
{
	char path[PATH_MAX];
	FILE *f = NULL;
	int ret;

	PATH_OF(path, root, fmt, ret);
	if (!ret && !(f = fopen(path, "re")))
		ret = -errno;
	if (!ret)
		*out = f;
	return ret;
}

int topo_sys_opendir(const char *root, DIR **out, const char *fmt, ...)
{
	char path[PATH_MAX];
	DIR *d = NULL;
	int ret;

	PATH_OF(path, root, fmt, ret);
	if (!ret && !(d = opendir(path)))
		ret = -errno;
	if (!ret)
		*out = d;
	return ret;
}

static int cmp_names(const void *a, const void *b)
{
	return topo_name_cmp(a, b);
}

int topo_sys_list(const char *root, char (**out)[TOPO_NAME_MAX], const char *fmt, ...)
{
	char path[PATH_MAX], (*names)[TOPO_NAME_MAX] = NULL, (*grown)[TOPO_NAME_MAX];
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *dp;
	int ret;

	PATH_OF(path, root, fmt, ret);
	if (ret)
		return ret;
	dp = opendir(path);
	if (!dp)
		return -errno;
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= TOPO_NAME_MAX)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			grown = realloc(names, cap * sizeof(*names));
			if (!grown) {
				free(names);
				closedir(dp);
				return -ENOMEM;
			}
			names = grown;
		}
		strcpy(names[n++], de->d_name);
	}
	closedir(dp);
	if (n > INT_MAX) {
		free(names);
		return -E2BIG;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	*out = names;
	return (int)n;
}

int topo_name_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea = a, *eb = b;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			if (ea - a != eb - b)
				return ea - a < eb - b ? -1 : 1;
			for (; a < ea; a++, b++)
				if (*a != *b)
					return *a < *b ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

/* ---- the PCI facts of a function: read here only ---- */

/* "16.0 GT/s PCIe" -> 16.0; "Unknown" -> -1 */
static double parse_speed(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	return end == s || v <= 0 ? -1 : v;
}

static int parse_width(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return end == s || v <= 0 || v > 64 ? -1 : (int)v;
}

void topo_sys_link(const char *root, const char *busid, struct topo_link *l)
{
	char buf[64];

	if (!busid[0])
		return;
	if (!topo_sys_read(root, buf, sizeof(buf), "bus/pci/devices/%s/current_link_speed", busid))
		l->speed_gts = parse_speed(buf);
	if (!topo_sys_read(root, buf, sizeof(buf), "bus/pci/devices/%s/max_link_speed", busid))
		l->max_speed_gts = parse_speed(buf);
	if (!topo_sys_read(root, buf, sizeof(buf), "bus/pci/devices/%s/current_link_width", busid))
		l->width = parse_width(buf);
	if (!topo_sys_read(root, buf, sizeof(buf), "bus/pci/devices/%s/max_link_width", busid))
		l->max_width = parse_width(buf);
}

int topo_sys_node(const char *root, int *node, const char *fmt, ...)
{
	char dir[PATH_MAX];
	va_list ap;
	int v, n, ret;

	va_start(ap, fmt);
	n = vsnprintf(dir, sizeof(dir), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(dir))
		return -ENAMETOOLONG;
	ret = topo_sys_read_int(root, &v, "%s/numa_node", dir);
	if (!ret)
		*node = v < 0 ? -1 : v;
	return ret;
}
