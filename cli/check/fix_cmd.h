/* A finding's fix as a command a root user pastes: model/check.c states
 * the values (the file, the sysctl, the kernel parameter and the value
 * to set), this turns them into shell for the tools this machine has. */
#ifndef CLI_CHECK_FIX_CMD_H
#define CLI_CHECK_FIX_CMD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/check.h"

#define CLI_FIX_MAX 2048

/* The tools that change the kernel command line and the initramfs, as
 * found on this machine (cli/check/boot.c); "" for one not found. */
struct cli_boot {
	char grub_file[PATH_MAX];	/* "/etc/default/grub" */
	char grub_update[128];		/* "update-grub", "grub2-mkconfig -o ..." */
	bool grubby;			/* grubby on PATH (Fedora, RHEL) */
	char initramfs[64];		/* "update-initramfs -u", "dracut -f" */
	char reboot[64];		/* what runs last, "reboot" */
};

/* The tools of the live machine: /etc/default/grub and PATH. */
void cli_boot_find(struct cli_boot *b);

/* The whole fix of f: its command, then its second way or lasting form as
 * a shell comment, so that a pasted line still runs. Its length, or
 * -ENOSPC (buf holds what fitted). */
int cli_fix_text(const struct check_finding *f, const struct cli_boot *b, char *buf, size_t len);

/* param=value on the kernel command line, every param= and drop= there
 * (drop "" or NULL: none) removed first, through b's tools: the command
 * fails, and never runs the update and the reboot, when the value was
 * already in force or could not be set. Its length, or -ENOSPC. */
int cli_fix_cmdline(const struct cli_boot *b, const char *param, const char *value,
		    const char *drop, char *buf, size_t len);

#endif
