/* model/check's own helpers, shared by the device's rules (check.c) and
 * the machine's (check_machine.c): the list findings go on, and the
 * values of one finding (check_fix.c). */
#ifndef MODEL_CHECK_INT_H
#define MODEL_CHECK_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/check.h"

struct check_list {
	struct check_finding *f;
	unsigned n, cap;
	int err;		/* -ENOMEM once an add failed: nothing more is added */
};

/* A new finding of kind k about device dev (-1: the machine), zeroed, at
 * the end of l; NULL when out of memory (l->err says so). */
struct check_finding *check_add(struct check_list *l, enum check_kind k, int dev);

bool check_has(const char *s);
/* The value of the last param=... on the kernel command line, the one in
 * force, into out; false when there is none. */
bool check_cmdline_last(const char *cmdline, const char *param, char *out, size_t len);

/* Value i of f (check_kind_info's names[i]): s, "" for NULL. */
void check_name(struct check_finding *f, unsigned i, const char *s);

/* A fix's values (fx is f->fix or f->also): its act, the key from keyfmt
 * and the value. */
void check_act(struct check_fix *fx, enum check_act a, const char *value, const char *keyfmt, ...)
	__attribute__((format(printf, 4, 5)));
/* param=value on the kernel command line; drop names another parameter
 * that sets the same thing ("" or NULL: none). */
void check_cmdline_fix(struct check_fix *fx, const char *param, const char *value,
		       const char *drop);
/* A parameter of module mod, built in or not as m says of nvme. */
void check_module_fix(struct check_fix *fx, const struct setup_machine *m, const char *mod,
		      const char *param, const char *value);
/* An iostorm option with its value ("" none). */
void check_option_fix(struct check_fix *fx, const char *opt, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The machine's rules, after every device's: workers is the run's total. */
void check_machine_rules(struct check_list *l, const struct setup_machine *m,
			 const struct check_ask *ask, unsigned workers);

#endif
