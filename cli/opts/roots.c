/* The environment's sysfs and procfs roots, read once (cli/opts/roots.h). */
#include "cli/opts/roots.h"

#include <pthread.h>
#include <stdlib.h>

static struct setup_roots roots;
static pthread_once_t roots_once = PTHREAD_ONCE_INIT;

static const char *env_root(const char *name)
{
	const char *s = getenv(name);

	return s && s[0] ? s : NULL;
}

static void roots_read(void)
{
	roots.sysfs = env_root("IOSTORM_SYSFS_ROOT");
	roots.procfs = env_root("IOSTORM_PROCFS_ROOT");
}

const struct setup_roots *cli_roots(void)
{
	pthread_once(&roots_once, roots_read);
	return &roots;
}
