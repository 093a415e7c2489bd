/* The command line of every command: one description per verb (its
 * options, defaults, usage text), one struct of parsed options, no globals,
 * bounded parsing with one clear message per bad value. main.c dispatches
 * on the verbs, job files and --help read the same descriptions. */
#ifndef CLI_OPTS_H
#define CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"
#include "model/slo.h"
#include "topo/topo.h"

#define CLI_MAX_CPUS 1024	/* entries in --cpus */
#define CLI_MAX_BS (1u << 20)
#define CLI_MAX_QD 65536u
#define CLI_MAX_JOBS 1024u
#define CLI_MAX_TARGETS 256u

/* Groups of shared options; a verb names the groups it accepts. */
#define CLI_OG_TARGET	0x1u	/* --bs --range --buffered --jobs-per-device --placement --engine --group */
#define CLI_OG_NOP	0x2u	/* --jobs */
#define CLI_OG_ENGINE	0x4u	/* --qd --batch --time --ramp --ios ...: runs the engine */
#define CLI_OG_JSON	0x8u	/* --json */
#define CLI_OG_TOPO	0x10u	/* --topology --dot: a machine's topology, drawn */
#define CLI_OG_REPEAT	0x20u	/* --repeat: several measurements, compared */
#define CLI_OG_RATE	0x40u	/* --rate --arrival: an open loop */
#define CLI_OG_STEADY	0x80u	/* --steady --temperature-every: run's
				 * timeline */
#define CLI_MAX_REPEAT 1000u
#define CLI_REPEAT_AUTO_MIN 3u	/* two that agree by chance prove little */
#define CLI_REPEAT_AUTO_MAX 8u
#define CLI_DEMO_SIZE (256ull << 20)	/* --demo-size's default: each demo target's bytes */
#define CLI_MAX_RATE 1000000000ull	/* --rate: IOs per second per device */
#define CLI_STEADY_WINDOW_NS (30 * CLI_NS_PER_S)	/* --steady's default */
#define CLI_LINGER_NS (15 * CLI_NS_PER_S)	/* --linger's default: the
							 * scrape interval of Debian's
							 * prometheus.yml */
#define CLI_MAX_LINGER_NS (3600 * CLI_NS_PER_S)
#define CLI_MAX_STEADY_NS (600 * CLI_NS_PER_S)	/* the timeline keeps each of
							 * its seconds' latency */

/* --group: when the devices whose workers are placed on one CPU share one
 * worker thread and ring (cli/runner/group.c). */
enum cli_group {
	CLI_GROUP_AUTO,		/* with polled completion only */
	CLI_GROUP_ON,
	CLI_GROUP_OFF,
};

