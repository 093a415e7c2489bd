/* A fix's values as shell: a sysfs write, a sysctl, a kernel command line
 * change through the boot loader's tools found here, a module option, an
 * iostorm option. The kernel command line's parameters are the kernel's
 * parser's: the last occurrence of a parameter is the one in force, so a
 * fix removes every other occurrence before it adds its own, and checks
 * the value in force before it runs the update and the reboot. */
#include "cli/check/fix_cmd.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A bounded string being built; err -ENOSPC once something did not fit. */
struct sb {
	char *buf;
	size_t len, at;
	int err;
};

static void sb_add(struct sb *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_add(struct sb *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->err || !s->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->buf + s->at, s->len - s->at, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= s->len - s->at) {
		s->err = -ENOSPC;
		return;
	}
	s->at += (size_t)n;
}

static int sb_done(const struct sb *s)
{
	return s->err ? s->err : (int)s->at;
}

static bool has(const char *s)
{
	return s && *s;
}

/* A parameter's name as an extended regular expression: '.' literal, and
 * '-' and '_' alike, as the kernel's parameq takes them. */
static void name_re(struct sb *s, const char *name)
{
	for (; *name; name++) {
		if (*name == '.')
			sb_add(s, "\\.");
		else if (*name == '-' || *name == '_')
			sb_add(s, "[-_]");
		else
			sb_add(s, "%c", *name);
	}
}

/* param and drop ("" none) as alternatives of an extended regex */
static void names_re(struct sb *s, const char *param, const char *drop)
{
	name_re(s, param);
	if (has(drop)) {
		sb_add(s, "|");
		name_re(s, drop);
	}
}

/* A case pattern for a word that sets name: "name=*|name" */
static void name_case(struct sb *s, const char *name)
{
	sb_add(s, "%s=*|%s", name, name);
}

/* /etc/default/grub: every occurrence of param and drop taken out of
 * GRUB_CMDLINE_LINUX and GRUB_CMDLINE_LINUX_DEFAULT, param=value put first
 * in GRUB_CMDLINE_LINUX (a line of its own when there is none), then the
 * value in force read back as grub-mkconfig reads it (it sources the
 * file and puts GRUB_CMDLINE_LINUX before GRUB_CMDLINE_LINUX_DEFAULT). */
static void grub_file(struct sb *s, const struct cli_boot *b, const char *param,
		      const char *value, const char *drop)
{
	sb_add(s, "f=%s; in_force() { (. \"$f\"; x=; for w in $GRUB_CMDLINE_LINUX "
		  "$GRUB_CMDLINE_LINUX_DEFAULT; do case $w in ", b->grub_file);
	name_case(s, param);
	if (has(drop)) {
		sb_add(s, "|");
		name_case(s, drop);
	}
	sb_add(s, ") x=$w;; esac; done; echo \"$x\"); }; ");
	sb_add(s, "if [ \"$(in_force)\" = %s=%s ]; then echo \"iostorm: %s=%s is already in force in "
		  "$f: nothing changed\" >&2; false; else ", param, value, param, value);
	/* out of both variables: a word between quotes or blanks, and one
	 * right after an unquoted variable's '=' */
	sb_add(s, "cp \"$f\" \"$f.iostorm-old\" && sed -i -E -e '/^GRUB_CMDLINE_LINUX(_DEFAULT)?=/{:a' "
		  "-e 's/([\"'\\'' ])(");
	names_re(s, param, drop);
	sb_add(s, ")(=[^\"'\\'' ]*)?([\"'\\'' ]|$)/\\1\\4/;ta' "
		  "-e 's/^(GRUB_CMDLINE_LINUX(_DEFAULT)?=)(");
	names_re(s, param, drop);
	sb_add(s, ")(=[^\"'\\'' ]*)?( |$)/\\1/;ta' -e '}' \"$f\" && ");
	/* first in GRUB_CMDLINE_LINUX, quoted or not; a line of its own
	 * where the file has none */
	sb_add(s, "{ grep -q '^GRUB_CMDLINE_LINUX=' \"$f\" && sed -i -E "
		  "-e 's/^(GRUB_CMDLINE_LINUX=[\"'\\''])/\\1%s=%s /;t' "
		  "-e 's/^GRUB_CMDLINE_LINUX=(.*)$/GRUB_CMDLINE_LINUX=\"%s=%s \\1\"/' \"$f\" || "
		  "echo 'GRUB_CMDLINE_LINUX=\"%s=%s\"' >>\"$f\"; } && ",
	       param, value, param, value, param, value);
	sb_add(s, "[ \"$(in_force)\" = %s=%s ] || { echo \"iostorm: could not set %s=%s in $f "
		  "(it was $f.iostorm-old)\" >&2; false; } && %s && %s; fi",
	       param, value, param, value, b->grub_update, b->reboot);
}

