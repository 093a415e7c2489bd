/* Every kernel command line fix check can give, applied by /bin/sh to
 * sample /etc/default/grub files in a temp folder (never the host's): one
 * with a conflicting occurrence of the parameter (also in the other
 * spelling it drops, and with '-' for '_'), one without it, one with only
 * GRUB_CMDLINE_LINUX_DEFAULT, one single-quoted, one unquoted. The value in force is read back as
 * grub-mkconfig builds the line (the file sourced, GRUB_CMDLINE_LINUX then
 * GRUB_CMDLINE_LINUX_DEFAULT) and as the kernel takes it (the last
 * occurrence wins). A fix that changes nothing exits non-zero and never
 * reaches the update or the reboot; the update and the reboot are
 * commands that leave a mark here. The same for grubby, with a stand-in
 * that keeps the default entry's arguments in a file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/check/fix_cmd.h"
#include "tests/helpers.h"

static char dir[] = "/tmp/iostorm-fixcmd-XXXXXX";
static char grub[48], updated[48], rebooted[48], args[48];
static struct cli_boot boot;

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECKF(f != NULL, "%s: %s", path, strerror(errno));
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

/* Runs cmd under /bin/sh with stdout and stderr to /dev/null; its exit
 * status, or -1. */
static int sh(const char *cmd, const char *path_env)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (!pid) {
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(126);
		if (path_env)
			setenv("PATH", path_env, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The words grub-mkconfig puts on the linux line: the file sourced by sh,
 * GRUB_CMDLINE_LINUX then GRUB_CMDLINE_LINUX_DEFAULT, into out. */
static int grub_line(char *out, size_t len)
{
	char cmd[128];
	FILE *p;

	snprintf(cmd, sizeof(cmd), ". '%s'; echo \"$GRUB_CMDLINE_LINUX $GRUB_CMDLINE_LINUX_DEFAULT\"",
		 grub);
	p = popen(cmd, "r");
	if (!p)
		return -errno;
	if (!fgets(out, (int)len, p))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return pclose(p) ? -EIO : 0;
}

/* Whether word sets parameter name: the kernel's parameq, '-' and '_'
 * alike. */
static int sets(const char *word, size_t wlen, const char *name)
{
	size_t i, n = strlen(name);

	if (wlen < n || (wlen > n && word[n] != '='))
		return 0;
	for (i = 0; i < n; i++) {
		char a = word[i] == '-' ? '_' : word[i], b = name[i] == '-' ? '_' : name[i];

		if (a != b)
			return 0;
	}
	return 1;
}

/* The last word of line that sets param or drop: the one in force. */
static void in_force(const char *line, const char *param, const char *drop, char *out,
		     size_t len)
{
	const char *p = line;
	size_t w;

	out[0] = '\0';
	while (*p) {
		while (*p == ' ')
			p++;
		w = strcspn(p, " ");
		if (w && (sets(p, w, param) || (drop && *drop && sets(p, w, drop))))
			snprintf(out, len, "%.*s", (int)w, p);
		p += w;
	}
}

static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

static void clear_marks(void)
{
	unlink(updated);
	unlink(rebooted);
}

/* The fixes check gives on the kernel command line: every parameter, the
 * one it drops, and a conflicting value of each. */
static const struct {
	const char *param, *value, *drop, *other, *other_drop;
} fixes[] = {
	{ "iommu", "pt", "iommu.passthrough", "iommu=nopt", "iommu.passthrough=0" },
	{ "iommu.passthrough", "1", "iommu", "iommu.passthrough=0", "iommu=nopt" },
	{ "iommu.strict", "0", "", "iommu.strict=1", NULL },
	{ "mitigations", "off", "", "mitigations=auto,nosmt", NULL },
	{ "nvme_core.default_ps_max_latency_us", "0", "",
	  "nvme_core.default-ps-max-latency-us=5500", NULL },
	{ "nvme.poll_queues", "4", "", "nvme.poll_queues=0", NULL },
	{ "nvme.write_queues", "0", "", "nvme.write_queues=2", NULL },
};

/* The samples, each with the conflicting words put in: @1 the
 * parameter's other value, @2 its other spelling's (or nothing). */
static const char *const samples[] = {
	/* a conflicting occurrence in each variable, the DEFAULT one last */
	"GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX=\"root=/dev/sda1 @1 ro\"\n"
	"GRUB_CMDLINE_LINUX_DEFAULT=\"quiet @2 @1\"\n",
	/* none */
	"GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX=\"\"\nGRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n",
	/* GRUB_CMDLINE_LINUX_DEFAULT only, the conflict at its ends */
	"GRUB_TIMEOUT=5\nGRUB_CMDLINE_LINUX_DEFAULT=\"@1 quiet @2\"\n",
	/* single quotes */
	"GRUB_CMDLINE_LINUX='@1 quiet'\nGRUB_CMDLINE_LINUX_DEFAULT='@2'\n",
	/* unquoted: one word each, the conflict right after the '=' */
	"GRUB_CMDLINE_LINUX=@1\nGRUB_CMDLINE_LINUX_DEFAULT=quiet\n",
};

/* sample with @1 and @2 replaced */
static void fill(char *out, size_t len, const char *sample, const char *one, const char *two)
{
	size_t at = 0;
	const char *p;
	int n;

	for (p = sample; *p && at + 1 < len; p++) {
		if (p[0] == '@' && (p[1] == '1' || p[1] == '2')) {
			n = snprintf(out + at, len - at, "%s", p[1] == '1' ? one : two);
			at += n > 0 ? (size_t)n : 0;
			p++;
		} else {
			out[at++] = *p;
		}
	}
	out[at < len ? at : len - 1] = '\0';
}

static void apply_grub(unsigned i, unsigned k)
{
	char text[1024], cmd[CLI_FIX_MAX], line[1024], got[256], want[256];
	int rc;

	fill(text, sizeof(text), samples[k], fixes[i].other,
	     fixes[i].other_drop ? fixes[i].other_drop : "");
	write_file(grub, text);
	clear_marks();
	rc = cli_fix_cmdline(&boot, fixes[i].param, fixes[i].value, fixes[i].drop, cmd, sizeof(cmd));
	CHECKF(rc > 0, "%s: %d", fixes[i].param, rc);
	rc = sh(cmd, NULL);
	snprintf(want, sizeof(want), "%s=%s", fixes[i].param, fixes[i].value);
	CHECKF(rc == 0, "%s, sample %u: exit %d\n%s", want, k, rc, cmd);
	CHECK(grub_line(line, sizeof(line)) == 0);
	in_force(line, fixes[i].param, fixes[i].drop, got, sizeof(got));
	CHECKF(!strcmp(got, want), "%s, sample %u: in force '%s' on '%s'", want, k, got, line);
	CHECKF(exists(updated) && exists(rebooted), "%s, sample %u: no update and reboot", want, k);
	/* the rest of the line is kept */
	CHECKF(strstr(line, "quiet") != NULL, "%s, sample %u: lost quiet: '%s'", want, k, line);

	/* again: nothing changes, so it fails and neither updates nor reboots */
	clear_marks();
	rc = sh(cmd, NULL);
	CHECKF(rc != 0, "%s, sample %u: a fix that changed nothing exited 0", want, k);
	CHECKF(!exists(updated) && !exists(rebooted),
	       "%s, sample %u: updated or rebooted with nothing changed", want, k);
}

/* A grubby that keeps the default entry's arguments in $ARGS: --info
 * prints them, --remove-args takes out the words of those names,
 * --args adds words. Enough to run a fix's logic, not grubby's. */
static const char fake_grubby[] =
	"#!/bin/sh\n"
	"a=$(cat \"$ARGS\")\n"
	"for o; do case $o in\n"
	"--info=*) echo \"args=\\\"$a\\\"\"; exit 0;;\n"
	"--remove-args=*) for r in ${o#--remove-args=}; do n=; for w in $a; do\n"
	"  case $w in \"$r\"|\"$r\"=*) ;; *) n=\"$n $w\";; esac; done; a=${n# }; done;;\n"
	"--args=*) a=\"$a ${o#--args=}\";;\n"
	"esac; done\n"
	"echo \"$a\" >\"$ARGS\"\n";

static void apply_grubby(unsigned i, const char *path_env)
{
	char cmd[CLI_FIX_MAX], line[1024], got[256], want[256], text[512];
	struct cli_boot g = boot;
	FILE *f;
	int rc;

	g.grubby = true;
	snprintf(text, sizeof(text), "root=/dev/sda1 %s quiet %s\n", fixes[i].other,
		 fixes[i].other_drop ? fixes[i].other_drop : "");
	write_file(args, text);
	clear_marks();
	CHECK(cli_fix_cmdline(&g, fixes[i].param, fixes[i].value, fixes[i].drop, cmd,
			      sizeof(cmd)) > 0);
	rc = sh(cmd, path_env);
	snprintf(want, sizeof(want), "%s=%s", fixes[i].param, fixes[i].value);
	CHECKF(rc == 0, "grubby %s: exit %d\n%s", want, rc, cmd);
	f = fopen(args, "r");
	line[0] = '\0';
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	line[strcspn(line, "\n")] = '\0';
	in_force(line, fixes[i].param, fixes[i].drop, got, sizeof(got));
	CHECKF(!strcmp(got, want), "grubby %s: in force '%s' on '%s'", want, got, line);
	CHECKF(exists(rebooted), "grubby %s: no reboot", want);
	clear_marks();
	CHECKF(sh(cmd, path_env) != 0, "grubby %s: a fix that changed nothing exited 0", want);
	CHECKF(!exists(rebooted), "grubby %s: rebooted with nothing changed", want);
}

/* With neither tool, the fix is words that name what to edit, and no
 * command that would run. */
static void neither(void)
{
	struct cli_boot none = { "", "", false, "", "reboot" };
	char cmd[CLI_FIX_MAX];

	CHECK(cli_fix_cmdline(&none, "mitigations", "off", "", cmd, sizeof(cmd)) > 0);
	CHECKF(strstr(cmd, "add mitigations=off to the kernel command line") == cmd &&
	       strstr(cmd, "/etc/kernel/cmdline") && !strstr(cmd, "&&"), "%s", cmd);
	/* update-grub without /etc/default/grub is no way either */
	snprintf(none.grub_update, sizeof(none.grub_update), "update-grub");
	CHECK(cli_fix_cmdline(&none, "mitigations", "off", "", cmd, sizeof(cmd)) > 0);
	CHECKF(strstr(cmd, "add mitigations=off") == cmd, "%s", cmd);
	/* a text that cannot fit says so */
	CHECK(cli_fix_cmdline(&boot, "mitigations", "off", "", cmd, 64) == -ENOSPC);
}

int main(void)
{
	char bin[48], grubby[64], old[64], path_env[8192];
	unsigned i, k;

	if (!mkdtemp(dir)) {
		fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
		return T_EXIT_FAIL;
	}
	snprintf(grub, sizeof(grub), "%s/grub", dir);
	snprintf(updated, sizeof(updated), "%s/updated", dir);
	snprintf(rebooted, sizeof(rebooted), "%s/rebooted", dir);
	snprintf(args, sizeof(args), "%s/args", dir);
	snprintf(bin, sizeof(bin), "%s/bin", dir);
	snprintf(grubby, sizeof(grubby), "%s/grubby", bin);
	memset(&boot, 0, sizeof(boot));
	snprintf(boot.grub_file, sizeof(boot.grub_file), "%s", grub);
	snprintf(boot.grub_update, sizeof(boot.grub_update), "touch '%s'", updated);
	snprintf(boot.reboot, sizeof(boot.reboot), "touch '%s'", rebooted);

	for (i = 0; i < sizeof(fixes) / sizeof(fixes[0]); i++)
		for (k = 0; k < sizeof(samples) / sizeof(samples[0]); k++)
			apply_grub(i, k);

	CHECK(mkdir(bin, 0700) == 0);
	write_file(grubby, fake_grubby);
	CHECK(chmod(grubby, 0700) == 0);
	snprintf(path_env, sizeof(path_env), "%s:%s", bin, getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("ARGS", args, 1);
	for (i = 0; i < sizeof(fixes) / sizeof(fixes[0]); i++)
		apply_grubby(i, path_env);
	neither();

	unlink(grubby);
	rmdir(bin);
	unlink(args);
	clear_marks();
	unlink(grub);
	snprintf(old, sizeof(old), "%s.iostorm-old", grub);
	unlink(old);
	if (rmdir(dir))
		CHECKF(0, "%s left behind: %s", dir, strerror(errno));
	return t_result();
}