struct cli_opts {
	const char *cmd;		/* "run", "nop", ... */
	unsigned groups;		/* CLI_OG_* accepted */
	uint32_t bs;
	uint32_t qd;
	uint32_t batch;
	uint32_t reap;			/* --reap: completions a full queue
					 * waits for per call; 1 default */
	uint64_t reap_wait_ns;		/* --reap-wait: that wait's bound,
					 * whole microseconds; 0 none */
	bool no_iowait;			/* --no-iowait */
	enum eng_backend backend;
	enum eng_mode mode;
	bool mode_auto;			/* --completion auto */
	uint64_t time_ns;		/* 0: no time limit (only with --ios) */
	uint64_t ramp_ns;
	bool time_set, ramp_set;
	uint64_t stall_ns;		/* --stall-timeout, 0: off */
	uint64_t ios;			/* per device (per job for nop), 0: none */
	unsigned jobs_per_device;
	unsigned jobs;			/* nop: workers */
	int cpus[CLI_MAX_CPUS];		/* --cpus in order */
	unsigned ncpus;			/* 0: not given */
	enum topo_policy placement;
	bool placement_set;
	enum cli_group group;		/* --group: devices sharing a worker */
	bool buffered;
	bool pi_act;			/* --pi-act: passthrough reads with PRACT */
	uint64_t range_off;
	uint64_t range_len;		/* 0: to the end of the target */
	bool latency;
	bool zero_sample;		/* sample each target for never-written
					 * blocks before the run (cli/runner/drive.h) */
	const char *json;		/* NULL, a path or "-" */
	const char *stream;		/* --stream: NULL, a path or "-" (JSON
					 * lines, cli/live/stream.h) */
	uint64_t interval_ns;		/* --interval: the live line's, the
					 * timeline's and the stream's */
	bool quiet;
	bool quiet_advice;		/* --quiet-advice: no advice lines in the
					 * text (check's summary line, placement
					 * notes); the JSON is unchanged */
	uint64_t seed;
	bool seed_set;
	uint32_t repeat;		/* --repeat: measurements, each with its
					 * own ramp; 1: one; with repeat_auto,
					 * the most */
	bool repeat_auto;		/* --repeat auto: until the repeats agree
					 * (MODEL_REPEAT_AGREE_PCT), at least
					 * CLI_REPEAT_AUTO_MIN, at most
					 * CLI_REPEAT_AUTO_MAX */
	uint64_t rate;			/* --rate: IOs per second per device,
					 * split over its workers; 0: closed loop */
	enum eng_arrival_kind arrival;	/* --arrival */
	/* --steady PCT[,DURATION[,lat]]: measure until the last steady_ns of
	 * per-second IOPS (and mean latency with steady_lat) is steady within
	 * steady_pct (model/steady.h), up to --time; 0: off */
	double steady_pct;
	uint64_t steady_ns;
	bool steady_lat;
	uint64_t temp_every_ns;		/* --temperature-every: the drive's
					 * temperature into the timeline; 0 off */
	const char *listen;		/* --listen [ADDR:]PORT, checked; NULL:
					 * no Prometheus endpoint (cli/live/prom.h) */
	uint64_t linger_ns;		/* --linger: the final figures served
					 * for this long after the command
					 * (nothing without --listen) */
	/* a command's own options */
	bool demo, compare_placement;	/* saturate */
	bool measure;			/* check --measure */
	bool restore;			/* check --restore */
	bool yes_destroy;		/* fill --yes-destroy-data */
	bool overwrite_data;		/* fill --overwrite-data */
	unsigned rounds;		/* check --rounds: A/B rounds */
	uint64_t demo_size;		/* saturate */
	const char *qd_list;		/* sweep's --qd LIST, checked; NULL: default */
	const char *rate_list;		/* sweep's --rate LIST, checked; NULL: a
					 * sweep of depths */
	struct model_slo slo;		/* sweep's and saturate's --slo; n 0: off */
	uint32_t slo_points;		/* --slo-points: the search's cap; 0:
					 * MODEL_SLO_POINTS */
	const char *topology;		/* topo's and plan's --topology FILE.xml */
	uint64_t drive_iops;		/* plan: every drive's IOPS; 0: not given */
	uint64_t memory_bw;		/* plan: bytes/s per node; 0: unknown */
	uint64_t bridge_bw;		/* plan: bytes/s per host bridge; 0: the
					 * sum of its root ports */
	const char *from;		/* plan: a saturate report */
	const char *free_slots;		/* plan's --free-slots LIST, checked;
					 * NULL: the topology's empty slots */
	bool bs_set;			/* plan: --bs was given */
	bool dot;			/* topo's --dot */
	const char *plot_out;		/* plot's -o FILE.svg|FILE.png */
	const char *plot_metric;	/* plot's --metric, one of
					 * cli_metric_keys; NULL: p99 latency */
	bool force;			/* compare --force: unlike settings */
	double fail_worse_pct;		/* compare --fail-worse; < 0: off */
	double alpha;			/* compare --alpha: significance level */
	bool trust_repeats;		/* compare --trust-repeats: the gate may
					 * fail on one run's repeats */
	unsigned ab_rounds;		/* compare --ab N: rounds; 0: off */
	/* merge: the time window (seconds into each window), the devices,
	 * hosts and window asked; NULL, -1: all */
	uint64_t merge_from_ns, merge_to_ns;
	bool merge_to_set;
	const char *merge_devices, *merge_hosts;	/* LISTs, checked */
	long merge_run;
	/* tune */
	int tune_goal;			/* --goal: enum model_tune_goal */
	uint64_t tune_budget_ns;	/* --budget; 0: the default */
	const char *write_config;	/* --write-config FILE; NULL: none */
	bool tune_zeros;		/* --allow-never-written */
	unsigned tune_stages;		/* --stages: bit s searches stage s
					 * (enum model_tune_stage); 0: all */
	char **targets;			/* the operands, inside argv */
	unsigned ntargets;
};

