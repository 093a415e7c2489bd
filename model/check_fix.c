/* A finding's values: the list the rules add findings to, the values it
 * states, and the fix stated as values (the act, the key, the value), for
 * cli/check/fix_cmd.c to turn into a command. */
#include "model/check.h"
#include "model/check_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool check_has(const char *s)
{
	return s && *s;
}

/* The value of the last param=... on the kernel command line (the one in
 * force: the kernel's parser calls a parameter's handler for each
 * occurrence in order), into out; false when there is none. */
bool check_cmdline_last(const char *cmdline, const char *param, char *out, size_t len)
{
	size_t n = strlen(param), w;
	const char *p = cmdline;
	bool found = false;

	while (*p) {
		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		w = strcspn(p, " \n\t");
		if (w > n && !strncmp(p, param, n) && p[n] == '=') {
			snprintf(out, len, "%.*s", (int)(w - n - 1), p + n + 1);
			found = true;
		}
		p += w;
	}
	return found;
}

struct check_finding *check_add(struct check_list *l, enum check_kind k, int dev)
{
	struct check_finding *f;

	if (l->err)
		return NULL;
	if (l->n == l->cap) {
		unsigned cap = l->cap ? 2 * l->cap : 16;

		f = realloc(l->f, cap * sizeof(*f));
		if (!f) {
			l->err = -ENOMEM;
			return NULL;
		}
		l->f = f;
		l->cap = cap;
	}
	f = &l->f[l->n++];
	memset(f, 0, sizeof(*f));
	f->kind = k;
	f->dev = dev;
	return f;
}

void check_name(struct check_finding *f, unsigned i, const char *s)
{
	if (i < CHECK_NAMES)
		snprintf(f->name[i], sizeof(f->name[i]), "%s", s ? s : "");
}

void check_act(struct check_fix *fx, enum check_act a, const char *value, const char *keyfmt, ...)
{
	va_list ap;

	memset(fx, 0, sizeof(*fx));
	fx->act = a;
	va_start(ap, keyfmt);
	vsnprintf(fx->key, sizeof(fx->key), keyfmt, ap);
	va_end(ap);
	snprintf(fx->value, sizeof(fx->value), "%s", value);
}

/* A parameter on the kernel command line; drop names another one that
 * sets the same thing, so that it cannot win after the fix. */
void check_cmdline_fix(struct check_fix *fx, const char *param, const char *value,
			const char *drop)
{
	check_act(fx, CHECK_ACT_CMDLINE, value, "%s", param);
	snprintf(fx->drop, sizeof(fx->drop), "%s", drop ? drop : "");
}

/* A module's parameter: in /etc/modprobe.d for a loadable module; on the
 * kernel command line for a built-in one, which ignores modprobe.d. */
void check_module_fix(struct check_fix *fx, const struct setup_machine *m, const char *mod,
		       const char *param, const char *value)
{
	check_act(fx, CHECK_ACT_MODULE, value, "%s", param);
	snprintf(fx->module, sizeof(fx->module), "%s", mod);
	fx->builtin = m && m->nvme_builtin == 1;
}

void check_option_fix(struct check_fix *fx, const char *opt, const char *fmt, ...)
{
	va_list ap;

	check_act(fx, CHECK_ACT_OPTION, "", "%s", opt);
	va_start(ap, fmt);
	vsnprintf(fx->value, sizeof(fx->value), fmt, ap);
	va_end(ap);
}