/* grubby edits every boot entry's arguments; the default entry's are read
 * back the same way. */
static void grubby(struct sb *s, const struct cli_boot *b, const char *param,
		   const char *value, const char *drop)
{
	sb_add(s, "in_force() { grubby --info=DEFAULT | sed -n 's/^args=\"*\\([^\"]*\\)\"*$/\\1/p' | "
		  "tr ' ' '\\n' | grep -E '^(");
	names_re(s, param, drop);
	sb_add(s, ")(=|$)' | tail -n 1; }; ");
	sb_add(s, "if [ \"$(in_force)\" = %s=%s ]; then echo \"iostorm: %s=%s is already in force "
		  "on the default kernel: nothing changed\" >&2; false; else ",
	       param, value, param, value);
	sb_add(s, "grubby --update-kernel=ALL --remove-args=\"%s%s%s\" && "
		  "grubby --update-kernel=ALL --args=\"%s=%s\" && [ \"$(in_force)\" = %s=%s ] || "
		  "{ echo \"iostorm: grubby did not set %s=%s\" >&2; false; } && %s; fi",
	       param, has(drop) ? " " : "", has(drop) ? drop : "", param, value, param, value,
	       param, value, b->reboot);
}

int cli_fix_cmdline(const struct cli_boot *b, const char *param, const char *value,
		    const char *drop, char *buf, size_t len)
{
	struct sb s = { buf, len, 0, 0 };

	if (len)
		buf[0] = '\0';
	if (b->grubby)
		grubby(&s, b, param, value, drop);
	else if (has(b->grub_file) && has(b->grub_update))
		grub_file(&s, b, param, value, drop);
	else
		sb_add(&s, "add %s=%s to the kernel command line%s%s%s, then reboot: no grubby, "
			   "and no /etc/default/grub with update-grub or grub2-mkconfig here "
			   "(systemd-boot: /etc/kernel/cmdline)",
		       param, value, has(drop) ? " and remove any " : "", has(drop) ? drop : "",
		       has(drop) ? "=" : "");
	return sb_done(&s);
}

/* A module's option: on the kernel command line for a built-in module,
 * which /etc/modprobe.d cannot reach; in /etc/modprobe.d otherwise, then
 * the initramfs rebuilt, where the module is loaded from at boot. */
static void module(struct sb *s, const struct check_fix *x, const struct cli_boot *b)
{
	char param[CHECK_KEY_MAX + 40];
	int n;

	if (x->builtin) {
		snprintf(param, sizeof(param), "%s.%s", x->module, x->key);
		n = cli_fix_cmdline(b, param, x->value, NULL, s->buf + s->at, s->len - s->at);
		if (n < 0)
			s->err = n;
		else
			s->at += (size_t)n;
		return;
	}
	sb_add(s, "echo \"options %s %s=%s\" > /etc/modprobe.d/%s-%s.conf && ", x->module, x->key,
	       x->value, x->module, x->key);
	if (has(b->initramfs))
		sb_add(s, "%s && %s", b->initramfs, b->reboot);
	else
		sb_add(s, "%s  # rebuild the initramfs first where it loads %s", b->reboot, x->module);
}