/* Sets one option from its value (NULL for a flag given on the command
 * line). 0 or -EINVAL with err filled (one line naming the option). */
typedef int (*cli_set_fn)(struct cli_opts *o, const char *arg, char *err,
			  size_t errlen);

/* Writes the value o gives the option, as a user would type it and the
 * option's setter reads it back ("4k", "10s", "auto"), into buf. Returns
 * its length; 0 where o gives it nothing worth showing (no limit, a flag,
 * the clock). --help prints it as "(default ...)". */
typedef int (*cli_show_fn)(const struct cli_opts *o, char *buf, size_t len);

#define CLI_OF_LIST 0x1u	/* the value is a comma-separated list */
#define CLI_OF_ATMOST_QD 0x2u	/* a count that runs at most --qd
				 * (cli_opts_at_qd): --help shows it so */
#define CLI_OF_STDOUT 0x4u	/* a file name where - is standard output */

/* How an option's value is read and where it goes: by a setter of its
 * own, or by one of the kinds every option of that kind shares, into the
 * field of struct cli_opts at the row's offset. */
enum cli_optkind {
	CLI_OPT_FN,		/* set reads it; show, where given, shows it */
	CLI_OPT_U32,		/* a count in [min, max] into a uint32_t */
	CLI_OPT_U64,		/* a count in [min, max] into a uint64_t */
	CLI_OPT_DURATION,	/* a duration in [min, max] ns into a uint64_t */
	CLI_OPT_FLAG,		/* true or false into a bool */
	CLI_OPT_NOFLAG,		/* a --no-X flag: its opposite into a bool */
	CLI_OPT_CHOICE,		/* one of choices: vals[its index] into an enum */
	CLI_OPT_PATH,		/* a file name, not empty, into a const char * */
};

/* One option. Its long name is also its job-file key. A row of a kind
 * other than CLI_OPT_FN is data: the shared setter and show read it
 * (cli_opt_apply, cli_opt_show), and --help writes its bounds where its
 * help says {bounds}. Rows are written with designated initializers
 * (CLI_OPT_OWN for a verb's own option with its own setter). */
struct cli_optdesc {
	const char *name;
	int val;		/* its short letter, or an id >= 0x100 */
	const char *arg;	/* the value's name in the usage text; NULL: a
				 * flag (a job file says key = true|false) */
	unsigned group;		/* shared options: its CLI_OG_* group */
	unsigned flags;		/* CLI_OF_* */
	cli_set_fn set;		/* CLI_OPT_FN's setter */
	cli_show_fn show;	/* its default, where the kind's own show (a
				 * count, a duration, a choice's name; 0 and
				 * the rest: nothing) is not it; NULL: that */
	const char *const *choices;	/* the names its value is one of,
					 * NULL-terminated; NULL: a free value */
	const char *help;	/* lines of the usage text, '\n' between,
				 * without its default or its choices */
	enum cli_optkind kind;
	size_t off;		/* the field's offsetof in struct cli_opts */
	size_t given;		/* the offsetof of a bool set when the option
				 * is given; 0 (cmd's): none */
	uint64_t min, max;	/* a count's or a duration's bounds */
	const int *vals;	/* CLI_OPT_CHOICE: the value of each choice */
	const char *noun;	/* CLI_OPT_CHOICE: what a choice is, in a
				 * refusal ("unknown mode 'x'") */
};

