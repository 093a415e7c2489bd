/* What the running kernel was built with: the debug options that cost
 * every IO (lockdep, KASAN, kmemleak, DEBUG_PAGEALLOC), the tick rate and
 * the blk-cgroup options, from /boot/config-RELEASE (Debian, Fedora) or
 * else /proc/config.gz (CONFIG_IKCONFIG_PROC: Arch, Android, many custom
 * kernels). zlib's gzopen reads a plain file as it is, so one reader takes
 * both. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "setup/setup_int.h"

/* Where /boot is: the live one, or boot/ beside a recorded tree's sys/. */
static int boot_dir(const struct setup_at *at, char *out, size_t len)
{
	const char *slash;

	if (at->live_sys)
		return snprintf(out, len, "/boot") < (int)len ? 0 : -1;
	slash = strrchr(at->sys, '/');
	if (!slash)
		return snprintf(out, len, "boot") < (int)len ? 0 : -1;
	return snprintf(out, len, "%.*s/boot", (int)(slash - at->sys), at->sys) < (int)len ? 0 : -1;
}

/* "CONFIG_X=y" or "=m" 1, "# CONFIG_X is not set" 0: into *out when line
 * names option. */
static void option(const char *line, const char *opt, int *out)
{
	size_t n = strlen(opt);

	if (!strncmp(line, opt, n) && line[n] == '=')
		*out = line[n + 1] == 'y' || line[n + 1] == 'm';
	else if (!strncmp(line, "# ", 2) && !strncmp(line + 2, opt, n) &&
		 !strncmp(line + 2 + n, " is not set", 11))
		*out = 0;
}

/* Whether word ("kmemleak=on") is a whole parameter of the command line. */
static bool cmdline_has(const char *cmdline, const char *word)
{
	size_t n = strlen(word);
	const char *p = cmdline;

	while (p && (p = strstr(p, word))) {
		if ((p == cmdline || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0' || p[n] == '\n'))
			return true;
		p += n;
	}
	return false;
}

/* kmemleak at boot (mm/kmemleak.c): kmemleak=off disables it whatever
 * else is given (kmemleak_boot_config: kmemleak_disable is for good), and
 * with CONFIG_DEBUG_KMEMLEAK_DEFAULT_OFF kmemleak_init disables it unless
 * kmemleak=on was given. Disabled, kmemleak_alloc and kmemleak_free return
 * at once: it costs nothing. */
static int kmemleak_at_boot(int built, int default_off, const char *cmdline)
{
	if (built != 1)
		return built;
	if (!cmdline || !cmdline[0])
		return default_off ? -1 : 1;
	if (cmdline_has(cmdline, "kmemleak=off"))
		return 0;
	return !default_off || cmdline_has(cmdline, "kmemleak=on");
}

/* What debugfs says of a kmemleak on at boot: off where it is mounted
 * and readable (the folder lists) but has no kmemleak file (kernels before
 * 4.20 register it only when kmemleak started: kmemleak_late_init), or
 * where the open is refused with EBUSY (older kernels' kmemleak_open, when
 * disabled). Today's kmemleak_open is a plain seq_open whatever the state,
 * and only a write answers EPERM when off: a run-time "echo off" there is
 * seen by no read, and setup/ writes nothing. */
static int kmemleak_in_debugfs(const struct setup_at *at)
{
	char (*names)[SETUP_NAME_MAX] = NULL;
	int n = topo_sys_list(at->sys, &names, "kernel/debug");
	FILE *f;
	int ret;

	free(names);
	if (n <= 0)
		return -1;
	ret = topo_sys_fopen(at->sys, &f, "kernel/debug/kmemleak");
	if (!ret) {
		fclose(f);
		return 1;
	}
	return ret == -ENOENT || ret == -EBUSY ? 0 : -1;
}

void setup_kconfig_read(const struct setup_at *at, const char *release, const char *cmdline,
			struct setup_kconfig *k)
{
	char dir[PATH_MAX], path[PATH_MAX + SETUP_NAME_MAX + 16], line[256];
	int prove = -1, lockdep = -1, enable_default = -1, kmemleak_off = -1;
	gzFile f = NULL;

	if (release[0] && !boot_dir(at, dir, sizeof(dir))) {
		snprintf(path, sizeof(path), "%s/config-%s", dir, release);
		f = gzopen(path, "rb");
	}
	if (!f && snprintf(path, sizeof(path), "%s/config.gz", at->proc) < (int)sizeof(path))
		f = gzopen(path, "rb");
	if (!f)
		return;
	/* a config file that is there: every option it does not set is off */
	k->lockdep = k->kasan = k->kmemleak = k->debug_pagealloc = 0;
	k->blk_cgroup = k->blk_throttle = k->blk_iolatency = k->blk_iocost = k->blk_wbt = 0;
	prove = lockdep = enable_default = kmemleak_off = 0;
	while (gzgets(f, line, sizeof(line))) {
		line[strcspn(line, "\n")] = '\0';
		option(line, "CONFIG_PROVE_LOCKING", &prove);
		option(line, "CONFIG_LOCKDEP", &lockdep);
		option(line, "CONFIG_KASAN", &k->kasan);
		option(line, "CONFIG_DEBUG_KMEMLEAK", &k->kmemleak);
		option(line, "CONFIG_DEBUG_KMEMLEAK_DEFAULT_OFF", &kmemleak_off);
		option(line, "CONFIG_DEBUG_PAGEALLOC", &k->debug_pagealloc);
		option(line, "CONFIG_DEBUG_PAGEALLOC_ENABLE_DEFAULT", &enable_default);
		option(line, "CONFIG_BLK_CGROUP", &k->blk_cgroup);
		option(line, "CONFIG_BLK_DEV_THROTTLING", &k->blk_throttle);
		option(line, "CONFIG_BLK_CGROUP_IOLATENCY", &k->blk_iolatency);
		option(line, "CONFIG_BLK_CGROUP_IOCOST", &k->blk_iocost);
		option(line, "CONFIG_BLK_WBT", &k->blk_wbt);
		if (!strncmp(line, "CONFIG_HZ=", 10))
			k->hz = atoi(line + 10);
	}
	gzclose(f);
	k->lockdep = prove || lockdep;
	/* DEBUG_PAGEALLOC costs only when on: by default, or debug_pagealloc=on */
	k->debug_pagealloc_on = k->debug_pagealloc &&
				(enable_default || (cmdline && strstr(cmdline, "debug_pagealloc=on")));
	k->kmemleak_on = kmemleak_at_boot(k->kmemleak, kmemleak_off, cmdline);
	if (k->kmemleak_on == 1 && !kmemleak_in_debugfs(at))
		k->kmemleak_on = 0;
}
