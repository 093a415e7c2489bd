/* compare --ab N: iostorm runs both setups itself, alternately, over N
 * rounds (round 1: A then B, round 2: B then A, ...: ABBA), each run a
 * report of its own, so that compare can test the rounds' paired
 * differences, in which drift slower than a round cancels. A side is an
 * iostorm command line (`run --qd 8 /dev/nvme0n1`), or another iostorm
 * binary and its command line (`/opt/old/iostorm run ...`). */
#ifndef CLI_COMPARE_AB_H
#define CLI_COMPARE_AB_H

#include <jansson.h>
#include <stdbool.h>

#define CMP_AB_MAX_ROUNDS 32

struct cmp_ab_side {
	char **argv;		/* inside compare's operands, NULL-ended by us */
	unsigned argc;
	const char *exe;	/* a binary named first, or NULL: this one */
	const char *verb;	/* its command */
	bool by_ios, open_loop;	/* how its repeats are bounded (this
				 * binary's sides only) */
	char label[256];	/* its command line as shown, shortened */
};

struct cmp_ab {
	struct cmp_ab_side side[2];	/* A, B */
	char dir[64];			/* the reports' temporary folder */
	unsigned rounds;
};

/* The operands A... -- B... as two sides, each checked as its command
 * would check it (a bad option, a command that measures nothing, --json
 * given) before any IO; unless force, both of one command whose repeats
 * are bounded alike. 0 or -EINVAL, said in one line. */
int cmp_ab_parse(struct cmp_ab *ab, char **ops, unsigned nops, unsigned rounds, bool force);
/* Runs the rounds; r[k] and r[rounds + k] get round k's A and B reports
 * (owned), cmd[] their commands, name[] "A round k" and "B round k" (room
 * for 24 bytes each). 0 or -errno, said. */
int cmp_ab_run(struct cmp_ab *ab, json_t **r, const char **cmd, char (*name)[24]);
/* Removes the temporary folder and its reports. */
void cmp_ab_clean(struct cmp_ab *ab);

#endif
