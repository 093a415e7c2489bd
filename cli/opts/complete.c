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
#include "cli/opts/complete.h"

#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts/opts_int.h"

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
	static const struct cli_optdesc help = { .name = "help", .val = 'h' },
					version = { .name = "version", .val = 'V' };
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

/* The names of the option's table entry: the list its setter checks. */
static void list_values(const struct cli_verb *v, const char *name)
{
	const struct cli_optdesc *d;
	const char *const *c;
	struct cli_opts o;

	cli_opts_init(&o, v->name, v->groups);
	if (!strncmp(name, "--", 2))
		d = cli_opt_find(&o, name + 2);
	else if (name[0] == '-' && name[1] && !name[2])
		d = cli_opt_find_short(&o, (unsigned char)name[1]);
	else
		d = cli_opt_find(&o, name);
	for (c = d && d->arg ? d->choices : NULL; c && *c; c++)
		printf("%s\n", *c);
}

static const char *operands(const struct cli_verb *v)
{
	switch (v->operands) {
	case CLI_OPERANDS_TARGETS:
		return "targets";
	case CLI_OPERANDS_FILES:
		return "files";
	case CLI_OPERANDS_NONE:
		break;
	}
	return "none";
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