/* The command of one fix, in full. */
static void command(struct sb *s, const struct check_finding *f, const struct check_fix *x,
		    const struct cli_boot *b)
{
	int n;

	switch (x->act) {
	case CHECK_ACT_SYSFS:
		/* a value of several words is one line: quoted */
		sb_add(s, strchr(x->value, ' ') ? "echo '%s' > /sys/%s" : "echo %s > /sys/%s",
		       x->value, x->key);
		break;
	case CHECK_ACT_SYSCTL:
		sb_add(s, "sysctl -w %s=%s", x->key, x->value);
		break;
	case CHECK_ACT_CMDLINE:
		n = cli_fix_cmdline(b, x->key, x->value, x->drop, s->buf + s->at, s->len - s->at);
		if (n < 0)
			s->err = n;
		else
			s->at += (size_t)n;
		break;
	case CHECK_ACT_MODULE:
		module(s, x, b);
		break;
	case CHECK_ACT_OPTION:
		sb_add(s, "%s%s%s", x->key, has(x->value) ? " " : "", x->value);
		break;
	case CHECK_ACT_GOVERNOR:
		sb_add(s, "cpupower frequency-set -g %s", x->value);
		break;
	case CHECK_ACT_IDLE_BELOW:
		sb_add(s, "cpupower idle-set -D %s", x->value);
		break;
	case CHECK_ACT_MEMLOCK:
		sb_add(s, "ulimit -l %s", x->value);
		break;
	case CHECK_ACT_KERNEL:
		if (has(x->value))
			sb_add(s, "boot a %s or newer kernel", x->value);
		else
			sb_add(s, "boot a kernel built without these options (the distribution's "
				  "non-debug kernel)");
		break;
	case CHECK_ACT_NONE:
		if (f->kind == CHECK_SHARED_POLL_QUEUE && has(x->value))
			sb_add(s, "--cpus with CPUs %s for %s's workers", x->value, x->key);
		else if (f->kind == CHECK_SHARED_POLL_QUEUE)
			sb_add(s, "--cpus with a CPU of each poll queue (/sys/block/%s/mq/*/cpu_list)",
			       x->key);
		else if (f->kind == CHECK_LINK)
			sb_add(s, "reseat %s in a slot of full width (x%s) and check the BIOS's PCIe "
				  "link settings", has(x->key) ? x->key : "the drive", x->value);
		break;
	}
}

/* The second way or the lasting form, short, for a comment. */
static void comment(struct sb *s, const struct check_finding *f)
{
	const struct check_fix *x = &f->also;
	const char *lead = f->also_lasting ? "lasting" : "or";

	switch (x->act) {
	case CHECK_ACT_CMDLINE:
		sb_add(s, "  # %s: %s=%s on the kernel command line", lead, x->key, x->value);
		break;
	case CHECK_ACT_MODULE:
		sb_add(s, "  # %s: nvme poll queues, %s.%s=%s", lead, x->module, x->key, x->value);
		break;
	case CHECK_ACT_OPTION:
		sb_add(s, "  # %s: %s%s%s", lead, x->key, has(x->value) ? " " : "", x->value);
		break;
	case CHECK_ACT_KERNEL:
		sb_add(s, "  # %s: boot a %s or newer kernel", lead, x->value);
		break;
	default:
		break;
	}
}

int cli_fix_text(const struct check_finding *f, const struct cli_boot *b, char *buf, size_t len)
{
	struct sb s = { buf, len, 0, 0 };

	if (len)
		buf[0] = '\0';
	command(&s, f, &f->fix, b);
	comment(&s, f);
	/* nvme's queue vectors are managed: the fixes of the interrupt
	 * kinds are runs that take no interrupt, and say why */
	if ((f->kind == CHECK_ONE_CPU_IRQS || f->kind == CHECK_IRQ_REMOTE) &&
	    strcmp(f->fix.key, "--cpus"))
		sb_add(&s, "  # polled queues take no interrupt; the kernel places nvme's queue "
			   "vectors: /proc/irq refuses to move them");
	return sb_done(&s);
}
