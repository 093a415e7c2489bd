/* --temperature-every: see temp.h. */
#include "cli/runner/temp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/report/out.h"
#include "cli/runner/drive.h"
#include "cli/opts/roots.h"
#include "setup/health.h"

static unsigned long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

int cli_temp_start(struct cli_temp_watch *w, const struct cli_opts *o,
		   const struct eng_target *const *t, unsigned n, struct cli_temp *acct)
{
	const struct cli_drive *d;
	unsigned i;

	memset(w, 0, sizeof(*w));
	if (!o->temp_every_ns || !t)
		return 0;
	w->path = calloc(n ? n : 1, sizeof(*w->path));
	if (!w->path)
		return -ENOMEM;
	w->ndev = n;
	w->every_s = (unsigned)(o->temp_every_ns / CLI_NS_PER_S);
	w->t = acct;
	acct->asked = true;
	for (i = 0; i < n; i++) {
		d = cli_drive_find(t[i]->path);
		if (!d || !d->ctrl[0])
			cli_say("--temperature-every: %s is not an NVMe namespace: no temperature in its timeline",
				t[i]->name);
		else if (setup_health_temp_path(cli_roots(), d->ctrl, w->path[i], sizeof(w->path[i])))
			cli_say("--temperature-every: %s's controller %s has no hwmon temperature: none in its timeline",
				t[i]->name, d->ctrl);
	}
	return 0;
}

void cli_temp_second(struct cli_temp_watch *w, unsigned sec, struct cli_timeline *tl)
{
	struct cli_tl_series *sr;
	unsigned long long t0;
	int64_t mc;
	unsigned d;
	int err;

	if (!w->every_s || sec % w->every_s)
		return;
	for (d = 0; d < w->ndev && d < tl->ndev; d++) {
		sr = &tl->dev[d];
		if (!w->path[d][0] || !sr->n)
			continue;
		t0 = mono_ns();
		err = setup_health_temp_read(w->path[d], &mc);
		w->ns += mono_ns() - t0;
		w->t->reads++;
		w->t->read_us = (double)w->ns / 1000.0 / w->t->reads;
		if (err)
			continue;
		sr->s[sr->n - 1].has_temp = true;
		/* hwmon rounds nothing: millidegrees to the nearest degree */
		sr->s[sr->n - 1].temp_c = (int32_t)((mc >= 0 ? mc + 500 : mc - 500) / 1000);
	}
}

void cli_temp_free(struct cli_temp_watch *w)
{
	free(w->path);
	memset(w, 0, sizeof(*w));
}

/* The mean IOPS of the total's seconds that ended with a read (with) and
 * of the others; n of each. */
static void split(const struct cli_report *r, double *with, unsigned *nw, double *without,
		  unsigned *nwo)
{
	const struct cli_tl_series *sr;
	bool read;
	unsigned d, k;

	*with = *without = 0;
	*nw = *nwo = 0;
	for (d = 0; d < r->ndev; d++) {
		sr = &r->dev[d].tl;
		for (k = 0; k < sr->n; k++) {
			if (sr->s[k].dt_s < 0.5)
				continue;	/* the window's remainder */
			read = sr->s[k].has_temp;
			*(read ? with : without) += sr->s[k].iops;
			(*(read ? nw : nwo))++;
		}
	}
	if (*nw)
		*with /= *nw;
	if (*nwo)
		*without /= *nwo;
}

void cli_temp_print(FILE *f, const struct cli_report *r)
{
	double with, without;
	unsigned nw, nwo;

	if (!r->temp.asked || !r->temp.reads)
		return;
	split(r, &with, &nw, &without, &nwo);
	fprintf(f, "temperature: %u reads of the drives' hwmon, %.0f us each (the nvme driver sends "
		"the drive an admin command for each)", r->temp.reads, r->temp.read_us);
	if (nw && nwo)
		fprintf(f, "; seconds that ended with one: %.0f IOPS a device, the others %.0f (%+.1f%%)",
			with, without, without > 0 ? 100.0 * (with - without) / without : 0.0);
	fputc('\n', f);
}

json_t *cli_temp_json(const struct cli_report *r)
{
	double with, without;
	unsigned nw, nwo;

	if (!r->temp.asked)
		return json_null();
	split(r, &with, &nw, &without, &nwo);
	return json_pack("{s:I, s:o, s:o, s:o}", "reads", (json_int_t)r->temp.reads,
			 "read_us", r->temp.reads ? json_real(r->temp.read_us) : json_null(),
			 "iops_read_seconds", nw && nwo ? json_real(with) : json_null(),
			 "iops_other_seconds", nw && nwo ? json_real(without) : json_null());
}
