/* Where hosts' tune winners disagree (iostorm-mpi tune): disagree.c. */
#ifndef CLI_TUNE_DISAGREE_H
#define CLI_TUNE_DISAGREE_H

#include <jansson.h>
#include <stdio.h>

/* n hosts, each named names[i], with its report's tune object tunes[i]
 * (NULL or without a winner: a host that has none, left out): every knob
 * whose winning value is not the same on all the others, as
 * [{"knob", "values": [{"value", "hosts": [NAME...], "undecided":
 * [NAME...]}]}] in the knobs' order, values in the hosts' order; undecided:
 * the value's hosts whose winner was not shown better than their default.
 * NULL: out of memory. */
json_t *tune_disagree(const char *const *names, const json_t *const *tunes, size_t n);
/* The words for d, tune_disagree's, of nhosts hosts: nothing for one. */
void tune_say_disagree(FILE *f, const json_t *d, size_t nhosts);

#endif
