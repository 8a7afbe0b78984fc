/* test_validate_kernels: papi_validate's kernels (validate_kernels_*.c) run on this CPU
 * and execute exactly the instructions their tables expect, counted without a PMU: a
 * child runs a kernel under ptrace(PTRACE_SINGLESTEP), one stop per user instruction.
 * The difference of 2n and n iterations cancels the call and the child's exit, as
 * papi_validate's own difference does. Kernels the CPU cannot run are listed as such.
 * The tables' own consistency is checked too (every kernel determines PAPI_TOT_INS; an
 * add/mul kernel's FP_OPS is its precision's OPS), and itlb_pages, whose code is generated
 * at run time, is "not runnable" with the reason where a seccomp filter refuses
 * executable memory as a W^X policy would. The arm64 lane checks the same
 * instruction counts on the emulated PMU (pmu_validate). */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "papi_test.h"
#include "validate_kernels.h"

/* User instructions a child executes from its stop to its exit after k->run(n); -1 when
 * tracing is refused here. */
static long long steps(const struct vk_kernel *k, long n)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
            _exit(3);
        raise(SIGSTOP);
        k->run(n);
        _exit(0);
    }
    int st;
    long long count = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st))
        return -1;
    while (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) == 0 && waitpid(pid, &st, 0) == pid &&
           WIFSTOPPED(st))
        count++;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return -1;
    return count;
}

/* A W^X system: a seccomp filter fails mprotect(PROT_EXEC) with EACCES, as SELinux's
 * execmem denial does. Returns 0 when installed. */
static int refuse_exec(void)
{
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mprotect, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {(unsigned short)(sizeof f / sizeof f[0]), f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0 ? 0 : -1;
}

/* itlb_pages where executable memory is refused: not runnable, naming the refusal (in
 * a child, whose filter dies with it). */
static void check_wx_refusal(const struct vk_kernel *k)
{
    int fd[2];
    char why[256] = "";
    if (pipe(fd) != 0)
        return;
    pid_t pid = fork();
    if (pid == 0) {
        const char *lack = refuse_exec() == 0 ? vk_ready(k) : "(no seccomp here)";
        ssize_t w = write(fd[1], lack ? lack : "ran", strlen(lack ? lack : "ran"));
        _exit(w > 0 ? 0 : 1);
    }
    close(fd[1]);
    ssize_t n = read(fd[0], why, sizeof why - 1);
    close(fd[0]);
    waitpid(pid, NULL, 0);
    why[n > 0 ? n : 0] = '\0';
    printf("%s under a W^X refusal: %s\n", k->name, why);
    if (strcmp(why, "(no seccomp here)") != 0)
        CHECK(strstr(why, "executable memory, which this system refuses") &&
                  strstr(why, "Permission denied"),
              "%s ran or gave no reason where PROT_EXEC is refused: %s", k->name, why);
}

static void check_tables(const struct vk_kernel *k)
{
    /* A memory kernel's cache, TLB and bandwidth rows are of a stated percentage, its
     * instructions and loads exact. */
    CHECK(vk_tol_rel(k, "PAPI_TOT_INS") == 0, "%s: PAPI_TOT_INS not exact", k->name);
    if (vk_determines(k, "PAPI_L1_DCM") || vk_determines(k, "PAPI_TLB_DM"))
        CHECK(vk_tol_rel(k, vk_determines(k, "PAPI_TLB_DM") ? "PAPI_TLB_DM" : "PAPI_L1_DCM") ==
                      VK_CACHE_TOL &&
                  vk_tol_rel(k, "PAPI_LD_INS") == 0,
              "%s: cache rows not of the cache class", k->name);
    if (vk_determines(k, "MEM_BW"))
        CHECK(vk_tol_rel(k, "MEM_BW") == VK_BW_TOL, "%s: bandwidth not of its class", k->name);
    CHECK(vk_determines(k, "PAPI_TOT_INS"), "%s: no PAPI_TOT_INS", k->name);
    double br = vk_expected_per_iter(k, "PAPI_BR_CN");
    CHECK(br >= 1, "%s: its loop's branch is missing (BR_CN %g)", k->name, br);
    if (k->missing() || !vk_determines(k, "PAPI_FP_OPS"))
        return;
    double fp = vk_expected_per_iter(k, "PAPI_FP_OPS");
    double sp = vk_expected_per_iter(k, "PAPI_SP_OPS"), dp = vk_expected_per_iter(k, "PAPI_DP_OPS");
    CHECK(fp == sp + dp && (sp == 0) != (dp == 0), "%s: FP_OPS %g, SP %g, DP %g", k->name, fp, sp,
          dp);
}

int main(void)
{
    int nk, ran = 0;
    const struct vk_kernel *ks = vk_kernels(&nk);
    if (strcmp(vk_isa(), "none") == 0)
        test_skip(
            "papi_validate has no inline-assembly kernels for this ISA (x86-64 and arm64 only)");
    const long n = 200;
    /* Small working sets (L2 64 KiB, L3 128 KiB, 256 pages: 1 to 2 MiB each). */
    struct vk_mem_sizes sizes = {64L << 10, 128L << 10, 256, 0};
    vk_mem_configure(&sizes);
    for (int i = 0; i < nk; i++) /* before any kernel's code is built */
        if (strcmp(ks[i].name, "itlb_pages") == 0)
            check_wx_refusal(&ks[i]);
    for (int i = 0; i < nk; i++) {
        check_tables(&ks[i]);
        const char *lack = vk_ready(&ks[i]);
        if (lack) {
            printf("%-17s not runnable here (needs %s)\n", ks[i].name, lack);
            continue;
        }
        long long a = steps(&ks[i], n), b = steps(&ks[i], 2 * n);
        if (a < 0 || b < 0)
            test_skip("ptrace refused here: PTRACE_SINGLESTEP is not allowed (a sandbox or seccomp "
                      "policy)");
        double want = vk_expected_per_iter(&ks[i], "PAPI_TOT_INS") * (double)n;
        printf("%-17s %lld instructions for %ld iterations, expected %.0f\n", ks[i].name, b - a, n,
               want);
        CHECK((double)(b - a) == want, "%s: %lld instructions, expected %.0f", ks[i].name, b - a,
              want);
        ran++;
    }
    printf("%d of %d kernels ran here (%s)\n", ran, nk, vk_isa());
    CHECK(ran >= 3, "only %d kernels ran", ran);
    return test_done("test_validate_kernels");
}
