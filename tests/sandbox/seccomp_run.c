/* seccomp_run.c: run a program the way a container runtime's seccomp profile would, with
 * perf_event_open refused.
 *
 *   seccomp_run ENOSYS|EPERM PROGRAM [ARGS...]
 *
 * Installs a classic-BPF seccomp filter (prctl PR_SET_SECCOMP, no library needed) that
 * makes perf_event_open fail with the given errno and lets every other call through, then
 * execs PROGRAM. Exits 77 (SKIPPED) when the kernel has no seccomp filters. */
#define _GNU_SOURCE
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
#define THIS_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define THIS_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define THIS_ARCH AUDIT_ARCH_I386
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define THIS_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__riscv) && __riscv_xlen == 64
#define THIS_ARCH AUDIT_ARCH_RISCV64
#else
#error "seccomp_run: add this architecture's AUDIT_ARCH_ value"
#endif

int main(int argc, char **argv)
{
    if (argc < 3 || (strcmp(argv[1], "ENOSYS") != 0 && strcmp(argv[1], "EPERM") != 0)) {
        fprintf(stderr, "usage: %s ENOSYS|EPERM PROGRAM [ARGS...]\n", argv[0]);
        return 2;
    }
    unsigned err = strcmp(argv[1], "ENOSYS") == 0 ? ENOSYS : EPERM;
    struct sock_filter code[] = {
        /* Another architecture's system call numbers mean other calls: let them be. */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, THIS_ARCH, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {.len = sizeof code / sizeof code[0], .filter = code};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
        printf("SKIPPED: cannot install a seccomp filter here: %s\n", strerror(errno));
        return 77;
    }
    execvp(argv[2], argv + 2);
    fprintf(stderr, "seccomp_run: cannot run %s: %s\n", argv[2], strerror(errno));
    return 127;
}
