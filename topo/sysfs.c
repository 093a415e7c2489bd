/* Facts read below the sysfs root (t->sysfs): never outside it, so a
 * recorded sysfs tree answers like the live one. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/topo_int.h"

/* <root>/<fmt...> into path (PATH_MAX). */
static int sys_path(const struct topo *t, char *path, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static int sys_path(const struct topo *t, char *path, const char *fmt, va_list ap)
{
	char rel[PATH_MAX];
	int n;

	if (!t->sysfs)
		return -ENOENT;
	n = vsnprintf(rel, sizeof(rel), fmt, ap);
	if (n < 0 || (size_t)n >= sizeof(rel))
		return -ENAMETOOLONG;
	n = snprintf(path, PATH_MAX, "%s/%s", t->sysfs, rel);
	if (n < 0 || n >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

/* First line of <root>/<rel>, newline stripped. -ENOENT without sysfs. */
int topo_sys_read(const struct topo *t, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	FILE *f;
	int n, ret;

	va_start(ap, fmt);
	ret = sys_path(t, path, fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = ferror(f) ? -EIO : -ENODATA;
	fclose(f);
	if (!ret) {
		buf[strcspn(buf, "\n")] = '\0';
		/* sysfs pads model strings with blanks */
		for (n = (int)strlen(buf); n > 0 && buf[n - 1] == ' '; n--)
			buf[n - 1] = '\0';
	}
	return ret;
}

/* realpath of <root>/<rel> into out (PATH_MAX). */
int topo_sys_realpath(const struct topo *t, char *out, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = sys_path(t, path, fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	if (!realpath(path, out))
		return -errno;
	return 0;
}

/* opendir of <root>/<rel>; the caller closes *out. */
int topo_sys_opendir(const struct topo *t, DIR **out, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	DIR *d;
	int ret;

	va_start(ap, fmt);
	ret = sys_path(t, path, fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	d = opendir(path);
	if (!d)
		return -errno;
	*out = d;
	return 0;
}

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

/* Current and maximum speed and width of busid's link; what sysfs does not
 * say stays as it was. */
void topo_sys_link(const struct topo *t, const char *busid, struct topo_link *l)
{
	char buf[64];

	if (!busid[0])
		return;
	if (!topo_sys_read(t, buf, sizeof(buf), "bus/pci/devices/%s/current_link_speed", busid))
		l->speed_gts = parse_speed(buf);
	if (!topo_sys_read(t, buf, sizeof(buf), "bus/pci/devices/%s/max_link_speed", busid))
		l->max_speed_gts = parse_speed(buf);
	if (!topo_sys_read(t, buf, sizeof(buf), "bus/pci/devices/%s/current_link_width", busid))
		l->width = parse_width(buf);
	if (!topo_sys_read(t, buf, sizeof(buf), "bus/pci/devices/%s/max_link_width", busid))
		l->max_width = parse_width(buf);
}
