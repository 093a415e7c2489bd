/* An lstopo XML export: read into memory once, then handed to hwloc in a
 * child process before our own hwloc sees it. hwloc 2.9 (Debian 12's)
 * dereferences NULL on some malformed exports instead of refusing them (an
 * object with a cpuset but no complete_cpuset, a Bridge as the root: fixed
 * upstream in 2026, open-mpi/hwloc#783 and #800), and leaks the objects it
 * had built when it refuses one. A file the child could not load is
 * refused before our process hands it to hwloc. Reading the bytes once
 * lets a pipe (`--topology <(ssh host lstopo --of xml)`) be read twice. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hwloc.h>

#include "topo/topo_int.h"

#define XML_MAX (64 << 20)	/* far above any machine's export */
/* CPU time hwloc may take on a file: a 4-socket server's 200 KiB export
 * loads in under 10 ms (50 under ASan or TSan), while a PU without an
 * os_index has hwloc fill 512 MiB bitmaps for most of a second */
#define XML_CPU_US 500000

int topo_xml_read(const char *path, struct topo_xml *x)
{
	size_t len = 0, cap = 0;
	char *buf = NULL, *nb;
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		if (cap - len < 2) {
			cap = cap ? 2 * cap : 1 << 16;
			nb = cap > XML_MAX + 2 ? NULL : realloc(buf, cap);
			if (!nb) {
				ret = cap > XML_MAX + 2 ? -EFBIG : -ENOMEM;
				break;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[len] = '\0';
	x->buf = buf;
	x->len = (int)len + 1;	/* with the '\0', as hwloc's exports count it */
	return 0;
}

/* The child: hwloc loads x as topo_load would. Never returns. */
static void probe_child(const struct topo_xml *x)
{
	static const int deadly[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPROF };
	struct itimerval cpu = { { 0, 0 }, { XML_CPU_US / 1000000, XML_CPU_US % 1000000 } };
	struct rlimit core = { 0, 0 };
	hwloc_topology_t h;
	size_t i;
	int fd;

	/* hwloc crashing or spinning on the file is the answer, not news:
	 * die at once and quietly (not through a handler of the process, a
	 * sanitizer's report; no assertion message of hwloc's: the caller
	 * says it in one line), without a core; SIGPROF ends it after
	 * XML_CPU_US of CPU time */
	for (i = 0; i < sizeof(deadly) / sizeof(deadly[0]); i++)
		signal(deadly[i], SIG_DFL);
	setrlimit(RLIMIT_CORE, &core);
	setitimer(ITIMER_PROF, &cpu, NULL);
	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0)
		dup2(fd, STDERR_FILENO);
	if (hwloc_topology_init(&h))
		_exit(2);
	/* _exit: no atexit handlers, no flush of the parent's stdio buffers,
	 * no leak check of what a refused file left behind */
	if (topo_hwloc_setup(h, x) || hwloc_topology_load(h))
		_exit(1);
	hwloc_topology_destroy(h);
	_exit(0);
}

int topo_xml_probe(const struct topo_xml *x)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		probe_child(x);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
		return -ENOMEM;
	/* refused, or killed by a signal (SIGSEGV, SIGABRT, SIGPROF) */
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EINVAL;
}
