/* The sink table: see live.h. Only the reporting thread calls in. */
#include "cli/live/live.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli/report/setup_json.h"

static struct {
	const struct cli_live_sink *sink;
	void *ctx;
} sinks[CLI_LIVE_MAX];
static unsigned nsinks, nruns;

int cli_live_add(const struct cli_live_sink *sink, void *ctx)
{
	if (nsinks == CLI_LIVE_MAX)
		return -ENOSPC;
	sinks[nsinks].sink = sink;
	sinks[nsinks].ctx = ctx;
	nsinks++;
	return 0;
}

void cli_live_remove(const struct cli_live_sink *sink, void *ctx)
{
	unsigned i, k;

	for (i = 0; i < nsinks; i++) {
		if (sinks[i].sink != sink || sinks[i].ctx != ctx)
			continue;
		for (k = i; k + 1 < nsinks; k++)
			sinks[k] = sinks[k + 1];
		nsinks--;
		return;
	}
}

void cli_live_start(const struct cli_opts *o)
{
	static bool started;
	struct cli_live_start st = { .o = o };
	json_t *setup = NULL;
	unsigned i;
	bool want = false;

	if (started)
		return;
	started = true;
	for (i = 0; i < nsinks; i++)
		want |= sinks[i].sink->start != NULL;
	if (!want)
		return;
	setup = cli_json_setup((const char *const *)o->targets, o->ntargets);
	st.setup = setup;
	for (i = 0; i < nsinks; i++)
		if (sinks[i].sink->start)
			sinks[i].sink->start(sinks[i].ctx, &st);
	json_decref(setup);
}

void cli_live_window(const struct cli_live_window *w)
{
	unsigned i;

	for (i = 0; i < nsinks; i++)
		if (sinks[i].sink->window)
			sinks[i].sink->window(sinks[i].ctx, w);
}

void cli_live_interval(const struct cli_interval_set *s)
{
	unsigned i;

	for (i = 0; i < nsinks; i++)
		if (sinks[i].sink->interval)
			sinks[i].sink->interval(sinks[i].ctx, s);
}

void cli_live_event(const struct cli_live_event *e)
{
	unsigned i;

	for (i = 0; i < nsinks; i++)
		if (sinks[i].sink->event)
			sinks[i].sink->event(sinks[i].ctx, e);
}

unsigned cli_live_next_run(void)
{
	return nruns++;
}
