/* Options shared by the commands that run the engine (run, nop, saturate,
 * latency, sweep): one struct, no globals, bounded parsing with one clear
 * message per bad value. */
#ifndef CLI_OPTS_H
#define CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"

#define CLI_MAX_CPUS 1024	/* entries in --cpus */
#define CLI_MAX_BS (1u << 20)
#define CLI_MAX_QD 65536u
#define CLI_MAX_JOBS 1024u
#define CLI_MAX_TARGETS 256u

/* Option groups a command accepts (cli_opts_parse's mask). */
#define CLI_OG_TARGET	0x1u	/* --bs --range --buffered --jobs-per-device --placement */
#define CLI_OG_NOP	0x2u	/* --jobs */

/* cli_opts_parse returns these for --help and --version (nothing printed). */
#define CLI_OPTS_HELP 1
#define CLI_OPTS_VERSION 2

enum cli_placement {
	CLI_PLACE_LOCAL,
	CLI_PLACE_REMOTE,
	CLI_PLACE_NONE,
};

struct cli_opts {
	const char *cmd;		/* "run", "nop", ... */
	unsigned groups;		/* CLI_OG_* accepted */
	uint32_t bs;
	uint32_t qd;
	uint32_t batch;
	enum eng_backend backend;
	enum eng_mode mode;
	bool mode_auto;			/* --completion auto */
	uint64_t time_ns;		/* 0: no time limit (only with --ios) */
	uint64_t ramp_ns;
	bool time_set, ramp_set;
	uint64_t ios;			/* per device (per job for nop), 0: none */
	unsigned jobs_per_device;
	unsigned jobs;			/* nop: workers */
	int cpus[CLI_MAX_CPUS];		/* --cpus in order */
	unsigned ncpus;			/* 0: not given */
	enum cli_placement placement;
	bool placement_set;
	bool buffered;
	uint64_t range_off;
	uint64_t range_len;		/* 0: to the end of the target */
	bool latency;
	const char *json;		/* NULL, a path or "-" */
	bool quiet;
	uint64_t seed;
	bool seed_set;
	char **targets;			/* the operands, inside argv */
	unsigned ntargets;
};

/* Extra options a command adds to the shared set: val is a short option
 * character or a value >= 0x200; cb receives it with its argument. */
struct cli_opt_extra {
	const char *name;
	int has_arg;			/* no_argument, required_argument */
	int val;
	const char *arg;		/* for the usage text, NULL: none */
	const char *help;
};
typedef int (*cli_opt_cb)(void *ctx, int val, const char *arg, char *err,
			  size_t errlen);

void cli_opts_init(struct cli_opts *o, const char *cmd, unsigned groups);
/* Parses argv (argv[0] is the command name). Returns 0, CLI_OPTS_HELP,
 * CLI_OPTS_VERSION, or -EINVAL with err filled. Operands end up in
 * o->targets; cli_opts_finish has been applied. */
int cli_opts_parse(struct cli_opts *o, int argc, char **argv, char *err,
		   size_t errlen);
int cli_opts_parse_ext(struct cli_opts *o, int argc, char **argv,
		       const struct cli_opt_extra *extra, cli_opt_cb cb,
		       void *ctx, char *err, size_t errlen);
/* Sets one shared option by its long name (for job files); 0 or -EINVAL
 * (-ENOENT for an unknown name). */
int cli_opts_set(struct cli_opts *o, const char *name, const char *val,
		 char *err, size_t errlen);
/* Defaults that depend on other options (batch clamp, ramp with --ios). */
void cli_opts_finish(struct cli_opts *o);
/* A command's front end: parses, prints --help (synopsis then options) or
 * --version to stdout, or the error as one line on stderr. Returns
 * CLI_OPTS_GO to go on, else the exit status (0 after help, 2 on error). */
#define CLI_OPTS_GO (-1)
int cli_opts_cmdline(struct cli_opts *o, const char *cmd, unsigned groups,
		     int argc, char **argv, const char *synopsis);
int cli_opts_cmdline_ext(struct cli_opts *o, const char *cmd, unsigned groups,
			 int argc, char **argv, const char *synopsis,
			 const struct cli_opt_extra *extra, cli_opt_cb cb,
			 void *ctx);
/* The same on options the caller has initialised with its own defaults. */
int cli_opts_cmdline_parse(struct cli_opts *o, int argc, char **argv,
			   const char *synopsis,
			   const struct cli_opt_extra *extra, cli_opt_cb cb,
			   void *ctx);
void cli_opts_usage(const struct cli_opts *o, const char *synopsis,
		    const struct cli_opt_extra *extra, FILE *f);

/* Bounded number parsers, exported for tests and other commands.
 * All return 0 or -EINVAL with err naming what and why. */
int cli_parse_size(const char *what, const char *s, uint64_t min,
		   uint64_t max, uint64_t *out, char *err, size_t errlen);
int cli_parse_count(const char *what, const char *s, uint64_t min,
		    uint64_t max, uint64_t *out, char *err, size_t errlen);
int cli_parse_duration(const char *what, const char *s, uint64_t min_ns,
		       uint64_t max_ns, uint64_t *out, char *err, size_t errlen);
/* "0-3,8,10-11" into cpus[] in order; no duplicates; at most max entries. */
int cli_parse_cpulist(const char *s, int *cpus, unsigned max, unsigned *n,
		      char *err, size_t errlen);
/* Every CPU listed exists and is in this process's affinity mask. */
int cli_cpus_check(const int *cpus, unsigned n, char *err, size_t errlen);

const char *cli_placement_name(enum cli_placement p);

#endif
