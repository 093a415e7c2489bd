/* iostorm --complete: the words bash completion offers, one per line on
 * stdout, read from the tables the parser uses. Not in --help: it is for
 * completion/iostorm.bash, not for people.
 *
 *   --complete verbs                  every verb
 *   --complete options VERB           "--long -s ARG" per option VERB takes
 *                                     ('-' where it has no short letter or
 *                                     takes no value), in --help order
 *   --complete values VERB OPTION     the names OPTION's value is one of;
 *                                     nothing for a free value
 *   --complete operands VERB          targets, files or none */
#include "cli/complete.h"

#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts_impl.h"

/* A value no option's name list holds, and what a setter's refusal of it
 * looks like when the option takes one of a fixed set of names: "--engine:
 * unknown engine '?' (auto, io_uring or libaio)". */
#define PROBE "?"
#define PROBE_REFUSED " '" PROBE "' ("

static void option_line(const struct cli_optdesc *d)
{
	printf("--%s ", d->name);
	if (d->val > 0 && d->val < 0x100)
		printf("-%c ", d->val);
	else
		printf("- ");
	printf("%s\n", d->arg ? d->arg : "-");
}

static bool shared_name(const char *name)
{
	size_t i;

	for (i = 0; cli_opts_table[i].name; i++)
		if (!strcmp(cli_opts_table[i].name, name))
			return true;
	return false;
}

/* In the order opts.c's usage text lists them: the shared table (a verb's
 * own option of the same name in its place), then the verb's other own. */
static void list_options(const struct cli_verb *v)
{
	static const struct cli_optdesc help = { "help", 'h', NULL, 0, 0, NULL, NULL },
					version = { "version", 'V', NULL, 0, 0, NULL, NULL };
	const struct cli_optdesc *d;
	struct cli_opts o;
	size_t i;

	cli_opts_init(&o, v->name, v->groups);
	for (i = 0; cli_opts_table[i].name; i++)
		if ((d = cli_opt_find(&o, cli_opts_table[i].name)))
			option_line(d);
	for (d = v->own; d && d->name; d++)
		if (!shared_name(d->name))
			option_line(d);
	option_line(&help);
	option_line(&version);
}

/* The names come from the setter itself: each option with a fixed set
 * refuses an unknown name with one line that lists them all (opts_table.c's
 * choose), so that line is the one place they are written down. The split
 * is on ", " and " or ". */
static void list_values(const struct cli_verb *v, const char *name)
{
	const struct cli_optdesc *d;
	struct cli_opts o;
	char err[512], *p, *end, *sep;

	cli_opts_init(&o, v->name, v->groups);
	if (!strncmp(name, "--", 2))
		d = cli_opt_find(&o, name + 2);
	else if (name[0] == '-' && name[1] && !name[2])
		d = cli_opt_find_short(&o, (unsigned char)name[1]);
	else
		d = cli_opt_find(&o, name);
	err[0] = '\0';
	if (!d || !d->arg || !d->set(&o, PROBE, err, sizeof(err)))
		return;
	p = strstr(err, PROBE_REFUSED);
	if (!p || !strstr(err, "unknown ") || !(end = strrchr(err, ')')))
		return;
	p += strlen(PROBE_REFUSED);
	*end = '\0';
	for (; *p; p = sep) {
		sep = strstr(p, ", ");
		if (!sep)
			sep = strstr(p, " or ");
		if (!sep) {
			printf("%s\n", p);
			return;
		}
		printf("%.*s\n", (int)(sep - p), p);
		sep += *sep == ',' ? 2 : 4;
	}
}

/* What the synopsis's first line says the operands are. */
static const char *operands(const struct cli_verb *v)
{
	char line[160], bare[160];
	size_t n = strcspn(v->synopsis, "\n");

	snprintf(line, sizeof(line), "%.*s", (int)n, v->synopsis);
	snprintf(bare, sizeof(bare), "iostorm %s [options]", v->name);
	if (strstr(line, "TARGET"))
		return "targets";
	return strcmp(line, bare) ? "files" : "none";
}

int cli_complete(int argc, char **argv)
{
	const struct cli_verb *v = argc >= 2 ? cli_verb_find(argv[1]) : NULL;
	size_t i;

	if (argc == 1 && !strcmp(argv[0], "verbs")) {
		for (i = 0; i < cli_nverbs; i++)
			printf("%s\n", cli_verbs[i]->name);
		return CLI_EXIT_OK;
	}
	if (!v)
		return CLI_EXIT_USAGE;
	if (argc == 2 && !strcmp(argv[0], "options"))
		list_options(v);
	else if (argc == 3 && !strcmp(argv[0], "values"))
		list_values(v, argv[2]);
	else if (argc == 2 && !strcmp(argv[0], "operands"))
		printf("%s\n", operands(v));
	else
		return CLI_EXIT_USAGE;
	return CLI_EXIT_OK;
}
