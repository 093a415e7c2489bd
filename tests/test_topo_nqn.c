/* topo_subsys_nqns on a made-up sysfs: sorted, each NQN once, a subsystem
 * without subsysnqn skipped, no class folder is 0. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/helpers.h"
#include "topo/topo.h"

static void put(const char *root, const char *sub, const char *nqn)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/class/nvme-subsystem/%s", root, sub);
	mkdir(path, 0755);
	if (!nqn)
		return;
	strcat(path, "/subsysnqn");
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", nqn);
		fclose(f);
	}
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int main(void)
{
	char root[] = "/tmp/iostorm-nqn.XXXXXX", path[512], nqn[8][TOPO_NQN_LEN];
	int n;

	if (!mkdtemp(root))
		SKIP("cannot make a temporary folder");
	CHECK(topo_subsys_nqns(root, nqn, 8) == 0);
	snprintf(path, sizeof(path), "%s/class", root);
	mkdir(path, 0755);
	strcat(path, "/nvme-subsystem");
	mkdir(path, 0755);
	put(root, "nvme-subsys1", "nqn.2024-01.org.example:array");
	put(root, "nvme-subsys0", "nqn.2014.08.org.nvmexpress:80868086PHM1");
	put(root, "nvme-subsys2", "nqn.2024-01.org.example:array");
	put(root, "nvme-subsys3", NULL);
	n = topo_subsys_nqns(root, nqn, 8);
	CHECKF(n == 2, "%d", n);
	CHECK(n == 2 && !strcmp(nqn[0], "nqn.2014.08.org.nvmexpress:80868086PHM1"));
	CHECK(n == 2 && !strcmp(nqn[1], "nqn.2024-01.org.example:array"));
	CHECK(topo_subsys_nqns(root, nqn, 1) == 1);
	nftw(root, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	return t_result();
}
