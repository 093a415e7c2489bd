/* iostorm check's findings, for people and as JSON; each kind's id and
 * cost figures come from model/check_table.c, their words from
 * cli/words/findings_words.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/check/check_out.h"
#include "cli/report/out.h"
#include "cli/report/setup_json.h"
#include "cli/words/findings_words.h"

static const char *where(const struct cli_check *c, const struct check_finding *f)
{
	return f->dev >= 0 && (unsigned)f->dev < c->ndevs ? c->devs[f->dev].name : "machine";
}

/* What x costs, where a source gives a figure that fits its target: a
 * figure measured on NVMe drives is no figure for a loop device or a file
 * ("" then, and null in the JSON). */
static void cost_of(const struct cli_check *c, const struct check_finding *x, char *buf,
		    size_t len)
{
	const struct check_kind_info *k = check_kind_info(x->kind);

	buf[0] = '\0';
	if (k->cost.nvme && (x->dev < 0 || (unsigned)x->dev >= c->ndevs || !c->devs[x->dev].nvme))
		return;
	cli_check_cost(x->kind, buf, len);
}

void cli_check_print(const struct cli_check *c, const struct cli_opts *o, FILE *f)
{
	char fix[CLI_FIX_MAX], now[CLI_CHECK_WORDS_MAX], better[CLI_CHECK_WORDS_MAX];
	char cost[CLI_CHECK_ABOUT_MAX];
	unsigned i, ndev = 0;

	for (i = 0; i < c->nf; i++) {
		const struct check_finding *x = &c->f[i];
		const struct check_kind_info *k = check_kind_info(x->kind);

		ndev += x->dev >= 0;
		cli_check_now(x, now, sizeof(now));
		cli_check_better(x, better, sizeof(better));
		fprintf(f, "%-10s %s: %s; better: %s\n", where(c, x), k->name, now, better);
		cost_of(c, x, cost, sizeof(cost));
		if (cost[0])
			fprintf(f, "%-10s   costs: %s (docs/check.md#%s)\n", "", cost,
				k->cost.source ? k->cost.source : k->name);
		cli_fix_text(x, &c->boot, fix, sizeof(fix));
		fprintf(f, "%-10s   fix: %s\n", "", fix);
	}
	if (c->nf && c->ndevs)
		fprintf(f, "%u setting%s cost%s IOPS: %u on the target%s, %u on the machine\n",
			c->nf, c->nf == 1 ? "" : "s", c->nf == 1 ? "s" : "", ndev,
			c->ndevs == 1 ? "" : "s", c->nf - ndev);
	else if (c->nf)
		fprintf(f, "%u setting%s cost%s IOPS on this machine (no target%s)\n", c->nf,
			c->nf == 1 ? "" : "s", c->nf == 1 ? "s" : "",
			o->ntargets ? "" : ": no NVMe namespace here");
	else
		fprintf(f, "no setting found that costs IOPS on %u target%s and this machine\n",
			c->ndevs, c->ndevs == 1 ? "" : "s");
}

static json_t *str_or_null(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

/* The fix's values, as model/check.c states them: what a script sets
 * without reading the shell of "fix". */
static json_t *set_json(const struct check_fix *x)
{
	static const char *const acts[] = {
		[CHECK_ACT_NONE] = "none", [CHECK_ACT_SYSFS] = "sysfs",
		[CHECK_ACT_SYSCTL] = "sysctl", [CHECK_ACT_CMDLINE] = "cmdline",
		[CHECK_ACT_MODULE] = "module", [CHECK_ACT_OPTION] = "option",
		[CHECK_ACT_GOVERNOR] = "governor", [CHECK_ACT_IDLE_BELOW] = "idle_below",
		[CHECK_ACT_MEMLOCK] = "memlock", [CHECK_ACT_KERNEL] = "kernel",
	};

	return json_pack("{s:s, s:o, s:s, s:o, s:o, s:b}", "act", acts[x->act],
			 "key", str_or_null(x->key), "value", x->value,
			 "module", str_or_null(x->module), "drop", str_or_null(x->drop),
			 "builtin", x->builtin);
}

/* A figure: an integer where it is one (a count, a setting), else a real
 * (a link's 2.5 GT/s). */
static json_t *figure_json(double v)
{
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_integer((json_int_t)v);
	return json_real(v);
}

static int value_add(json_t *a, const char *name, json_t *value)
{
	return json_array_append_new(a, json_pack("{s:s, s:o}", "name", name, "value", value));
}

/* The values the words are made of, [{name, value}]: the kind's figures
 * and named values by the names model/check_table.c gives them, and the
 * multipath path it is about. */
static json_t *values_json(const struct check_finding *x)
{
	const struct check_kind_info *k = check_kind_info(x->kind);
	json_t *a = json_array();
	unsigned i;
	int err = !a;

	for (i = 0; !err && i < CHECK_NUMS && k->nums[i]; i++)
		err = value_add(a, k->nums[i], figure_json(x->num[i]));
	for (i = 0; !err && i < CHECK_NAMES && k->names[i]; i++)
		err = value_add(a, k->names[i], str_or_null(x->name[i]));
	if (!err && x->path[0])
		err = value_add(a, "path", json_string(x->path)) ||
		      value_add(a, "iopolicy", str_or_null(x->iopolicy));
	if (err) {
		json_decref(a);
		return NULL;
	}
	return a;
}

static json_t *finding_json(const struct cli_check *c, const struct check_finding *x)
{
	const struct check_kind_info *k = check_kind_info(x->kind);
	char fix[CLI_FIX_MAX], now[CLI_CHECK_WORDS_MAX], better[CLI_CHECK_WORDS_MAX];
	char cost[CLI_CHECK_ABOUT_MAX];

	cost_of(c, x, cost, sizeof(cost));
	cli_fix_text(x, &c->boot, fix, sizeof(fix));
	cli_check_now(x, now, sizeof(now));
	cli_check_better(x, better, sizeof(better));
	return json_pack("{s:s, s:o, s:o, s:s, s:o, s:s, s:s, s:s, s:o, s:o, s:o, s:b}",
			 "kind", k->name, "form", str_or_null(check_form_name(x->form)),
			 "values", values_json(x),
			 "scope", k->scope == CHECK_SCOPE_DEVICE ? "device" : "machine",
			 "device", x->dev >= 0 ? json_string(where(c, x)) : json_null(),
			 "now", now, "better", better, "fix", fix, "set", set_json(&x->fix),
			 "cost", str_or_null(cost),
			 "cost_source", str_or_null(cost[0] ? k->cost.source : NULL),
			 "runtime", k->runtime);
}

json_t *cli_check_json(const struct cli_check *c)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; a && i < c->nf; i++) {
		if (json_array_append_new(a, finding_json(c, &c->f[i]))) {
			json_decref(a);
			return NULL;
		}
	}
	if (!a)
		return NULL;
	return json_pack("{s:s, s:s, s:o, s:o}", "schema", CLI_JSON_SCHEMA, "command", "check",
			 "setup", cli_json_setup_of(c->m, c->devs, c->ndevs), "findings", a);
}
