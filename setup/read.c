/* The roots a call reads below, and small helpers on names. The reads
 * themselves are topo/sysfs.h's, the one reader of sysfs and procfs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "setup/setup_int.h"

static int root_of(char *out, const char *given, const char *live)
{
	const char *s = given && given[0] ? given : live;
	struct stat st;

	if (strlen(s) >= PATH_MAX)
		return -ENAMETOOLONG;
	strcpy(out, s);
	/* a root of "/" would make every path "//..." */
	while (strlen(out) > 1 && out[strlen(out) - 1] == '/')
		out[strlen(out) - 1] = '\0';
	if (stat(out, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int setup_at_init(struct setup_at *at, const struct setup_roots *r)
{
	int ret;

	ret = root_of(at->sys, r ? r->sysfs : NULL, "/sys");
	if (!ret)
		ret = root_of(at->proc, r ? r->procfs : NULL, "/proc");
	if (ret)
		return ret;
	at->live_sys = !strcmp(at->sys, "/sys");
	at->live_proc = !strcmp(at->proc, "/proc");
	return 0;
}

const char *setup_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}
