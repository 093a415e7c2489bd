/* What check passes to its rules from the options, on a recorded machine
 * (tests/fixtures/setup-strict: a drive with APST): a closed-loop run is
 * steady, so APST (the first IO after an idle gap) is not named for it,
 * while check itself and an open loop (--rate) name it; --engine
 * io_uring_cmd makes the run a passthrough one, whose iostats cost
 * nothing; --buffered and --bs reach the readahead rule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/check/check.h"
#include "tests/helpers.h"

static char sysfs[4096], procfs[4096];

static int has_kind(const struct cli_check *c, enum check_kind k)
{
	unsigned i;

	for (i = 0; i < c->nf; i++)
		if (c->f[i].kind == k)
			return 1;
	return 0;
}

/* gather on the fixture for command cmd with opts tweaked by set */
static int gather(const char *cmd, uint64_t rate, enum eng_backend backend, struct cli_check *c)
{
	static const char *const paths[] = { "/dev/nvme0n1" };
	struct cli_opts o;
	int rc;

	cli_opts_init(&o, cmd, ~0u);
	o.rate = rate;
	o.backend = backend;
	rc = cli_check_gather(&o, paths, 1, c);
	CHECKF(rc == 0, "%s: gather %d", cmd, rc);
	return rc;
}

int main(void)
{
	const char *src = getenv("IOSTORM_SRC");
	struct cli_check c;

	snprintf(sysfs, sizeof(sysfs), "%s/tests/fixtures/setup-strict/sys", src && *src ? src : ".");
	snprintf(procfs, sizeof(procfs), "%s/tests/fixtures/setup-strict/proc", src && *src ? src : ".");
	setenv("IOSTORM_SYSFS_ROOT", sysfs, 1);
	setenv("IOSTORM_PROCFS_ROOT", procfs, 1);

	if (!gather("check", 0, ENG_BACKEND_AUTO, &c)) {
		CHECK(has_kind(&c, CHECK_APST));
		CHECK(has_kind(&c, CHECK_IOSTATS));
		CHECK(!c.ask.steady && !c.ask.passthrough);
	}
	cli_check_free(&c);
	/* a closed loop never idles the drive */
	if (!gather("run", 0, ENG_BACKEND_AUTO, &c)) {
		CHECK(c.ask.steady);
		CHECK(!has_kind(&c, CHECK_APST));
	}
	cli_check_free(&c);
	/* an open loop does */
	if (!gather("run", 1000, ENG_BACKEND_AUTO, &c)) {
		CHECK(!c.ask.steady);
		CHECK(has_kind(&c, CHECK_APST));
	}
	cli_check_free(&c);
	/* passthrough: iostats costs nothing on 6.1 */
	if (!gather("check", 0, ENG_BACKEND_URING_CMD, &c)) {
		CHECK(c.ask.passthrough);
		CHECK(!has_kind(&c, CHECK_IOSTATS) && !has_kind(&c, CHECK_IOSTATS_PASSTHROUGH));
	}
	cli_check_free(&c);
	return t_result();
}
