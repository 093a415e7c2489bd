/* model/check's own helpers, shared by the device's rules (check.c) and
 * the machine's (check_machine.c): the list findings go on, and the
 * values of one finding (check_fix.c). */
#ifndef MODEL_CHECK_INT_H
#define MODEL_CHECK_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/check.h"
#include "topo/cpu.h"

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

/* ---- check_queues.c ---- */
/* The rules that read a device's queues beyond its own block queue: a
 * native multipath head's paths, whose blk-mq queues and interrupts carry
 * the head's IO, and the poll queues a polled run's workers share.
 * check.c runs the device rules on each path and calls these;
 * docs/check.md explains them. Pure: no IO, no printing. */

/* The worker CPUs of a head's device that take its path p: of the asked
 * set (NULL or empty: not asked), under iopolicy numa (the kernel's
 * default) the CPUs on the path's node, under another policy all of them.
 * Their count, with the set in *out; 0 when no asked worker takes the
 * path; -EINVAL when none were asked (then the path's node's CPUs stand in
 * for them). */
int check_path_cpus(const struct setup_machine *m, const struct setup_dev *head, unsigned p,
		    const struct topo_cpuset *asked, struct topo_cpuset *out);

/* Findings f[0..n), which the device rules made on path p of head, made
 * about that path: path names it and iopolicy is the head's, and a path's
 * runtime queue knobs get kinds of their own (CHECK_PATH_SCHEDULER,
 * CHECK_PATH_NR_REQUESTS), since check --measure writes a device's own
 * queue and a head's scheduler is no knob at all. */
void check_path_name(struct check_finding *f, unsigned n, const struct setup_dev *head,
		     unsigned p);

/* Device i's polling workers (the ask's --cpus, per device as the runner
 * pins them) when some share a poll queue that a free one could spare:
 * fills f (kind CHECK_SHARED_POLL_QUEUE, dev i) with the CPUs that give
 * each worker its own and returns 1; 0 when none shares, the CPUs are not
 * asked or the map is not known; -ENOMEM. */
int check_shared_poll(const struct setup_machine *m, const struct setup_dev *d, unsigned i,
		      const struct check_ask *ask, struct check_finding *f);

#endif
