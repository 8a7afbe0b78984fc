/* pmu_ompt_construct_cost (arm64 PMU lane, issue 73 item 7): what the OMPT tool adds to
 * each OpenMP construct per thread, against the runtime alone, in guest instructions (user
 * and kernel, exact under QEMU's icount). This program (gcc -fopenmp: libgomp) runs
 * itself again ("child") under LLVM's libomp (LD_PRELOAD=libomp.so.5) three times:
 *   runtime  OMP_TOOL=disabled: libomp alone, no tool;
 *   off      the tool, PAPI_OMPT_EVENTS= (set, empty): its tables without counts;
 *   hw       the tool, PAPI_OMPT_EVENTS=PAPI_TOT_INS,PAPI_TOT_CYC (papi_run's hardware
 *            defaults, read from user space where the PMU allows it).
 * The child meets N instances of each construct the x86 bench times
 * (bench/ompt_construct_bodies.h: critical, lock, static and dynamic loop, single,
 * barrier, task) inside one parallel region of one thread (num_threads(1): nothing waits
 * for another thread, so the counts do not depend on the scheduling of a single vCPU) and
 * counts its own instructions over them (perf_event_open): user (exact under icount) and
 * kernel (the timer ticks that land in them: a few per construct). Printed per construct
 * and thread for each mode, and what the tool adds; checked on the user instructions:
 * every construct the tool sees costs more with it than without (its callbacks ran), at
 * most ADDED_MAX more, and counters on add at most ADDED_HW to a construct (the tool
 * reads the counters at the region's tasks and join, not at its constructs: what remains
 * is the variable path of the clock's vDSO read, +3 seen once); a static
 * loop, which gcc computes inline (no call into the runtime: the tool cannot see it),
 * costs the same both ways; the kernel's instructions per construct differ by at most
 * KERNEL_NOISE between the modes (no system call in a construct's callbacks). The children
 * run without address randomisation (the tool's tables hash code addresses). SKIPPED
 * where no hardware counts instructions or the guest has no libomp.so.5. */
#include <dlfcn.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../../bench/ompt_construct_bodies.h"
#include "../../run/arm64/lane_sample.h"
#include "pmu_hw.h"
#include "test_perf_open.h"

#define N         1000 /* instances of each construct */
#define OUTDIR    "/tmp/pmu_ompt_construct_cost"
#define ADDED_MAX 2500LL /* the tool's instructions per construct and thread, at most */
#define ADDED_HW \
    40LL                  /* counters on against off, per construct, at most: a counter
                             * read costs hundreds; the clock's vDSO read varies by a few */
#define KERNEL_NOISE 40.0 /* kernel instructions per construct, mode against mode */
#define HW_EVENTS    "PAPI_TOT_INS,PAPI_TOT_CYC"
#define NCONSTRUCT   OMPT_CONSTRUCTS

static const char *const *const construct_name = ompt_construct_name;

/* Each construct's instructions over N instances (user + kernel) on the one thread of
 * its team, after N / 10 of warm-up (the construct's tables made, its slots claimed). */
static int child(void)
{
    int libomp = dlsym(RTLD_DEFAULT, "__kmpc_fork_call") != NULL;
    int fu = test_perf_open_part(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 0);
    int fk = test_perf_open_part(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 1);
    long long user[NCONSTRUCT], kernel[NCONSTRUCT];
    omp_init_lock(&ompt_construct_lock);
    for (int c = 0; c < NCONSTRUCT; c++) {
#pragma omp parallel num_threads(1)
        {
            ompt_construct_body[c](N / 10);
            long long u0 = test_perf_value(fu), k0 = test_perf_value(fk);
            ompt_construct_body[c](N);
            long long k1 = test_perf_value(fk), u1 = test_perf_value(fu);
            user[c] = fu >= 0 ? u1 - u0 : -1;
            kernel[c] = fk >= 0 ? k1 - k0 : -1;
        }
    }
    omp_destroy_lock(&ompt_construct_lock);
    printf("pmu_ompt_construct_cost facts: pid=%ld libomp=%d", (long)getpid(), libomp);
    for (int c = 0; c < NCONSTRUCT; c++)
        printf(" %lld %lld", user[c], kernel[c]);
    printf("\n");
    return 0;
}

struct mode {
    const char *name, *env;
    int libomp;
    long long user[NCONSTRUCT], kernel[NCONSTRUCT];
};

