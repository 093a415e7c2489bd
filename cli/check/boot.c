/* Which tools this machine changes its kernel command line and its
 * initramfs with: a fix names the ones that are there, or says which file
 * to edit where none is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/check/fix_cmd.h"

/* Whether an executable named name is in one of PATH's folders. */
static bool on_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;
	char file[PATH_MAX];

	if (!path || !*path)
		path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	for (p = path; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if (end > p && snprintf(file, sizeof(file), "%.*s/%s", (int)(end - p), p, name) <
				       (int)sizeof(file) &&
		    !access(file, X_OK))
			return true;
	}
	return false;
}

void cli_boot_find(struct cli_boot *b)
{
	memset(b, 0, sizeof(*b));
	snprintf(b->reboot, sizeof(b->reboot), "reboot");
	b->grubby = on_path("grubby");
	if (!access("/etc/default/grub", F_OK))
		snprintf(b->grub_file, sizeof(b->grub_file), "/etc/default/grub");
	if (on_path("update-grub"))
		snprintf(b->grub_update, sizeof(b->grub_update), "update-grub");
	else if (on_path("grub2-mkconfig"))
		snprintf(b->grub_update, sizeof(b->grub_update),
			 "grub2-mkconfig -o /boot/grub2/grub.cfg");
	else if (on_path("grub-mkconfig"))
		snprintf(b->grub_update, sizeof(b->grub_update),
			 "grub-mkconfig -o /boot/grub/grub.cfg");
	if (on_path("update-initramfs"))
		snprintf(b->initramfs, sizeof(b->initramfs), "update-initramfs -u");
	else if (on_path("dracut"))
		snprintf(b->initramfs, sizeof(b->initramfs), "dracut -f");
	else if (on_path("mkinitcpio"))
		snprintf(b->initramfs, sizeof(b->initramfs), "mkinitcpio -P");
}