/* A verb's own option read by a setter of its own (the fields of struct
 * cli_optdesc in order, up to help). */
#define CLI_OPT_OWN(name_, val_, arg_, group_, flags_, set_, show_, choices_, help_) \
	{ .name = (name_), .val = (val_), .arg = (arg_), .group = (group_),	\
	  .flags = (flags_), .set = (set_), .show = (show_), .choices = (choices_), \
	  .help = (help_) }
/* The row that ends a table. */
#define CLI_OPT_END { .name = NULL }

/* Sets d's option in o from arg (NULL for a flag on the command line):
 * its setter, or its kind's reading into its field. 0 or -EINVAL with err
 * filled (one line naming the option). */
int cli_opt_apply(const struct cli_optdesc *d, struct cli_opts *o, const char *arg,
		  char *err, size_t errlen);
/* d's value in o as --help shows a default (cli_show_fn's contract). */
int cli_opt_show(const struct cli_optdesc *d, const struct cli_opts *o, char *buf,
		 size_t len);

/* What a verb's operands are, for completion. */
enum cli_operands {
	CLI_OPERANDS_NONE,
	CLI_OPERANDS_TARGETS,	/* block devices or files to read */
	CLI_OPERANDS_FILES,	/* files of any kind (a report) */
};

/* One verb: everything its command line, its --help, job files and the
 * top-level help need. */
struct cli_verb {
	const char *name;
	const char *what;		/* its line in 'iostorm --help' */
	const char *synopsis;		/* "iostorm NAME ...", a blank line, a
					 * paragraph; no defaults (--help prints
					 * them from the options) */
	void (*synopsis_more)(FILE *f);	/* prints the rest of the paragraph
					 * where a table holds it (NULL: none) */
	enum cli_operands operands;
	unsigned groups;		/* the shared option groups it accepts */
	const struct cli_optdesc *own;	/* its own options, ending with a NULL name
					 * (NULL: none); one named like a shared
					 * option replaces it, or, with no setter,
					 * takes it whatever its group */
	uint32_t qd, bs;		/* defaults; 0: the shared ones */
	uint64_t ramp_ns, time_ns;
	bool jobfile;			/* may be a job file's command */
	int (*run)(int argc, char **argv);	/* returns the exit status */
};

/* Every verb, in the order 'iostorm --help' lists them (cli/verbs.c). */
extern const struct cli_verb *const cli_verbs[];
extern const size_t cli_nverbs;
const struct cli_verb *cli_verb_find(const char *name);

/* What the parser found: go on, or the user asked for --help/--version
 * (nothing printed). Not an exit status and not an errno. */
enum cli_parse_outcome {
	CLI_PARSE_GO,
	CLI_PARSE_HELP,
	CLI_PARSE_VERSION,
};

/* Defaults: the shared ones, then those of the verb cmd names (if any). */
void cli_opts_init(struct cli_opts *o, const char *cmd, unsigned groups);
/* Parses argv (argv[0] is the command name) against o->cmd's verb and
 * o->groups. Returns 0 with *outcome, or -EINVAL with err filled. Operands
 * end up in o->targets; defaults that depend on other options (batch clamp,
 * ramp with --ios) have been applied. */
int cli_opts_parse(struct cli_opts *o, int argc, char **argv,
		   enum cli_parse_outcome *outcome, char *err, size_t errlen);
/* --batch or --reap's value v as o's command says it runs: at most --qd,
 * except where --qd is a list of depths (each clamps it when it runs).
 * Parsing applies it; --help's defaults show it. */
uint32_t cli_opts_at_qd(const struct cli_opts *o, uint32_t v);
/* The options o's verb takes, one per call from cursor *i (start at 0):
 * the shared ones in table order, a verb's own of the same name in its
 * place (or the shared one, where the own one has no setter), then the
 * verb's own that replace none. NULL at the end. */
