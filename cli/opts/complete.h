/* The hidden 'iostorm --complete ...' that completion/iostorm.bash asks
 * for verbs, options and their values, so the shell's lists come from the
 * tables the parser uses and cannot drift from them. */
#ifndef CLI_COMPLETE_H
#define CLI_COMPLETE_H

/* argv: what follows --complete. Returns the exit status. */
int cli_complete(int argc, char **argv);

#endif
