/* Where hosts' tune winners disagree (cli/tune/disagree.c): a knob is
 * named only where its values differ, with each value's hosts in their
 * order; a host without a winner is left out; one whose winner was not
 * shown better is named under undecided; and the words say it. */
#include <stdbool.h>
#include <string.h>

#include "cli/tune/disagree.h"
#include "tests/helpers.h"

/* A host's tune object: its winner's qd and placement, undecided or not. */
static json_t *host(const char *qd, const char *place, bool undecided)
{
	return json_pack("{s:{s:{s:s, s:s, s:s}}, s:o}", "winner", "knobs", "completion",
			 "io_uring irq", "qd", qd, "placement", place, "undecided",
			 undecided ? json_pack("[{}, {}]") : json_null());
}

static const char *val(const json_t *d, size_t g, const char *key, size_t i)
{
	const json_t *x = json_array_get(json_object_get(d, "values"), g);

	if (!key)
		return json_string_value(json_object_get(x, "value"));
	return json_string_value(json_array_get(json_object_get(x, key), i));
}

int main(void)
{
	const char *names[] = { "a", "b", "c", "d" };
	const json_t *tunes[4];
	json_t *h[4], *d, *k;
	char buf[1024];
	FILE *f;

	h[0] = host("64", "local", false);
	h[1] = host("128", "local", true);
	h[2] = host("64", "local", false);
	h[3] = json_pack("{s:n, s:n}", "winner", "undecided");	/* interrupted before any */
	for (unsigned i = 0; i < 4; i++)
		tunes[i] = h[i];

	d = tune_disagree(names, tunes, 4);
	CHECK(d && json_array_size(d) == 1);
	k = json_array_get(d, 0);
	CHECK(!strcmp(json_string_value(json_object_get(k, "knob")), "qd"));
	CHECK(json_array_size(json_object_get(k, "values")) == 2);
	CHECK(!strcmp(val(k, 0, NULL, 0), "64") && !strcmp(val(k, 0, "hosts", 0), "a") &&
	      !strcmp(val(k, 0, "hosts", 1), "c") && !val(k, 0, "hosts", 2) &&
	      !val(k, 0, "undecided", 0));
	CHECK(!strcmp(val(k, 1, NULL, 0), "128") && !strcmp(val(k, 1, "hosts", 0), "b") &&
	      !strcmp(val(k, 1, "undecided", 0), "b"));

	f = fmemopen(buf, sizeof(buf), "w");
	tune_say_disagree(f, d, 4);
	fclose(f);
	CHECKF(strstr(buf, "hosts disagree on 1 knob ") &&
	       strstr(buf, "qd              64 on a and c; 128 on b (not shown better than the default on b)"),
	       "%s", buf);
	json_decref(d);

	/* the same winner everywhere: nothing named, and the words say so */
	json_decref(h[1]);
	h[1] = host("64", "local", true);
	tunes[1] = h[1];
	d = tune_disagree(names, tunes, 3);
	CHECK(d && json_array_size(d) == 0);
	f = fmemopen(buf, sizeof(buf), "w");
	tune_say_disagree(f, d, 3);
	fclose(f);
	CHECKF(strstr(buf, "hosts agree"), "%s", buf);
	json_decref(d);

	/* the first host has no winner: the knobs come from the next */
	tunes[0] = h[3];
	d = tune_disagree(names, tunes, 3);
	CHECK(d && json_array_size(d) == 0);
	json_decref(d);
	for (unsigned i = 0; i < 4; i++)
		json_decref(h[i]);
	return t_result();
}