static void run_mode(const char *self, const char *tool, struct mode *m)
{
    char cmd[4 * PATH_MAX], line[1024];
    snprintf(cmd, sizeof cmd,
             "rm -rf " OUTDIR " && %s%s PAPI_OMPT_OUTPUT_DIR=" OUTDIR
             " LD_PRELOAD=libomp.so.5 %s child 2>&1",
             m->env, strcmp(m->name, "runtime") == 0 ? "" : tool, self);
    m->libomp = -1;
    for (int c = 0; c < NCONSTRUCT; c++)
        m->user[c] = m->kernel[c] = -1;
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL, "cannot run %s", cmd);
    if (!p)
        return;
    while (fgets(line, sizeof line, p)) {
        const char *prefix = "pmu_ompt_construct_cost facts: ";
        if (strncmp(line, prefix, strlen(prefix)) != 0) {
            fputs(line, stdout);
            continue;
        }
        long pid;
        int used = 0;
        if (sscanf(line + strlen(prefix), "pid=%ld libomp=%d%n", &pid, &m->libomp, &used) < 2)
            continue;
        const char *q = line + strlen(prefix) + used;
        for (int c = 0; c < NCONSTRUCT; c++) {
            char *end;
            m->user[c] = strtoll(q, &end, 10);
            m->kernel[c] = strtoll(end, &end, 10);
            q = end;
        }
    }
    CHECK(pclose(p) == 0, "%s: the child's exit status", m->name);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0)
        return child();
    lane_need_instructions();

    char tool[PATH_MAX + 64], self[PATH_MAX];
    if (!realpath(argv[0], self))
        snprintf(self, sizeof self, "%s", argv[0]);
    pmu_ompt_tool(self, tool, sizeof tool);
    CHECK(access(tool, R_OK) == 0, "no OMPT tool at %s (scripts/pmu-lane.sh stages it)", tool);
    if (access(tool, R_OK) != 0)
        return test_done("pmu_ompt_construct_cost");

    /* The children without address randomisation: the tool files a construct by a hash of
     * its code address, and another layout can make its probe longer (a collision: 12
     * instructions more at every instance, seen once in CI), so that two runs or two modes
     * would compare different probes, not what counters add. */
    CHECK(personality(ADDR_NO_RANDOMIZE) != -1, "personality(ADDR_NO_RANDOMIZE) failed");
    struct mode m[3] = {
        {.name = "runtime", .env = "OMP_TOOL=disabled "},
        {.name = "off", .env = "PAPI_OMPT_EVENTS= OMP_TOOL_LIBRARIES="},
        {.name = "hw", .env = "PAPI_OMPT_EVENTS=" HW_EVENTS " OMP_TOOL_LIBRARIES="}};
    for (int i = 0; i < 3; i++)
        run_mode(self, tool, &m[i]);
    if (m[0].libomp == 0)
        test_skip("libomp.so.5 (LLVM's OpenMP runtime) is not in the guest: the program ran "
                  "under libgomp, which has no OMPT");
    for (int c = 0; c < NCONSTRUCT; c++) {
        int ok = 1;
        for (int i = 0; i < 3; i++)
            ok &= m[i].user[c] > 0 && m[i].kernel[c] >= 0;
        CHECK(ok, "%s: no instruction count in some mode (user %lld, %lld, %lld)",
              construct_name[c], m[0].user[c], m[1].user[c], m[2].user[c]);
        if (!ok)
            continue;
        double runtime = (double)m[0].user[c] / N, off = (double)m[1].user[c] / N,
               hw = (double)m[2].user[c] / N;
        double kr = (double)m[0].kernel[c] / N, ko = (double)m[1].kernel[c] / N,
               kh = (double)m[2].kernel[c] / N;
        printf("pmu_ompt_construct_cost: %-12s per construct and thread, user: runtime %.1f, "
               "tool %.1f (%+.1f), counters on %.1f (%+.1f past off); kernel %.1f, %.1f, %.1f\n",
               construct_name[c], runtime, off, off - runtime, hw, hw - off, kr, ko, kh);
        if (strcmp(construct_name[c], "loop_static") == 0) {
            CHECK(off == runtime,
                  "%s: inline in a gcc program, yet the tool changed it (%.1f "
                  "against %.1f)",
                  construct_name[c], off, runtime);
        } else {
            CHECK(off > runtime,
                  "%s: the tool adds nothing (%.1f against %.1f): its "
                  "callbacks did not run",
                  construct_name[c], off, runtime);
            CHECK(off - runtime <= ADDED_MAX,
                  "%s: the tool adds %.1f instructions, want at most %lld", construct_name[c],
                  off - runtime, ADDED_MAX);
        }
        CHECK(hw - off <= ADDED_HW && off - hw <= ADDED_HW,
              "%s: counters on change a construct by %+.1f instructions, want at most %lld",
              construct_name[c], hw - off, ADDED_HW);
        CHECK(ko - kr <= KERNEL_NOISE && kr - ko <= KERNEL_NOISE && kh - ko <= KERNEL_NOISE &&
                  ko - kh <= KERNEL_NOISE,
              "%s: kernel instructions per construct %.1f, %.1f, %.1f: the modes differ by "
              "more than %.0f",
              construct_name[c], kr, ko, kh, KERNEL_NOISE);
    }
    return test_done("pmu_ompt_construct_cost");
}