const struct cli_optdesc *cli_opt_next(const struct cli_opts *o, size_t *i);
/* The option a long name or a short letter means for o's verb, or NULL. */
const struct cli_optdesc *cli_opt_find(const struct cli_opts *o, const char *name);
const struct cli_optdesc *cli_opt_find_short(const struct cli_opts *o, int val);
/* The option "--name" means on o's command line, as getopt_long reads it:
 * the option of that name, else the one option whose name starts with it.
 * NULL for none or several. */
const struct cli_optdesc *cli_opt_find_abbrev(const struct cli_opts *o, const char *name);
/* Sets one option by its long name (for job files); 0, -EINVAL, or
 * -ENOENT for a name o's verb does not take. */
int cli_opts_set(struct cli_opts *o, const char *name, const char *val,
		 char *err, size_t errlen);
/* A command's front end: v's defaults, then argv; from here on every line
 * on stderr names v (cli_out_verb). 0: go on. -ECANCELED: --help
 * (synopsis then options) or --version was printed to stdout and there is
 * nothing to run (cli_exit_status makes it 0). -EINVAL: argv is refused,
 * said in one line on stderr (exit 2). */
int cli_opts_cmdline(struct cli_opts *o, const struct cli_verb *v, int argc,
		     char **argv);

/* Bounded number parsers, exported for tests and other commands.
 * All return 0 or -EINVAL with err naming what and why. */
int cli_parse_size(const char *what, const char *s, uint64_t min,
		   uint64_t max, uint64_t *out, char *err, size_t errlen);
int cli_parse_count(const char *what, const char *s, uint64_t min,
		    uint64_t max, uint64_t *out, char *err, size_t errlen);
int cli_parse_duration(const char *what, const char *s, uint64_t min_ns,
		       uint64_t max_ns, uint64_t *out, char *err, size_t errlen);
/* A decimal number in [min, max] (above 0 where min is 0 and pct is
 * false), with a trailing % where pct says so ("5%", "0.5"). */
int cli_parse_real(const char *what, const char *s, double min, double max, bool pct,
		   double *out, char *err, size_t errlen);
/* v as a user would write it: a size in the largest of k, m, g, t that
 * divides it ("4k", "256m"), a count in k, m, g of 1000 where one divides
 * it, a duration in the largest of h, m, s, ms, us, ns that divides it
 * ("10s", "500ms"). Each parser above reads its text back to v. Return
 * the length (snprintf's). */
/* --group's name for g, from the option table. */
const char *cli_group_name(enum cli_group g);
/* --arrival's name for a, from the option table. */
const char *cli_arrival_name(enum eng_arrival_kind a);
int cli_fmt_size(uint64_t v, char *buf, size_t len);
int cli_fmt_count(uint64_t v, char *buf, size_t len);
int cli_fmt_duration(uint64_t ns, char *buf, size_t len);
/* The index of arg in names (NULL-terminated), or -EINVAL with one line
 * in err that lists them ("--engine: unknown engine 'x' (auto, ... or
 * io_uring_cmd)"): a setter of an option with choices. */
int cli_opt_choose(const char *opt, const char *kind, const char *const *names,
		   const char *arg, char *err, size_t errlen);
/* A flag's value: 1, true, yes, on or 0, false, no, off (NULL: true). */
int cli_parse_flag(const char *what, const char *s, bool *out, char *err,
		   size_t errlen);
/* "0-3,8,10-11" into cpus[] in order; no duplicates; at most max entries. */
int cli_parse_cpulist(const char *s, int *cpus, unsigned max, unsigned *n,
		      char *err, size_t errlen);
/* Every CPU listed is one of the machine's the facts come from: online in
 * the recorded tree $IOSTORM_SYSFS_ROOT names (cli/opts/roots.h), else on
 * the live machine, where it must also be in this process's affinity. */
int cli_cpus_check(const int *cpus, unsigned n, char *err, size_t errlen);

#endif
