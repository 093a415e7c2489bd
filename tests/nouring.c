/* nouring COMMAND [ARG]...: runs COMMAND with io_uring_setup refused with
 * EPERM, as kernel.io_uring_disabled refuses it, but for this process and
 * what it starts only: a seccomp filter, inherited across exec. Setting the
 * sysctl instead would take io_uring from every test running beside this
 * one. Needs no root (no_new_privs allows the filter). Exit 77 where the
 * filter cannot be installed, 127 where COMMAND cannot be run.
 * Built by the test that uses it (tests/t_fallback_once.sh). */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NOURING_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NOURING_ARCH AUDIT_ARCH_AARCH64
#endif

int main(int argc, char **argv)
{
#if defined(NOURING_ARCH) && defined(__NR_io_uring_setup)
	/* another architecture's numbers mean other calls: those pass */
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NOURING_ARCH, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (argc < 2) {
		fprintf(stderr, "usage: nouring COMMAND [ARG]...\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) {
		printf("skip: cannot install a seccomp filter: %s\n", strerror(errno));
		return 77;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "nouring: %s: %s\n", argv[1], strerror(errno));
	return 127;
#else
	(void)argc;
	(void)argv;
	printf("skip: nouring knows no seccomp architecture for this machine\n");
	return 77;
#endif
}
