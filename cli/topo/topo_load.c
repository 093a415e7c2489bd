/* See topo_load.h. */
#include "cli/topo/topo_load.h"

#include <errno.h>
#include <string.h>

#include "cli/report/out.h"
#include "cli/opts/roots.h"

int cli_topo_load(const char *xml, struct topo **t)
{
	int ret = topo_load(t, xml, cli_roots()->sysfs);

	if (!ret)
		return 0;
	if (!xml)
		cli_say("cannot read this machine's topology: %s", strerror(-ret));
	else if (ret == -EINVAL)
		cli_say("%s: not an lstopo XML export that hwloc 2 can read (lstopo FILE.xml writes one)",
			xml);
	else
		cli_say("%s: %s", xml, strerror(-ret));
	/* only a file's contents are the user's to fix */
	return !xml && ret == -EINVAL ? -EIO : ret;
}
