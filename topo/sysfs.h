/* The one reader of sysfs and procfs: files and folders below a root
 * given by the caller (a live /sys or /proc, or a recorded tree), never
 * outside it, so a recorded tree answers every question the live machine
 * would. setup/ (settings), topo/ (PCI and NUMA facts) and the engine's
 * passthrough target read through it.
 *
 * It lives in topo/ because topo/ is the module that owns sysfs facts:
 * setup/ takes a device's link and node from here (topo_sys_link,
 * topo_sys_node) rather than reading them again, and this header
 * includes no hwloc, so engine/ and setup/ use it without hwloc. The root
 * is always a parameter: nothing below cli/ reads $IOSTORM_SYSFS_ROOT or
 * $IOSTORM_PROCFS_ROOT (cli/opts/roots.h reads them once). Lookups by
 * device number name the live /sys on purpose (topo.h, topo_io_poll): a
 * device number only means something on the machine it came from.
 *
 * Every call returns 0, a count or -errno and writes its out-parameters
 * only on success; a NULL root is "no tree" (-ENOENT: the facts are
 * unknown, as for an XML export without sysfs). */
#ifndef TOPO_SYSFS_H
#define TOPO_SYSFS_H

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TOPO_NAME_MAX 64

/* PCIe link of a device or of the port above it. From an XML export only
 * gbps is known (hwloc's linkspeed); sysfs gives the rest. Unknown: < 0. */
struct topo_link {
	double gbps;		/* hwloc's GB/s; < 0: not recorded */
	double speed_gts;	/* current_link_speed, GT/s */
	int width;		/* current_link_width, lanes */
	double max_speed_gts;	/* max_link_speed */
	int max_width;		/* max_link_width */
};


/* <root>/<fmt...> into path (PATH_MAX): 0, -ENOENT (root NULL) or
 * -ENAMETOOLONG. */
int topo_sys_path(char *path, const char *root, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* First line of <root>/<fmt...>, newline and trailing blanks cut (sysfs
 * pads model strings), then cut to fit len; -errno, -ENODATA for an empty
 * file. */
int topo_sys_read(const char *root, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The first line as a decimal number (topo_parse_i64): -EINVAL when it is
 * not one, -ERANGE when it does not fit an int. */
int topo_sys_read_int(const char *root, int *out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int topo_sys_read_i64(const char *root, int64_t *out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* realpath of <root>/<fmt...> into out (PATH_MAX), as an absolute path. */
int topo_sys_realpath(const char *root, char *out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* realpath of <root>/<fmt...>, relative to root ("devices/pci0000:00/..."),
 * so a recorded tree names what the live one does; -EXDEV when a link
 * leads out of the root. */
int topo_sys_relpath(const char *root, char *out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* fopen ("re") of <root>/<fmt...>, for a file read line by line (procfs's
 * interrupts, cpuinfo, limits, a cgroup's io.max); the caller closes
 * *out. */
int topo_sys_fopen(const char *root, FILE **out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* opendir of <root>/<fmt...>; the caller closes *out. */
int topo_sys_opendir(const char *root, DIR **out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The entries of folder <root>/<fmt...> (no dot files, none longer than
 * TOPO_NAME_MAX - 1), sorted by topo_name_cmp: count, a malloc'd array in
 * *out (NULL when empty). */
int topo_sys_list(const char *root, char (**out)[TOPO_NAME_MAX], const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Bounded copy: src (NULL: "") cut to fit len, always terminated (len 0:
 * nothing written). Cutting a long model string is fine. */
void topo_copy_str(char *dst, size_t len, const char *src);
/* A strict decimal number with nothing around it but blanks: 0 or -EINVAL. */
int topo_parse_i64(const char *s, int64_t *out);
/* Names compared with their digit runs as numbers: nvme2n1 < nvme10n1;
 * leading zeros do not count, and a run of any length compares. */
int topo_name_cmp(const char *a, const char *b);

/* The link of PCI function busid ("0000:01:00.0"): current and maximum
 * speed (GT/s, "16.0 GT/s PCIe") and width (lanes) from
 * bus/pci/devices/BUSID/; what sysfs does not say stays as it was. */
void topo_sys_link(const char *root, const char *busid, struct topo_link *l);
/* The numa_node file of the device folder <root>/<fmt...> (a PCI
 * function's "bus/pci/devices/BUSID", an NVMe controller's
 * "class/nvme/nvme0"): 0 with the node (-1: the firmware gives none), or
 * -errno. */
int topo_sys_node(const char *root, int *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
